"""The grader's own side holds whatever a submission throws at it: a harness.py that is a link
or declares another encoding is refused before anything runs; text no file can hold is written
escaped in every result format; a batch copes with any folder name and never grades a link;
a scratch folder goes away whatever it holds; and a report of outcomes that adds, repeats or
leaves out tests is never believed."""

import ast
import csv
import json
import os
import pathlib
import pwd
import re
import subprocess
import sys
import tempfile
import textwrap
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import PROJECT
from lab.course import lesson_files as lessons
from lab.grader import batch, formats, preflight
from lab.course import manifest
from lab.kit.escape import csv_cell, file_name, printable, shown_name
from lab.grader.results import Grade
from lab.sandbox.outcome import TestResult
from lab.grader.reconcile import NEVER_REPORTED, graded, reconcile
from lab.sandbox.outcome import NEVER_FINISHED
from lab.worker.tidy import remove_tree

LESSON = lessons.lesson(10)
TOTAL = manifest.total(LESSON)
UTF7_SUBMISSION = PROJECT / "tests" / "submissions" / "hides_code_in_utf7.py"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Text a submission can put in a message: a lone surrogate (from undecodable bytes), a NUL, a
# terminal's clear-screen code, a carriage return that hides what came before it, a bell and
# a right-to-left override.
NASTY = ("bad \udcff byte, lone \ud800, nul \x00, clear \x1b[2J, back\rover, bell \x07, "
         "rtl \u202e, not XML \uffff end")
ESCAPED = ("bad \\xff byte", "lone \\ud800", "\\x00", "\\x1b[2J", "\\x0d", "\\x07", "\\u202e", "\\uffff")


def lab_check(*args, cwd=PROJECT):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=cwd, timeout=600,
                          stdin=subprocess.DEVNULL)


# -- preflight: what is graded is what a person reads ---------------------------------------

def test_a_harness_that_is_a_symbolic_link_is_refused_even_when_its_target_would_pass(tmp_path):
    link = tmp_path / "harness.py"
    link.symlink_to(LESSON.finished)

    run = lab_check("--harness", str(link), "--lesson", "10")

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    said = " ".join(run.stdout.split())  # the report wraps its lines
    assert "is a symbolic link" in said and "Submit the file itself, not a link" in said, \
        run.stdout
    assert "nothing was graded" in run.stdout, run.stdout


def test_the_utf7_submission_really_runs_other_code_than_an_editor_shows():
    data = UTF7_SUBMISSION.read_bytes()

    as_python_reads_it = ast.dump(ast.parse(data))
    as_an_editor_shows_it = ast.dump(ast.parse(data.decode("utf-8")))

    assert as_python_reads_it != as_an_editor_shows_it, "the submission hides nothing"
    assert "exec" in as_python_reads_it and "exec" not in as_an_editor_shows_it


def test_a_harness_declaring_utf7_is_refused_with_exit_2_before_it_runs(tmp_path):
    harness = tmp_path / "harness.py"
    harness.write_bytes(UTF7_SUBMISSION.read_bytes())

    run = lab_check("--harness", str(harness), "--lesson", "10")

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert "declares an encoding other than UTF-8 on line 1: # coding: utf-7" in run.stdout, \
        run.stdout
    assert "a grader shows what it grades" in run.stdout, run.stdout


ACCEPTED_CODINGS = {
    "no coding line": b"x = 'caf\xc3\xa9'\n",
    "utf-8": b"# -*- coding: utf-8 -*-\nx = 1\n",
    "utf8": b"# coding: utf8\nx = 1\n",
    "UTF-8 in vim's words": b"#!/usr/bin/env python\n# vim: set fileencoding=UTF-8 :\nx = 1\n",
    "a byte-order mark": b"\xef\xbb\xbfx = 'caf\xc3\xa9'\n",
    "a coding line on line 3, which Python ignores": b"#!/bin/py\n#\n# coding: utf-7\nx = 1\n",
    "a coding line after code, which Python ignores": b"x = 1\n# coding: utf-7\n",
}
REFUSED_CODINGS = {
    "utf-7 on line 1": (b"# coding: utf-7\nx = 1\n", 1),
    "latin-1 on line 2": (b"#!/usr/bin/env python\n# -*- coding: latin-1 -*-\nx = 1\n", 2),
    "an encoding Python does not know": (b"# coding: klingon\nx = 1\n", 1),
    "a byte-order mark with latin-1": (b"\xef\xbb\xbf# coding: latin-1\nx = 1\n", 1),
}


