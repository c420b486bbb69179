"""Attacks on what issue 21 added last: --watch's two kept workers side by side under
bubblewrap (supervise.Warm, workers_for, merged; the plugin's Job.share), the zygote's walls
made once (inside/zygote.py Walls, landlock.Ruleset), and the plain answer's skipped check
for Remotes (worker/student.py). Each submission is graded for real and held to the verdict
its own code deserves. The submissions are in tests/submissions/final3/; a file there whose
first line is "# base: finished" is lesson 10's finished file with the rest appended.
/work/notes/attack_final3.md has the findings and what held."""

import os

import pytest

from conftest import PROJECT
from test_attacks_final2 import based

FINAL3 = PROJECT / "tests" / "submissions" / "final3"
SEED = 1
# two tests for each worker: enough to have a test of each sandbox alive at the same moment
SOME = "orphan or late_result or first_of_two or results_come_back"


def test_the_two_sandboxes_of_watch_cannot_see_each_others_tests(tmp_path):
    """locks_a_file_both_sandboxes_see.py: each test's process takes an exclusive flock on
    os.py and fails its import if it is held. Within one sandbox the last test's process is
    gone before the next one starts, so a grading of its own passes every test; under two
    kept workers a test's process of one sandbox would find the lock of the other's, and
    fail. Locks (and watches) are refused to every test's process (inside/refusals.py)."""
    from lab.course import lesson_files as lessons
    from lab.worker import isolation
    from lab.grader.grade import grade
    from lab.grader.supervise import Warm

    if isolation.detect() != "bubblewrap" or len(os.sched_getaffinity(0)) < 2:
        pytest.fail("this machine should give bubblewrap and two cores (the suite needs both)")
    lesson = lessons.lesson(10)
    harness = tmp_path / "harness.py"
    harness.write_text(based((FINAL3 / "locks_a_file_both_sandboxes_see.py").read_text()))
    alone = grade(harness, lesson, seed=SEED, select=SOME)
    assert len(alone.tests) == 4
    assert [t.outcome for t in alone.tests] == ["passed"] * 4, [t.message for t in alone.tests]
    with Warm() as warm:
        kept = grade(harness, lesson, seed=SEED, select=SOME, warm=warm)
        assert len(warm.pids()) == 2, warm.pids()
    # before a fix: either the two import checks met (the merged frame is the Problem) or
    # a test's process met the other sandbox's (that test fails its import)
    assert kept.problem == "", kept.problem
    assert [(t.test, t.outcome) for t in kept.tests] == \
        [(t.test, t.outcome) for t in alone.tests], [t.message for t in kept.tests]
