"""class.json and class.html: the class at a glance (lab/grader/glance.py) written beside the
summary, the page with its two figures drawn as the lessons' figures are (plain SVG strings in
the house's fonts and colours, lab.figures; no script, nothing fetched).

  the distribution   a bar for each band of scores, its count above it, the mean and median
                     marked on the axis
  the failure rates  a bar for each test, most failed first, its share of the graded
                     submissions written beside it; a hidden test is marked (hidden)

The tables under them hold the same figures and what a figure cannot: each test's most frequent
failure messages, the groups of identical and near-identical submissions, and the rows not
graded with why. Every text is escaped for HTML; both files are written whole or not at all.
"""

from __future__ import annotations

import json
import os
import pathlib
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from lab.kit.figures import GREEN, INK, MUTED, RED, SANS  # lab/kit/figures.py, as lab.figures
from lab.grader.glance import HTML_FILE, JSON_FILE
from lab.kit.counting import counted
from lab.grader.whole_file import write_text

BAR_W, CHART_H, RATE_ROW, RATE_W, LABEL_W, PAD = 46, 180, 22, 300, 280, 14
GRID, FILL = "#dddddd", "#5b7db1"


def write(view: Mapping[str, Any], out: str | os.PathLike[str]) -> None:
    """class.json and class.html of `view` into the folder `out`."""
    out = pathlib.Path(out)
    write_text(out / JSON_FILE, json.dumps(view, indent=1, ensure_ascii=False) + "\n")
    write_text(out / HTML_FILE, page(view))


def distribution_svg(spread: Mapping[str, Any], total: float) -> str:
    """The scores' distribution as an SVG bar chart."""
    bands: Sequence[Mapping[str, Any]] = spread["bands"]
    most = max([b["count"] for b in bands] + [1])
    width, height = PAD * 2 + BAR_W * len(bands) + 50, CHART_H + 110
    base = PAD + 20 + CHART_H
    parts = [_svg_open(width, height, "The scores' distribution"),
             f'<line x1="{PAD + 30}" y1="{base}" x2="{width - PAD}" y2="{base}" '
             f'stroke="{MUTED}"/>']
    for n, band in enumerate(bands):
        x = PAD + 34 + n * BAR_W
        tall = CHART_H * band["count"] / most
        parts.append(f'<rect x="{x}" y="{base - tall:.1f}" width="{BAR_W - 8}" '
                     f'height="{tall:.1f}" fill="{FILL}"><title>{band["count"]} scored '
                     f'{band["from"]:g} to {band["to"]:g}</title></rect>')
        parts.append(_text(x + (BAR_W - 8) / 2, base - tall - 4, str(band["count"]), INK, "middle"))
        parts.append(_text(x - 4, base + 14, f'{band["from"]:g}', MUTED, "middle"))
    parts.append(_text(PAD + 30 + BAR_W * len(bands), base + 14, f"{total:g}", MUTED, "middle"))
    for name, colour, offset in (("mean", RED, 34), ("median", GREEN, 50)):
        value = spread.get(name)
        if value is not None and total:
            x = PAD + 34 + (BAR_W * len(bands) - 8) * value / total
            parts.append(f'<line x1="{x:.1f}" y1="{PAD + 16}" x2="{x:.1f}" y2="{base}" '
                         f'stroke="{colour}" stroke-dasharray="4 3"/>')
            parts.append(_text(x, base + offset, f"{name} {value:g}", colour, "middle"))
    parts.append("</svg>")
    return "".join(parts)


