"""How a grading is to be done, decided once: the isolation it insists on, the limits on the
student's code, the seed, which tests, and what a student may read of the result.

Plain `lab-check`, `lab-check --batch` and Gradescope's autograder (lab/release/autograder.py)
each make one Plan (`from_args` for the first two, `for_gradescope` for the last) and grade
through it (`Plan.grade`), so that the three cannot drift apart: the batch grades each
submission with the very function a student's own `lab-check` uses, in a process of its own.

    isolated      refuse to grade without a sandbox: every instructor's grading (a batch, any
                  --format but text, --require-isolation, Gradescope) unless --allow-unisolated
    limits        protocol.Limits: seconds an answer may take, MiB it may allocate
    seed          the seed of the tests' variations; None: a new one each grading (a batch
                  picks one for the class instead, and records it)
    per_student   a batch's seed for a student is derived from `seed` and the student's name
                  (`seed_for`), rather than the class's one seed for all
    select, tests a -k expression and test files of one's own, as lab-check takes them
    show_hidden   what a student reads (a batch's feedback files, Gradescope's overall output)
                  names and counts the hidden tests too; by default it does not
    seed_shown    the seed was given on a command line, which every user can read where the
                  sandbox has no pid namespace of its own (uid isolation): a grading there
                  refuses it, since a submission that read it would know every test's input

A Plan is plain data (`as_dict`, `from_dict`), so that a batch hands it to the process that
grades one submission without a command line to parse.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from lab.sandbox.protocol import Limits

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson
    from lab.grader.results import Grade
    from lab.grader.supervise import Warm

SEED_MODES = ("class", "per-student")


@dataclass(frozen=True)
class Plan:
    isolated: bool = True
    limits: Limits = field(default_factory=Limits)
    seed: int | None = None
    per_student: bool = False
    select: str | None = None
    tests: tuple[str, ...] = ()
    show_hidden: bool = False
    seed_shown: bool = False

    @property
    def seed_mode(self) -> str:
        return SEED_MODES[self.per_student]

    def seed_for(self, name: str | bytes | None = None) -> int | None:
        """The seed a submission named `name` (a folder's name, str or bytes) is graded with:
        the class's seed, or in per-student mode one derived from it and the name's bytes, so
        that the same class seed replays every student's grading exactly."""
        if self.seed is None or not self.per_student or name is None:
            return self.seed
        raw = os.fsencode(name) if isinstance(name, str) else bytes(name)
        digest = hashlib.sha256(f"lab-check seed {self.seed}\0".encode() + raw).digest()
        return int.from_bytes(digest[:4], "big") % (2**31 - 1) + 1

    def with_class_seed(self) -> Plan:
        """This plan with a seed for the class: its own, or a new one, which the batch records
        so that the class can be graded again exactly."""
        if self.seed is not None:
            return self
        return replace(self, seed=random.SystemRandom().randrange(1, 2**31))

    def grade(self, harness: str | os.PathLike[str], lesson: Lesson,
              name: str | bytes | None = None, warm: Warm | None = None) -> Grade:
        """The Grade of `harness` on `lesson` under this plan; `name` is the submission's, for
        a seed per student; `warm`, a worker started ahead (grade.grade's)."""
        from lab.grader.grade import grade

        return grade(harness, lesson, tests=list(self.tests) or None, select=self.select,
                     limits=self.limits, seed=self.seed_for(name), isolated=self.isolated,
                     seed_shown=self.seed_shown, warm=warm)

    def isolation(self) -> tuple[str | None, str]:
        """(the isolation this machine gives, or None; why a grading under this plan cannot
        go on here, or ""): the check every grading makes before it starts, made once up
        front by a batch and by the autograder, where a failure is the grader's, never the
        student's."""
        from lab.grader import grade
        from lab.worker import isolation

        try:
            kind = isolation.detect()
        except isolation.Unavailable as error:
            return None, f"lab_check cannot grade here: {error}."
        return kind, grade.isolation_problem(kind, required=self.isolated,
                                             seed_shown=self.seed_shown)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Plan:
        data = dict(data)
        data["limits"] = Limits(**data.get("limits", {}))
        data["tests"] = tuple(data.get("tests", ()))
        return cls(**data)


def from_args(args: argparse.Namespace) -> Plan:
    """The Plan of a lab-check command line: one student's grading, or a --batch."""
    fmt = getattr(args, "format", None) or "text"
    instructor = bool(getattr(args, "batch", None)) or args.require_isolation or fmt != "text"
    return Plan(isolated=instructor and not args.allow_unisolated,
                limits=Limits(args.time_limit, args.memory_limit), seed=args.seed,
                per_student=bool(getattr(args, "seed_per_student", False)),
                select=args.select, tests=tuple(str(t) for t in (args.tests or ())),
                show_hidden=bool(getattr(args, "show_hidden", False)),
                seed_shown=bool(getattr(args, "seed_shown", False)))


def for_gradescope(show_hidden: bool = False) -> Plan:
    """The Plan of a Gradescope submission: isolated always, the default limits, a new seed."""
    return Plan(isolated=True, show_hidden=show_hidden)
