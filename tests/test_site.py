"""The course's web site: `lab-check --site` builds it, and lesson 10's page works in Chromium.

One module-scoped build (lesson 10's page and the map: `--site DIR --lesson 10`), then one
headless Chromium (tests/cdp.py) opens the pages from disk, over file://, as a reader who
downloaded the folder would. What is checked is what a reader sees: an option opens its
explanation, by the keyboard, and is remembered; `?run=all` runs the cells on the starter in
Pyodide and the first of the seed's cells prints exactly what the seed shows; no request
leaves the site's folder. Screenshots of the map and of lesson 10's page are written to
build/site-screenshots/ (see the README's "The site"), and the times Pyodide took are printed.
"""

import functools
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import pytest

from lab.course import lesson_files as lessons
from lab.grader import formats
from lab.grader.results import Grade
from lab.sandbox.outcome import TestResult
from lab.release import leaks
from lab.site import browser_support, leak_check, markdown

PROJECT = pathlib.Path(__file__).resolve().parent.parent
SEED = PROJECT / "tests" / "seed"  # the seed lesson's cells and outputs (tests/test_seed_acceptance.py)
SHOTS = PROJECT / "build" / "site-screenshots"
NODE = PROJECT / "node_modules"



def needs_npm(test):
    """The test needs the site's packages from npm; without them it fails and says so."""
    def checked(*args, **kwargs):
        assert (NODE / "pyodide").is_dir(), "node_modules is not installed: run `npm ci` first"
        return test(*args, **kwargs)

    return functools.wraps(test)(checked)