@pytest.mark.parametrize("case", ACCEPTED_CODINGS)
def test_a_source_python_reads_as_utf8_is_accepted_and_means_what_an_editor_shows(case):
    data = ACCEPTED_CODINGS[case]

    problem = preflight.coding_problem(data)

    assert problem is None, problem
    assert ast.dump(ast.parse(data)) == ast.dump(ast.parse(data.decode("utf-8-sig"))), \
        "accepted, yet Python reads it otherwise than as UTF-8"


@pytest.mark.parametrize("case", REFUSED_CODINGS)
def test_a_coding_line_naming_anything_but_utf8_is_refused_naming_its_line(case):
    data, line = REFUSED_CODINGS[case]

    problem = preflight.coding_problem(data, "harness.py")

    assert problem and f"declares an encoding other than UTF-8 on line {line}" in problem, problem
    assert "a grader shows what it grades" in problem and "save the file as UTF-8" in problem


def test_the_earlier_checks_still_come_first_not_utf8_and_empty(tmp_path):
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"x = 'caf\xe9'\n")
    empty = tmp_path / "empty.py"
    empty.write_bytes(b"\n")

    assert "is not UTF-8 text (byte 8" in preflight.read_problem(str(latin))
    assert "is empty" in preflight.read_problem(str(empty))


def test_a_link_to_a_folder_and_a_dangling_link_are_refused_as_links(tmp_path):
    (tmp_path / "to_folder").symlink_to(tmp_path)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere.py")

    for name in ("to_folder", "dangling"):
        problem = preflight.read_problem(str(tmp_path / name))

        assert "is a symbolic link" in problem, f"{name}: {problem}"


# -- result files: always written, always readable -------------------------------------------

def nasty_grade():
    """A grade whose every kind of text holds characters no file or terminal should get raw."""
    return Grade(lesson=10, title="The poisoned transcript",
                 harness=os.fsdecode(b"/tmp/caf\xe9/harness.py"), sha256="cd" * 32, seconds=2.0,
                 tests=[TestResult("test_a", "failed", NASTY, printed=NASTY + "\n", points=2),
                        TestResult("test_b", "error", "the grader broke: " + NASTY),
                        TestResult("test_c", "passed", printed=NASTY),
                        TestResult("test_\uffff\x00forged", "failed", "a name no file can hold")])


def read_back(path, fmt):
    """Every text in a result file, parsed the way its reader parses it, joined by newlines."""
    if fmt in ("json", "gradescope", "classroom"):
        return "\n".join(strings_in(json.loads(path.read_text(encoding="utf-8"))))
    if fmt == "junit":
        return "\n".join([*(text for element in ET.parse(path).getroot().iter()
                            for text in (element.text or "", *element.attrib.values()))])
    return path.read_text(encoding="utf-8")


def strings_in(data):
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from strings_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from strings_in(item)


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_text_no_file_can_hold_is_written_escaped_and_the_file_parses_back(tmp_path, fmt):
    path = tmp_path / f"result.{fmt}"

    formats.write(nasty_grade(), fmt, path)

    text = read_back(path, fmt)
    for escaped in ESCAPED:
        assert escaped in text, f"{escaped} is missing from the {fmt} result:\n{text}"
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff\u202e\uffff]", text), \
        f"a raw hidden character reached the {fmt} result"
    assert "caf\\xe9" in text, f"the harness path was not written escaped:\n{text}"


