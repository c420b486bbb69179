"""One lab's page: the lesson as its executed notebook holds it, readable without a script.

Top to bottom: the header's links to the previous lab, the map and the next lab; the lesson's
cells in order (markdown rendered by lab.site.markdown, each code cell with its source, its
saved outputs and, where a browser can run it, a Run button that JavaScript reveals); after
the lesson's opening cell, the reader's harness.py (the starter as plain text, which
static/course.js turns into an editor, started from the reader's own file once they open it)
and how the lab is graded, on the reader's own machine;
the footer's links again. The page holds the lab's starter and the finished lesson's saved
outputs, as the student's edition does, and never the finished harness.
"""

import html
from dataclasses import dataclass

from lab.site import browser_support, markdown, cell_outputs as outputs

SETUP_CELL = "setup"  # the notebook's cell that finds the project folder and picks a harness


@dataclass(frozen=True)
class Neighbours:
    """The labs either side of a page in the course, each (label, heading, href) or None."""
    before: tuple[str, str, str] | None
    after: tuple[str, str, str] | None


@dataclass(frozen=True)
class Grading:
    """How the lab is graded on the reader's machine: the edition's command, and the edition's
    file name in the page's folder."""
    command: str
    edition: str


def render(lab, notebook, starter, neighbours, grading, student_file="harness.py"):
    """The page's HTML and its counts: (html, questions, runnable cells)."""
    counter, runnable, body = [0], 0, []
    md = markdown.renderer()
    setup = next((c for c in notebook.cells if c.id == SETUP_CELL), None)
    blocked = browser_support.needs(setup.source) if setup is not None else ""
    if blocked:  # every later cell needs what the setup cell makes
        blocked = (f"This lab's examples start from its setup cell, which {blocked}: a browser "
                   "cannot run them; run them in the notebook.")
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "markdown":
            body.append(f'<section class="md" id="{cell.id}">'
                        f"{markdown.to_html(cell.source, counter, md, cell.id)}</section>")
        elif cell.cell_type == "code":
            html_cell, can = _code(cell, blocked)
            runnable += can
            body.append(html_cell)
        if index == 0:
            body.append(_workbench(starter, student_file) + _grading(grading, lab))
    nav = _nav(neighbours)
    text = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(lab.heading)}</title>
<link rel="stylesheet" href="../assets/site.css">
</head>
<body data-kind="lab" data-lab="{lab.label}" data-file="{html.escape(student_file)}" data-assets="../assets/">
<header>{nav}</header>
<main>
<p class="kicker">{html.escape(lab.label)} · {html.escape(lab.part)} · about {lab.minutes} min</p>
{''.join(body)}
</main>
<footer>{nav}</footer>
<script src="../assets/editor.js"></script>
<script src="../assets/run.js"></script>
<script src="../assets/course.js"></script>
</body>
</html>
"""
    return text, counter[0], runnable


def _code(cell, blocked=""):
    why = blocked or browser_support.why_not(cell.source)
    setup = cell.id == SETUP_CELL
    attributes = f' id="{cell.id}"' + ("" if why else " data-runnable")
    saved = outputs.to_html(cell.get("outputs", []))
    cannot = f'<p class="browser-cannot">{html.escape(why)}</p>' if why else ""
    note = ('<p class="label">Setup: in the browser, <code>harness</code> is the harness.py '
            "in the editor above</p>" if setup else "")
    return (f'<figure class="cell"{attributes}>{note}'
            f'<pre class="source"><code class="language-python">{html.escape(cell.source)}'
            f"</code></pre>"
            f'<div class="cell-bar"><button type="button" class="run" hidden>Run</button>'
            f"{cannot}</div>"
            + (f'<div class="saved"><p class="label">Saved output (the finished lesson\'s)</p>'
               f"{saved}</div>" if saved else "")
            + '<div class="live" hidden><p class="label">Your run, on your harness.py</p>'
              '<div class="live-output"></div></div></figure>'), int(not why)


def _workbench(starter, student_file):
    return f"""<section class="workbench" aria-labelledby="your-file">
<h2 id="your-file">Your {html.escape(student_file)}</h2>
<p>The cells' Run buttons run on this file, in your browser (Pyodide). When you have a
{html.escape(student_file)} of your own (the one lab-check grades, in your copy of the course),
open it here and the editor starts from it; until then it starts as the file this lab starts
from. Your edits are kept in this browser only.</p>
<pre id="starter">{html.escape(starter)}</pre>
<p id="own-file" hidden><label>Start from your own {html.escape(student_file)}:
<input type="file" id="open-harness" accept=".py,text/x-python"></label></p>
<p id="harness-source" role="status"></p>
<div id="editor"></div>
<p id="editor-tools" hidden><button type="button" id="reset-harness">Back to the starter</button>
<button type="button" id="download-harness">Download {html.escape(student_file)}</button></p>
<noscript><p>Running code needs JavaScript. Above is the file this lab starts from
({html.escape(student_file)}); the outputs under the cells are the finished lesson's, saved
when the site was built.</p></noscript>
</section>"""


def _grading(grading, lab):
    get = (f'<p>Download the lab: <a href="{grading.edition}" download>{grading.edition}</a> '
           "(the student's edition: starter, visible tests, notebook, lab_check). Unzip it, "
           "then in its folder:</p>")
    return f"""<section class="grading" aria-labelledby="grading-{lab.label}">
<h2 id="grading-{lab.label}">Grading is on your machine</h2>
{get}
<pre><code>python -m pip install -e .
{html.escape(grading.command)}</code></pre>
<p>This page grades nothing: the Run buttons show what your code does, and only lab_check's
tests, run on your machine, say whether it passes. Paste its <code>--format json</code> result
on the <a href="../index.html">course map</a> to mark the lab passed there.</p>
</section>"""


def _nav(neighbours):
    def link(item, rel, arrow):
        if item is None:
            return "<span></span>"
        label, heading, href = item
        return f'<a rel="{rel}" href="{href}">{arrow} {html.escape(heading)}</a>'
    return (f'<nav class="lab-nav" aria-label="Course">{link(neighbours.before, "prev", "←")}'
            f'<a href="../index.html">Course map</a>{link(neighbours.after, "next", "→")}</nav>')
