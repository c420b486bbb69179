"""A Gradescope zip made here installs and grades on Python 3.10, Gradescope's default image's
Python (issue 33).

The zip is built by `lab-check --release 10 --gradescope` with this run's Python (3.11 or newer,
whose newest packages may need it), then set up as Gradescope sets it up in a fresh venv of
Python 3.10 (this machine's image has one under pyenv; tests/autograders.py says how), and
run_autograder grades real submissions there. The pins are read back (lab.release.pins) for
every Python the zip claims, made again from inside that 3.10 environment, and refused where
they would not install.
"""

import importlib.metadata
import shutil
import subprocess
import sys
import zipfile

import pytest
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from lab.course import lesson_files as lessons
from lab.course import manifest
from lab.release import pins
from autograders import assert_gradescope_shape, build, install, open_folder, submit
from venvs import python_of

LESSON = lessons.lesson(10)
TOTAL = sum(meta["points"] for meta in manifest.read(LESSON)["tests"].values())


@pytest.fixture(scope="module")
def python_3_10():
    found = python_of(10)
    assert found, ("no Python 3.10 on this machine (on PATH or under pyenv): the suite proves "
                   "the Gradescope zip on Gradescope's default Python, 3.10; install one")
    return found


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    return build(10, tmp_path_factory.mktemp("gradescope-310") / "lesson10.zip")


@pytest.fixture(scope="module")
def autograder_3_10(archive, python_3_10, tmp_path_factory):
    folder = open_folder()
    try:
        yield install(archive, folder, tmp_path_factory.mktemp("spy-310"), python=python_3_10)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _python_in(autograder):
    """The version of the Python setup.sh chose, as (major, minor)."""
    root, env = autograder
    chosen = (root / "source" / ".python").read_text().strip()
    said = subprocess.run([chosen, "-c", "import sys; print(*sys.version_info[:2])"],
                          capture_output=True, text=True, timeout=60, env=env)
    return tuple(int(n) for n in said.stdout.split())


def test_a_zip_made_on_this_python_installs_and_grades_on_python_3_10(autograder_3_10):
    finished = submit(autograder_3_10, {"harness.py": LESSON.finished.read_text()})
    starter = submit(autograder_3_10, {"harness.py": LESSON.starter.read_text()})

    assert _python_in(autograder_3_10) == (3, 10)
    for ran, results in (finished, starter):
        assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-2000:]
        assert_gradescope_shape(results)
    assert finished[1]["score"] == TOTAL, finished[1]["output"][:1000]
    assert starter[1]["score"] == 0.0 and len(starter[1]["tests"]) == len(finished[1]["tests"])


def test_the_zips_pins_hold_on_every_python_it_claims_and_are_this_pythons_versions_here(
        archive):
    text = zipfile.ZipFile(archive).read("requirements.txt").decode()
    here = f"{sys.version_info[0]}.{sys.version_info[1]}"

    found = pins.problems(text)
    mine = {canonicalize_name(r.name): next(iter(r.specifier)).version
            for r in map(Requirement, text.splitlines())
            if r.marker is None or r.marker.evaluate({"python_version": here,
                                                      "python_full_version": f"{here}.0"})}

    assert found == [], "\n".join(found)
    assert pins.claimed()[0] == "3.10" and here in pins.claimed()
    assert mine and all(importlib.metadata.version(name) == version
                        for name, version in mine.items()), mine


def test_pins_made_inside_python_3_10_name_each_package_once_and_hold_everywhere(
        autograder_3_10):
    root, env = autograder_3_10
    chosen = (root / "source" / ".python").read_text().strip()
    uv = pins._uv()  # the 3.10 image has no uv: this run's, found on PATH
    env = dict(env, PATH=f"{env['PATH']}:{uv.rsplit('/', 1)[0]}")
    code = ("import json\nfrom lab.release import pins\ntext = pins.requirements()\n"
            "print(json.dumps([text, pins.problems(text)]))")

    ran = subprocess.run([chosen, "-c", code], cwd=root / "source", env=env,
                         capture_output=True, text=True, timeout=600)

    assert ran.returncode == 0, ran.stderr[-3000:]
    import json

    text, found = json.loads(ran.stdout)
    names = [canonicalize_name(Requirement(line).name) for line in text.splitlines()
             if Requirement(line).marker is None
             or Requirement(line).marker.evaluate({"python_version": "3.10",
                                                   "python_full_version": "3.10.0"})]
    assert found == [] and pins.problems(text) == [], found
    assert len(names) == len(set(names)) and "tomli" in names and "exceptiongroup" in names, text


def test_pins_of_what_is_installed_here_are_refused_for_a_python_they_leave_out():
    # requirements.txt as the zip used to have it: every package as installed here, no marker
    here = pins.installed_here(pins.dependencies())
    as_installed = "".join(f"{name}=={version}\n" for name, version in sorted(here.items()))
    floors = {name: SpecifierSet(importlib.metadata.metadata(name).get("Requires-Python") or ">=3")
              for name in here}
    # the newest Python floor among them, and the minor version just below it
    strictest = max(here, key=lambda name: min(
        [minor for minor in range(6, 20) if f"3.{minor}.0" in floors[name]], default=0))
    below = f"3.{min(m for m in range(6, 20) if f'3.{m}.0' in floors[strictest]) - 1}"
    twice = as_installed + f"{strictest}=={here[strictest]}\n"

    left_out = pins.problems(as_installed, pythons=[below])
    doubled = pins.problems(twice, pythons=[pins.claimed()[-1]])

    assert any(line.startswith(f"Python {below}: {strictest}=={here[strictest]} needs Python")
               for line in left_out), left_out
    assert any(f"{strictest} is pinned 2 times" in line for line in doubled), doubled
    assert pins.problems(as_installed, pythons=[pins.claimed()[-1]]) == []