def test_a_json_result_of_escaped_text_reads_back_as_a_grade_with_the_escapes(tmp_path):
    path = formats.write(nasty_grade(), "json", tmp_path / "result.json")

    back = Grade.from_dict(json.loads(path.read_text(encoding="utf-8")))

    assert back.tests[0].message == printable(NASTY), back.tests[0].message
    assert (back.score, back.max_score, back.exit_code) == (1, 5, 3), back


def test_printable_is_idempotent_keeps_lines_and_tabs_and_always_encodes():
    once = printable(NASTY + "\n\tindented")

    assert printable(once) == once, "escaping twice changed the text"
    assert once.endswith("\n\tindented"), once
    once.encode("utf-8")  # no lone surrogate left to fail here


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_an_import_error_with_a_lone_surrogate_still_gets_its_result_file(tmp_path, fmt):
    harness = tmp_path / "harness.py"
    harness.write_text("raise RuntimeError('undecodable: \\udcff, nul: \\x00')\n")
    out = tmp_path / f"result.{fmt}"

    run = lab_check("--harness", str(harness), "--lesson", "10", "--format", fmt,
                    "--output", str(out))

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    text = read_back(out, fmt)
    assert "RuntimeError" in text and "\\xff" in text and "\\x00" in text, text


# -- a batch of odd folder names ------------------------------------------------------------

FORMULAS = (b'=HYPERLINK("evil.example","click me")', b"+1+1", b"-2+3",
            b"@SUM(A1:A9)", b"\tTAB")
BROKEN = (b"line\nbreak", b"summary.json", b"summary.csv", b"results", *FORMULAS)
FINISHED = b"caf\xe9"  # not UTF-8: the name of a folder made on a Latin-1 system


@pytest.fixture(scope="module")
def odd_batch(tmp_path_factory):
    """A batch whose folders have every awkward kind of name, two of them links, graded once.
    Each broken harness has a syntax error on a line naming its folder's number, so that every
    result can be traced to the folder it came from."""
    root = tmp_path_factory.mktemp("odd")
    submissions, out = root / "submissions", root / "out"
    base = os.fsencode(submissions)
    os.mkdir(base)
    os.mkdir(os.path.join(base, FINISHED))
    pathlib.Path(os.fsdecode(os.path.join(base, FINISHED, b"harness.py"))).write_bytes(
        LESSON.finished.read_bytes())
    for number, name in enumerate(BROKEN):
        os.mkdir(os.path.join(base, name))
        with open(os.path.join(base, name, b"harness.py"), "w") as harness:
            harness.write(f"folder_{number} = (:\n")
    os.mkdir(os.path.join(base, b"linked_harness"))
    os.symlink(b"../" + FINISHED + b"/harness.py", os.path.join(base, b"linked_harness",
                                                                    b"harness.py"))
    os.symlink(FINISHED, os.path.join(base, b"linked_folder"))

    run = lab_check("--lesson", "10", "--batch", str(submissions), "--output", str(out),
                    "--jobs", "2")

    summary_file = out / "summary.json"
    summary = json.loads(summary_file.read_text(encoding="utf-8")) if summary_file.exists() \
        else {}
    rows = {row["submission"]: row for row in summary.get("submissions", [])}
    return {"run": run, "out": out, "summary": summary, "rows": rows,
            "names": [FINISHED, *BROKEN, b"linked_harness", b"linked_folder"]}


def test_a_batch_of_odd_names_finishes_with_a_summary_row_and_a_result_file_for_each(odd_batch):
    run, rows, out = odd_batch["run"], odd_batch["rows"], odd_batch["out"]

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert sorted(rows) == sorted(shown_name(name) for name in odd_batch["names"]), sorted(rows)
    files = [row["result_file"] for row in rows.values()]
    assert len(set(files)) == len(files), f"two submissions share a result file: {files}"
    for file in files:
        assert file.startswith("results/") and (out / file).is_file(), file
        json.loads((out / file).read_text(encoding="utf-8"))


