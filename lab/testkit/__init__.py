"""The public test kit: everything a lesson's tests.py and scenarios.py may import from the lab.

A lesson's graded tests run in the worker process (real pytest), never in the student's
sandbox. They judge with `expect` and friends, which write a failure in the course's one
notation; they may catch what a student's code raised (`StudentRaised`), cut the power of a
lesson-11 disk (`PowerCut`), keep a record whose repair must not touch it (`Record`), grade a
checkpoint's cases (`Checkup`), see whether what a harness hands out is a copy
(`handed_out`, `expect_a_copy`), and step an async harness's event loop from the grader's side
(`StudentLoop`, lesson 15). Nothing else of the grader is theirs to import: the lab's internals may move,
and this face stays.
"""

from lab.testkit.checkup import Checkup
from lab.testkit.handout import expect_a_copy, handed_out
from lab.testkit.notation import Record
from lab.testkit.verdict import GradeFailure, expect, expect_untouched, objections
from lab.testkit.problems import PowerCut, StudentRaised
from lab.testkit.student_loop import StudentLoop, refuse_forged, unsealed
from lab.kit.wire import shape as wire_shape

__all__ = ["Checkup", "GradeFailure", "PowerCut", "Record", "StudentRaised", "expect",
           "expect_a_copy", "expect_untouched", "handed_out", "objections", "wire_shape"]
# Lesson 15: an async harness stepped from the grader's side, and the desk's refusals.
__all__ += ["StudentLoop", "refuse_forged", "unsealed"]
