"""The autograder zip for Gradescope's "zip file upload": a lesson's grader without its answer.

    lab-check --release 10 --gradescope lesson10.zip

Gradescope unpacks the zip into /autograder/source, runs setup.sh there once as root while it
builds the image, copies run_autograder to /autograder, and runs it for every submission. At
the zip's root:

    setup.sh          finds a Python 3.10+ (installs one with apt only when there is none),
                      installs the lab's requirements pinned (the versions this zip was made
                      with, on the Python it was made with; on another, where one of them does
                      not install there, the newest that does: lab.release.pins), then the
                      lab itself; makes the grader-only files (lessons/: every
                      test, hidden ones included, and the manifest) unreadable to other users
    run_autograder    grades $AUTOGRADER_ROOT/submission (lab.release.autograder)
    requirements.txt  the pins, one file for every Python from 3.10 on (environment markers)
    pyproject.toml, lab/, damaged.py ...     the lab, as the edition has it
    lessons/NN-name/  tests.py (all of them), manifest.toml, scenarios.py, starter.py, hints

Never in it: the lesson's finished.py, right/, wrong/. On Gradescope the grader runs as root
and the student's code as a user of its own (lab.worker.isolation), which can read nothing
under lessons/: a submission that goes looking finds the lab, which holds no answer, and
nothing else.

A checkpoint (A, B) grades a student's doctor file against harnesses that are an earlier lab's
finished harness with one idea taken out (lab.testkit.checkup, lab.notebook.harnesses): its tests need what its
manifest's [release] grader_only names (harnesses/, the walkthrough's patch) and the base lab's
finished.py, which the grader patches. Its zip carries them under lessons/ with the tests, where
setup.sh makes them root's alone like the hidden tests (`grader_kept` lists them, for the leak
check), and lab/course/starter.py, which fills the base harness's gaps. The base lab's folder holds
that finished.py and a tests.py with no test in it, so that the course still finds the lab
(lab.course.order: a lab is written once its folder has a tests.py); none of its own tests.
"""

import pathlib
import shlex
import shutil
import tempfile
import zipfile

from lab.course import order as course, lesson_files as lessons
from lab.grader import module_run
from lab.course import manifest
from lab.release import edition, pins, readme

LESSON_FILES = ("tests.py", "manifest.toml", "scenarios.py", "starter.py", "hints.toml")
SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, in the folder the zip was unpacked into (ROOT/source).
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="${AUTOGRADER_ROOT:-$(dirname "$SOURCE")}"

# A Python 3.10 or newer: the one on PATH when there is one (Gradescope's default image, Ubuntu
# 22.04, has 3.10), else, on an older image only, Ubuntu's 3.11 in a venv.
new_enough() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; }
PY=""
for candidate in python3 python3.13 python3.12 python3.11 python3.10; do
    if command -v "$candidate" >/dev/null && new_enough "$candidate"; then
        PY="$(command -v "$candidate")"
        break
    fi
done
if [ -z "$PY" ]; then
    apt-get update
    apt-get install -y --no-install-recommends python3.11 python3.11-venv
    python3.11 -m venv "$ROOT/venv"
    PY="$ROOT/venv/bin/python"
elif ! "$PY" -m pip --version >/dev/null 2>&1; then
    apt-get update  # a Python without pip: Ubuntu ships pip apart
    apt-get install -y --no-install-recommends python3-pip
fi
echo "$PY" > "$SOURCE/.python"

# The lab, with its requirements pinned for every Python the zip claims (markers choose).
export PIP_BREAK_SYSTEM_PACKAGES=1 PIP_DISABLE_PIP_VERSION_CHECK=1
"$PY" -m pip install -r "$SOURCE/requirements.txt"
"$PY" -m pip install --no-deps -e "$SOURCE"

# The tests (hidden ones too) and the manifest are the grader's alone: the student's code runs
# as another user, who must not read them. Their folders stay open (to list, not to change):
# pytest puts a test's folder on sys.path, and a sandbox that finds a folder on sys.path closed
# to its student's user keeps the right to read every file, so that Python can still start.
if [ "$(id -u)" = 0 ]; then
    chown -R root:root "$SOURCE/lessons"
