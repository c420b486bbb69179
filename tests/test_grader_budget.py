"""The grader's own CPU budget for a test, reached by a real submission through a real lab-check.

The plugin (lab/worker/plugin.py) runs each test with a budget of the grader's own CPU
time, GRADER_FACTOR times the time limit: what the student hands over can make the grader work
that long and no longer, and then the test fails as the student's, saying why. The submission
here is a checkpoint-B doctor whose cases keep inside every cap of lab.testkit.clinic, yet each costs
the grader well over a second of CPU to run on a harness, and a test runs it twice.

At the default limit (5 s, a budget of 30 s) one test would have to be paid in full before the
budget rings, which the caps keep out of reach in a suite's time; so the grading lowers the
budget the way an instructor does, with lab-check's documented --time-limit (Plan.limits,
protocol.Limits.seconds): 0.3 s an answer, a budget of 1.8 s of the grader's CPU a test. The
student's own code answers in milliseconds, well inside 0.3 s. No hook of the tests' own is
used: it is the same budget at a smaller limit.
"""

import json
import shutil
import subprocess
import sys
import time

from conftest import PROJECT

SUBMISSION = PROJECT / "tests" / "submissions" / "grader_budget" / "doctor_with_costly_cases.py"
TIME_LIMIT = 0.3
BUDGET = 6 * TIME_LIMIT  # plugin.GRADER_FACTOR times the limit, as the message says it


def test_cases_that_cost_the_grader_too_much_fail_as_the_students_with_the_budget_message(
        tmp_path):
    doctor = tmp_path / "doctor.py"
    shutil.copyfile(SUBMISSION, doctor)
    result = tmp_path / "result.json"
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--harness", str(doctor),
         "--lesson", "B", "--time-limit", str(TIME_LIMIT), "-k", "ash_case",
         "--format", "json", "--output", str(result)],
        cwd=tmp_path, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    seconds = time.monotonic() - began
    assert done.returncode == 1, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    grade = json.loads(result.read_text())
    assert not grade.get("problem"), grade.get("problem")
    [test] = grade["tests"]
    assert test["test"] == "test_ash_case_breaks_a_rule_on_ash_and_none_on_the_finished_harness"
    assert test["outcome"] == "failed", test  # the student's failure: never "error" (the grader's)
    assert test["message"].startswith(
        f"judging what your harness handed over took the grader more than {BUDGET:g} s of its "
        "own time in this test"), test["message"]
    # not a hang: the test stopped at its budget, not at the end of all the work it was handed
    assert seconds < 60, seconds
