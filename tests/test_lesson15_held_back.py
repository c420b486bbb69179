"""Lesson 15's score is not handed out as a grade while a submission can forge it.

A graded session of lesson 15 runs its tools in the harness's own event loop, in the student's
process, and works out there what the tests judge (the tools' log, the events, the record).
A submission that wraps the kit's `run_job` and rewrites the log earns points with both gaps
empty. Until the run is driven from the grader's side, the lesson's manifest holds it back:
no edition, no Gradescope zip, and every report says its score is not a grade. The first test
fails the day the forgery stops paying; then the hold can be lifted, with this file."""

import json
import subprocess
import sys

from conftest import PROJECT
from lab.course import lesson_files as lessons, manifest

LESSON = lessons.lesson(15)
FORGERY = '''


# A forgery: the gaps stay empty, and the grader's log hears "yes" wherever a tool gave up
# waiting for the other (the scenarios call harness.lab.run_job, so `lab` is replaced).
import types as _types

_real_lab = lab


def _run_job(harness, model, prompt, *, log=None, **how):
    return _real_lab.run_job(harness, model, prompt,
                             log=lambda line: log(str(line).replace(": gave up ", ": yes ")),
                             **how)


lab = _types.SimpleNamespace(**{k: getattr(_real_lab, k) for k in dir(_real_lab)
                                if not k.startswith("__")})
lab.run_job = _run_job
'''


def graded(path, *args):
    return subprocess.run([sys.executable, "-m", "lab.lab_check", "--harness", str(path),
                           "--lesson", "15", *args], capture_output=True, text=True,
                          cwd=PROJECT, timeout=900)


def test_a_forged_log_still_outscores_the_empty_starter_so_the_lesson_stays_held_back(tmp_path):
    forged = tmp_path / "harness.py"
    forged.write_text(LESSON.starter.read_text(encoding="utf-8") + FORGERY, encoding="utf-8")

    honest = json.loads(graded(LESSON.starter, "--format", "json").stdout)
    cheat = json.loads(graded(forged, "--format", "json").stdout)

    assert honest["score"] == 0, honest
    assert cheat["score"] > honest["score"], (
        "the forgery no longer pays: if the grader now drives lesson 15's run from its own side, "
        "lift [release] ready = false from its manifest and retire this file")
    assert manifest.held_back(LESSON), "lesson 15 is handed out while its score can be forged"


def test_every_report_of_lesson_15_says_its_score_is_not_a_grade():
    run = graded(LESSON.starter)

    assert f"not a grade: lesson 15 is not handed out yet ({manifest.held_back(LESSON)})" \
        in run.stdout, run.stdout


def test_lesson_15_has_no_edition_to_hand_out(tmp_path):
    run = subprocess.run([sys.executable, "-m", "lab.lab_check", "--release", "15", "--output",
                          str(tmp_path / "edition")], capture_output=True, text=True, cwd=PROJECT,
                         timeout=300)

    assert run.returncode == 2 and "lesson 15 is not handed out yet" in run.stderr, run.stderr
    assert not (tmp_path / "edition").exists()
