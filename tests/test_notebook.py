"""Lesson 10's notebook: made from its source, run on a real kernel, and read in a browser.

The notebook is run three times, on a real ipykernel: on the finished harness, on the starter,
and on a correct harness other than the finished one (LAB_HARNESS picks which). What its example cells print is held against the seed
lesson's printed output, our trusted reference. The finished run is then exported to HTML and
opened in headless Chromium, which must log no errors; a screenshot of the page and one of
each figure are written to NOTEBOOK_SCREENSHOTS, or to a folder of this test run.
"""

import os
import pathlib
import time
import xml.etree.ElementTree as ElementTree

import nbformat
import pytest
from jinja2 import DictLoader
from nbconvert import HTMLExporter

from cdp import CHROMIUM, Browser
from lab.course import lesson_files as lessons
from lab.notebook import ipynb as notebook
import notebooks
from seed_outputs import SEED

LESSON = lessons.lesson(10)
SOURCE, COMMITTED = LESSON.folder / notebook.SOURCE, LESSON.folder / notebook.NOTEBOOK
SVG = "image/svg+xml"

# What the seed lesson prints under each example, by the id of the notebook cell that is
# the same example (see seed_outputs.py).
EXPECTED = SEED
FIGURES = {  # figure cell -> words its SVG must hold, because the transcript it draws says them
    "figure-10-1": ["A[c1]", "toolCall c1 has no toolResult", "a provider refuses this"],
    "figure-10-2": ["a healthy pair", *["missing_result", "orphan_result", "late_result",
                                        "duplicate_result", "failed_reply_with_a_call"]],
    "figure-10-3": ["A(error)", "R(c1)", "not in the view", "not in the record"],
}
# Appended to the executed copy only: what `harness` is once every cell has run (the suite's
# probe of lesson 10, which every run of this notebook in the suite carries: see notebooks.PROBES).
PROBE = notebooks.PROBES[10]


# -- the committed notebook --

def test_committed_notebook_is_exactly_what_its_source_makes():
    made = notebook.build(SOURCE.read_text(encoding="utf-8"), str(SOURCE))

    committed = COMMITTED.read_text(encoding="utf-8")

    assert committed == made, (
        f"{COMMITTED.relative_to(lessons.PROJECT)} is not what "
        f"{SOURCE.relative_to(lessons.PROJECT)} makes; edit the source, then run "
        "`python -m lab.notebook.ipynb` from the project root")


def test_committed_notebook_is_valid_nbformat_with_every_output_stripped():
    nb = nbformat.reads(COMMITTED.read_text(encoding="utf-8"), as_version=4)

    nbformat.validate(nb)
    dirty = [cell.id for cell in nb.cells if cell.cell_type == "code"
             and (cell.outputs or cell.execution_count is not None)]

    assert dirty == [], f"expected no outputs and no execution counts; these cells have some: {dirty}"
    assert nbformat.writes(nb) + "\n" == COMMITTED.read_text(encoding="utf-8"), (
        "expected the file to be byte for byte what nbformat itself would write")


def test_source_cells_in_the_wrong_form_are_refused_with_the_line_number():
    source = "# %% [markdown]\n# fine\nnot a comment\n"

    with pytest.raises(notebook.SourceError) as refused:
        notebook.read(source, "walkthrough.py")

    assert "walkthrough.py, line 3" in str(refused.value), (
        f"expected the message to name line 3; got {refused.value}")


def test_every_card_shows_its_choices_behind_a_click():
    nb = nbformat.reads(COMMITTED.read_text(encoding="utf-8"), as_version=4)

    markdown = "\n".join(cell.source for cell in nb.cells if cell.cell_type == "markdown")
    opened, closed = markdown.count("<details>"), markdown.count("</details>")

    assert opened == closed and opened >= 40, (
        f"expected every choice of every card in a <details> block, opened and closed "
        f"(40 or more); got {opened} opened, {closed} closed")
    for card in ("Card 1", "Card 2", "Card 3", "Card 4", "Card 5"):
        assert card in markdown, f"expected a markdown cell for {card}; none mentions it"


# -- the notebook, run on a real kernel --

@pytest.fixture(scope="module")
def on_finished():
    return notebooks.on(LESSON, LESSON.finished)


