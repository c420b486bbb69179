"""The pytest plugin behind lab_check: the `student` fixture, the sandbox, and the results.

lab_check's worker runs the lesson's tests.py under real pytest with one `Grading` object as
its plugin: it holds the Job (inside/protocol.py), the sandbox the worker has started
(sandbox.Zygote) and the pipe only the host and the worker hold, and pytest reaches them
through it, not through module globals. Each test gets a clean process forked from that one
sandbox. A test that fails because of the student's code carries the explanation of a
GradeFailure or a StudentProblem; anything else that goes wrong is the grader's own fault, and
says so. A test counts as passed only when its call phase reported a pass; each test's result
(lab.sandbox.outcome.TestResult, made here, where the test ran) is written, at the end, to the
pipe, each under its test's name.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import pathlib
import random
import signal
import sys
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

from lab.testkit import problems
from lab.sandbox import protocol
from lab.sandbox.outcome import NEVER_FINISHED, TestResult
from lab.testkit.problems import StudentProblem
from lab.worker import phase
from lab.worker.harness_proxy import Student
from lab.testkit.verdict import GradeFailure

if TYPE_CHECKING:
    from lab.sandbox.protocol import Job
    from lab.worker.zygote_link import Zygote

JUDGED = (GradeFailure, StudentProblem)
SHRINKING = 2  # times the time limit hypothesis may spend shrinking a failing example
GRADER_FACTOR = 6  # times the time limit of its own CPU the grader may spend on one test (as
                   # many as the student's code may spend answering, sandbox.TEST_FACTOR)


def hypothesis_profile() -> None:
    """Load the "lab" profile: no database written anywhere, no deadline (a grade must not
    leave files behind, or depend on how busy the machine is)."""
    settings.register_profile(
        "lab", database=None, deadline=None, print_blob=False,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    settings.load_profile("lab")


class Grading:
    """The plugin for one grading: `job` (job.Job), `zygote` (the sandbox, started), and
    `results_fd`, where every outcome is written at the end."""

    def __init__(self, job: Job, zygote: Zygote, results_fd: int, keep_open: bool = False,
                 following: Callable[[], Job | None] | None = None) -> None:
        self.job, self.zygote, self.results_fd = job, zygote, results_fd
        self.keep_open = keep_open  # a serving worker's pipe, for the next grading's frame
        # a kept worker's: following(job) is the next Job to grade (its sandbox readied, its
        # import checked), or None; one for other tests than this session's is `declined`
        self.declined: Job | None = None
        self.results: Results | None = None
        self.following = following

    def pytest_configure(self, config: pytest.Config) -> None:
        hypothesis_profile()
        # A failing property is shown with the smallest example found in a bounded time: each
        # shrinking step is a round trip to the student's process, and hypothesis's own bound
        # (minutes) would let a wrong answer hold a grading, and the grader's memory, for long.
        from hypothesis.internal.conjecture import engine

        engine.MAX_SHRINKING_SECONDS = (
            SHRINKING * self.job.limits.seconds)  # type: ignore[assignment]
        self.results = Results(self.results_fd, self.zygote, self.keep_open)
        config.pluginmanager.register(self.results, "lab-results")

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        """This worker's share of the tests (Job.share), after -k has chosen among them: every
        parts-th, from the part-th, so that workers side by side each run some of each kind."""
        part, parts = self.job.share
        if parts > 1:
            config.hook.pytest_deselected(items=[item for i, item in enumerate(items)
                                                 if i % parts != part])
            items[:] = items[part::parts]

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """What pytest, hypothesis, the lab and the tests have loaded by now lives as long as
        the grading (as the worker, when kept): moved out of the collector's way, so that a
        collection during the tests walks what they made, not all of that again."""
        gc.freeze()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool | None:
        """A kept worker's loop: the collected tests run for this Job, their frame is written,
        then again for each next Job that runs the same tests (its own seed, its own file),
        each test anew, as pytest's own loop runs it. Anything else is pytest's own loop."""
        if self.following is None or session.testsfailed or session.config.option.collectonly:
            return None
        from hypothesis import core

        assert self.results is not None  # (pytest_configure made them)
        while True:
            for i, item in enumerate(session.items):
                item.user_properties.clear()  # what the last grading's test printed
                item.__dict__.pop("lab_over_budget", None)
                nextitem = session.items[i + 1] if i + 1 < len(session.items) else None
                item.config.hook.pytest_runtest_protocol(item=item, nextitem=nextitem)
                if session.shouldfail:
                    raise session.Failed(session.shouldfail)
                if session.shouldstop:
                    raise session.Interrupted(session.shouldstop)
            self.results.write()  # at once: the host is waiting for it
            job = self.following()
            if job is None:
                return True  # no more Jobs
            if (job.tests, job.select, job.share) != (self.job.tests, self.job.select,
                                                      self.job.share):
                self.declined = job  # other tests: a session of its own
                return True
            self.job, self.results.due = job, True
            core.global_force_seed = job.seed  # type: ignore[assignment]  # --hypothesis-seed

    @pytest.fixture
    def student(self, request: pytest.FixtureRequest) -> Iterator[Student]:
        """The student's harness, in a clean process of its own for this test."""
        folder = pathlib.Path(request.node.path).parent
        you = Student(self.zygote, scenarios=scenarios_of(folder / "scenarios.py"),
                      gaps=self.job.gaps)
        try:
            yield you
        finally:
            you.close()
            if you.printed:
                request.node.user_properties.append(("printed", you.printed))

    @pytest.fixture
    def variation(self, request: pytest.FixtureRequest) -> random.Random:
        """A random.Random for this test, from the grading's seed and the test's name: inputs
        that differ from grading to grading, and replay exactly with the same seed."""
        return random.Random(f"{self.job.seed}:{request.node.name}")

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, object, object]:
        """Run the test with a budget of the grader's own CPU time (its time waiting for the
        student's process is not counted: the sandbox bounds that). What the student hands
        over (a case to run, an answer to judge) cannot make the grader work for longer: past
        the budget, the test fails as the student's, and the alarm goes on ringing every
        little while so that no catch-all in the test's code can swallow it for long; and once
        it has rung, the test fails for that reason, whatever the test went on to do."""
        seconds = GRADER_FACTOR * self.job.limits.seconds
        phase.say(f"running {item.name}")

        def over(number, frame):
            item.lab_over_budget = problems.over_budget(seconds)  # type: ignore[attr-defined]
            raise problems.over_budget(seconds)

        previous = signal.signal(signal.SIGVTALRM, over)
        signal.setitimer(signal.ITIMER_VIRTUAL, seconds, 0.25)
        try:
            return (yield)
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
            signal.signal(signal.SIGVTALRM, previous)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None) -> None:
        """Before the test's fixtures end: whether the next test will want a process of the
        student's, so that the one ending has the zygote fork it ahead (sandbox.Zygote)."""
        self.zygote.ahead = (nextitem is not None
                             and "student" in nextitem.fixturenames)  # type: ignore[attr-defined]

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]
                                  ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
        report = yield
        report.lab_test = item.originalname  # type: ignore[attr-defined]  # (all that crosses)
        over = getattr(item, "lab_over_budget", None)
        if over is not None and report.when == "call":
            # past the budget, whatever the test's code did with the alarm (a catch-all that
            # kept it as data, as lab.testkit.clinic keeps what a harness raises), the test fails, and
            # for that reason: what it went on to conclude was cut short by it
            report.outcome, report.longrepr = "failed", str(over)
            report.lab_message, report.lab_judged = str(over), True  # type: ignore[attr-defined]
            return report
        if call.excinfo is not None and report.when in ("setup", "call"):
            you = item.funcargs.get("student") if hasattr(item, "funcargs") else None
            answered = you is not None and you.answered
            report.lab_message, report.lab_judged = (  # type: ignore[attr-defined]
                _explain(call.excinfo.value, answered))
        return report