def test_every_folder_name_is_shown_escaped_in_the_summary_and_the_progress(odd_batch):
    rows, stderr = odd_batch["rows"], odd_batch["run"].stderr

    assert "caf\\xe9" in rows and "line\\x0abreak" in rows and "\\x09TAB" in rows, sorted(rows)
    for name in rows:
        assert not re.search("[\x00-\x1f\x7f\ud800-\udfff]", name), repr(name)
    progress = [line for line in stderr.splitlines() if line.startswith("[")]
    assert len(progress) == len(rows), stderr


def test_each_result_file_holds_its_own_folders_grade_not_the_summary(odd_batch):
    out, rows = odd_batch["out"], odd_batch["rows"]

    for number, name in enumerate(BROKEN):
        row = rows[shown_name(name)]
        result = json.loads((out / row["result_file"]).read_text(encoding="utf-8"))

        assert f"folder_{number} = (:" in result["problem"], (name, result["problem"])
        assert row["exit_code"] == 2 and row["score"] == 0 and row["max_score"] == TOTAL, row
    assert odd_batch["summary"]["lesson"] == 10, "summary.json is not the batch's summary"


def test_no_cell_of_summary_csv_would_start_a_formula_in_a_spreadsheet(odd_batch):
    with open(odd_batch["out"] / "summary.csv", encoding="utf-8", newline="") as table:
        csv_rows = list(csv.DictReader(table))

    for row in csv_rows:
        for column, cell in row.items():
            assert not cell.startswith(FORMULA_STARTS), f"{column} of {row['submission']}: {cell}"
    shown = [row["submission"] for row in csv_rows]
    assert "'" + shown_name(FORMULAS[0]) in shown, shown
    assert len(csv_rows) == len(odd_batch["rows"]), "summary.csv and summary.json disagree"


def test_a_linked_folder_and_a_linked_harness_are_refused_not_graded_as_their_target(odd_batch):
    rows = odd_batch["rows"]

    assert rows["caf\\xe9"]["score"] == TOTAL, "the link's target should have scored in full"
    for name in ("linked_folder", "linked_harness"):
        row = rows[name]
        assert (row["exit_code"], row["score"], row["sha256"]) == (2, 0, ""), row
        assert "symbolic link" in row["problem"], row["problem"]
    assert "to caf\\xe9" in rows["linked_folder"]["problem"], rows["linked_folder"]["problem"]


def test_a_batch_refuses_an_output_folder_that_is_the_batch_folder_itself(tmp_path):
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / "harness.py").write_text("x = 1\n")

    run = lab_check("--lesson", "10", "--batch", str(tmp_path), "--output", str(tmp_path))

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert "Name an output folder of its own" in run.stderr, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice"], "something was written"


NAMES = [b"alice", b"caf\xe9", "café".encode(), b"caf\\xe9", b"line\nbreak", b"line\\x0abreak",
         b"\xc2\x85", b"\x85", b"summary.json", b".hidden", b"-rf", b"..", b"=1+1", b"x" * 255]


def test_shown_names_and_file_names_tell_every_name_apart():
    shown = [shown_name(name) for name in NAMES]
    files = [file_name(name) for name in NAMES]

    assert len(set(shown)) == len(NAMES), shown
    assert len(set(files)) == len(NAMES), files


def test_a_batch_names_two_submissions_whose_result_files_would_clash():
    found = [pathlib.Path("alice"), pathlib.Path("bob"), pathlib.Path(os.fsdecode(b"caf\xe9"))]

    clashing = batch._clashes(found, lambda name: "same" if name != "alice" else "alice's")

    assert clashing == ["bob", "caf\\xe9"], clashing
    assert batch._clashes(found, file_name) == [], "the real file names clash"


