"""Figures of transcripts: SVG drawn from the very lists a lesson builds.

`draw(*panels)` returns a Figure, which Jupyter shows inline (it has `_repr_svg_`, so the
output is image/svg+xml) and which nbconvert's HTML export keeps as an SVG image. Each panel
is one transcript, drawn as a column of boxes, one a message, each headed by its token in
`lab.shape`'s vocabulary (U, A[c1], A[c1](error), R(c1)) with the message itself, as
`lab.show` prints it, underneath.

A panel is checked with `lab.validate` unless told not to be: every message a provider would
complain about gets a red border and a numbered badge, and under the column the complaints are
listed by number, or the word that it would be accepted. With `compare=True` two panels are
laid out row by row, so that a message both hold sits level in both columns, and a message
only one of them holds is marked, with a note where the other column has a gap.

Anything can be drawn: an empty list, a tuple of messages (`h.messages`), a request's
`.messages`, even something that is not a message (drawn as `?`). Long text is cut to fit and
ends in `…`; each box also carries its whole line as an SVG <title>, which a viewer of the
bare SVG shows on hover. Text is XML-escaped, and characters that XML cannot carry are
replaced, so the SVG is always well-formed. Plain strings only: no dependencies, no ids,
nothing fetched.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape as _escape_html

from .message_types import Message

from .display import shape, show
from .validate import validate

MONO = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace"
SANS = "system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', Helvetica, Arial, sans-serif"
CHAR = 0.61          # the width of one character, in ems; a little over, so text never spills

MARGIN, GUTTER, ARROW_GUTTER = 14, 26, 44
PANEL_W, INDENT, GAP, PAD = 290, 16, 6, 8
TOKEN_PX, DETAIL_PX, LABEL_PX, NOTE_PX, TITLE_PX = 12.5, 11, 13, 11.5, 15
TOKEN_LH, DETAIL_LH, NOTE_LH = 17, 14, 15
DETAIL_LINES, ERROR_LINES = 3, 3

INK, MUTED, RED, GREEN, AMBER = "#222222", "#666666", "#c62828", "#2e7d32", "#b26a00"
STYLE = {  # fill, border, token colour
    "user": ("#eef3fb", "#5b7db1", "#27467a"),
    "assistant": ("#f4f4f6", "#8a8a99", "#333333"),
    "failed": ("#fdf0ee", "#c0504d", "#8e2420"),
    "toolResult": ("#eef7f0", "#5f9a6e", "#2c5a37"),
    "summary": ("#f3eefb", "#8a6fbf", "#4b2d83"),
    "note": ("#fbf6ea", "#b8913a", "#6b4f12"),
    "other": ("#ffffff", "#999999", "#555555"),
}
ROLE_WORD = {"user": "user", "assistant": "assistant", "failed": "assistant, failed",
             "toolResult": "tool result", "summary": "summary, by the harness",
             "note": "note, by the harness",
             "other": "not a message"}


@dataclass(frozen=True)
class Panel:
    """One transcript in a figure: its `messages` under a `label`.

    `check=False` draws it without lab.validate's verdict (for a list that is not a request,
    such as the one reply that came back). `note` is a line of prose under the column.
    """
    label: str
    messages: Sequence[Message]  # kept as a tuple
    check: bool = True
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "messages", _as_messages(self.messages))


class Figure:
    """A drawn figure. Jupyter shows it through `_repr_svg_`; `str(figure)` is the SVG text,
    and `save(path)` writes it to a file."""

    def __init__(self, svg: str, width: int, height: int) -> None:
        self.svg, self.width, self.height = svg, width, height

    def _repr_svg_(self) -> str:
        return self.svg

    def __str__(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        return f"<Figure {self.width}x{self.height} SVG>"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the SVG to the file at `path`."""
        with open(path, "w", encoding="utf-8") as file:
            file.write(self.svg)


# What draw() takes as one transcript: a Panel, a (label, messages) pair, or just the messages.
PanelLike = Panel | tuple[str, Iterable[Message]] | Iterable[Message]


