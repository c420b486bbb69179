"""Figures of a run as a table: what happened, moment by moment, as SVG (lessons 07 to 09).

`lab.figures` draws transcripts: the messages of a list, and a provider's verdict on them. A
run has facts a transcript does not hold: the events a consumer was handed, a tool that ran
between two of them, a flag that was up or down when somebody asked. `table(columns, rows)`
draws such facts as a grid, one row a moment (or one row a case), one column a thing that
was true then, and returns a `lab.figures.Figure`, which Jupyter shows inline.

A row is a list of cells, one a column; a cell is a string or a `Cell(text, tone)`, and the
tone colours it ("good", "bad", "muted", "note", or a message's role: "user", "assistant",
"failed", "toolResult"; "plain" is the default). `message_cell(message)` is a message's token
in `lab.shape`'s vocabulary, coloured by its role. A `Band(text)` in place of a row is a line
of prose across the whole table, for "step 1 ran here", between the rows it falls between.

Anything can be drawn: an empty table, a row too short (its missing cells are blank) or too
long (its extra cells are dropped), a cell that is not a string (drawn as str() of it). Long
text is cut to fit with `…`, and each cell carries its whole text as an SVG <title>, which a
viewer shows on hover. Text is escaped as lab.figures escapes it, so the SVG is always
well-formed. No dependencies, nothing fetched.
"""

from dataclasses import dataclass

from lab.kit.display import shape
from lab.kit.figures import (AMBER, CHAR, GREEN, INK, MARGIN, MONO, MUTED, NOTE_LH, NOTE_PX, RED, SANS, STYLE, TITLE_PX, Figure, _esc, _fit, _kind, _n, _wrap)

CELL_PX, HEAD_PX = 11, 11.5
ROW_H, HEAD_H, BAND_H, PAD = 21, 24, 20, 7
MOST_CHARS = 44      # a column is never wider than this many characters of text
TONES = {            # fill, border, ink
    "plain": ("#ffffff", "#dddddd", INK),
    "good": ("#eef7f0", "#5f9a6e", GREEN),
    "bad": ("#fdf0ee", "#c0504d", RED),
    "muted": ("#f7f7f7", "#dddddd", MUTED),
    "note": ("#fffaf0", AMBER, AMBER),
    **{role: colours for role, colours in STYLE.items() if role != "other"},
}


@dataclass(frozen=True)
class Cell:
    """One cell of a table: its `text`, and a `tone` from TONES that colours it."""
    text: str
    tone: str = "plain"

    def __post_init__(self):
        if self.tone not in TONES:
            raise ValueError(f"no tone {self.tone!r}; the tones are {', '.join(TONES)}")
        object.__setattr__(self, "text", str(self.text))


@dataclass(frozen=True)
class Band:
    """A line of prose across the whole table, in place of a row."""
    text: str
    tone: str = "note"

    def __post_init__(self):
        if self.tone not in TONES:
            raise ValueError(f"no tone {self.tone!r}; the tones are {', '.join(TONES)}")
        object.__setattr__(self, "text", str(self.text))


def message_cell(message):
    """A message as a cell: its token in lab.shape's vocabulary (U, A[c1], R(c1), A(error)),
    coloured by its role."""
    kind = _kind(message)
    return Cell(shape([message]), kind if kind in TONES else "plain")


