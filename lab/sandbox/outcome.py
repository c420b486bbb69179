"""One test's result: the one record of it, from the process the test ran in to every report.

    made       in the worker, where the test ran, from pytest's reports of the test's phases
               (lab/worker/plugin.py, `Results`)
    crossing   once, to the host, as JSON in the worker's Report frame (`as_dict` there,
               `from_wire` here: the host trusts nothing the worker's process sends)
    judged     by the host against the lesson's manifest (lab/grader/reconcile.py), which adds
               what the manifest says of the test (`graded`: points, gap, visibility) to the
               same record
    read       by every report and format as it is: the text report, the json, Gradescope,
               GitHub Classroom and JUnit files, a batch's summary and the class at a glance.

It is never re-shaped: added to with dataclasses.replace, written as `as_dict` and read back
with `from_dict`. The outcomes are one vocabulary, `Outcome`, from the test to the report:

    passed     the test's call passed, and no phase of it failed
    failed     a verdict on the student's code (a failure the lesson's tests explain, or a test
               that never finished or never reported)
    error      the grader itself broke: not the student's fault
    skipped    the test skipped itself

Standard library only: the worker, the host and a batch's graders all import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, ClassVar, Literal, get_args

Outcome = Literal["passed", "failed", "error", "skipped"]
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
NEVER_FINISHED = "this test never finished, so it does not count."


@dataclass(frozen=True)
class TestResult:
    """One test's result. `test` is the test function's name; `message` says why when the
    outcome is not "passed"; `printed` is what the student's code printed in it (its start and
    end). `points`, `gap` and `visibility` are the manifest's, added by the host (`graded`)."""
    __test__: ClassVar[bool] = False  # a record, not a class of tests for pytest to collect

    test: str
    outcome: Outcome
    message: str = ""
    printed: str = ""
    seconds: float = 0.0
    points: float = 1.0
    gap: str = ""
    visibility: str = "visible"

    @property
    def title(self) -> str:
        """The test's name as words: test_first_wins -> "first wins"."""
        return self.test.removeprefix("test_").replace("_", " ")

    @property
    def score(self) -> float:
        return self.points if self.outcome == "passed" else 0.0

    def graded(self, meta: Mapping[str, Any]) -> TestResult:
        """This result with what the lesson's manifest says of its test (`meta`, the test's
        table there: points, gap, visibility; their defaults when it says nothing)."""
        return replace(self, points=meta.get("points", 1), gap=meta.get("gap", ""),
                       visibility=meta.get("visibility", "visible"))

    def as_dict(self) -> dict[str, Any]:
        """Every field, as JSON-ready data (the worker's frame, a grade's json)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TestResult:
        """The TestResult `as_dict` made `data` from (other keys, such as a grade's derived
        score, are passed over). KeyError or TypeError when `data` is not such a dict."""
        known = {one.name for one in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})

    @classmethod
    def from_wire(cls, entry: object) -> TestResult:
        """The result one entry of the worker's Report frame stands for, trusting nothing in
        it: an entry that is not an object, or whose name is not text, is a test named "" (a
        name no manifest lists, so the whole report is not believed); an outcome outside the
        vocabulary is a test that never finished, which fails. The manifest's points, gap and
        visibility are the host's to add, so any the entry holds are passed over."""
        data: Mapping[str, Any] = entry if type(entry) is dict else {}
        name, outcome = data.get("test"), data.get("outcome")
        seconds: Any = data.get("seconds")
        known = outcome in OUTCOMES
        return cls(test=name if type(name) is str else "",
                   outcome=outcome if known else "failed",  # type: ignore[arg-type]
                   message=str(data.get("message") or "") if known else NEVER_FINISHED,
                   printed=str(data.get("printed") or ""),
                   seconds=seconds if type(seconds) in (int, float) else 0.0)