def rates_svg(tests: Sequence[Mapping[str, Any]]) -> str:
    """Each test's failure rate as a horizontal bar, most failed first."""
    width, height = LABEL_W + RATE_W + 70 + PAD * 2, PAD * 2 + RATE_ROW * max(len(tests), 1)
    parts = [_svg_open(width, height, "Each test's failure rate")]
    for n, test in enumerate(tests):
        y = PAD + n * RATE_ROW
        hidden = test["visibility"] != "visible"
        label = _fit(test["test"], 31 if hidden else 40) + (" (hidden)" if hidden else "")
        parts.append(_text(PAD + LABEL_W - 8, y + 15, label, INK, "end"))
        parts.append(f'<rect x="{PAD + LABEL_W}" y="{y + 4}" width="{RATE_W}" height="14" '
                     f'fill="none" stroke="{GRID}"/>')
        parts.append(f'<rect x="{PAD + LABEL_W}" y="{y + 4}" width="{RATE_W * test["rate"]:.1f}" '
                     f'height="14" fill="{RED if test["rate"] >= 0.5 else FILL}">'
                     f'<title>{escape(test["test"])}: {test["failed"]} failed</title></rect>')
        parts.append(_text(PAD + LABEL_W + RATE_W + 6, y + 15, f'{test["rate"]:.0%}', INK,
                           "start"))
    parts.append("</svg>")
    return "".join(parts)


def page(view: Mapping[str, Any]) -> str:
    """class.html: the figures, then the tables."""
    spread, tests = view["distribution"], view["tests"]
    title = f"Lesson {view['lesson']}: the class at a glance"
    rows = "".join(
        f"<tr><td><code>{escape(t['test'])}</code>"
        f"{' <small>(hidden)</small>' if t['visibility'] != 'visible' else ''}</td>"
        f"<td>{t['failed']}</td><td>{t['rate']:.0%}</td><td>"
        + ("<ul>" + "".join(f"<li>{m['count']} × <code>{escape(m['message'])}</code></li>"
                            for m in t["messages"]) + "</ul>" if t["messages"] else "")
        + "</td></tr>" for t in tests)
    groups = "".join(
        f"<li><b>{escape(g['kind'])}</b>{' (the starter, unchanged)' if g['starter'] else ''}: "
        + ", ".join(escape(name) for name in g["submissions"]) + "</li>"
        for g in view["identical"]) or "<li>none</li>"
    missing = "".join(f"<tr><td>{escape(r['submission'])}</td><td>{escape(r['status'])}</td>"
                      f"<td>{escape(r['problem'])}</td></tr>" for r in view["not_graded"])
    said = (f"{view['graded']} of {counted(view['submissions'], 'submission')} graded"
            + (f"; mean {spread['mean']:g}, median {spread['median']:g} of "
               f"{counted(view['max_score'], 'point')}; {spread['full_marks']} with full marks"
               if view["graded"] else ""))
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>
body {{ font-family: {SANS}; color: {INK}; max-width: 960px; margin: 2em auto; padding: 0 1em; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ text-align: left; vertical-align: top; padding: 4px 8px;
          border-bottom: 1px solid {GRID}; }}
td ul {{ margin: 0; padding-left: 1.2em; }}
code {{ word-break: break-word; }}
figure {{ margin: 1em 0; overflow-x: auto; }}
figcaption {{ color: {MUTED}; font-size: 0.9em; }}
</style></head><body>
<h1>{escape(title)}</h1>
<p id="gist">{escape(said)}.</p>
<h2>Scores</h2>
<figure id="distribution">{distribution_svg(spread, view["max_score"])}
<figcaption>How many submissions scored in each band of points; the mean and the median
marked.</figcaption></figure>
<h2>Tests most failed</h2>
<figure id="rates">{rates_svg(tests)}
<figcaption>The share of graded submissions that failed each test, most failed first.
</figcaption></figure>
<table id="tests"><thead><tr><th>test</th><th>failed</th><th>rate</th>
<th>most frequent failures</th></tr></thead><tbody>{rows}</tbody></table>
<h2>Identical and near-identical submissions</h2>
<p>Near-identical: the same code once names, comments and spacing are set aside.</p>
<ul id="groups">{groups}</ul>
<h2>Not graded</h2>
<table id="not-graded"><thead><tr><th>submission</th><th>status</th><th>why</th></tr></thead>
<tbody>{missing or '<tr><td colspan="3">every submission was graded</td></tr>'}</tbody></table>
</body></html>
"""


def _svg_open(width: float, height: float, label: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" role="img" aria-label="{escape(label)}" '
            f'font-family="{escape(SANS)}" font-size="12">')


def _text(x: float, y: float, words: str, colour: str, anchor: str) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" fill="{colour}" text-anchor="{anchor}">'
            f"{escape(words)}</text>")


def _fit(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"
