"""A Gradescope autograder zip, set up and run on this machine as Gradescope runs it: shared by
the lessons' (test_gradescope.py) and the checkpoints' (test_gradescope_checkpoint.py) tests.

The zip is unpacked into ROOT/source of a folder laid out like Gradescope's /autograder; setup.sh
runs from there inside a fresh virtual environment first on PATH (made with `python -m venv`,
filled from this machine's package index), with an `apt-get` on PATH that only records that it
was called; run_autograder is copied to ROOT. `submit` then fills ROOT/submission, runs
run_autograder with AUTOGRADER_ROOT=ROOT, and reads ROOT/results/results.json.
"""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import zipfile

from lab.course import manifest
from conftest import PROJECT
from venvs import env_first_on_path, fresh_venv, shell

STATUSES = {"passed", "failed"}
# Gradescope's images run the system's Python, which every user can read; this run's own may
# live where only root can (under /root), and then the sandbox must keep the right to read
# every file, or the student's process could not even start Python.
SYSTEM_PYTHON = "/usr/bin/python3"


def system_python():
    """The system's Python 3.11+ when there is one, else None."""
    try:
        said = subprocess.run([SYSTEM_PYTHON, "-c", "import sys, venv; "
                               "print(sys.version_info >= (3, 11))"], capture_output=True,
                              text=True, timeout=60).stdout
    except OSError:
        return None
    return SYSTEM_PYTHON if said.strip() == "True" else None


def build(lesson_id, path, *more):
    """`lab-check --release LESSON --gradescope path`, asserted to succeed; the zip's path."""
    made = subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--release",
                           str(lesson_id), "--gradescope", str(path), *more],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    return path


def open_folder():
    """A new folder every user may enter, as /autograder and the system's Python are on
    Gradescope (pytest's own temporary folders are root's alone: a student's process could not
    even load Python from there). The caller removes it."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="lab-gradescope-"))
    folder.chmod(0o755)
    return folder


def install(archive, folder, spy, python=None):
    """ROOT (folder/autograder), set up from `archive` as Gradescope sets it up, with `spy` a
    folder for the fake apt-get, in a venv of `python` (the system's 3.11+ when there is one,
    else this run's); (ROOT, the environment run_autograder runs in)."""
    root = folder / "autograder"
    with zipfile.ZipFile(archive) as unpacked:
        unpacked.extractall(root / "source")
    for name in ("setup.sh", "run_autograder"):  # zipfile does not restore modes; unzip does
        os.chmod(root / "source" / name, 0o755)
    bin_folder = fresh_venv(folder / "venv", python=python or system_python())
    (spy / "apt-get").write_text(f"#!/bin/sh\necho \"$@\" >> {spy / 'apt-get.calls'}\n")
    os.chmod(spy / "apt-get", 0o755)
    env = env_first_on_path(bin_folder, AUTOGRADER_ROOT=str(root))
    env["PATH"] = f"{env['PATH']}{os.pathsep}{spy}"
    set_up = shell("./setup.sh", root / "source", env)
    assert set_up.returncode == 0, f"setup.sh failed:\n{set_up.stdout[-2000:]}{set_up.stderr[-2000:]}"
    assert not (spy / "apt-get.calls").exists(), "setup.sh called apt-get though a Python was there"
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")
    return root, env


def submit(autograder, files):
    """Empty ROOT/submission and ROOT/results, put `files` ({relative path: text}) in, run
    run_autograder; (its process, results.json as a dict or None)."""
    root, env = autograder
    for folder in ("submission", "results"):
        shutil.rmtree(root / folder, ignore_errors=True)
        (root / folder).mkdir()
    for name, text in files.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "submission" / name).write_text(text)
    ran = subprocess.run([str(root / "run_autograder")], cwd=root, env=env, text=True,
                         capture_output=True, timeout=600)
    results = root / "results" / "results.json"
    return ran, json.loads(results.read_text()) if results.exists() else None


def assert_gradescope_shape(results):
    """results.json as Gradescope's autograder specification describes it."""
    assert isinstance(results["score"], float)
    assert isinstance(results["output"], str) and results["output"]
    assert results["stdout_visibility"] == "hidden"
    for test in results["tests"]:
        assert {"name", "score", "max_score", "status", "output", "visibility"} <= set(test)
        assert test["status"] in STATUSES and test["visibility"] in manifest.VISIBILITIES
        assert test["score"] == (test["max_score"] if test["status"] == "passed" else 0.0)
    assert results["score"] == sum(t["score"] for t in results["tests"])