def draw(*panels: PanelLike, title: str = "", caption: str = "", compare: bool = False,
         arrows: bool = False, per_row: int = 3) -> Figure:
    """A Figure of one or more transcripts, side by side, `per_row` to a row.

    Each panel is a Panel, a (label, messages) pair, or just the messages. `arrows=True`
    joins each panel to the next with an arrow, for a story told left to right (the record,
    the request built from it, what came back). `compare=True` takes exactly two panels and
    lines them up message by message, marking what only one of them holds; a message counts
    as held by both when it is the same object or an equal dict, so a deep copy still matches.
    """
    drawn = [_as_panel(p, n) for n, p in enumerate(panels, 1)]
    if not drawn:
        raise TypeError("draw() needs at least one transcript, e.g. lab.draw(h.messages)")
    if compare and len(drawn) != 2:
        raise ValueError(f"compare=True lines up exactly two transcripts; got {len(drawn)}. "
                         "Pass the two to compare, e.g. lab.draw(('the record', record), "
                         "('the view', view), compare=True)")
    if per_row < 1:
        raise ValueError(f"per_row must be 1 or more, not {per_row}")
    canvas = _Canvas()
    if compare:
        body_w, body_h = _draw_compared(canvas, drawn, MARGIN, 0)
    else:
        body_w, body_h = _draw_grid(canvas, drawn, MARGIN, 0, min(per_row, len(drawn)), arrows)
    width = body_w + 2 * MARGIN
    top = MARGIN
    head = _Canvas()
    if title:
        for line in _wrap(title, body_w, TITLE_PX):
            top += TITLE_PX + 5
            head.text(MARGIN, top, line, TITLE_PX, INK, SANS, weight="bold")
        top += 12
    bottom = top + body_h
    foot = _Canvas()
    if caption:
        bottom += 8
        for line in _wrap(caption, body_w, NOTE_PX + 0.5):
            bottom += NOTE_LH + 1
            foot.text(MARGIN, bottom, line, NOTE_PX + 0.5, MUTED, SANS, italic=True)
    height = round(bottom + MARGIN)
    label = title or "transcripts: " + " | ".join(p.label or shape(p.messages) for p in drawn)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" style="max-width:100%;height:auto" '
           f'font-family="{_esc(SANS)}">'
           f"<title>{_esc(label)}</title>"
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>'
           + head.svg() + f'<g transform="translate(0,{top})">' + canvas.svg() + "</g>"
           + foot.svg() + "</svg>")
    return Figure(svg, width, height)


# -- layouts --

def _draw_grid(canvas, panels, x0, y0, per_row, arrows):
    """Panels in rows of `per_row`; returns the width and height used."""
    gutter = ARROW_GUTTER if arrows else GUTTER
    width = per_row * PANEL_W + (per_row - 1) * gutter
    y = y0
    for start in range(0, len(panels), per_row):
        row = panels[start:start + per_row]
        laid = [_Column(p) for p in row]
        body_h = max(c.chips_height for c in laid)
        row_h = 0
        for n, column in enumerate(laid):
            x = x0 + n * (PANEL_W + gutter)
            column.draw_label(canvas, x, y)
            cy = y + column.label_height
            for chip in column.chips:
                chip.draw(canvas, x, cy)
                cy += chip.height + GAP
            footer_h = column.draw_footer(canvas, x, y + column.label_height + body_h)
            row_h = max(row_h, column.label_height + body_h + footer_h)
            if arrows and n + 1 < len(laid):
                shorter = min(column.chips_height, laid[n + 1].chips_height)
                ay = y + max(column.label_height, laid[n + 1].label_height) + shorter / 2
                canvas.arrow(x + PANEL_W + 6, x + PANEL_W + gutter - 6, ay)
        y += row_h + 18
    return width, y - y0 - 18


