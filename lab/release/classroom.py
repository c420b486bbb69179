"""GitHub Classroom's autograding for a student's edition: .github/workflows/classroom.yml.

GitHub Classroom grades a student's repository with a workflow named "Autograding Tests" whose
last step is the `autograding-grading-reporter` action. The reporter reads, for every runner
named in its `runners` input, an environment variable <RUNNER>_RESULTS holding base64 of a
JSON result:

    {"version": 1, "status": "pass" | "fail" | "error", "max_score": N,
     "tests": [{"name", "status", "score", "message", "test_code", "filename", "line_no",
                "duration"}, ...]}

The points it sends the classroom add up each runner's max_score and its tests' scores; but
its console and its table score a runner as (tests passed / tests) x max_score, and weigh it by
its share of the max (classroom-resources/autograding-grading-reporter, src/notify-classroom.js
and src/helpers/test-helpers.js). With many tests of unequal points in one runner those
disagree with each other and with lab-check (15/22 against 16.13 and 73.33/100). So here each
visible test is a runner of its own (t01, t02, ... in the manifest's order), its max_score the
test's points and its one test scored 0 or all of them: every way of adding up is then the
same sum, the one lab-check prints. One step grades (`lab_check --format classroom`, once,
lab.grader.formats) and a few lines of Python split its result into one output a runner;
when nothing could be graded (the file does not import) every runner fails with the reason.
Only the visible tests are in a student's repository, so only they are graded here; the hidden
ones are graded on Gradescope or with --batch. The install is the lab alone (pip install -e .):
the notebook's packages are an extra (.[notebook]) the grading never pulls in.
"""

import json

from lab.kit.counting import counted

RUNNER = "lab-check"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
RESULT = "classroom.json"


def runner(index):
    """The name of the runner of the index-th visible test (from 1): letters and digits only,
    as the reporter's `runners` input must be."""
    return f"t{index:02d}"


SPLIT = """import base64, json, os
wanted = json.loads({wanted!r})
got = json.load(open("{result}", encoding="utf-8"))
by_code = {{t.get("test_code", "").split()[-1]: t for t in got.get("tests", [])}}
why = got["tests"][0]["message"] if got.get("tests") else "nothing was graded"
with open(os.environ["GITHUB_OUTPUT"], "a", encoding="utf-8") as out:
    for index, (name, points) in enumerate(wanted, 1):
        title = name[len("test_"):].replace("_", " ") if name.startswith("test_") else name
        test = by_code.get(name) or {{"name": title, "status": "fail", "score": 0,
                                      "message": why, "test_code": "lab_check -k " + name,
                                      "filename": "tests.py", "line_no": 0, "duration": 0}}
        passed = test["status"] == "pass"
        test = dict(test, score=points if passed else 0)
        result = {{"version": 1, "status": "pass" if passed else "fail", "max_score": points,
                  "tests": [test]}}
        encoded = base64.b64encode(json.dumps(result).encode()).decode()
        out.write("t%02d=%s\\n" % (index, encoded))
"""


def workflow(facts, tests):
    """The workflow's YAML text for an edition of the lesson `facts` describes; `tests`: the
    visible tests as (function name, points), in the manifest's order."""
    version = facts.python.removeprefix(">=")
    wanted = json.dumps([[name, points] for name, points in tests])
    split = SPLIT.format(wanted=wanted, result=RESULT)
    names = ",".join(runner(i) for i in range(1, len(tests) + 1))
    env = "".join(f'          {runner(i).upper()}_RESULTS: '
                  f'"${{{{ steps.grade.outputs.{runner(i)} }}}}"\n'
                  for i in range(1, len(tests) + 1))
    script = "".join(f"          {line}\n" if line else "\n" for line in split.splitlines())
    visible, worth = counted(facts.visible, "visible test"), counted(facts.visible_points, "point")
    return f"""# GitHub Classroom's autograding: lesson {facts.lesson}'s {visible}, worth {worth}.
# Each test is a runner of its own, so that Classroom, the reporter and lab_check add up the same
# points. One step grades them all (lab_check --format classroom) and hands each runner its test.
# --allow-unisolated: the runner may have no sandbox, and the student's repository holds the
# grader too, so no sandbox could make this grade unforgeable; the result says so.
name: Autograding Tests
"on":
  push:
  workflow_dispatch:
  repository_dispatch:
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  run-autograding-tests:
    runs-on: ubuntu-latest
    if: github.actor != 'github-classroom[bot]'
    steps:
      - name: Checkout code
        uses: actions/checkout@v4
      - name: Set up Python
        uses: actions/setup-python@v5
        with:
          python-version: "{version}"
      - name: Install the lab
        run: python -m pip install -e .
      - name: Grade harness.py
        id: grade
        timeout-minutes: 10
        run: |
          {facts.check} --format classroom --allow-unisolated > {RESULT} || true
          python - <<'SPLIT'
{script}          SPLIT
      - name: Autograding Reporter
        uses: {REPORTER}
        env:
{env}        with:
          runners: {names}
"""
