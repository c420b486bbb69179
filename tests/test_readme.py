"""The README's first screen: two set-up commands, and CI runs the second word for word."""

import re

from conftest import PROJECT


def first_commands():
    text = (PROJECT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text, re.DOTALL)[:2]


def test_the_first_command_installs_and_checks_the_students_harness():
    check, _ = first_commands()

    assert "pip install" in check and "lab-check --harness harness.py --lesson 10" in check, check


def test_ci_runs_the_readmes_test_command_word_for_word():
    _, tests = first_commands()

    ci = (PROJECT / ".ci" / "run").read_text().splitlines()
    assert tests in ci, f".ci/run should hold the README's test command as a line:\n{tests}"
    assert "pip install" in tests and "python -m pytest" in tests, tests