def _draw_compared(canvas, panels, x0, y0):
    """Two panels row by row: shared messages level, the rest marked. Width and height used."""
    left, right = _Column(panels[0]), _Column(panels[1])
    rows = _align(panels[0].messages, panels[1].messages)
    for i, j in rows:
        if i is None:
            right.chips[j].only_here = True
        if j is None:
            left.chips[i].only_here = True
    xl, xr = x0, x0 + PANEL_W + ARROW_GUTTER
    label_h = max(left.label_height, right.label_height)
    left.draw_label(canvas, xl, y0)
    right.draw_label(canvas, xr, y0)
    y = y0 + label_h
    for i, j in rows:
        chips = [c for c in (left.chips[i] if i is not None else None,
                             right.chips[j] if j is not None else None) if c is not None]
        row_h = max(c.height for c in chips)
        for k, x, column in ((i, xl, left), (j, xr, right)):
            if k is not None:
                column.chips[k].draw(canvas, x, y)
            else:
                canvas.gap(x, y, PANEL_W, row_h, f"not in {column.panel.label or 'this one'}")
        if i is not None and j is not None:
            mid = y + min(left.chips[i].height, right.chips[j].height) / 2
            canvas.line(xl + PANEL_W + 4, xr - 4, mid, "#9e9e9e", dash="3 3")
            canvas.text((xl + PANEL_W + xr) / 2, mid - 4, "same", 9.5, MUTED, SANS, anchor="middle")
        y += row_h + GAP
    if not rows:
        y += GAP
    footer_y = y - GAP
    height = max(left.draw_footer(canvas, xl, footer_y), right.draw_footer(canvas, xr, footer_y))
    return 2 * PANEL_W + ARROW_GUTTER, footer_y + height - y0


def _align(a, b):
    """Pairs (i, j) that line up a and b, as many shared messages level as can be; None on
    the side that has a gap. The shared start and end are paired first, which is most of a
    record and its view, so the quadratic part only ever sees the middle."""
    same = lambda x, y: x is y or (type(x) is type(y) and x == y)
    head = 0
    while head < min(len(a), len(b)) and same(a[head], b[head]):
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and same(a[-1 - tail], b[-1 - tail]):
        tail += 1
    mid_a, mid_b = a[head:len(a) - tail], b[head:len(b) - tail]
    n, m = len(mid_a), len(mid_b)
    best = [[0] * (m + 1) for _ in range(n + 1)]   # best[i][j]: most pairs in mid_a[i:], mid_b[j:]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = (best[i + 1][j + 1] + 1 if same(mid_a[i], mid_b[j])
                          else max(best[i + 1][j], best[i][j + 1]))
    rows: list[tuple[int | None, int | None]] = [(k, k) for k in range(head)]
    i, j = 0, 0
    while i < n or j < m:
        if i < n and j < m and same(mid_a[i], mid_b[j]):
            rows.append((head + i, head + j))
            i, j = i + 1, j + 1
        elif j >= m or (i < n and best[i + 1][j] >= best[i][j + 1]):
            rows.append((head + i, None))
            i += 1
        else:
            rows.append((None, head + j))
            j += 1
    rows += [(len(a) - tail + k, len(b) - tail + k) for k in range(tail)]
    return rows


# -- one column: a label, message boxes, a verdict --

class _Column:
    def __init__(self, panel):
        self.panel = panel
        messages = list(panel.messages)
        self.problems = validate(messages) if panel.check else []
        badges: dict[int, list[int]] = {}
        for number, problem in enumerate(self.problems, 1):
            found = re.match(r"messages\[(\d+)\]", problem)
            if found:
                badges.setdefault(int(found.group(1)), []).append(number)
        self.chips = [_Chip(m, badges.get(i, [])) for i, m in enumerate(messages)]
        self.label_lines = _wrap(panel.label, PANEL_W, LABEL_PX) if panel.label else []
        self.label_height = len(self.label_lines) * (LABEL_PX + 5) + (8 if panel.label else 0)

    @property
    def chips_height(self):
        if not self.chips:
            return 30
        return sum(c.height for c in self.chips) + GAP * (len(self.chips) - 1)

    def draw_label(self, canvas, x, y):
        for line in self.label_lines:
            y += LABEL_PX + 5
            canvas.text(x, y, line, LABEL_PX, INK, SANS, weight="bold")
        if not self.chips:
            canvas.gap(x, y + 8, PANEL_W, 30, "no messages")

    def draw_footer(self, canvas, x, y):
        """The verdict and the note under the column; returns the height used."""
        lines = []
        if self.panel.check:
            if not self.problems:
                lines.append(("a provider accepts this", GREEN, "bold"))
            else:
                lines.append(("a provider refuses this:", RED, "bold"))
                for number, problem in enumerate(self.problems, 1):
                    wrapped = _wrap(problem, PANEL_W - 22, NOTE_PX, MONO)
                    lines += [((f"{number} " if k == 0 else "  ") + part, RED, "normal")
                              for k, part in enumerate(wrapped)]
        lines += [(part, MUTED, "italic") for part in
                  (_wrap(self.panel.note, PANEL_W, NOTE_PX) if self.panel.note else [])]
        top = y + 6
        for text, colour, how in lines:
            top += NOTE_LH
            mono = how == "normal"
            canvas.text(x, top, text, NOTE_PX, colour, MONO if mono else SANS,
                        weight="bold" if how == "bold" else "normal", italic=how == "italic")
        return top - y + 4


