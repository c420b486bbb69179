"""A benchmark table: the figures bench/ measured, kept as data in bench/figures/NAME.json
({"heading": ..., "rows": [[measure, figure, compared with, ratio, target, result], ...]}), and
the Markdown the documents show them as. bench/run.py and bench/batch.py write the data; the
documents' blocks are made from it (lab.docs.made)."""

from __future__ import annotations

import json
import os
import pathlib

COLUMNS = ("measure", "figure", "compared with", "ratio", "target", "result")


def render(heading: str, table: list[tuple[str, ...]] | list[list[str]]) -> str:
    """The table as Markdown: the heading line, a blank line, then the table."""
    lines = [heading, "", "| " + " | ".join(COLUMNS) + " |",
             "| " + " | ".join("---" for _ in COLUMNS) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |"
              for row in table]
    return "\n".join(lines)


def load(path: pathlib.Path) -> tuple[str, list[tuple[str, ...]]]:
    """(heading, rows) of a figures file; ValueError saying what is wrong with it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    heading, rows = data.get("heading"), data.get("rows")
    if not isinstance(heading, str) or not isinstance(rows, list) or not all(
            isinstance(row, list) and len(row) == len(COLUMNS)
            and all(isinstance(cell, str) for cell in row) for row in rows):
        raise ValueError(f"{path} should hold a heading and rows of {len(COLUMNS)} strings each")
    return heading, [tuple(row) for row in rows]


def save(path: pathlib.Path, heading: str, rows: list[tuple[str, ...]]) -> None:
    """Write a figures file whole (beside its place, then renamed)."""
    part = path.with_name(f".{path.name}.part")
    part.write_text(json.dumps({"heading": heading, "rows": [list(r) for r in rows]},
                               ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    os.replace(part, path)


def markdown(path: pathlib.Path) -> str:
    """The block a figures file is shown as."""
    return render(*load(path)) + "\n"
