"""GitHub Classroom's autograding for a student's edition: .github/workflows/classroom.yml.

GitHub Classroom grades a student's repository with a workflow named "Autograding Tests" whose
last step is the `autograding-grading-reporter` action. The reporter reads, for every runner
named in its `runners` input, an environment variable <RUNNER>_RESULTS holding base64 of a
JSON result:

    {"version": 1, "status": "pass" | "fail" | "error", "max_score": N,
     "tests": [{"name", "status", "score", "message", "test_code", "filename", "line_no",
                "duration"}, ...]}

and adds up each runner's max_score and its tests' scores into the points it reports to the
classroom. GitHub's own command grader produces one such result a command, one test in it. We
produce it in one step instead, with a test per graded test and the manifest's points:
`lab_check --format classroom` (lab.grading.formats) prints exactly that JSON, and the step
hands it on, base64-encoded, as its output `result`. Only the visible tests are in a student's
repository, so only they are graded here; the hidden ones are graded on Gradescope or with
--batch.
"""

RUNNER = "lab-check"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"


def workflow(facts):
    """The workflow's YAML text for an edition of the lesson `facts` describes."""
    version = facts.python.removeprefix(">=")
    return f"""# GitHub Classroom's autograding: lesson {facts.lesson}'s {facts.visible} visible tests, worth \
{facts.visible_points:g} points.
# One step grades them all (lab_check --format classroom) and hands the reporter its result.
# --allow-unisolated: the runner may have no sandbox, and the student's repository holds the
# grader too, so no sandbox could make this grade unforgeable; the result says so.
name: Autograding Tests
"on":
  - push
  - workflow_dispatch
  - repository_dispatch
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
        id: {RUNNER}
        timeout-minutes: 10
        run: echo "result=$({facts.check} --format classroom --allow-unisolated | base64 -w0)" >> "$GITHUB_OUTPUT"
      - name: Autograding Reporter
        uses: {REPORTER}
        env:
          {RUNNER.upper()}_RESULTS: "${{{{ steps.{RUNNER}.outputs.result }}}}"
        with:
          runners: {RUNNER}
"""