_loaded: dict[pathlib.Path, ModuleType | None] = {}


def scenarios_of(path: pathlib.Path) -> ModuleType | None:
    """The lesson's scenarios.py, loaded once, on the grader's side; None when there is none."""
    if path not in _loaded:
        module = None
        if path.exists():
            spec = importlib.util.spec_from_file_location(f"lab_scenarios_{len(_loaded)}", path)
            assert spec is not None and spec.loader is not None  # (a .py file's)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
        _loaded[path] = module
    return _loaded[path]


def _explain(error, answered):
    """(message, judged): the sentence to show, and whether it is a verdict on the student.
    An unexpected error in a test after the student's code answered is put down to the answer:
    a student's code can never make the grading say the grader broke."""
    for inner in _flatten(error):
        if isinstance(inner, JUDGED):
            return str(inner), True
    said = f"{type(error).__name__}: {str(error)[:300]}"
    if answered:
        return (f"the test could not judge what your harness answered ({said}): it is not "
                "shaped the way the lesson's messages are. If it looks right to you, tell your "
                "instructor: it may be a bug in the lab."), True
    return (f"the grader itself failed ({said}). This is a bug in the lab, not in your "
            "harness: please report it."), False


# 3.10 has no BaseExceptionGroup: pytest and hypothesis raise the exceptiongroup backport's there
if sys.version_info >= (3, 11):
    _Group = BaseExceptionGroup
