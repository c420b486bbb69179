"""A grade as data: what lab_check found, before it is printed or written in any format.

Its tests are the records the worker made where each test ran (lab.sandbox.outcome.TestResult),
with the manifest's points, gap and visibility added: every format reads them as they are.

`Grade.as_dict` and `Grade.from_dict` are each other's inverse, so that a grade written as
JSON by one process (a batch grades each submission in its own) is the same grade when read
back by another.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from lab.sandbox.outcome import TestResult

VERSION = "lab_check 1.0"
NOT_ISOLATED = "not isolated: a submission could forge this grade"


@dataclass(frozen=True)
class Grade:
    """Every test of one lesson on one harness file, or, when nothing could be graded, why.
    Made once, when every fact is known, and never changed (dataclasses.replace makes a
    changed copy)."""
    lesson: int | str    # its id: 10, or "B" for a checkpoint
    title: str
    harness: str
    sha256: str = ""
    tests: list[TestResult] = field(default_factory=list)
    problem: str = ""    # set when nothing could be graded: what is wrong, and what to do
    seconds: float = 0.0
    seed: int = 0        # the seed every variation of the tests came from (lab_check --seed)
    isolation: str = ""  # how the student's code was isolated: bubblewrap, uid or none
    layers: list[str] = field(default_factory=list)  # the walls in force (isolation.layers)
    version: str = VERSION

    @classmethod
    def broken(cls, lesson: int | str, title: str, harness: str | os.PathLike[str], why: str, *,
               points: float, sha256: str = "") -> Grade:
        """The Grade of a grading that broke before it finished: one test, "grading", in error,
        whose message `why` says what happened. It stands for every test, so it is worth all
        their `points` and scores none of them. Its exit code is 3."""
        return cls(lesson=lesson, title=title, harness=str(harness), sha256=sha256,
                   tests=[TestResult(test="grading", outcome="error", message=why, points=points)])

    @property
    def isolated(self) -> bool:
        """False when the student's code ran as the grader's own user, with nothing between
        them: such a grade could have been forged."""
        return self.isolation in ("bubblewrap", "uid")

    @property
    def warning(self) -> str:
        """What a reader of the grade must be told about it, or ""."""
        return "" if self.isolated or not self.isolation else NOT_ISOLATED

    @property
    def passed(self) -> int:
        return sum(t.outcome == "passed" for t in self.tests)

    @property
    def errors(self) -> list[TestResult]:
        """The tests the grader itself broke on (outcome "error"): not the student's fault."""
        return [t for t in self.tests if t.outcome == "error"]

    @property
    def failed(self) -> int:
        return sum(t.outcome != "passed" for t in self.tests)

    @property
    def score(self) -> float:
        return sum(t.score for t in self.tests)

    @property
    def max_score(self) -> float:
        return sum(t.points for t in self.tests)

    def as_dict(self) -> dict[str, Any]:
        """Every field, each test's too, plus what is derived from them (score, max_score,
        passed, failed, exit_code; each test's score), as plain JSON-ready data."""
        tests = [dict(t.as_dict(), score=t.score) for t in self.tests]
        return dict(asdict(self), tests=tests, score=self.score, max_score=self.max_score,
                    passed=self.passed, failed=self.failed, exit_code=self.exit_code,
                    isolated=self.isolated, warning=self.warning)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Grade:
        """The Grade that `as_dict` made `data` from; derived keys are recomputed, not read.
        KeyError or TypeError when `data` is not such a dict (no "tests", a field missing)."""
        own = {f.name for f in fields(cls)} - {"tests"}
        return cls(tests=[TestResult.from_dict(t) for t in data["tests"]],
                   **{k: v for k, v in data.items() if k in own})

    @property
    def exit_code(self) -> int:
        """0 every test passed, 1 some failed, 2 nothing could be graded (or nothing was: a
        grading of no test is never a pass), 3 the grader broke."""
        if self.problem or not self.tests:
            return 2
        if self.errors:
            return 3
        return 1 if self.failed else 0