@pytest.fixture(scope="module")
def on_starter():
    return notebooks.on(LESSON, LESSON.starter)


@pytest.fixture(scope="module")
def on_right(tmp_path_factory):
    """The notebook on a correct harness other than the finished one: right/pairs_by_occurrence,
    which pairs results with calls by occurrence and so answers a reused id correctly."""
    answer = tmp_path_factory.mktemp("right") / "harness.py"
    answer.write_text(LESSON.variant(LESSON.folder / "right" / "pairs_by_occurrence.py"))
    return notebooks.run(LESSON, answer, extra=PROBE)


def printed(nb, cell_id):
    return tidy(notebooks.printed(nb, cell_id))


def tidy(text):
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines())


def assert_examples_print_what_the_lesson_shows(nb, harness_name):
    for cell_id, expected in EXPECTED.items():
        got = printed(nb, cell_id)
        assert got == tidy(expected), (
            f"on the {harness_name} harness, cell {cell_id!r} should print what the seed lesson "
            f"shows.\n--- expected\n{tidy(expected)}\n--- got\n{got}")


def test_on_the_finished_harness_every_example_prints_what_the_lesson_shows(on_finished):
    nb = on_finished

    assert_examples_print_what_the_lesson_shows(nb, "finished")


def test_on_the_finished_harness_the_first_cell_names_it_and_says_why(on_finished):
    nb = on_finished

    said = printed(nb, "setup")

    assert said == ("examples run on: lessons/10-poisoned-transcript/finished.py\n"
                    "why: LAB_HARNESS names it"), f"expected the pick and its reason; got:\n{said}"


def test_on_the_starter_every_cell_runs_and_the_repair_examples_fall_back_to_finished(on_starter):
    nb = on_starter

    first, switch = printed(nb, "setup"), printed(nb, "repair-switch")

    assert first.startswith("examples run on: lessons/10-poisoned-transcript/starter.py"), (
        f"expected the first cell to pick the starter that LAB_HARNESS names; got:\n{first}")
    assert "does not repair a dangling call yet" in first, (
        f"expected the first cell to say the starter has no repair; got:\n{first}")
    assert switch.startswith("examples run on: lessons/10-poisoned-transcript/finished.py\n"
                             "why: lessons/10-poisoned-transcript/starter.py does not repair"), (
        f"expected the switch to fall back to the finished harness and say why; got:\n{switch}")
    assert_examples_print_what_the_lesson_shows(nb, "starter")


def test_on_another_correct_harness_every_example_but_the_reused_id_prints_what_the_lesson_shows(on_right):
    nb = on_right

    said = printed(nb, "setup")

    assert said.endswith("why: LAB_HARNESS names it"), f"expected the answer to be used as it is; got:\n{said}"
    for cell_id, expected in EXPECTED.items():
        if cell_id == "id-reuse":  # the one case the lesson's own repair gets wrong, and this one right
            assert "toolResult c1 -> \"B = 2\\n\"" in printed(nb, cell_id), printed(nb, cell_id)
            continue
        assert printed(nb, cell_id) == tidy(expected), f"cell {cell_id!r} on right/pairs_by_occurrence"


@pytest.mark.parametrize("which", ["on_finished", "on_starter", "on_right"])
def test_no_cell_leaves_a_swapped_function_behind_in_harness(which, request):
    nb = request.getfixturevalue(which)

    said = printed(nb, "probe")

    assert said == "probe: context_for_model True", (
        "expected `harness` to end the notebook with its own context_for_model, which repairs "
        f"a dangling call; the probe printed {said!r}")


@pytest.mark.parametrize("which", ["on_finished", "on_starter", "on_right"])
def test_no_cell_writes_an_error_or_to_stderr(which, request):
    nb = request.getfixturevalue(which)

    noisy = [(cell.id, output.get("name") or output.output_type) for cell in nb.cells
             for output in cell.get("outputs", [])
             if output.output_type == "error" or output.get("name") == "stderr"]

    assert noisy == [], f"expected clean outputs; these cells wrote errors or to stderr: {noisy}"


