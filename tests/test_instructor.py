"""lab_check for instructors: result files a platform reads, a class graded in one batch, points
from the manifest, and --verify, the proof that lesson 10's tests tell right from wrong."""

import csv
import hashlib
import json
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET

import pytest

from conftest import LESSON_10, PROJECT
from lab.course import lesson_files as lessons
from lab.grader import formats
from lab.course import manifest
from lab.cli import verify
from lab.grader.progress_bar import Progress
from lab.grader.results import Grade
from lab.sandbox.outcome import TestResult

LESSON = lessons.lesson(10)
LISTED = tomllib.loads((LESSON_10 / "manifest.toml").read_text())["tests"]
POINTS = {name: meta["points"] for name, meta in LISTED.items()}


def lab_check(*args, cwd=PROJECT):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=cwd, timeout=600)


def grade_of(*tests, problem=""):
    """A Grade of lesson 10 holding `tests`, each a TestResult."""
    return Grade(lesson=10, title="The poisoned transcript", harness="harness.py",
                 sha256="ab" * 32, tests=list(tests), problem=problem, seconds=1.5)


# -- Gradescope's results.json, as their autograder specification gives it -------------------

VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")
NUMBER = (int, float)
TOP = {"score": NUMBER, "execution_time": NUMBER, "output": str, "output_format": str,
       "test_output_format": str, "test_name_format": str, "visibility": VISIBILITIES,
       "stdout_visibility": VISIBILITIES, "extra_data": dict, "tests": list, "leaderboard": list}
TEST = {"score": NUMBER, "max_score": NUMBER, "status": ("passed", "failed"), "name": str,
        "name_format": str, "number": str, "output": str, "output_format": str, "tags": list,
        "visibility": VISIBILITIES, "extra_data": dict}
TOP_NEEDED = ("score", "execution_time", "output", "stdout_visibility", "tests")
TEST_NEEDED = ("name", "number", "score", "max_score", "status", "output", "visibility")


def gradescope_problems(document):
    """Every way `document` departs from Gradescope's results.json fields; [] when it fits."""
    found = _fields_problems("results.json", document, TOP, TOP_NEEDED)
    for number, test in enumerate(document.get("tests", []), 1):
        found += _fields_problems(f"tests[{number}]", test, TEST, TEST_NEEDED)
        if not found and not 0 <= test["score"] <= test["max_score"]:
            found.append(f"tests[{number}]: score {test['score']} is not within 0..max_score")
    return found


def _fields_problems(where, fields, allowed, needed):
    found = [f"{where}: no {key!r}" for key in needed if key not in fields]
    for key, value in fields.items():
        kind = allowed.get(key)
        if kind is None:
            found.append(f"{where}: {key!r} is not a Gradescope field")
        elif isinstance(kind, tuple) and isinstance(kind[0], str):
            if value not in kind:
                found.append(f"{where}: {key} is {value!r}, not one of {kind}")
        elif not isinstance(value, kind) or isinstance(value, bool):
            found.append(f"{where}: {key} is {type(value).__name__}, not {kind}")
    return found


def test_the_schema_check_itself_catches_a_wrong_field_a_bad_status_and_a_missing_key():
    document = {"score": 1.0, "execution_time": 2, "output": "", "stdout_visibility": "visible",
                "tests": [{"name": "a", "number": "1", "score": 3.0, "max_score": 2.0,
                           "status": "ok", "output": "", "visibility": "secret", "points": 2}]}

    found = gradescope_problems(document)

    for phrase in ("'points' is not a Gradescope field", "status is 'ok'",
                   "visibility is 'secret'"):
        assert any(phrase in problem for problem in found), f"missed {phrase!r}: {found}"
    del document["output"]
    assert "results.json: no 'output'" in gradescope_problems(document), "missed a missing key"


# -- the manifest ---------------------------------------------------------------------------

def test_every_graded_test_is_in_the_manifest_and_every_listed_test_is_graded():
    assert manifest.problems(LESSON) == [], "\n".join(manifest.problems(LESSON))