def table(columns, rows, *, title="", caption=""):
    """A Figure of a table: `columns` are the headings, `rows` a list of rows (lists of cells,
    each a str or a Cell) and Bands. See the module's docstring for what a row may hold."""
    columns = [str(c) for c in columns]
    if not columns:
        raise ValueError("a table needs at least one column, e.g. table(['event'], rows)")
    laid = [row if isinstance(row, Band) else _cells(row, len(columns)) for row in rows]
    widths = _widths(columns, [row for row in laid if not isinstance(row, Band)])
    body_w = sum(widths)
    parts, top = [], MARGIN
    for line in (_wrap(title, body_w, TITLE_PX) if title else []):
        top += TITLE_PX + 5
        parts.append(_text(MARGIN, top, line, TITLE_PX, INK, SANS, weight="bold"))
    top += 12 if title else 0
    x = MARGIN
    for heading, width in zip(columns, widths):
        parts.append(_rect(x, top, width, HEAD_H, "#f0f0f0", "#bbbbbb"))
        parts.append(_text(x + PAD, top + HEAD_H - 8, _fit(heading, width - 2 * PAD, HEAD_PX, SANS),
                           HEAD_PX, INK, SANS, weight="bold"))
        x += width
    y = top + HEAD_H
    for row in laid:
        if isinstance(row, Band):
            fill, border, ink = TONES[row.tone]
            parts.append(f"<g><title>{_esc(row.text)}</title>")
            parts.append(_rect(MARGIN, y, body_w, BAND_H, fill, border, dash="4 3"))
            parts.append(_text(MARGIN + PAD, y + BAND_H - 6,
                               _fit(row.text, body_w - 2 * PAD, CELL_PX, SANS), CELL_PX, ink, SANS,
                               italic=True))
            parts.append("</g>")
            y += BAND_H
            continue
        x = MARGIN
        for cell, width in zip(row, widths):
            fill, border, ink = TONES[cell.tone]
            parts.append(f"<g><title>{_esc(cell.text)}</title>")
            parts.append(_rect(x, y, width, ROW_H, fill, border))
            parts.append(_text(x + PAD, y + ROW_H - 7, _fit(cell.text, width - 2 * PAD, CELL_PX),
                               CELL_PX, ink, MONO))
            parts.append("</g>")
            x += width
        y += ROW_H
    if not laid:
        parts.append(_text(MARGIN + PAD, y + ROW_H - 7, "(no rows)", CELL_PX, MUTED, SANS,
                           italic=True))
        y += ROW_H
    bottom = y
    if caption:
        bottom += 8
        for line in _wrap(caption, body_w, NOTE_PX + 0.5):
            bottom += NOTE_LH + 1
            parts.append(_text(MARGIN, bottom, line, NOTE_PX + 0.5, MUTED, SANS, italic=True))
    width, height = round(body_w + 2 * MARGIN), round(bottom + MARGIN)
    label = title or "a table: " + " | ".join(columns)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" style="max-width:100%;height:auto" '
           f'font-family="{_esc(SANS)}"><title>{_esc(label)}</title>'
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>'
           + "".join(parts) + "</svg>")
    return Figure(svg, width, height)


def _cells(row, n):
    if isinstance(row, (str, bytes, Cell)):
        row = [row]
    cells = [c if isinstance(c, Cell) else Cell(c) for c in list(row)[:n]]
    return cells + [Cell("")] * (n - len(cells))


def _widths(columns, rows):
    """Each column as wide as its longest text (at most MOST_CHARS), headings included."""
    widths = []
    for k, heading in enumerate(columns):
        chars = max([len(row[k].text) for row in rows] + [0])
        text_w = min(chars, MOST_CHARS) * CELL_PX * CHAR
        head_w = len(heading) * HEAD_PX * 0.62
        widths.append(round(max(text_w, head_w, 24) + 2 * PAD + 2))
    return widths


def _rect(x, y, w, h, fill, stroke, dash=None):
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="1"{dashes}/>')


def _text(x, y, text, px, fill, family, weight="normal", italic=False):
    extra = f' font-family="{_esc(family)}"' if family != SANS else ""
    extra += f' font-weight="{weight}"' if weight != "normal" else ""
    extra += ' font-style="italic"' if italic else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{px}" fill="{fill}"{extra} '
            f'xml:space="preserve">{_esc(text)}</text>')


__all__ = ["Band", "Cell", "TONES", "message_cell", "table"]