def test_three_figures_come_out_as_well_formed_svg_drawn_from_the_transcripts(on_finished):
    nb = on_finished

    drawn = {cell.id: [o for o in cell.outputs if SVG in o.get("data", {})]
             for cell in nb.cells if cell.cell_type == "code"}
    figures = {cell_id: outputs[0]["data"][SVG] for cell_id, outputs in drawn.items() if outputs}

    assert set(figures) >= set(FIGURES) and len(figures) >= 3, (
        f"expected an {SVG} output from each of {sorted(FIGURES)}; got one from {sorted(figures)}")
    for cell_id, words in FIGURES.items():
        root = ElementTree.fromstring(figures[cell_id])
        text = " ".join("".join(node.itertext()) for node in root.iter())
        assert root.tag == "{http://www.w3.org/2000/svg}svg", (
            f"{cell_id}: expected an <svg> root element; got {root.tag}")
        missing = [word for word in words if word not in text]
        assert missing == [], f"{cell_id}: expected the figure to show {missing}; it does not"


# -- the notebook, exported to HTML and opened in a browser --

OFFLINE = """{%- extends 'lab/index.html.j2' -%}
{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
"""  # JupyterLab's look, without the three scripts it fetches from a CDN: this page has no maths


@pytest.fixture(scope="module")
def output_folder(tmp_path_factory):
    named = os.environ.get("NOTEBOOK_SCREENSHOTS")
    folder = pathlib.Path(named) if named else tmp_path_factory.mktemp("notebook-html")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_exported_html_opens_in_chromium_with_no_console_errors(on_finished, output_folder, capsys):
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium is needed to open the exported notebook and was not found at "
                    f"{CHROMIUM}. Install Debian's package: apt-get install -y chromium "
                    "(.ci/run does this)")
    nb = on_finished
    exporter = HTMLExporter(template_name="lab", template_file="offline.html.j2",
                            extra_loaders=[DictLoader({"offline.html.j2": OFFLINE})])
    html, _ = exporter.from_notebook_node(nb)
    page = output_folder / "walkthrough.html"
    page.write_text(html, encoding="utf-8")

    with Browser() as browser:
        view = browser.page()
        view.send("Emulation.setDeviceMetricsOverride", width=1100, height=900,
                  deviceScaleFactor=1, mobile=False)
        view.go(page.as_uri())
        time.sleep(0.5)  # late scripts: what they log is read with the next replies
        seen = view.eval("""(() => {
            const figures = [...document.querySelectorAll('.jp-RenderedSVG img, .jp-RenderedSVG svg')];
            return {figures: figures.map(f => { const r = f.getBoundingClientRect();
                        return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height,
                                loaded: f.tagName !== 'IMG' || (f.complete && f.naturalWidth > 0)}; }),
                    details: document.querySelectorAll('details').length,
                    width: document.documentElement.scrollWidth,
                    height: document.documentElement.scrollHeight};
        })()""")
        shot = output_folder / "walkthrough.png"
        view.screenshot(shot, clip=(0, 0, seen["width"], seen["height"]))
        for n, box in enumerate(seen["figures"], 1):
            view.screenshot(output_folder / f"figure-{n}.png",
                            clip=(box["x"], box["y"], box["width"], box["height"]))
        errors = view.errors()
        # the same watch on a page that does log errors, each kind once: it must see them
        noisy = output_folder / "errors.html"
        noisy.write_text("<img src='missing.png'><script>console.error('probe');"
                         "setTimeout(() => null.x)</script>", encoding="utf-8")
        probe = browser.page()
        probe.go(noisy.as_uri())
        time.sleep(0.5)
        probe.eval("1")  # one more reply, so that what the page logged meanwhile is read
        probed = probe.errors()

    with capsys.disabled():
        print(f"\nscreenshot of the exported notebook: {shot}")
    assert {e.split(":")[0] for e in probed} == {"console.error", "uncaught", "log"}, probed
    assert errors == [], f"expected no console errors in {page}; Chromium logged:\n" + "\n".join(errors)
    assert len(seen["figures"]) >= 3, f"expected 3 or more figures on the page; found {seen['figures']}"
    broken = [box for box in seen["figures"] if not box["loaded"] or box["width"] < 200]
    assert broken == [], f"expected every figure to load and be drawn wide; these were not: {broken}"
    assert seen["details"] >= 40, f"expected the cards' <details> blocks on the page; found {seen['details']}"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"expected a PNG at {shot}"
