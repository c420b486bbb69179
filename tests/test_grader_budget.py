"""The grader's own CPU budget for a test, reached by a real submission through a real lab-check.

The plugin (lab/worker/plugin.py) runs each test with a budget of the grader's own CPU
time, GRADER_FACTOR times the time limit: what the student hands over can make the grader work
that long and no longer, and then the test fails as the student's, saying why. The submission
here is a checkpoint-B doctor whose cases keep inside every cap of lab.testkit.clinic, yet each is as
costly to run as the caps allow, and a test runs it twice (on the finished harness, then on
the nearly-right one).

How many seconds that costs depends on the machine, and a budget is in seconds: a fixed limit
would let a fast machine finish the work inside the budget, and the test would fail there
alone. So the test counts the work first: it does, in this process, what the grader does for
the test (lab.testkit.clinic's visit of the case on the finished harness, the same code on the same
Python; the test makes two such visits), in CPU seconds (process time, which a loaded machine
does not stretch), and grades with the time limit that makes the budget half of that work,
through lab-check's documented --time-limit (Plan.limits, protocol.Limits.seconds), as an
instructor would lower it. No hook of the tests'
own is used: it is the same budget at a smaller limit. The student's own code answers at once
(it builds the case, a few milliseconds of CPU), far inside that limit on any machine on which
the grader's work takes what it takes here.
"""

import importlib.util
import json
import shutil
import subprocess
import sys
import time

from conftest import PROJECT
from test_untrusted import busy

SUBMISSION = PROJECT / "tests" / "submissions" / "grader_budget" / "doctor_with_costly_cases.py"
GRADER_FACTOR = 6  # plugin.GRADER_FACTOR: the budget is this many time limits
SHARE = 2          # the budget is the work's cost divided by this


def cost_of_the_test_in_cpu_seconds():
    """The grader's CPU seconds for test_ash_case on the costly doctor, on this machine now: it
    visits the case on the finished harness and on ash, and judges both; one visit is timed
    here (the run on the finished harness), and the test costs at least twice that."""
    from lab.testkit import clinic
    from lab.testkit.checkup import Checkup
    from lab.course.lesson_files import lesson

    spec = importlib.util.spec_from_file_location("costly_doctor", SUBMISSION)
    doctor = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(doctor)
    finished = Checkup(lesson("B").folder, base="10").finished()  # loaded, as the worker has it
    case = doctor.case_ash()
    began = time.process_time()
    clinic.visit(finished, case)
    return 2 * (time.process_time() - began)


def test_cases_that_cost_the_grader_too_much_fail_as_the_students_with_the_budget_message(
        tmp_path):
    work = cost_of_the_test_in_cpu_seconds()
    limit = round(work / SHARE / GRADER_FACTOR, 3)
    budget = GRADER_FACTOR * limit
    doctor = tmp_path / "doctor.py"
    shutil.copyfile(SUBMISSION, doctor)
    result = tmp_path / "result.json"
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--harness", str(doctor),
         "--lesson", "B", "--time-limit", str(limit), "-k", "ash_case",
         "--format", "json", "--output", str(result)],
        cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    seconds = time.monotonic() - began
    shown = (f"the work: {work:.2f} CPU-s; limit {limit:g} s; exit {done.returncode}",
             done.stdout[-2000:], done.stderr[-2000:])
    assert done.returncode == 1, shown
    grade = json.loads(result.read_text())
    assert not grade.get("problem"), (grade.get("problem"), shown)
    [test] = grade["tests"]
    assert test["test"] == "test_ash_case_breaks_a_rule_on_ash_and_none_on_the_finished_harness"
    assert test["outcome"] == "failed", test  # the student's failure: never "error" (the grader's)
    assert test["message"].startswith(
        f"judging what your harness handed over took the grader more than {budget:g} s of its "
        "own time in this test"), (test["message"], shown)
    # not a hang: the test stopped at its budget, not at the end of all the work it was handed
    # (a bound in seconds, stretched by how busy the machine is, as test_untrusted's are)
    assert seconds < (60 + 2 * work) * busy(), (seconds, busy(), shown)
