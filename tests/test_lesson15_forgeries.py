"""Lesson 15's grade cannot be forged from the student's process: a submission whose gaps are
empty earns what the empty starter earns, however it rewrites the lab in its own process.

Lesson 15's tools and event loop must run in the student's process, with the harness. Once,
the code that ran the job there also worked out what the tests judge (the tools' log, the
events, the record) and handed it to the grader, and a submission that rewrote it scored 21
of 24 with both gaps empty; then the tools reported to the grader's desk from that process,
and a submission that reported a concurrent run's story scored 24 of 24. Now the grader
steps the run from its own side and asks the harness for its record itself, and every tool's
life is run by the desk, on the grader's side: the harness's process only resumes the
awaitable a tool hands back, which asks the desk what to do (lab/kit/desk.py,
lab/testkit/student_loop.py, docs/isolation.md). Each forgery in tests/submissions/lesson15/
is the starter with an attack appended, graded by a real lab-check:

- rewrites_the_tools_log.py: wraps the kit's run_job to turn "gave up" into "yes" (the first
  attack, when the scenarios called it through the harness's `lab`);
- forges_the_job.py: replaces run_job with one that runs the starter gently and rewrites every
  fact it reports (the attack that scored 21 of 24);
- acts_out_a_meeting.py: replaces the tools' awaitable, in its own process, with one that
  answers at once without asking the desk, so that the record holds every result in order;
- records_results_before_its_tools_give_them.py: hands the harness each step's result, made
  up from its arguments, before the tool has run, and resumes the tools' awaitables later, in
  turn, so that the desk sees them meet (it scored 10 of 24 before every result the desk
  hands out carried a mark of its own, checked on the grader's side: lab.testkit.unsealed);
- records_a_placeholder_then_the_result.py: records and announces a placeholder for a step
  whose tool has not finished, and writes the tool's real, sealed result into that message
  later (it scored 10 of 24 before a step's result had to be the desk's or INTERRUPTED, and
  events were copied as they were handed out).

The last is graded in every mode this machine has (test_untrusted.py's), as root, as a plain
user and without namespaces.
"""

import json
import pathlib
import shutil
import tempfile

import pytest

import plain_user
from conftest import CACHES, PROJECT
from test_untrusted import MODES, SEED, lab_check, submission_folder
from lab.course import lesson_files as lessons
from lab.worker.tidy import remove_tree

LESSON = lessons.lesson(15)
FORGERIES = PROJECT / "tests" / "submissions" / "lesson15"
# with no sandbox, an instructor's format is refused unless told (the result says the grade
# could be forged by other means: reading the grader's files; the desk still refuses these)
UNISOLATED = {"none": ("--allow-unisolated",)}


def graded(text, parent, mode=MODES[0], project=PROJECT, python=None):
    """lab-check's JSON result for a harness.py holding `text`, graded as `mode` says."""
    folder = submission_folder(parent, text)
    ran = lab_check(folder, "--harness", str(folder / "harness.py"), "--lesson", "15",
                    "--format", "json", *UNISOLATED.get(mode.isolation, ()), timeout=900,
                    project=project, who=mode.who,
                    env={**mode.env, "LAB_SEED": str(SEED)}, python=python)
    assert ran.stdout.strip(), f"exit {ran.returncode}: {ran.stderr[-2000:]}"
    return json.loads(ran.stdout)


def forgery(name):
    """The starter with the attack `name` appended: its gaps as empty as the starter's."""
    return (LESSON.starter.read_text(encoding="utf-8") + "\n\n"
            + (FORGERIES / f"{name}.py").read_text(encoding="utf-8"))


def test_no_forgery_with_empty_gaps_earns_more_than_the_starter(tmp_path):
    honest = graded(LESSON.starter.read_text(encoding="utf-8"), tmp_path / "starter")
    names = sorted(path.stem for path in FORGERIES.glob("*.py"))

    scores = {name: graded(forgery(name), tmp_path / name) for name in names}

    assert names == ["acts_out_a_meeting", "forges_the_job",
                     "records_a_placeholder_then_the_result",
                     "records_results_before_its_tools_give_them", "rewrites_the_tools_log"]
    assert honest["max_score"] == 24 and honest["passed"] == 0, honest
    for name, result in scores.items():
        assert (result["score"], result["passed"]) == (honest["score"], 0), (name, result)


@pytest.fixture(scope="module")
def closed_project():
    """(project, python) for a grading without namespaces as root: a copy of the project
    closed to others and a Python any user may read (see test_untrusted.py)."""
    parent = pathlib.Path(tempfile.mkdtemp(prefix="lab-forgery-"))
    parent.chmod(0o755)
    try:
        project = parent / "project"
        shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns(*CACHES))
        python = None if plain_user.available() else plain_user.environment(project)[0]
        project.chmod(0o750)
        yield project, python
    finally:
        remove_tree(parent)


@pytest.mark.parametrize("mode", MODES[1:], ids=lambda mode: mode.name)
def test_acting_out_a_meeting_earns_nothing_in_any_mode(mode, request):
    why = mode.unavailable()
    if why:
        pytest.skip(f"no grading {mode.name} here: {why}")
    project, python = (request.getfixturevalue("closed_project") if mode.isolation == "uid"
                       else (PROJECT, None))
    parent = pathlib.Path(tempfile.mkdtemp(prefix="lab-forgery-student-"))
    parent.chmod(0o755)  # a plain user grades from in here
    try:
        result = graded(forgery("acts_out_a_meeting"), parent / "student", mode, project,
                        python)
    finally:
        remove_tree(parent)

    assert result["max_score"] == 24, json.dumps(result)[:3000]
    assert result["score"] == 0 and result["passed"] == 0, json.dumps(result)[:3000]
