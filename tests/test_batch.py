"""A class's batch as an instructor runs it: stopped by Ctrl-C half-way and taken up again
with nothing lost and nothing graded twice; some students graded again into it; the class's
seed honoured and recorded; what a student reads naming the visible tests only; and a grader
that cannot start a sandbox failing visibly, never as a student's zero. Every batch here is a
real `lab-check --batch` (or Gradescope's autograder) in a process of its own."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

from conftest import PROJECT
from lab.course import lesson_files as lessons
from lab.course import manifest
from lab.kit.escape import file_name
from lab.grader.plan import Plan

LESSON = lessons.lesson(10)
LISTED = manifest.read(LESSON)["tests"]
TOTAL = sum(meta["points"] for meta in LISTED.values())
HIDDEN = [name for name, meta in LISTED.items() if meta["visibility"] != "visible"]
VISIBLE = [name for name, meta in LISTED.items() if meta["visibility"] == "visible"]
CLASS = ["alice", "bob", "carol", "dave", "erin", "José García"]


def title(test):
    return test.removeprefix("test_").replace("_", " ")


def lab_check(*args, env=None, **kwargs):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT, timeout=600,
                          env=env, **kwargs)


def make_class(folder, names=CLASS):
    """A folder per student: the finished harness and the starter in turn, each its own copy."""
    texts = [LESSON.finished.read_text(), LESSON.starter.read_text()]
    for number, name in enumerate(names):
        (folder / name).mkdir(parents=True)
        (folder / name / "harness.py").write_text(f"{texts[number % 2]}\n# student {number}\n")
    return folder


def summary(out):
    return json.loads((out / "summary.json").read_text(encoding="utf-8"))


def stamps(out):
    """{result file: (its bytes, when it was last written)} of every result in `out`."""
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in (out / "results").iterdir()
            if not p.name.startswith(".")}


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """A class of six graded two at a time, stopped with SIGINT once its first results are in;
    then resumed. What each step left."""
    root = tmp_path_factory.mktemp("class")
    submissions, out = make_class(root / "submissions"), root / "out"
    command = [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "10",
               "--batch", str(submissions), "--output", str(out), "--jobs", "2",
               "--format", "gradescope", "--seed", "11"]
    batch = subprocess.Popen(command, cwd=PROJECT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and batch.poll() is None:
        done = (out / "summary.json").is_file() and len(summary(out)["submissions"])
        if done:
            break
        time.sleep(0.1)
    batch.send_signal(signal.SIGINT)
    said, complaint = batch.communicate(timeout=120)
    first = {"code": batch.returncode, "stdout": said, "stderr": complaint,
             "summary": summary(out), "stamps": stamps(out)}
    resumed = lab_check("--lesson", "10", "--batch", str(submissions), "--output", str(out),
                        "--resume", "--jobs", "2")
    return {"first": first, "resumed": resumed, "summary": summary(out), "out": out,
            "submissions": submissions, "stamps": stamps(out)}


def test_ctrl_c_stops_the_batch_cleanly_keeping_every_finished_result_and_saying_how_to_go_on(
        stopped):
    first = stopped["first"]
    rows = first["summary"]["submissions"]

    assert first["code"] == 130, f"exit {first['code']}:\n{first['stderr']}"
    assert "Traceback" not in first["stderr"], first["stderr"]
    assert 1 <= len(rows) < len(CLASS), f"not stopped mid-way: {len(rows)} graded"
    assert "--resume" in first["stderr"] and "not graded yet" in first["stderr"], first["stderr"]
    assert first["summary"]["complete"] is False
    for row in rows:  # every row of the summary has its whole result, and only those do
        result = json.loads((stopped["out"] / row["result_file"]).read_text())
        assert result["score"] == row["score"], row
    assert len(first["stamps"]) == len(rows), "a result without its row, or a row without one"
    assert not [p for p in (stopped["out"] / "results").iterdir() if p.name.endswith(".part")]


def test_resuming_grades_only_the_rest_and_loses_or_regrades_nothing(stopped):
    resumed, before = stopped["resumed"], stopped["first"]
    rows = stopped["summary"]["submissions"]
    kept = len(before["summary"]["submissions"])

    assert resumed.returncode == 0, resumed.stderr
    assert sorted(r["submission"] for r in rows) == sorted(CLASS), rows
    assert stopped["summary"]["complete"] is True
    for name, stamp in before["stamps"].items():
        assert stopped["stamps"][name] == stamp, f"{name} was graded again on resuming"
    progress = [line for line in resumed.stderr.splitlines() if line.startswith("[")]
    assert len(progress) == len(CLASS) - kept, resumed.stderr
    assert f"{kept} already graded" in resumed.stdout, resumed.stdout
    scores = {r["submission"]: r["score"] for r in rows}
    assert scores["alice"] == TOTAL and scores["bob"] < TOTAL, scores


def test_the_summary_records_the_seed_isolation_version_and_each_files_hash(stopped):
    document = stopped["summary"]

    assert document["seed"] == 11 and document["seed_mode"] == "class", document
    assert document["version"] and document["isolation"] and document["format"] == "gradescope"
    for row in document["submissions"]:
        harness = stopped["submissions"] / row["submission"] / "harness.py"
        import hashlib
        assert row["sha256"] == hashlib.sha256(harness.read_bytes()).hexdigest(), row
        assert row["seed"] == 11 and row["isolation"] == document["isolation"], row
        result = json.loads((stopped["out"] / row["result_file"]).read_text())
        assert result["extra_data"]["sha256"] == row["sha256"]


def test_feedback_and_gradescopes_output_name_and_count_the_visible_tests_only(stopped):
    rows = {r["submission"]: r for r in stopped["summary"]["submissions"]}
    starter = rows["bob"]

    feedback = (stopped["out"] / starter["feedback_file"]).read_text(encoding="utf-8")
    result = json.loads((stopped["out"] / starter["result_file"]).read_text())

    leaked = [title(t) for t in HIDDEN if title(t) in feedback or title(t) in result["output"]]
    assert leaked == [], f"hidden tests named where the student reads: {leaked}"
    assert any(title(t) in feedback for t in VISIBLE), feedback
    visible_failed = sum(1 for t in result["tests"] if t["visibility"] == "visible"
                         and t["status"] == "failed")
    visible_passed = sum(1 for t in result["tests"] if t["visibility"] == "visible"
                         and t["status"] == "passed")
    assert f"{visible_passed} passed, {visible_failed} failed" in result["output"], \
        result["output"]
    assert {t["visibility"] for t in result["tests"]} >= {"visible", "hidden"}, \
        "Gradescope's own per-test visibility is what hides a hidden test: it must stay"
    assert set(starter["failed_tests"]) & set(HIDDEN), \
        "the instructor's summary should still name the hidden tests the starter fails"


def test_only_grades_the_named_students_again_into_the_existing_results(stopped):
    out = stopped["out"]
    before = stamps(out)
    name = "José García"
    key = file_name(name)

    run = lab_check("--lesson", "10", "--batch", str(stopped["submissions"]), "--output",
                    str(out), "--only", name)

    after = stamps(out)
    assert run.returncode == 0, run.stderr
    changed = sorted(n for n in after if after[n][1] != before[n][1])
    assert changed == [f"{key}.json"], changed
    assert len(summary(out)["submissions"]) == len(CLASS)
    assert summary(out)["seed"] == 11, "--only should keep the batch's seed"


def test_a_batch_refuses_to_write_over_a_finished_one_and_names_the_way_on(stopped):
    run = lab_check("--lesson", "10", "--batch", str(stopped["submissions"]), "--output",
                    str(stopped["out"]))

    assert run.returncode == 2 and "--resume" in run.stderr and "--only" in run.stderr, run.stderr


# -- a grader that cannot start its sandbox -----------------------------------------------

@pytest.fixture(scope="module")
def broken_sandbox(tmp_path_factory):
    """An environment whose bwrap cannot start a sandbox, as on a host that forbids user
    namespaces: it fails as the real one does there."""
    bin_folder = tmp_path_factory.mktemp("bin")
    (bin_folder / "bwrap").write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission "
                                      "denied' >&2\nexit 1\n")
    os.chmod(bin_folder / "bwrap", 0o755)
    return dict(os.environ, PATH=f"{bin_folder}{os.pathsep}{os.environ['PATH']}",
                LAB_ISOLATION="bubblewrap")


def test_gradescope_whose_sandbox_cannot_start_fails_the_run_instead_of_scoring_zero(
        tmp_path, broken_sandbox):
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "harness.py").write_text(LESSON.finished.read_text())

    ran = subprocess.run([sys.executable, "-m", "lab.release.autograder", "--lesson", "10",
                          "--root", str(tmp_path)], cwd=PROJECT, env=broken_sandbox,
                         capture_output=True, text=True, timeout=300)

    assert ran.returncode != 0, ran.stdout
    assert not (tmp_path / "results" / "results.json").exists(), "a score was written"
    assert "the grader failed, not the submission" in ran.stdout, ran.stdout
    assert "Permission denied" in ran.stdout and "regrade" in ran.stdout, ran.stdout


def test_a_batch_whose_sandbox_cannot_start_grades_no_one_zero(tmp_path, broken_sandbox):
    make_class(tmp_path / "submissions", ["alice", "bob"])

    run = lab_check("--lesson", "10", "--batch", str(tmp_path / "submissions"), "--output",
                    str(tmp_path / "out"), env=broken_sandbox)

    assert run.returncode == 2 and "Permission denied" in run.stderr, run.stderr
    assert not (tmp_path / "out" / "summary.json").exists(), "a summary of zeros was written"


def test_a_submission_whose_sandbox_fails_has_a_status_of_its_own_and_resume_regrades_it(
        tmp_path, broken_sandbox):
    """The sandbox fails after the batch began (here: for every submission), which the batch's
    own first check cannot see: each row says the grader failed, and --resume grades them."""
    make_class(tmp_path / "submissions", ["alice", "bob"])
    out = tmp_path / "out"
    code = ("import sys; from lab.course import lesson_files as lessons; from lab.grader import batch, plan; "
            "done = batch.run(sys.argv[1], lessons.lesson(10), sys.argv[2], "
            "plan=plan.Plan(seed=3, per_student=True)); "
            "print(sorted((r['status'], r['exit_code'], r['seed']) for r in done.rows))")

    ran = subprocess.run([sys.executable, "-c", code, str(tmp_path / "submissions"), str(out)],
                         cwd=PROJECT, env=broken_sandbox, capture_output=True, text=True,
                         timeout=300)

    assert ran.returncode == 0, ran.stderr
    rows = summary(out)["submissions"]
    assert {(r["status"], r["exit_code"]) for r in rows} == {("grader failed", 3)}, rows
    assert all("not the submission" in r["problem"] for r in rows), rows
    seeds = {r["submission"]: r["seed"] for r in rows}
    per_student = Plan(seed=3, per_student=True)
    assert seeds == {n: per_student.seed_for(n) for n in ("alice", "bob")} \
        and seeds["alice"] != seeds["bob"], seeds
    assert summary(out)["seed_mode"] == "per-student"

    again = lab_check("--lesson", "10", "--batch", str(tmp_path / "submissions"), "--output",
                      str(out), "--resume", "--jobs", "2")

    assert again.returncode == 0, again.stderr
    rows = {r["submission"]: r for r in summary(out)["submissions"]}
    assert {r["status"] for r in rows.values()} == {"graded"}, rows
    assert rows["alice"]["score"] == TOTAL and rows["alice"]["seed"] == seeds["alice"], rows


def test_every_command_the_instructor_guide_shows_for_a_class_is_one_lab_check_takes():
    from lab import lab_check as cli

    readme = (PROJECT / "docs" / "instructor.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Grading a class"):readme.index("## Proving a lesson")]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.startswith("lab-check ")]

    assert len(commands) == 3, block
    import shlex
    for line in commands:
        args = cli.parser().parse_args(shlex.split(line)[1:])
        assert args.batch and cli._mistake(args) is None, (line, cli._mistake(args))


def test_the_progress_line_says_done_of_total_elapsed_and_about_how_long_is_left():
    from lab.grader.progress_bar import Progress
    from lab.grader.results import Grade
    from lab.sandbox.outcome import TestResult

    class Log(list):
        def write(self, text):
            self.append(text)

        def flush(self):
            pass

    ticks = iter([0.0, 10.0, 20.0, 95.0])
    log = Log()
    progress = Progress(6, log, already=2, now=lambda: next(ticks))
    grade = Grade(lesson=10, title="t", harness="h", tests=[TestResult("test_a", "passed")])

    progress.done("alice", grade)
    progress.done("bob", grade)
    progress.done("carol", grade)

    assert log[0] == "[3/6] alice: 1 of 1 point (0:10 elapsed, about 0:30 left)\n", log
    assert log[1] == "[4/6] bob: 1 of 1 point (0:20 elapsed, about 0:20 left)\n", log
    assert log[2].endswith("(1:35 elapsed, about 0:32 left)\n"), log


def test_a_released_zip_is_counted_by_the_files_in_it(tmp_path):
    import zipfile

    from lab import release

    with zipfile.ZipFile(tmp_path / "a.zip", "w") as archive:
        for name in ("setup.sh", "run_autograder", "lab/x.py"):
            archive.writestr(name, "x")

    assert release._size(tmp_path / "a.zip").startswith("3 files, ")


def test_only_a_name_the_class_does_not_have_is_refused_naming_it_and_grading_nothing(tmp_path):
    make_class(tmp_path / "submissions", ["alice", "José García"])

    run = lab_check("--lesson", "10", "--batch", str(tmp_path / "submissions"), "--output",
                    str(tmp_path / "out"), "--only", "../x", "José García/")

    assert run.returncode == 2 and "../x" in run.stderr and "José García" in run.stderr, \
        run.stderr
    assert "alice" in run.stderr, "the refusal should list the submissions there are"
    assert not (tmp_path / "out" / "results").exists()


@pytest.mark.parametrize("text", ["{not json", "[1, 2]"])
def test_resuming_from_a_summary_that_is_not_one_is_refused_before_grading(tmp_path, text):
    make_class(tmp_path / "submissions", ["alice"])
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "summary.json").write_text(text)

    run = lab_check("--lesson", "10", "--batch", str(tmp_path / "submissions"), "--output",
                    str(tmp_path / "out"), "--resume")

    assert run.returncode == 2 and "summary.json" in run.stderr, run.stderr
    assert (tmp_path / "out" / "summary.json").read_text() == text, "written over"


def test_gradescopes_overall_output_counts_the_visible_tests_and_names_no_hidden_one(tmp_path):
    (tmp_path / "submission").mkdir()
    (tmp_path / "submission" / "harness.py").write_text(LESSON.starter.read_text())

    ran = subprocess.run([sys.executable, "-m", "lab.release.autograder", "--lesson", "10",
                          "--root", str(tmp_path)], cwd=PROJECT, capture_output=True,
                         text=True, timeout=300)

    assert ran.returncode == 0, ran.stdout + ran.stderr
    results = json.loads((tmp_path / "results" / "results.json").read_text())
    visible = [t for t in results["tests"] if t["visibility"] == "visible"]
    passed = sum(t["status"] == "passed" for t in visible)
    assert f"Visible tests: {passed} passed, {len(visible) - passed} failed" \
        in results["output"], results["output"]
    assert not [t for t in HIDDEN if title(t) in results["output"]], results["output"]
    assert len(results["tests"]) == len(LISTED), "every test, hidden ones too, goes to Gradescope"


def test_resume_refuses_other_options_than_its_batchs_naming_them_and_goes_on_with_the_same(
        tmp_path):
    submissions, out = make_class(tmp_path / "submissions", ["alice", "bob"]), tmp_path / "out"
    chosen = title(VISIBLE[0])
    batch = ["--lesson", "10", "--batch", str(submissions), "--output", str(out)]
    first = lab_check(*batch, "--only", "alice", "-k", chosen, "--time-limit", "4", "--seed", "5")
    assert first.returncode == 0, first.stderr
    before = stamps(out)

    no_k = lab_check(*batch, "--resume", "--time-limit", "4")
    other_limits = lab_check(*batch, "--resume", "-k", chosen, "--time-limit", "9",
                             "--memory-limit", "512")
    hidden = lab_check(*batch, "--resume", "-k", chosen, "--time-limit", "4", "--show-hidden")
    reseeded = lab_check(*batch, "--resume", "-k", chosen, "--time-limit", "4", "--seed", "7")
    refused = {"no -k": no_k, "limits": other_limits, "--show-hidden": hidden, "seed": reseeded}
    after_refusals = stamps(out)
    same = lab_check(*batch, "--resume", "-k", chosen, "--time-limit", "4")

    for why, run in refused.items():
        said = [line for line in run.stderr.splitlines() if line.strip()]
        assert run.returncode == 2 and len(said) == 1, (why, run.stderr)
        assert "Traceback" not in run.stderr and "fresh output folder" in said[0], said
    assert "-k" in no_k.stderr and "no -k" in no_k.stderr, no_k.stderr
    assert "--time-limit 4" in other_limits.stderr and "--time-limit 9" in other_limits.stderr
    assert "--memory-limit 1024" in other_limits.stderr and " -k " not in other_limits.stderr, \
        "only what differs is named: " + other_limits.stderr
    assert "--show-hidden" in hidden.stderr, hidden.stderr
    assert "--seed 5" in reseeded.stderr and "--seed 7" in reseeded.stderr, reseeded.stderr
    assert after_refusals == before, "a refused --resume graded or wrote something"
    assert same.returncode == 0, same.stderr
    rows = {r["submission"]: r for r in summary(out)["submissions"]}
    assert set(rows) == {"alice", "bob"} and summary(out)["select"] == chosen
    assert [rows[n]["passed"] + rows[n]["failed"] for n in ("alice", "bob")] == [1, 1], rows
