"""A figure of one conversation in several formats, side by side (lesson 16).

`side_by_side(columns)` takes {label: (messages, wire)}: wire None for the lab's own messages,
"anthropic" or "openai" for a request in that provider's format. Each column is a stack of
boxes, one a message, coloured by role and holding the message as compact JSON; under each
column is the verdict of lab.validate for that format: "accepted", or the violations. Jupyter
shows it as HTML (`_repr_html_`); `str(figure)` is the HTML. Every string is escaped, and
nothing is fetched: it is a <div> with inline styles.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from html import escape
from typing import Any

from .display import show
from .validate import validate

FILL = {"user": "#eef3fb", "assistant": "#f4f4f6", "toolResult": "#eef7f0", "tool": "#eef7f0"}
EDGE = {"user": "#5b7db1", "assistant": "#8a8a99", "toolResult": "#5f9a6e", "tool": "#5f9a6e"}
RED, GREEN = "#c62828", "#2e7d32"


class WireFigure:
    """The HTML of a side-by-side figure; Jupyter renders it, str() returns it."""

    def __init__(self, html: str) -> None:
        self.html = html

    def _repr_html_(self) -> str:
        return self.html

    def __str__(self) -> str:
        return self.html


def side_by_side(columns: Mapping[str, tuple[Iterable[Any], str | None]],
                 title: str = "") -> WireFigure:
    """A WireFigure with one column for each (label, (messages, wire)) of `columns`."""
    parts = [_column(label, list(messages), wire) for label, (messages, wire) in columns.items()]
    heading = (f'<div style="font:600 15px sans-serif;margin:0 0 8px">{escape(title)}</div>'
               if title else "")
    return WireFigure(
        f'<div class="lab-wire-figure" style="font-family:sans-serif;color:#222">{heading}'
        f'<div style="display:flex;gap:14px;align-items:flex-start">{"".join(parts)}</div></div>')


def _column(label: str, messages: list[Any], wire: str | None) -> str:
    boxes = "".join(_box(message, wire) for message in messages)
    problems = validate(messages, wire=wire)
    verdict = (f'<div style="color:{GREEN};font-size:12px">accepted</div>' if not problems else
               "".join(f'<div style="color:{RED};font-size:12px">{escape(str(p))}</div>'
                       for p in problems))
    return (f'<div style="flex:1;min-width:0"><div style="font:600 13px sans-serif;'
            f'margin-bottom:6px">{escape(label)}</div>{boxes}{verdict}</div>')


def _box(message: Any, wire: str | None) -> str:
    role = str(message.get("role")) if isinstance(message, dict) else ""
    text = show([message], clip=60) if wire is None else json.dumps(message, ensure_ascii=False)
    return (f'<div style="background:{FILL.get(role, "#fff")};border:1px solid '
            f'{EDGE.get(role, "#999")};border-radius:4px;padding:4px 6px;margin-bottom:5px;'
            f'font:11px ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere">'
            f'{escape(text)}</div>')
