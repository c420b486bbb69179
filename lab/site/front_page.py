"""The site's front page: the course's labs in order, what each adds, and the reader's progress.

The order, parts, titles and "adds" lines are lessons/course.toml's (lab.course.order), so the map
says what `lab-check --course` says. A lab with a page links to it; one not written yet is
listed, greyed. Each lab's progress (questions answered, cells run) is counted by
static/course.js from this browser's storage, against the totals the build counted; a lab is
marked passed only by the reader's own `lab-check --format json` result, pasted or uploaded.
"""

import html
from itertools import groupby

from lab.kit.counting import counted


def render(labs, pages):
    """The map's HTML. `labs`: lab.course.order's labs in order; `pages`: {label: (href,
    questions, runnable cells)} for each lab that has a page in this build."""
    parts = []
    for part, members in groupby(labs, key=lambda lab: lab.part):
        rows = "".join(_row(lab, pages.get(lab.label)) for lab in members)
        parts.append(f"<section><h2>{html.escape(part)}</h2><ol>{rows}</ol></section>")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Build an agent harness: the course</title>
<link rel="stylesheet" href="assets/site.css">
</head>
<body data-kind="map" data-assets="assets/">
<main class="map">
<h1>Build an agent harness, lab by lab</h1>
<p>Each lab is a page: read it, answer its questions, run its examples in your browser on your
own harness.py, then grade the lab on your machine with lab_check. Your progress is kept in
this browser only.</p>
{''.join(parts)}
<section aria-labelledby="results">
<h2 id="results">Your lab-check results</h2>
<p>A lab is marked passed here only by what lab_check said on your machine: run
<code>lab-check --format json --output result.json</code> in the lab's folder, then paste the
file or choose it below. The browser grades nothing.</p>
<form id="result-form" hidden>
<label for="result-text">lab-check's JSON result</label>
<textarea id="result-text" rows="4"></textarea>
<p><button type="submit">Mark it</button>
<label>or a file: <input type="file" id="result-file" accept=".json,application/json"></label></p>
<p id="result-said" role="status"></p>
</form>
<noscript><p>Keeping progress needs JavaScript; every page reads without it.</p></noscript>
</section>
</main>
<script src="assets/course.js"></script>
</body>
</html>
"""


def _row(lab, page):
    title = html.escape(lab.heading)
    if page is None:
        why = "its page is not in this build" if lab.written else "not written yet"
        head = f'<span class="title unwritten">{title} ({why})</span>'
        progress = ""
    else:
        href, questions, cells = page
        head = f'<a class="title" href="{href}">{title}</a>'
        progress = (f'<div class="progress" data-progress="{lab.label}" '
                    f'data-questions="{questions}" data-cells="{cells}">'
                    f'{counted(questions, "question")}, '
                    f"{counted(cells, 'cell')} to run</div>")
    return (f'<li>{head} <span class="minutes">· about {lab.minutes} min</span>'
            f'<div class="adds">{html.escape(_adds(lab))}</div>{progress}</li>')


def _adds(lab):
    """What the lab adds, as the seed's closing checklist words it; a checkpoint's as is."""
    return lab.adds[0].upper() + lab.adds[1:] if lab.is_checkpoint else f"Your harness can {lab.adds}."

