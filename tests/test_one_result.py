"""One result, end to end (issue 29, item 2): a test's result is one record, made in the worker
where the test ran, sent to the host once, given the manifest's points, gap and visibility
there, and read as it is by every format and report.

The worker's side is real pytest, running a small test file with the worker's own results
plugin and writing its frame to a real pipe; the host reads the frame as a grading does."""

import json
import os
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from lab.grader import formats, reconcile
from lab.grader.report import text_report
from lab.grader.results import Grade
from lab.sandbox import protocol
from lab.sandbox.outcome import NEVER_FINISHED, OUTCOMES, TestResult
from lab.worker.plugin import Results

TESTS = '''
import pytest

def test_passes():
    print("not captured by the student fixture: never reported as printed")

def test_fails_with_no_verdict():
    assert 1 == 2, "no verdict explains this"

def test_skips_itself():
    pytest.skip("not today")

@pytest.fixture
def broken():
    raise RuntimeError("the fixture broke")

def test_whose_setup_breaks(broken):
    pass
'''
MANIFEST = {"test_passes": {"points": 3, "gap": "repair"},
            "test_fails_with_no_verdict": {"points": 2, "gap": "repair",
                                           "visibility": "hidden"},
            "test_skips_itself": {},
            "test_whose_setup_breaks": {"points": 1, "gap": "given"}}


@pytest.fixture(scope="module")
def worker_run(tmp_path_factory):
    """(the records the worker's plugin made, the frame it wrote to the pipe)."""
    folder = tmp_path_factory.mktemp("one_result")
    (folder / "test_small.py").write_text(TESTS)
    read, write = os.pipe()
    results = Results(write)
    made = results.tests  # the plugin's own records (writing them starts a new dict)
    code = pytest.main([str(folder / "test_small.py"), "-q", "-p", "no:cacheprovider",
                        "-p", "no:randomly", "--rootdir", str(folder), "-c", os.devnull],
                       plugins=[results, _Names()])
    try:
        frame = protocol.read_frame(read)
    finally:
        os.close(read)
    assert code == pytest.ExitCode.TESTS_FAILED, code
    return made, frame


class _Names:
    """What the worker's Grading plugin does first for each report: it names the test."""

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(self, item, call):
        report = yield
        report.lab_test = item.originalname
        return report


def test_the_worker_makes_one_record_a_test_in_the_one_vocabulary_of_outcomes(worker_run):
    made, _ = worker_run

    outcomes = {result.test: result.outcome for result in made.values()}

    assert outcomes == {"test_passes": "passed", "test_fails_with_no_verdict": "error",
                        "test_skips_itself": "skipped", "test_whose_setup_breaks": "error"}
    assert set(outcomes.values()) <= set(OUTCOMES)
    assert all(type(result) is TestResult for result in made.values())
    skipped = next(r for r in made.values() if r.test == "test_skips_itself")
    assert skipped.message == "Skipped: not today", skipped


def test_the_frame_carries_each_record_whole_and_the_host_reads_back_the_same_record(
        worker_run):
    made, frame = worker_run

    sent = [TestResult.from_wire(entry) for entry in frame["tests"]]

    assert sent == list(made.values())
    assert frame["tests"] == [result.as_dict() for result in made.values()]


def test_the_host_adds_the_manifests_facts_to_the_records_and_changes_nothing_else(
        worker_run):
    made, frame = worker_run

    final = reconcile.graded(frame["tests"], MANIFEST)

    by_name = {result.test: result for result in made.values()}
    assert final == [replace(by_name[name], points=meta.get("points", 1),
                             gap=meta.get("gap", ""),
                             visibility=meta.get("visibility", "visible"))
                     for name, meta in MANIFEST.items()]


