"""Which generated block lives in which document, and what makes it."""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from dataclasses import dataclass

from lab.docs import blocks, options, tables

PROJECT = pathlib.Path(__file__).resolve().parents[2]
FIGURES = PROJECT / "bench" / "figures"


@dataclass(frozen=True)
class Made:
    """One generated block: the document (relative to the project), its name, its maker."""
    document: str
    name: str
    make: Callable[[], str]

    def stale(self, project: pathlib.Path = PROJECT) -> bool:
        text = (project / self.document).read_text(encoding="utf-8")
        return blocks.read(text, self.name) != _ended(self.make())


def _course_map() -> str:
    from lab.cli.course_map import fresh
    return "```text\n" + fresh() + "```\n"


EVERY = (
    Made("README.md", "course map", _course_map),
    Made("docs/options.md", "options", options.reference),
    Made("docs/authoring.md", "benchmarks", lambda: tables.markdown(FIGURES / "run.json")),
    Made("docs/instructor.md", "batch benchmarks",
         lambda: tables.markdown(FIGURES / "batch.json")),
)


def _ended(body: str) -> str:
    return body if body.endswith("\n") or not body else body + "\n"


def rewrite(made: Made, project: pathlib.Path = PROJECT) -> bool:
    """Put the block's current text in its document; whether anything changed."""
    path = project / made.document
    text = path.read_text(encoding="utf-8")
    new = blocks.replace(text, made.name, made.make())
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text
