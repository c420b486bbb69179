"""A generated block in a Markdown file: the text between `<!-- generated: NAME ... -->` and
`<!-- end: NAME -->`, each comment on a line of its own."""

from __future__ import annotations

import re


class MissingBlock(LookupError):
    """The file has no block of that name (or its end comment is missing)."""


def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- generated: {re.escape(name)}\b[^\n]*-->\n)(.*?)(<!-- end: "
                      rf"{re.escape(name)} -->)", re.DOTALL)


def read(text: str, name: str) -> str:
    """What the block `name` of `text` holds now."""
    found = _pattern(name).search(text)
    if found is None:
        raise MissingBlock(f"no block '{name}': expected a line '<!-- generated: {name} ... -->' "
                           f"and, below it, '<!-- end: {name} -->'")
    return found[2]


def replace(text: str, name: str, body: str) -> str:
    """`text` with the block `name` holding `body` (a newline added when it lacks one)."""
    read(text, name)  # raises MissingBlock when it is not there
    body = body if body.endswith("\n") or not body else body + "\n"
    return _pattern(name).sub(lambda m: m[1] + body + m[3], text, count=1)