else:
    from exceptiongroup import BaseExceptionGroup as _Group  # novermin


def _flatten(error):
    if isinstance(error, _Group):
        for inner in error.exceptions:
            yield from _flatten(inner)
    else:
        yield error


MESSAGE = 20_000  # characters of a test's explanation, and of what it printed, sent to the host


def _clipped(text, most=MESSAGE):
    return protocol.clipped(text, most)


def _settle(result: TestResult, report: pytest.TestReport, unsettled: bool) -> TestResult | None:
    """`result` with the outcome this phase's `report` settles, or None when it settles none: a
    failure settles a test not yet settled or passed (the first failure is the one shown), a
    skip in setup or call settles it, and a pass of the call settles a test not yet settled."""
    if report.failed and (unsettled or result.outcome == "passed"):
        judged = getattr(report, "lab_judged", False)
        return replace(result, outcome="failed" if judged else "error",
                       message=_clipped(getattr(report, "lab_message", None)
                                        or report.longreprtext))
    if report.skipped and report.when != "teardown":
        return replace(result, outcome="skipped",
                       message=str(report.longrepr[-1]))  # type: ignore[index]
    if report.when == "call" and report.passed and unsettled:
        return replace(result, outcome="passed", message="")
    return None


class Results:
    """Makes each test's result (outcome.TestResult) from pytest's reports of its phases, and
    writes them all, at the end, to the host's pipe, with the walls the sandbox had
    (`zygote.layers`). A test is "passed" only when its call phase passed and no phase failed;
    a failure that is no verdict on the student is the grader's "error"; a test no phase of
    which settled its outcome never finished, and fails."""

    def __init__(self, fd: int, zygote: Zygote | None = None, keep_open: bool = False) -> None:
        self.tests: dict[str, TestResult]
        self.fd, self.zygote, self.tests, self.started = fd, zygote, {}, time.monotonic()
        self.settled: set[str] = set()  # the node ids whose outcome a phase has set
        self.keep_open, self.due = keep_open, True  # due: a frame is owed for these tests

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        # kept by node id here, in the worker; only the test's name crosses to the host
        was = self.tests.get(report.nodeid) or TestResult(
            test=getattr(report, "lab_test", ""), outcome="failed", message=NEVER_FINISHED)
        result = replace(was, seconds=was.seconds + report.duration, printed=_clipped(
            dict(report.user_properties).get("printed", was.printed)))
        settled = _settle(result, report, unsettled=report.nodeid not in self.settled)
        if settled is not None:
            result = settled
            self.settled.add(report.nodeid)
        self.tests[report.nodeid] = result

    def write(self) -> None:
        """Write the frame of the tests run since the last, and start collecting anew."""
        layers = self.zygote.layers if self.zygote is not None else None
        tests, seconds = list(self.tests.values()), time.monotonic() - self.started

        def frame(tests):
            return protocol.encode(protocol.report([t.as_dict() for t in tests], seconds,
                                                   layers or []))

        data = frame(tests)
        if len(data) > protocol.LARGEST:
            # The student's text (what it printed, what it raised) is clipped in characters,
            # and JSON writes one in up to twelve bytes: the frame must still fit what the host
            # reads, or the host hears none and the grading looks like the grader's failure.
            room = protocol.LARGEST // (2 * 12 * (len(tests) + 1))
            data = frame([replace(t, message=_clipped(t.message, room),
                                  printed=_clipped(t.printed, room)) for t in tests])
        protocol.write_bytes(self.fd, data)
        self.tests, self.settled = {}, set()
        self.started, self.due = time.monotonic(), False

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        phase.say("sending the report")
        if self.fd is not None:
            if self.due:
                self.write()
            if not self.keep_open:
                os.close(self.fd)