def test_a_test_the_manifest_forgot_and_a_listed_test_that_does_not_exist_are_both_flagged(
        tmp_path):
    (tmp_path / "tests.py").write_text("def test_kept(student):\n    pass\n\n\n"
                                       "def test_forgotten(student):\n    pass\n")
    (tmp_path / "manifest.toml").write_text(
        '[gaps.repair]\nnames = ["repair_tool_history"]\n\n[tests]\n'
        'test_kept = { points = 2, gap = "repair", visibility = "visible" }\n'
        'test_renamed = { points = -1, gap = "repiar", visibility = "secret" }\n')

    found = "\n".join(manifest.problems(lessons.Lesson(10, tmp_path)))

    assert "test_forgotten is graded in tests.py but not listed" in found, found
    assert "test_renamed is listed in manifest.toml but tests.py has no such test" in found, found
    for phrase in ("points = -1", "gap = 'repiar'", "visibility = 'secret'"):
        assert phrase in found, f"missed {phrase!r}:\n{found}"
    assert "test_kept" not in found, f"a test listed and graded was flagged:\n{found}"


# -- one result, in every format ------------------------------------------------------------

def test_a_json_result_reads_back_as_the_very_same_grade():
    grade = grade_of(TestResult("test_a", "passed", points=2, seconds=0.25),
                     TestResult("test_b", "failed", "messages[1]: toolCall c1 has no toolResult",
                             printed="hello\n", points=1, gap="repair", visibility="hidden"))

    back = Grade.from_dict(json.loads(formats.render(grade, "json")))

    assert back == grade, f"round trip changed the grade:\n{back}\n!=\n{grade}"


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_every_format_records_the_graders_version_the_lesson_and_the_files_sha256(fmt):
    grade = grade_of(TestResult("test_a", "passed"))

    text = formats.render(grade, fmt)

    for fact in (grade.version, grade.sha256, "lesson 10" if fmt in ("text", "junit") else
                 '"lesson": 10'):
        assert fact in text, f"the {fmt} result does not record {fact!r}:\n{text}"


def test_junit_counts_each_kind_of_outcome_and_parses_even_with_control_characters_printed():
    grade = grade_of(TestResult("test_a", "passed"), TestResult("test_b", "passed"),
                     TestResult("test_c", "passed"),
                     TestResult("test_d", "failed", "wrong\x00answer", printed="\x1b[31mred\x07\n"),
                     TestResult("test_e", "failed", "also wrong"),
                     TestResult("test_f", "error", "the grader itself failed"),
                     TestResult("test_g", "skipped", "not today"))

    root = ET.fromstring(formats.render(grade, "junit"))

    suite = root.find("testsuite")
    counts = {key: suite.get(key) for key in ("tests", "failures", "errors", "skipped")}
    assert counts == {"tests": "7", "failures": "2", "errors": "1", "skipped": "1"}, counts
    assert {key: root.get(key) for key in counts} == counts, "<testsuites> should add up the same"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [t.test for t in grade.tests], "tests out of order"
    assert len(suite.findall("testcase/failure")) == 2 and len(suite.findall("testcase/error")) == 1
    assert cases[3].find("failure").text == "wrong\\x00answer", cases[3].find("failure").text
    assert cases[3].find("system-out").text == "\\x1b[31mred\\x07\n", "printed output lost"
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["sha256"] == grade.sha256 and properties["version"] == grade.version \
        and properties["lesson"] == "10", properties
    assert float(suite.get("time")) == 1.5, suite.get("time")


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_a_harness_that_cannot_be_graded_still_gets_a_result_file_with_the_reason(tmp_path, fmt):
    out = tmp_path / "out" / f"result.{fmt}"

    run = lab_check("--harness", str(tmp_path / "missing" / "harness.py"), "--lesson", "10",
                    "--format", fmt, "--output", str(out))

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert out.is_file(), f"no result file was written; lab_check said:\n{run.stdout}{run.stderr}"
    text = out.read_text()
    assert "does not exist" in text, f"the {fmt} result does not say why:\n{text}"
    if fmt == "gradescope":
        document = json.loads(text)
        assert gradescope_problems(document) == [], gradescope_problems(document)
        assert document["score"] == 0 and document["tests"] == [], document
    if fmt == "junit":
        suite = ET.fromstring(text).find("testsuite")
        assert (suite.get("tests"), suite.get("failures")) == ("1", "1"), ET.tostring(suite)
    if fmt == "json":
        document = json.loads(text)
        assert document["exit_code"] == 2 and document["lesson"] == 10 and document["version"], \
            document