class _Chip:
    """One message as a box: its token and role, what it says, and any error it carries."""

    def __init__(self, message, badges):
        self.message, self.badges, self.only_here = message, badges, False
        self.kind = _kind(message)
        self.indent = INDENT if self.kind == "toolResult" else 0
        inner = PANEL_W - self.indent - 2 * PAD
        self.token = _fit(shape([message]), inner - 20 * len(badges), TOKEN_PX, MONO)
        self.role = ROLE_WORD[self.kind]
        line = show([message], clip=None)
        self.tooltip = line
        detail, error = _split(line, message)
        self.detail = _wrap(detail, inner, DETAIL_PX, MONO, DETAIL_LINES, hard=True)
        self.error = (_wrap("error: " + error, inner, DETAIL_PX, MONO, ERROR_LINES, hard=True)
                      if error is not None else [])
        self.height = 2 * PAD - 2 + TOKEN_LH + DETAIL_LH * (len(self.detail) + len(self.error))

    def draw(self, canvas, x, y):
        fill, border, ink = STYLE[self.kind]
        x, w = x + self.indent, PANEL_W - self.indent
        stroke, width, dash = border, 1.2, None
        if self.only_here:
            stroke, width, dash = AMBER, 2, "5 3"
        if self.badges:
            stroke, width = RED, 2.4
        canvas.open_group(self.tooltip)
        canvas.rect(x, y, w, self.height, fill, stroke, width, dash)
        ty = y + PAD + TOKEN_PX - 1
        canvas.text(x + PAD, ty, self.token, TOKEN_PX, ink, MONO, weight="bold")
        role_x = x + PAD + _width(self.token, TOKEN_PX) + 8
        room = x + w - PAD - 20 * len(self.badges) - role_x
        if room > _width("user", DETAIL_PX):
            canvas.text(role_x, ty, _fit(self.role, room, DETAIL_PX - 1, SANS), DETAIL_PX - 1,
                        MUTED, SANS)
        for k, number in enumerate(self.badges):
            cx = x + w - PAD - 7 - 20 * (len(self.badges) - 1 - k)
            canvas.badge(cx, y + PAD + 6, str(number))
        ly = ty + 3
        for part in self.detail:
            ly += DETAIL_LH
            canvas.text(x + PAD, ly, part, DETAIL_PX, INK, MONO)
        for part in self.error:
            ly += DETAIL_LH
            canvas.text(x + PAD, ly, part, DETAIL_PX, RED, MONO)
        canvas.close_group()


def _kind(message):
    role = message.get("role") if isinstance(message, dict) else None
    if role == "assistant" and message.get("stop_reason") == "error":
        return "failed"
    return role if role in ("user", "assistant", "toolResult", "summary", "note") else "other"


def _split(line, message):
    """lab.show's line for a message, without its "role ->" head, and the error cut off."""
    detail = line.split(" -> ", 1)[1] if " -> " in line else line
    if _kind(message) == "failed":
        tail = f"  [error: {message.get('error_message')}]"
        if detail.endswith(tail):
            return detail[:-len(tail)], str(message.get("error_message"))
    return detail, None


# -- text that fits --

def _width(text, px, family=MONO):
    return len(text) * px * (CHAR if family == MONO else 0.56)


