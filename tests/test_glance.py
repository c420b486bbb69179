"""The class at a glance: a real batch's class.json, class.html (read in headless Chromium) and
printed gist, and the fingerprint that finds the same code under other names, comments and
spacing."""

import ast
import json
import subprocess
import sys

import pytest

from cdp import Browser
from conftest import PROJECT
from lab.course import lesson_files as lessons
from lab.grader import fingerprint
from lab.course import manifest

LESSON = lessons.lesson(10)
LISTED = manifest.read(LESSON)["tests"]


def retyped(source):
    """The same code as `source`, written out again by ast: no comments, other spacing and
    quotes: bytes of its own."""
    return ast.unparse(ast.parse(source)) + "\n# mine, honestly\n"


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """A class of five: the finished harness; the starter twice, byte for byte; the starter
    retyped; a file that does not parse."""
    root = tmp_path_factory.mktemp("glance")
    starter = LESSON.starter.read_text()
    files = {"ann": LESSON.finished.read_text() + "\n# ann\n", "ben": starter, "cat": starter,
             "dan": retyped(starter), "eve": "def broken(:\n"}
    for name, text in files.items():
        (root / "class" / name).mkdir(parents=True)
        (root / "class" / name / "harness.py").write_text(text)
    done = subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson",
                           "10", "--batch", str(root / "class"), "--output", str(root / "out"),
                           "--jobs", "2", "--seed", "5"],
                          capture_output=True, text=True, cwd=PROJECT, timeout=900)
    summary = json.loads((root / "out" / "summary.json").read_text())
    view = json.loads((root / "out" / "class.json").read_text())
    return {"done": done, "rows": summary["submissions"], "view": view, "out": root / "out"}


def test_the_class_json_counts_every_graded_score_and_each_tests_failures(batch):
    rows, view = batch["rows"], batch["view"]
    graded = [r for r in rows if r["status"] == "graded"]

    assert batch["done"].returncode == 0, batch["done"].stderr
    assert view["graded"] == len(graded) == 4 and view["submissions"] == 5
    assert sum(b["count"] for b in view["distribution"]["bands"]) == len(graded)
    assert view["distribution"]["full_marks"] == 1  # ann alone
    assert {t["test"] for t in view["tests"]} == set(LISTED)
    for test in view["tests"]:
        assert test["failed"] == sum(test["test"] in r["failed_tests"] for r in graded), test
    rates = [t["rate"] for t in view["tests"]]
    assert rates == sorted(rates, reverse=True)
    top = view["tests"][0]
    assert top["failed"] == 3 and top["messages"], top  # the three starters fail it, saying why
    assert sum(m["count"] for m in top["messages"]) <= 3


def test_identical_and_near_identical_submissions_are_grouped_and_the_starter_named(batch):
    groups = batch["view"]["identical"]

    assert {"kind": "identical", "starter": True, "submissions": ["ben", "cat"]} in groups
    assert {"kind": "near-identical", "starter": True,
            "submissions": ["ben", "cat", "dan"]} in groups
    assert not any("ann" in g["submissions"] or "eve" in g["submissions"] for g in groups)


def test_the_rows_not_graded_are_listed_with_why_and_the_batch_prints_the_gist(batch):
    missing = batch["view"]["not_graded"]
    said = batch["done"].stdout

    assert [m["submission"] for m in missing] == ["eve"] and missing[0]["problem"], missing
    assert "class: 4 submissions graded of 5" in said, said
    assert "most failed: " + batch["view"]["tests"][0]["test"] in said, said
    assert "1 group of submissions identical to one another" in said and "near-identical" in said, said


def test_class_html_shows_both_figures_and_the_tables_in_chromium(batch):
    page_file = batch["out"] / "class.html"
    with Browser() as browser:
        page = browser.page()
        page.go(page_file.as_uri())
        seen = page.eval("""(() => {
            const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                                   return [r.width, r.height]; };
            return {gist: document.querySelector('#gist').textContent,
                    distribution: box('#distribution svg'), rates: box('#rates svg'),
                    bars: document.querySelectorAll('#rates svg rect').length,
                    tests: document.querySelectorAll('#tests tbody tr').length,
                    groups: document.querySelectorAll('#groups li').length,
                    missing: document.querySelector('#not-graded tbody').textContent};
        })()""")
        errors = page.errors()

    assert not errors, errors
    assert seen["gist"].startswith("4 of 5 submissions graded"), seen
    assert all(side > 50 for side in seen["distribution"] + seen["rates"]), seen
    assert seen["bars"] == 2 * len(LISTED) and seen["tests"] == len(LISTED), seen
    assert seen["groups"] == 2 and "eve" in seen["missing"], seen


def test_a_fingerprint_sets_aside_names_comments_and_spacing_and_nothing_else():
    mine = (b"def total(items):\n    s = 0\n    for x in items:\n        s += x  # add\n"
            b"    return s\n")
    theirs = (b'def add_up(values):\n    """Sum."""\n    acc=0\n    for v in values: acc += v\n'
              b"    return acc\n")
    other = b"def total(items):\n    s = 1\n    for x in items:\n        s += x\n    return s\n"

    assert fingerprint.of_source(mine) == fingerprint.of_source(theirs) != ""
    assert fingerprint.of_source(mine) != fingerprint.of_source(other)


@pytest.mark.parametrize("hostile", [b"(" * 100_000, b"x = 1\x00", b"\xff\xfe not text",
                                     b"def f(:\n", b"# coding: rot13\nx = 1\n"])
def test_a_file_that_cannot_be_read_as_python_has_no_fingerprint_and_never_raises(hostile):
    assert fingerprint.of_source(hostile) == ""