def test_a_syntax_error_gets_a_junit_failure_naming_the_line_and_the_file_hash(tmp_path):
    (tmp_path / "harness.py").write_text("def broken(:\n    pass\n")

    run = lab_check("--harness", str(tmp_path / "harness.py"), "--lesson", "10",
                    "--format", "junit")

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    suite = ET.fromstring(run.stdout).find("testsuite")
    failure = suite.find("testcase/failure")
    assert "syntax error on line 1" in failure.get("message"), failure.get("message")
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties["sha256"] == hashlib.sha256(b"def broken(:\n    pass\n").hexdigest(), \
        f"not the hash of the graded bytes: {properties}"


# -- a class in one batch -------------------------------------------------------------------

WRONG = ("copy_the_messages", "keep_the_empty_failed_reply", "last_duplicate_wins")
UNGRADABLE = {
    "syntax_error": ("def repair_tool_history(messages:\n", "syntax error on line 1"),
    "empty_file": ("", "is empty"),
    "import_raises": ("raise RuntimeError('not finished')\n", "RuntimeError"),
    "missing_names": ("SYSTEM = 'x'\n", "which lesson 10 gives you"),
}
KILLER = "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """A class of twelve, graded once, two at a time, into Gradescope result files."""
    submissions = tmp_path_factory.mktemp("submissions")
    out = tmp_path_factory.mktemp("results")
    harnesses = {"finished": LESSON.finished.read_text(), "starter": LESSON.starter.read_text(),
                 "right": LESSON.variant(LESSON.right_answers[0]), "kills_its_grader": KILLER}
    harnesses |= {f"wrong_{name}": LESSON.variant(LESSON_10 / "wrong" / f"{name}.py")
                  for name in WRONG}
    harnesses |= {name: text for name, (text, _) in UNGRADABLE.items()}
    for name, text in harnesses.items():
        (submissions / name).mkdir()
        (submissions / name / "harness.py").write_text(text)
    (submissions / "no_harness").mkdir()
    # no Python file at all (a lone misnamed .py is graded, with a note: lab.grader.finder)
    (submissions / "no_harness" / "harness.txt").write_text(LESSON.finished.read_text())

    run = lab_check("--lesson", "10", "--batch", str(submissions), "--output", str(out),
                    "--format", "gradescope", "--jobs", "2")

    names = sorted([*harnesses, "no_harness"])
    rows = list(csv.DictReader((out / "summary.csv").open())) if (out / "summary.csv").exists() \
        else []
    results = {row["submission"]: json.loads((out / row["result_file"]).read_text())
               for row in rows if (out / row["result_file"]).is_file()}
    return {"run": run, "names": names, "out": out, "results": results, "rows": rows}


def test_a_batch_writes_a_result_file_for_every_submission_and_a_summary_row_for_each(batch):
    missing = [name for name in batch["names"] if name not in batch["results"]]
    assert not missing, f"no result file for {missing}:\n{batch['run'].stdout}{batch['run'].stderr}"
    assert [row["submission"] for row in batch["rows"]] == batch["names"], \
        f"summary.csv should list every submission in name order: {batch['rows']}"
    listed = json.loads((batch["out"] / "summary.json").read_text())["submissions"]
    assert [(r["submission"], f"{r['score']:g}", ";".join(r["failed_tests"])) for r in listed] \
        == [(r["submission"], r["score"], r["failed_tests"]) for r in batch["rows"]], \
        "summary.json and summary.csv disagree"


def test_every_gradescope_result_of_the_batch_fits_the_specification(batch):
    for name, document in batch["results"].items():
        assert gradescope_problems(document) == [], f"{name}: {gradescope_problems(document)}"


def test_the_finished_harness_scores_the_sum_of_every_max_score_and_that_is_the_manifests(batch):
    document = batch["results"]["finished"]

    possible = sum(test["max_score"] for test in document["tests"])

    assert document["score"] == possible == sum(POINTS.values()), \
        f"score {document['score']}, max {possible}, manifest {sum(POINTS.values())}"
    assert [t["extra_data"]["test"] for t in document["tests"]] == list(LISTED), \
        "the tests should come in the order tests.py and the manifest give them"
    assert document["extra_data"]["sha256"] == hashlib.sha256(
        LESSON.finished.read_bytes()).hexdigest(), "not the hash of the graded file"


def test_the_starter_scores_less_than_the_max_and_only_for_the_tests_it_passes(batch):
    document = batch["results"]["starter"]

    possible = sum(test["max_score"] for test in document["tests"])
    earned = sum(POINTS[t["extra_data"]["test"]] for t in document["tests"]
                 if t["status"] == "passed")

    assert document["score"] < possible, f"the starter scored {document['score']} of {possible}"
    assert document["score"] == earned, \
        f"score {document['score']}, its passed tests are worth {earned}"


@pytest.mark.parametrize("name", [f"wrong_{name}" for name in WRONG])
def test_a_wrong_answer_earns_partial_credit_the_sum_of_the_points_of_the_tests_it_passes(
        batch, name):
    document = batch["results"][name]

    earned = sum(POINTS[t["extra_data"]["test"]] for t in document["tests"]
                 if t["status"] == "passed")
    row = next(r for r in batch["rows"] if r["submission"] == name)

    assert 0 < document["score"] == earned < sum(POINTS.values()), \
        f"{name}: score {document['score']}, its passed tests are worth {earned}"
    assert float(row["score"]) == earned and float(row["max_score"]) == sum(POINTS.values()), row
    failed = {t["extra_data"]["test"] for t in document["tests"] if t["status"] == "failed"}
    assert set(row["failed_tests"].split(";")) == failed, f"summary: {row['failed_tests']}"


@pytest.mark.parametrize("name", [*UNGRADABLE, "no_harness"])
def test_a_submission_that_cannot_be_graded_gets_zero_and_a_result_that_says_why(batch, name):
    said = UNGRADABLE[name][1] if name in UNGRADABLE else "holds no Python file"
    document = batch["results"][name]
    row = next(r for r in batch["rows"] if r["submission"] == name)

    assert document["score"] == 0 and said in document["output"], document["output"]
    assert row["exit_code"] == "2" and said in row["problem"], row
    assert float(row["max_score"]) == sum(POINTS.values()), f"scored out of nothing: {row}"


def test_a_submission_that_kills_its_grader_gets_a_result_and_the_batch_carries_on(batch):
    document = batch["results"]["kills_its_grader"]
    row = next(r for r in batch["rows"] if r["submission"] == "kills_its_grader")

    assert document["score"] == 0 and row["exit_code"] in ("2", "3"), row
    assert row["problem"], f"the summary should say what happened: {row}"
    broke = [r["submission"] for r in batch["rows"] if r["exit_code"] == "3"]
    assert batch["run"].returncode == (3 if broke else 0), \
        f"exit {batch['run'].returncode} with the grader broken on {broke}"
    assert batch["results"]["right"]["score"] == sum(POINTS.values()), \
        "a submission graded alongside it lost points"


def test_a_batch_not_on_a_terminal_reports_progress_as_one_plain_line_a_submission(batch):
    lines = [line for line in batch["run"].stderr.splitlines() if line.startswith("[")]

    assert len(lines) == len(batch["names"]), batch["run"].stderr
    assert "\r" not in batch["run"].stderr and "\x1b" not in batch["run"].stderr, \
        "escape codes in a log that is not a terminal"
    assert sorted(line.split("] ")[1].split(":")[0] for line in lines) == batch["names"], lines


def test_on_a_terminal_progress_is_one_bar_redrawn_in_place():
    class Terminal(list):
        def write(self, text):
            self.append(text)

        def flush(self):
            pass

        def isatty(self):
            return True

    screen = Terminal()
    progress = Progress(2, screen)

    progress.done("alice", grade_of(TestResult("test_a", "passed", points=2)))
    progress.done("bob", grade_of(problem="harness.py is empty."))
    progress.close()

    assert all(part.startswith("\r") for part in screen[:2]), screen
    assert "1/2  alice: 2 of 2 points" in screen[0] and "2/2  bob: not graded" in screen[1], screen
    assert "".join(screen).count("\n") == 1, f"one newline, at the end: {screen}"


def test_a_batch_of_a_folder_with_no_submissions_exits_2_and_says_what_a_submission_is(tmp_path):
    (tmp_path / "alice.py").write_text("")

    run = lab_check("--lesson", "10", "--batch", str(tmp_path), "--output", str(tmp_path / "o"))

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert "holds no submission folders" in run.stderr and "alice/harness.py" in run.stderr, \
        run.stderr


def test_a_batch_without_an_output_folder_is_refused_before_grading_anything(tmp_path):
    run = lab_check("--lesson", "10", "--batch", str(tmp_path))

    assert run.returncode == 2 and "needs --output" in run.stderr, run.stderr


# -- proving the lesson ---------------------------------------------------------------------

def test_verify_10_proves_the_lesson_and_exits_0():
    run = lab_check("--verify", "10")

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    expected = 5 + len(LESSON.wrong_answers) + len(LESSON.right_answers)
    assert run.stdout.rstrip().endswith(f"{expected} checks: {expected} as expected, "
                                        "0 surprises."), run.stdout
    assert "  ok    student's edition " in run.stdout, run.stdout
    for answer in [*LESSON.wrong_answers, *LESSON.right_answers]:
        assert f"  ok    {answer.parent.name}/{answer.name} " in run.stdout, \
            f"no line for {answer.parent.name}/{answer.name}:\n{run.stdout}"


def every_test(outcome="passed", **changed):
    return [TestResult(name, changed.get(name, outcome)) for name in LISTED]


def test_verify_calls_a_wrong_answer_that_passes_the_test_it_names_a_surprise():
    named = next(iter(LISTED))

    check = verify.wrong(named, "wrong/sneaky.py", grade_of(*every_test()))

    assert not check.ok and f"passes {named}, which it must fail" in check.surprises, \
        check.surprises


def test_verify_calls_a_wrong_answer_without_a_fails_line_a_surprise():
    check = verify.wrong(None, "wrong/unnamed.py", grade_of(*every_test("failed")))

    assert not check.ok and "Fails: test_name" in check.surprises[0], check.surprises


def test_verify_calls_a_starter_that_passes_a_gap_test_a_surprise():
    gap_test = next(name for name, meta in LISTED.items() if meta["gap"] != "given")
    outcomes = {name: "passed" if meta["gap"] == "given" else "failed"
                for name, meta in LISTED.items()}

    honest = verify.starter_fails_its_gaps(LISTED, "starter.py", grade_of(*every_test(**outcomes)))
    leaky = verify.starter_fails_its_gaps(LISTED, "starter.py",
                                          grade_of(*every_test(**dict(outcomes,
                                                                      **{gap_test: "passed"}))))

    assert honest.ok, f"a starter that fails exactly its gaps was faulted: {honest.surprises}"
    assert not leaky.ok and gap_test in leaky.surprises[0], leaky.surprises


def test_verify_calls_a_grader_error_a_surprise_even_when_nothing_failed():
    broken = next(iter(LISTED))

    check = verify.passes_everything(LISTED, "right/x.py", grade_of(*every_test(
        **{broken: "error"})))

    assert not check.ok and any(f"the grader broke on {broken}" in s for s in check.surprises), \
        check.surprises


def test_verify_calls_a_right_answer_that_runs_fewer_tests_than_listed_a_surprise():
    check = verify.passes_everything(LISTED, "right/x.py", grade_of(*every_test()[:-1]))

    assert not check.ok and "never ran" in check.surprises[0], check.surprises