fi
find "$SOURCE/lessons" -type d -exec chmod 755 {} +
find "$SOURCE/lessons" -type f -exec chmod 600 {} +
# Without namespaces (a Docker-based platform), the student's code runs as a user of its own,
# which must reach nothing of the project (its history and venv hold the answers too): the
# whole folder is closed to other users, and the grader refuses to grade while it is not.
chmod o-rwx "$SOURCE"
"""
RUN = """#!/usr/bin/env bash
# Gradescope runs this for each submission: grade ROOT/submission, write ROOT/results.
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
SOURCE="$ROOT/source"
PY="$(cat "$SOURCE/.python" 2>/dev/null || command -v python3)"
cd "$SOURCE" && exec """ + module_run.shell("lab.release.autograder") + """ --lesson {lesson} --root "$ROOT"{more}
"""


def build(lesson, zip_path, show_hidden=False, late_policy=None):
    """Write the autograder zip of `lesson` to `zip_path`; returns its path. `show_hidden`:
    the overall output every student sees names and counts the hidden tests too; `late_policy`
    (a LatePolicy spec, or None): what a submission loses when it comes after its due date,
    the student's own (an extension) where Gradescope's metadata gives one (autograder.late)."""
    zip_path = pathlib.Path(zip_path)
    with tempfile.TemporaryDirectory(prefix="lab-release-gradescope-") as scratch:
        folder = pathlib.Path(scratch)
        (folder / "setup.sh").write_text(SETUP)
        (folder / "run_autograder").write_text(RUN.format(lesson=lesson.number,
                                                         more=(" --show-hidden" if show_hidden
                                                               else "") + (
            f" --late-policy {shlex.quote(late_policy)}" if late_policy else "")))
        (folder / "requirements.txt").write_text(requirements())
        edition.copy_lab(folder / "lab")
        shutil.copytree(lessons.PROJECT / "lab" / "release", folder / "lab" / "release",
                        ignore=edition.IGNORED)  # run_autograder's entry point lives there
        for module in edition.given_modules():
            shutil.copyfile(module, folder / module.name)
        target = folder / "lessons" / lesson.folder.name
        target.mkdir(parents=True)
        shutil.copyfile(lessons.PROJECT / "lessons" / "course.toml",  # which folder is which lab
                        folder / "lessons" / "course.toml")
        for name in LESSON_FILES:
            if (lesson.folder / name).is_file():
                shutil.copyfile(lesson.folder / name, target / name)
        if edition.grader_only(lesson):
            _carry_grader_files(lesson, folder)
        facts = readme.Facts(lesson=lesson.number, title=manifest.title(lesson), visible=0,
                             visible_points=0, hidden=0, hidden_points=0, has_notebook=False,
                             python=edition.requires_python())
        (folder / "pyproject.toml").write_text(
            readme.pyproject(facts, edition.lab_packages(folder / "lab"), with_readme=False))
        zip_path.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(folder.rglob("*")):
                if path.is_file():
                    name = path.relative_to(folder).as_posix()
                    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    executable = name in ("setup.sh", "run_autograder")
                    info.external_attr = (0o755 if executable else 0o644) << 16
                    archive.writestr(info, path.read_bytes())
    return zip_path


BASE_TESTS = '''"""No tests: this autograder grades checkpoint {checkpoint}, whose harnesses are this lab's
finished harness (finished.py, beside this file) with one idea taken out. The folder is here
for that file alone; the lab's own tests are in its own autograder."""
'''


def base_lab(lesson):
    """The lab whose finished harness a checkpoint's harnesses are patched from: the one it
    builds on (lessons/course.toml), as a Lesson."""
    return lessons.lesson(course.find(lesson.number).builds_on)


def grader_kept(lesson):
    """The paths in `lesson`'s zip that hold an answer and are the grader's alone (setup.sh
    makes every file under lessons/ unreadable to other users): for a checkpoint, what its
    manifest's grader_only names and the base lab's finished.py; () for a lesson."""
    if not edition.grader_only(lesson):
        return ()
    base = base_lab(lesson)
    return tuple(pathlib.PurePosixPath("lessons", lesson.folder.name, name)
                 for name in edition.grader_only(lesson)) + (
        pathlib.PurePosixPath("lessons", base.folder.name, "finished.py"),)


def _carry_grader_files(lesson, folder):
    """Into the zip's `folder`, what a checkpoint's tests need beyond its own files: its
    grader-only files, its ideas, the base lab's finished harness (with a tests.py of no tests,
    so the course counts that lab written), and the lab's starter.py, whose `solve` fills that
    harness's gaps before a patch is applied."""
    target = folder / "lessons" / lesson.folder.name
    for name in edition.grader_only(lesson) + ["ideas.toml"]:
        source = lesson.folder / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=edition.IGNORED)
        elif source.is_file():
            shutil.copyfile(source, target / name)
    base = base_lab(lesson)
    (folder / "lessons" / base.folder.name).mkdir()
    shutil.copyfile(base.finished, folder / "lessons" / base.folder.name / "finished.py")
    (folder / "lessons" / base.folder.name / "tests.py").write_text(
        BASE_TESTS.format(checkpoint=lesson.number))
    shutil.copyfile(lessons.PROJECT / "lab" / "course" / "starter.py",
                    folder / "lab" / "course" / "starter.py")


def requirements():
    """requirements.txt: the lab's dependencies and theirs, pinned so that one file installs on
    every Python the zip claims (lab.release.pins)."""
    return pins.requirements()