@pytest.fixture(scope="module")
def site():
    folder = pathlib.Path(tempfile.mkdtemp(prefix="site-test-")) / "site"
    try:
        done = subprocess.run([sys.executable, "-m", "lab.lab_check", "--site", str(folder),
                               "--lesson", "10"], cwd=PROJECT, capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        yield folder, done.stdout
    finally:
        shutil.rmtree(folder.parent, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    sys.path.insert(0, str(PROJECT / "tests"))
    from cdp import Browser

    with Browser(timeout=180) as chromium:
        yield chromium


def test_questions_are_marked_by_markdown_it():
    counter = [0]
    html = markdown.to_html("Which?\n\n<details><summary><b>A</b> · One</summary>\n\n"
                            "✗ **No.**\n\n</details>\n\n<details><summary>Two</summary>\n\n"
                            "✓ Yes.\n\n</details>\n\nAfter.\n\n<details><summary>Next</summary>\n"
                            "\nWhy.\n\n</details>\n", counter, cell="warm-up")
    assert counter == [2]
    assert html.count('data-question="warm-up.1"') == 2
    assert html.count('data-question="warm-up.2"') == 1
    assert '<p>✗ <strong>No.</strong></p>' in html  # the explanation's markdown is rendered


def test_a_cell_that_needs_a_process_says_so():
    assert "starts a process" in browser_support.why_not("import subprocess\nsubprocess.run([])")
    assert "local socket" in browser_support.why_not("from lab.notebook.loopback import Loopback")
    assert "course's machine" in browser_support.why_not("from lab.notebook.casebook import replay")
    assert browser_support.why_not("import lab\nawait lab.drive(h.prompt('x'))") == ""


def test_pyodide_gets_no_grader_module():
    files = browser_support.python_files(PROJECT)
    folders = {path.split("/")[1] for path in files if path.startswith("lab/")}
    assert "lab/notebook/harnesses.py" in files and folders == {"__init__.py", "kit", "notebook"}, folders
    assert not any("finished" in path or "wrong" in path for path in files)


@needs_npm
def test_the_build_reports_weight_and_holds_no_answer(site):
    folder, printed = site
    assert "weight: 10/index.html" in printed and "the first Run adds" in printed
    assert (folder / "10" / "edition-10.zip").is_file()
    assert leaks.leaks_in(folder / "10" / "edition-10.zip", lessons.lesson(10)) == []
    page = (folder / "10" / "index.html").read_text()
    assert "<script src=\"http" not in page and "cdn" not in page.lower()
    assert "python lab/lab_check.py --harness harness.py --lesson 10 tests.py" in page
    # readable without a script: the text, a figure and a saved output are plain HTML
    assert "<h1>10 · The poisoned transcript</h1>" in page and "<svg" in page
    assert "the record:       U A[c1,c2,c3] R(c1) R(c2) R(c3) U A" in page


@needs_npm
def test_the_leak_check_finds_an_answer_line_put_in_a_page(site, tmp_path):
    folder, _ = site
    lesson = lessons.lesson(10)
    copy = tmp_path / "site"
    shutil.copytree(folder / "10", copy / "10", ignore=shutil.ignore_patterns("*.zip"))
    (copy / "assets").mkdir()
    assert leak_check.leaks(copy, {"10": lesson}) == []
    line = sorted(leaks.secrets(lesson))[0]
    page = copy / "10" / "index.html"
    escaped = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    page.write_text(page.read_text() + f"<pre>{escaped}</pre>\n")
    assert any("holds a line of the answer" in found for found in leak_check.leaks(copy, {"10": lesson}))


@needs_npm
def test_lesson_10_in_chromium(site, browser):
    folder, _ = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    inside = folder.resolve().as_uri() + "/"
    page = browser.page()

    page.send("Emulation.setScriptExecutionDisabled", value=True)  # a reader without scripts
    page.go(inside + "10/index.html")
    assert "the record:" in page.eval("document.querySelector('#steering .saved').innerText")
    assert "def context_for_model" in page.eval("document.getElementById('starter').innerText")
    assert page.eval("document.querySelector('figure svg, .figure svg').getBoundingClientRect().width > 0")
    page.send("Emulation.setScriptExecutionDisabled", value=False)

    page.go(inside + "10/index.html")
    assert page.eval("document.querySelector('#editor .cm-editor') !== null")  # CodeMirror
    assert "def context_for_model" in page.eval("window.courseHarness()")  # the starter
    option = "details.option[data-option=\"A\"]"  # the page's first question's option A
    assert page.eval(f"document.querySelector('{option}').open") is False
    page.eval(f"document.querySelector('{option} summary').focus()")
    page.press("Enter", "Enter", 13)
    assert page.eval(f"document.querySelector('{option}').open") is True
    assert page.eval(f"document.querySelector('{option} p').offsetHeight > 0")
    assert "Right." in page.eval(f"document.querySelector('{option}').innerText")
    page.wait("Object.keys(localStorage).some(k => k.startsWith('course:10:q:'))", timeout=10)

    page.go(inside + "10/index.html?run=all")  # the choice is remembered across a load
    assert page.eval(f"document.querySelector('{option}').classList.contains('chosen')")
    cold = page.wait("window.courseAllRan === true", timeout=150)
    failed = page.eval("Array.from(document.querySelectorAll('.cell.failed')).map(c => c.id)")
    first = page.eval("document.querySelector('#steering .live-output').innerText")
    assert _lines(first) == _lines((SEED / "cell01.out").read_text())
    assert first.startswith("the record:       U A[c1,c2,c3] R(c1) R(c2) R(c3) U A\n")
    assert failed == []  # the starter's failures are printed by the cells, none raises
    page.eval("document.getElementById('steering').scrollIntoView()")
    page.screenshot(SHOTS / "lesson-10.png")

    started = page.eval("performance.now()")
    page.eval("window.courseRun(document.getElementById('steering'))")
    warm = (page.eval("performance.now()") - started) / 1000
    timings = page.eval("window.courseTimings")

    # The cells run on the reader's harness.py, as the editor holds it now: a steer dropped
    # there shows in the first cell's next run (the setup cell loads the file again first).
    page.eval("window.courseEditor.replace(window.courseHarness() + "
              "'\\nHarness.steer = lambda self, text: None\\n')")
    page.eval("window.courseRun(document.getElementById('steering'))")
    edited = page.eval("document.querySelector('#steering .live-output').innerText")
    assert edited.startswith("the record:       U A[c1,c2,c3] R(c1) R(c2) R(c3) A\n"), edited
    assert page.eval("localStorage.getItem('course:10:harness')").endswith("lambda self, text: None\n")
    print(f"\nPyodide cold start {timings['boot'] / 1000:.1f} s; ?run=all done {cold:.1f} s after "
          f"load; a warm run of the first cell {warm:.2f} s")

    outside = [url for url in page.requests()
               if not url.startswith(inside) and not url.startswith(("data:", "blob:", "about:"))]
    assert outside == []
    assert any(url.endswith("pyodide.asm.wasm.js") for url in page.requests())

    # The map counts what this reader did, and marks a lab passed by their own lab-check result.
    page.go(inside + "index.html")
    progress = page.eval("document.querySelector('[data-progress=\"10\"]').innerText")
    assert progress.startswith("questions answered 1/") and "cells run 0/" not in progress
    result = formats.render(Grade(lesson=10, title="The poisoned transcript", harness="harness.py",
                                  sha256="ab" * 32, tests=[TestResult("test_repair", "passed")]),
                            "json")
    page.eval(f"document.getElementById('result-text').value = {json.dumps(result)}")
    page.eval("document.querySelector('#result-form button[type=submit]').click()")
    assert page.eval("document.querySelector('[data-progress=\"10\"]').closest('li')"
                     ".classList.contains('passed')")
    assert "passed on your machine: 1/1" in page.eval(
        "document.querySelector('[data-progress=\"10\"]').innerText")
    page.screenshot(SHOTS / "map.png")


def test_the_editor_starts_from_the_readers_own_harness_once_they_open_it(site, browser, tmp_path):
    folder, _ = site
    lesson = folder.resolve().as_uri() + "/10/index.html"
    own = tmp_path / "harness.py"
    own.write_text("# lab: lesson 10  (lab-check reads this line)\nMINE = 'my own file'\n")
    page = browser.page()
    page.go(lesson)
    page.eval("localStorage.clear()")
    page.go(lesson)
    assert "def context_for_model" in page.eval("window.courseHarness()")  # nothing opened yet
    assert "open your own harness.py" in page.eval(
        "document.getElementById('harness-source').innerText")
    assert "open it here and the editor starts from it" in page.eval(
        "document.querySelector('.workbench').innerText")

    chooser = page.send("Runtime.evaluate", expression="document.getElementById('open-harness')")
    page.send("DOM.setFileInputFiles", files=[str(own)], objectId=chooser["result"]["objectId"])
    page.wait("window.courseHarness().includes('my own file')", timeout=10)

    assert page.eval("window.courseHarness()") == own.read_text()
    said = page.eval("document.getElementById('harness-source').innerText")
    assert said.startswith("Started from your own harness.py (harness.py)"), said
    page.go(lesson)  # kept in this browser: a reload starts from the reader's file again
    assert page.eval("window.courseHarness()") == own.read_text()
    assert "your own harness.py" in page.eval("document.getElementById('harness-source').innerText")

    own.write_text("# lab: lesson 09  (lab-check reads this line)\nMINE = 'an older file'\n")
    chooser = page.send("Runtime.evaluate", expression="document.getElementById('open-harness')")
    page.send("DOM.setFileInputFiles", files=[str(own)], objectId=chooser["result"]["objectId"])
    page.wait("window.courseHarness().includes('an older file')", timeout=10)
    assert "says it is for 09, not 10" in page.eval(
        "document.getElementById('harness-source').innerText")

    page.eval("document.getElementById('reset-harness').click()")
    assert "def context_for_model" in page.eval("window.courseHarness()")
    assert page.eval("localStorage.getItem('course:10:harness-from')") is None
    assert page.errors() == []


def _lines(text):
    return [line.rstrip() for line in text.strip("\n").splitlines()]


def test_the_site_is_never_written_over_a_folder_that_holds_anything(tmp_path):
    (tmp_path / "old.html").write_text("stale")
    done = subprocess.run([sys.executable, "-m", "lab.lab_check", "--site", str(tmp_path)],
                          cwd=PROJECT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "is not empty" in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["old.html"]
