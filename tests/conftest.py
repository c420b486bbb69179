"""Shared fixtures for the project's own tests, and the suite's one rule about the machine:
a run leaves nothing in /tmp.

The run's temporary files all go in one folder of its own (TMPDIR, set here before any test or
xdist worker starts, and inherited by every lab_check the tests start), so that what this run
made can be told from what anything else on the machine makes meanwhile. At the end of the
session that folder must hold nothing but pytest's own tmp_path folders and the notebooks the
suite executed (kept for the run by tests/notebooks.py): anything else is named in a failure
(with what it weighs), and the folder is removed either way.
"""

import os
import pathlib
import sys
import tempfile

import pytest

from lab.course.loading import load_harness as _load

PROJECT = pathlib.Path(__file__).resolve().parent.parent
LESSON_10 = PROJECT / "lessons" / "10-poisoned-transcript"
# What a copy of the project leaves out: history, environments, the tools' caches (written to
# while the suite runs: mypy's by tests/test_types.py) and the site's npm packages.
CACHES = (".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache", ".mypy_cache",
          "node_modules")

if str(PROJECT) not in sys.path:  # `damaged` lives at the top of the project
    sys.path.insert(0, str(PROJECT))


def load_harness(path, name="harness_under_test"):
    """A fresh module object for the harness file at `path`, so a test may reassign its
    globals (as the lesson does with context_for_model) without touching any other test."""
    return _load(path, name=name)


@pytest.fixture
def finished():
    return load_harness(LESSON_10 / "finished.py")


@pytest.fixture
def starter():
    return load_harness(LESSON_10 / "starter.py")


# -- nothing left behind -----------------------------------------------------------------------

RUN_TMP = "LAB_SUITE_TMP"  # names the run's folder, for the xdist workers that inherit it
PYTESTS_OWN = "pytest-of-"  # tmp_path's folders (pytest-of-<user>/pytest-N), removed with it
KEPT = ("lab-suite-notebooks",)  # what the suite itself keeps for the run (tests/notebooks.py)


def pytest_configure(config):
    folder = os.environ.get(RUN_TMP)
    if folder is None:  # the controller (or a run without xdist): the folder is made here
        folder = tempfile.mkdtemp(prefix="lab-suite-")
        os.chmod(folder, 0o1777)  # as /tmp is: a plain user's lab_check works in it too
        os.environ[RUN_TMP] = folder
        config._lab_suite_tmp = folder
    os.environ["TMPDIR"] = folder
    tempfile.tempdir = folder


@pytest.hookimpl(trylast=True)  # in the controller, after xdist has waited for its workers
def pytest_sessionfinish(session):
    import plain_user

    plain_user.remove_all()  # in every process that made one, workers included
    folder = getattr(session.config, "_lab_suite_tmp", None)
    if folder is None:
        return
    left = sorted(name for name in os.listdir(folder)
                  if not name.startswith(PYTESTS_OWN) and name not in KEPT)
    if left:
        said = ", ".join(f"{name} ({_weight(os.path.join(folder, name))})" for name in left)
        message = (f"the run left {len(left)} things in /tmp (its folder {folder}, removed "
                   f"now): {said}. Whatever makes them must remove them, even when it fails.")
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"LEFT BEHIND: {message}", red=True, bold=True)
        else:
            print(message, file=sys.stderr)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config):
    folder = getattr(config, "_lab_suite_tmp", None)
    if folder is not None:
        from lab.worker.tidy import remove_tree

        remove_tree(folder)


def _weight(path):
    """How much is under `path`, as "12.3 MB"."""
    total = 0
    for root, _, files in os.walk(path):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_size
            except OSError:
                pass
    return f"{total / 1e6:.1f} MB"