@pytest.mark.parametrize("name", NAMES)
def test_a_file_name_is_safe_to_create_anywhere(name, tmp_path):
    made = file_name(name)

    assert re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}-[0-9a-f]{12}", made) \
        or re.fullmatch(r"unnamed-[0-9a-f]{12}", made), made
    (tmp_path / made).write_text("fits")


def test_a_shown_name_is_readable_for_ordinary_names():
    assert shown_name("alice") == "alice" and shown_name("café") == "café"
    assert shown_name(os.fsdecode(b"caf\xe9")) == shown_name(b"caf\xe9") == "caf\\xe9"


def test_the_instructor_guides_example_of_a_result_file_name_is_what_the_batch_writes():
    readme = (PROJECT / "docs" / "instructor.md").read_text(encoding="utf-8")

    example = re.search(r"`caf\\xe9` gives `([^`]+)\.json`", readme)

    assert example and example[1] == file_name(b"caf\xe9"), example and example[1]


def test_a_csv_cell_is_quoted_only_when_it_would_start_a_formula():
    assert [csv_cell(c) for c in ("=1+1", "+1", "-1", "@A1", "\tx", "\rx")] == \
        ["'=1+1", "'+1", "'-1", "'@A1", "'\tx", "'\rx"]
    assert [csv_cell(c) for c in ("alice", "1.5", "", 3)] == ["alice", "1.5", "", 3]


# -- remove_tree ------------------------------------------------------------------------------

DEPTH = 5000
BUILD_AND_REMOVE = textwrap.dedent("""
    import json, os, sys
    from lab.worker.tidy import remove_tree

    top, outside_file, outside_folder, depth = sys.argv[1:4] + [int(sys.argv[4])]
    os.mkdir(top)
    # a chain `depth` folders deep, built through descriptors: no path could name its bottom
    parent = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=parent)
        child = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=parent)
        os.close(parent)
        parent = child
    os.mkdir("locked", dir_fd=parent)
    os.mkfifo("fifo", dir_fd=parent)
    os.symlink(outside_folder, "link_to_folder", dir_fd=parent)
    os.close(os.open("secret", os.O_CREAT | os.O_WRONLY, 0, dir_fd=parent))
    os.chmod("locked", 0, dir_fd=parent)
    os.close(parent)
    # near the top: a folder with every permission taken away, one that cannot be written,
    # a fifo, links to a file and a folder the grader keeps
    os.makedirs(os.path.join(top, "closed", "inner"))
    open(os.path.join(top, "closed", "inner", "file"), "w").close()
    os.chmod(os.path.join(top, "closed"), 0)
    os.mkdir(os.path.join(top, "read_only"))
    open(os.path.join(top, "read_only", "file"), "w").close()
    os.chmod(os.path.join(top, "read_only", "file"), 0)
    os.chmod(os.path.join(top, "read_only"), 0o500)
    os.mkfifo(os.path.join(top, "fifo"))
    os.symlink(outside_file, os.path.join(top, "link_to_file"))
    os.symlink(outside_folder, os.path.join(top, "link_to_folder"))
    print(json.dumps({"removed": remove_tree(top), "left": os.path.lexists(top)}))
""")


def unused_uid():
    """A uid no account on this machine has, so that running as it touches no one's files."""
    return next(uid for uid in range(47000, 60000) if not _has_account(uid))


def _has_account(uid):
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


@pytest.fixture
def scratch(tmp_path, request):
    """An empty folder for the tree; as a plain user, one that user owns and can reach. Left
    empty afterwards whatever remove_tree did, so that no 5000-deep tree outlives the test."""
    if request.param and os.geteuid() == 0:
        uid = unused_uid()
        parent = pathlib.Path(tempfile.mkdtemp(prefix="lab-tidy-test-"))  # /tmp is open to all
        os.chown(parent, uid, uid)
        prefix = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
    else:
        parent, prefix = tmp_path, []
    yield parent, prefix
    leftover = parent if parent != tmp_path else parent / "tree"
    subprocess.run(["rm", "-rf", "--", leftover], check=False)