def test_a_test_no_phase_of_which_settled_never_finished_and_fails():
    class Report:  # the one report a test whose process ended mid-test leaves: its setup
        nodeid, when, duration, user_properties, lab_test = "t.py::test_x", "setup", 0.5, [], \
            "test_x"
        passed, failed, skipped = True, False, False

    read, write = os.pipe()
    results = Results(write)
    results.pytest_runtest_logreport(Report())
    results.write()
    os.close(write)
    frame = protocol.read_frame(read)
    os.close(read)

    assert [TestResult.from_wire(t) for t in frame["tests"]] == [
        TestResult("test_x", "failed", NEVER_FINISHED, seconds=0.5)]


# -- every format reads the record as it is -----------------------------------------------------

RECORDS = [
    TestResult("test_first_wins", "passed", "", "hello from the harness\n", 0.25, 3, "repair",
               "visible"),
    TestResult("test_orphans_dropped", "failed", "messages[2]: an orphan result stayed",
               "it printed this\n", 1.5, 2, "repair", "after_due_date"),
    TestResult("test_the_grader_broke", "error", "the grader itself failed (KeyError: 'x')",
               "", 0.125, 1, "", "visible"),
    TestResult("test_not_today", "skipped", "Skipped: not today", "", 0.0, 4, "given",
               "hidden"),
]
GRADE = Grade(lesson=10, title="The poisoned transcript", harness="harness.py",
              sha256="cd" * 32, tests=RECORDS, seconds=3.0, seed=7, isolation="bubblewrap")


def test_the_json_result_is_each_record_as_it_writes_itself_and_reads_back_the_same():
    written = json.loads(formats.render(GRADE, "json"))

    assert [{k: v for k, v in t.items() if k != "score"} for t in written["tests"]] == [
        r.as_dict() for r in RECORDS]
    assert [t["score"] for t in written["tests"]] == [r.score for r in RECORDS]
    assert Grade.from_dict(written).tests == RECORDS


def test_gradescope_carries_each_records_name_points_visibility_outcome_and_words():
    written = json.loads(formats.render(GRADE, "gradescope", show_hidden=True))

    for test, record in zip(written["tests"], RECORDS, strict=True):
        assert (test["name"], test["max_score"], test["score"], test["visibility"]) == (
            record.title, record.points, record.score, record.visibility)
        assert test["extra_data"] == {"test": record.test, "gap": record.gap,
                                      "outcome": record.outcome}
        assert record.message in test["output"] and record.printed.strip() in test["output"]
        assert test["output"] == test["output"].strip(), test  # no blank lines first


def test_classroom_carries_each_records_name_score_words_and_time():
    written = json.loads(formats.render(GRADE, "classroom"))

    for test, record in zip(written["tests"], RECORDS, strict=True):
        assert (test["name"], test["score"], test["duration"]) == (
            record.title, record.score, round(record.seconds * 1000))
        assert test["status"] == ("pass" if record.outcome == "passed" else "fail")
        assert record.message in test["message"] and record.printed.strip() in test["message"]
        assert test["message"] == test["message"].strip() != "", test  # no blank lines first


def test_junit_carries_each_records_name_time_outcome_words_and_printing():
    cases = ET.fromstring(formats.render(GRADE, "junit").split("\n", 1)[1]).iter("testcase")

    for case, record in zip(cases, RECORDS, strict=True):
        assert (case.get("name"), case.get("time")) == (record.test, f"{record.seconds:.3f}")
        tags = [child.tag for child in case if child.tag != "system-out"]
        assert tags == {"passed": [], "failed": ["failure"], "error": ["error"],
                        "skipped": ["skipped"]}[record.outcome]
        if tags:
            assert case.find(tags[0]).text == record.message
        assert (case.findtext("system-out") or "") == record.printed


def test_the_text_report_names_every_failing_record_with_its_words():
    report = text_report(GRADE)

    for record in RECORDS:
        if record.outcome != "passed":
            assert record.title in report and record.message in report, record
    assert "score: 3 of 10 points, 1 passed, 3 failed" in report