def _fit(text, room, px, family=MONO):
    """`text`, cut with … so that it fits in `room` pixels."""
    most = max(1, int(room // (px * (CHAR if family == MONO else 0.56))))
    return text if len(text) <= most else text[:most - 1] + "…"


def _wrap(text, room, px, family=SANS, most_lines=None, hard=False):
    """`text` in lines that fit `room` pixels, broken at spaces (and anywhere, when `hard` or
    a word is too long); with `most_lines`, the last line ends in … if anything was left."""
    most = max(4, int(room // (px * (CHAR if family == MONO else 0.56))))
    lines, rest = [], " ".join(str(text).split()) if not hard else str(text)
    while rest:
        if len(rest) <= most:
            lines.append(rest)
            break
        cut = rest.rfind(" ", 0, most + 1)
        if cut <= most // 3:
            cut = most
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip(" ")
    if most_lines is not None and len(lines) > most_lines:
        lines = lines[:most_lines]
        lines[-1] = lines[-1][:most - 1].rstrip() + "…"
    return lines or [""]


# -- SVG as strings --

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(text):
    """`text` made safe for SVG text or an attribute: escaped, and anything XML 1.0 cannot
    carry (control characters, lone surrogates) replaced by U+FFFD."""
    return _escape_html(_NOT_XML.sub("\ufffd", str(text)), quote=False).replace('"', "&quot;")


def _n(value):
    """A coordinate, to a tenth of a pixel and without a trailing .0."""
    return f"{round(value, 1):g}"


class _Canvas:
    def __init__(self):
        self.parts = []

    def svg(self):
        return "".join(self.parts)

    def text(self, x, y, text, px, fill, family, weight="normal", italic=False, anchor="start"):
        extra = (f' font-family="{_esc(family)}"' if family != SANS else "")  # SANS is inherited
        extra += f' font-weight="{weight}"' if weight != "normal" else ""
        extra += ' font-style="italic"' if italic else ""
        extra += f' text-anchor="{anchor}"' if anchor != "start" else ""
        self.parts.append(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{px}" fill="{fill}"{extra} '
                          f'xml:space="preserve">{_esc(text)}</text>')

    def rect(self, x, y, w, h, fill, stroke, width=1.0, dash=None):
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
                          f'rx="5" fill="{fill}" stroke="{stroke}" stroke-width="{width}"{dashes}/>')

    def line(self, x1, x2, y, stroke, dash=None):
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(f'<line x1="{_n(x1)}" y1="{_n(y)}" x2="{_n(x2)}" y2="{_n(y)}" '
                          f'stroke="{stroke}" stroke-width="1.2"{dashes}/>')

    def arrow(self, x1, x2, y):
        self.line(x1, x2 - 7, y, "#555555")
        self.parts.append(f'<polygon points="{_n(x2)},{_n(y)} {_n(x2 - 9)},{_n(y - 5)} '
                          f'{_n(x2 - 9)},{_n(y + 5)}" fill="#555555"/>')

    def badge(self, cx, cy, label):
        self.parts.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="8" fill="{RED}"/>')
        self.text(cx, cy + 3.8, label, 10.5, "#ffffff", SANS, weight="bold", anchor="middle")

    def gap(self, x, y, w, h, words):
        self.rect(x, y, w, h, "#fffaf0", AMBER, 1.2, "5 3")
        self.text(x + w / 2, y + h / 2 + 4, words, DETAIL_PX, AMBER, SANS, italic=True,
                  anchor="middle")

    def open_group(self, tooltip):
        self.parts.append(f"<g><title>{_esc(tooltip)}</title>")

    def close_group(self):
        self.parts.append("</g>")


def _as_messages(messages):
    if isinstance(messages, dict):
        raise TypeError("a transcript is a list of messages, and this is one message (a dict); "
                        "to draw it on its own, wrap it in a list: lab.draw([message])")
    if isinstance(messages, (str, bytes)):
        raise TypeError(f"a transcript is a list of messages, not a {type(messages).__name__}")
    return tuple(messages)


def _as_panel(panel, number):
    if isinstance(panel, Panel):
        return panel
    if isinstance(panel, tuple) and len(panel) == 2 and isinstance(panel[0], str):
        return Panel(panel[0], panel[1])
    try:
        return Panel("", panel)
    except TypeError as problem:
        raise TypeError(f"panel {number}: {problem}. A panel is a Panel, a (label, messages) "
                        "pair, or a list of messages") from None
