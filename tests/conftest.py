"""Shared fixtures for the project's own tests."""

import pathlib
import sys

import pytest

from lab.harnesses import load_harness as _load

PROJECT = pathlib.Path(__file__).resolve().parent.parent
LESSON_10 = PROJECT / "lessons" / "10-poisoned-transcript"

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