def build_and_remove(parent, prefix):
    """Build the awkward tree in `parent`/tree in a process of its own, started behind
    `prefix` (setpriv, to become a plain user), have remove_tree remove it there, and return
    what it said, with the outside file and folder the tree's links pointed to."""
    outside_file, outside_folder = parent / "keep.txt", parent / "keep"
    outside_file.write_text("the grader's\n")
    outside_folder.mkdir()
    (outside_folder / "inside.txt").write_text("also the grader's\n")
    command = [*prefix, sys.executable, "-c", BUILD_AND_REMOVE, str(parent / "tree"),
               str(outside_file), str(outside_folder), str(DEPTH)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, PYTHONPATH=str(PROJECT)))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), outside_file, outside_folder


@pytest.mark.parametrize("scratch", [False, True], ids=["as this user", "as a plain user"],
                         indirect=True)
def test_remove_tree_removes_a_5000_deep_tree_with_locked_folders_fifos_and_links(scratch):
    parent, prefix = scratch

    said, outside_file, outside_folder = build_and_remove(parent, prefix)

    assert said == {"removed": True, "left": False}, said
    assert not os.path.lexists(parent / "tree"), "the tree is still there"
    assert outside_file.read_text() == "the grader's\n", "a link was followed"
    assert (outside_folder / "inside.txt").read_text() == "also the grader's\n", \
        "a link to a folder was followed"


