"""The pytest plugin behind lab_check: the `student` fixture, limits, and a results file.

lab_check runs the lesson's tests.py under real pytest with `-p lab.grading.plugin`:

    --harness FILE        the student's harness.py (required)
    --time-limit SECONDS  for each test, the student's import included
    --memory-limit MB     what the student's code may allocate in each test
    --lab-results FILE    where to write the outcome of every test, as JSON

A test that fails because of the student's code carries the explanation of a GradeFailure or
a StudentProblem. Anything else that goes wrong is the grader's own fault, and says so.
"""

import json
import pathlib
import time

import pytest
from hypothesis import HealthCheck, settings

from . import manifest
from .problems import StudentProblem
from .sandbox import Limits
from .student import Student
from .verdict import GradeFailure

# Fixed examples, no database written anywhere, no deadline: a grade must not depend on luck,
# leave files behind, or on how busy the machine is.
settings.register_profile(
    "lab", derandomize=True, database=None, deadline=None, print_blob=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

JUDGED = (GradeFailure, StudentProblem)


def pytest_addoption(parser):
    group = parser.getgroup("lab", "grading a student's harness")
    group.addoption("--harness", help="the student's harness.py")
    group.addoption("--time-limit", type=float, default=Limits.seconds,
                    help="seconds each test may take, import included")
    group.addoption("--memory-limit", type=int, default=Limits.memory_mb,
                    help="MiB the student's code may allocate in each test")
    group.addoption("--lab-results", help="write every test's outcome here, as JSON")


def pytest_configure(config):
    settings.load_profile("lab")
    config.pluginmanager.register(Outcomes(config.option.lab_results), "lab-outcomes")


@pytest.fixture
def student(request):
    """The student's harness, in a child process of its own for this test."""
    options = request.config.option
    if not options.harness:
        raise pytest.UsageError("the graded tests need --harness FILE (use lab_check)")
    folder = pathlib.Path(request.node.path).parent
    scenarios = folder / "scenarios.py"
    gaps = manifest.read_file(folder / "manifest.toml").get("gaps", {})
    you = Student(options.harness, limits=Limits(options.time_limit, options.memory_limit),
                  scenarios_file=scenarios if scenarios.exists() else None, gaps=gaps)
    try:
        yield you
    finally:
        you.close()
        if you.printed:
            request.node.user_properties.append(("printed", you.printed))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.excinfo is not None and report.when in ("setup", "call"):
        report.lab_message, report.lab_judged = _explain(call.excinfo.value)
    return report


def _explain(error):
    """(message, judged): the sentence to show, and whether it is a verdict on the student."""
    for inner in _flatten(error):
        if isinstance(inner, JUDGED):
            return str(inner), True
    return (f"the grader itself failed ({type(error).__name__}: {error}). This is a bug in the "
            "lab, not in your harness: please report it."), False


def _flatten(error):
    if isinstance(error, BaseExceptionGroup):
        for inner in error.exceptions:
            yield from _flatten(inner)
    else:
        yield error


class Outcomes:
    """Collects each test's outcome as it is reported, and writes them all out at the end."""

    def __init__(self, path):
        self.path, self.tests, self.started = path, {}, time.monotonic()

    def pytest_runtest_logreport(self, report):
        entry = self.tests.setdefault(report.nodeid, {
            "nodeid": report.nodeid, "outcome": "passed", "message": "", "judged": True,
            "seconds": 0.0, "printed": ""})
        entry["seconds"] += report.duration
        entry["printed"] = dict(report.user_properties).get("printed", entry["printed"])
        if report.failed and entry["outcome"] == "passed":
            entry["outcome"] = "failed"
            entry["message"] = getattr(report, "lab_message", None) or report.longreprtext
            entry["judged"] = getattr(report, "lab_judged", False)
        elif report.skipped and report.when != "teardown":
            entry["outcome"], entry["message"] = "skipped", str(report.longrepr[-1])

    def pytest_sessionfinish(self, session):
        if self.path:
            pathlib.Path(self.path).write_text(json.dumps({
                "tests": list(self.tests.values()),
                "seconds": time.monotonic() - self.started}, indent=1))