def test_remove_tree_removes_a_link_itself_never_its_target(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    (target / "kept.txt").write_text("kept\n")
    link = tmp_path / "link"
    link.symlink_to(target)

    assert remove_tree(link) is True

    assert not os.path.lexists(link) and (target / "kept.txt").read_text() == "kept\n"


def test_remove_tree_of_nothing_or_of_a_fifo_says_nothing_is_left(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    assert remove_tree(tmp_path / "never_there") is True
    assert remove_tree(fifo) is True and not os.path.lexists(fifo)


def test_remove_tree_reports_what_it_cannot_do_instead_of_raising():
    assert remove_tree("bad\0path") is False


# -- the tally of reported outcomes ------------------------------------------------------------

LISTED = ["test_a", "test_b", "test_c"]


def results(*entries):
    """The worker's results, one (name, outcome, message) each."""
    return [TestResult(*entry) for entry in entries]


def test_a_sound_report_in_any_order_comes_back_in_the_manifests_order():
    reported = results(("test_c", "passed", ""), ("test_a", "failed", "wrong"),
                       ("test_b", "skipped", "not today"))

    final = reconcile(reported, LISTED)

    assert final == [TestResult("test_a", "failed", "wrong"), TestResult("test_b", "skipped",
                                                                     "not today"),
                     TestResult("test_c", "passed", "")], final


def test_a_test_that_never_reported_fails_saying_so_and_the_others_keep_their_outcome():
    final = reconcile(results(("test_b", "passed", "")), LISTED)

    assert final == [TestResult("test_a", "failed", NEVER_REPORTED), TestResult("test_b", "passed"),
                     TestResult("test_c", "failed", NEVER_REPORTED)], final
    assert "never reported a result" in NEVER_REPORTED


def test_an_empty_report_fails_every_test_as_never_reported():
    assert [r.message for r in reconcile([], LISTED)] == [NEVER_REPORTED] * 3


FORGED = {
    "an unknown test": ([("test_a", "passed", ""), ("test_b", "passed", ""),
                         ("test_c", "passed", ""), ("test_extra", "passed", "")],
                        "'test_extra', which the lesson's manifest does not list"),
    "a repeated test": ([("test_a", "passed", ""), ("test_a", "passed", ""),
                         ("test_b", "passed", ""), ("test_c", "passed", "")],
                        "'test_a' more than once"),
}


@pytest.mark.parametrize("case", FORGED)
def test_a_report_with_anything_forged_fails_every_test_saying_what(case):
    reported, said = FORGED[case]

    final = reconcile(results(*reported), LISTED)

    assert [(r.test, r.outcome) for r in final] == [(name, "failed") for name in LISTED], final
    assert all(said in r.message and "cannot be trusted" in r.message for r in final), \
        final[0].message


SOUND = [{"test": "test_b", "outcome": "passed"}, {"test": "test_c", "outcome": "passed"}]
MANIFEST = {name: {"points": 2, "gap": "repair"} for name in LISTED}


@pytest.mark.parametrize("entry", [["test_a", "passed", ""], "test_a", None,
                                   {"test": 1, "outcome": "passed"},
                                   {"outcome": "passed", "message": "no name"}])
def test_an_entry_of_the_workers_frame_that_is_no_tests_record_fails_every_test(entry):
    final = graded([entry, {"test": "test_a", "outcome": "passed"}, *SOUND], MANIFEST)

    assert [(r.test, r.outcome) for r in final] == [(name, "failed") for name in LISTED], final
    assert all("cannot be trusted" in r.message and "''" in r.message for r in final), \
        final[0].message


def test_an_outcome_outside_the_vocabulary_fails_that_test_as_never_finished():
    final = graded([{"test": "test_a", "outcome": "PASSED", "message": "trust me"}, *SOUND],
                   MANIFEST)

    assert [(r.test, r.outcome, r.message) for r in final] == [
        ("test_a", "failed", NEVER_FINISHED), ("test_b", "passed", ""),
        ("test_c", "passed", "")], final


def test_the_manifest_not_the_worker_says_what_a_test_is_worth():
    forged = dict(SOUND[0], points=1000, gap="", visibility="hidden")

    final = graded([{"test": "test_a", "outcome": "failed"}, forged, SOUND[1]], MANIFEST)

    assert [(r.points, r.gap, r.visibility) for r in final] == [(2, "repair", "visible")] * 3
    assert sum(r.score for r in final) == 4, final


def test_with_a_selection_only_the_selected_tests_are_expected():
    final = reconcile(results(("test_c", "passed", "")), LISTED,
                      selected=["test_c", "test_a"])

    assert final == [TestResult("test_a", "failed", NEVER_REPORTED), TestResult("test_c", "passed")]


def test_a_report_of_a_test_the_selection_left_out_fails_every_selected_test():
    final = reconcile(results(("test_a", "passed", ""), ("test_b", "passed", "")), LISTED,
                      selected=["test_a"])

    assert [r.outcome for r in final] == ["failed"], final
    assert "which the selection (-k) left out" in final[0].message, final[0].message


def test_the_callers_own_mistakes_raise_saying_what_to_do():
    with pytest.raises(ValueError, match="select among the manifest's tests"):
        reconcile([], LISTED, selected=["test_z"])
    with pytest.raises(ValueError, match="list each test once"):
        reconcile([], ["test_a", "test_a"])


OUTCOME = st.sampled_from(["passed", "failed", "error", "skipped"])


@given(outcomes=st.lists(OUTCOME, min_size=3, max_size=3),
       forged=st.lists(st.tuples(st.sampled_from([*LISTED, "test_forged"]), OUTCOME),
                       min_size=1, max_size=4),
       dropped=st.sets(st.sampled_from(LISTED)))
def test_adding_to_or_dropping_from_an_honest_report_never_gains_a_point(outcomes, forged,
                                                                         dropped):
    honest = results(*[(name, outcome, "") for name, outcome in zip(LISTED, outcomes)])
    passed = sum(r.outcome == "passed" for r in reconcile(honest, LISTED))

    tampered = [entry for entry in honest if entry.test not in dropped]
    # entries added, not rewritten: a dropped test reported again with another outcome is a
    # rewrite, which only the channel the report travels on can prevent
    tampered += results(*[(name, outcome, "forged") for name, outcome in forged
                          if name not in dropped])

    final = reconcile(tampered, LISTED)
    assert sum(r.outcome == "passed" for r in final) <= passed, final
    assert [r.test for r in final] == LISTED
