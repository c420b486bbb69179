"""A lab's load: how many lines of code its gaps ask the student to write.

Counted on finished.py, gap by gap (the code between `# --- your code ---` and `# --- starter ---`):
a line counts when it holds code. Blank lines, comments and docstrings do not count: they are
read, not written, and a lab with a long docstring asks no more work than one without. The
walkthrough's build section states the lab's load in words ("about twenty-one lines in all"),
and the suite holds it to the count (tests/test_gap_load.py).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from lab.course.gap_markers import BEGIN, SWAP

SKIPPED = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
           tokenize.ENDMARKER, tokenize.ENCODING}


def docstring_lines(tree: ast.AST) -> set[int]:
    """The line numbers that docstrings of `tree` (its module, classes, functions) span."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                lines.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    return lines


def code_lines(text: str) -> set[int]:
    """The line numbers of `text` that hold a token of code (a string that is not a docstring
    counts; a line a statement runs on to counts too)."""
    found: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type not in SKIPPED:
            found.update(range(token.start[0], token.end[0] + 1))
    return found - docstring_lines(ast.parse(text))


def gap_loads(finished_text: str) -> list[int]:
    """The lines of code in each gap of a finished file, in the file's order."""
    code, loads, inside = code_lines(finished_text), [], None
    for number, line in enumerate(finished_text.splitlines(), 1):
        marker = line.strip()
        if marker == BEGIN:
            inside = 0
        elif marker == SWAP and inside is not None:
            loads.append(inside)
            inside = None
        elif inside is not None and number in code:
            inside += 1
    return loads


UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
NUMBER = (r"\d+|(?:" + "|".join(TENS[2:]) + r")(?:-(?:" + "|".join(UNITS[1:10]) + r"))?|"
          + "|".join(sorted(UNITS, key=len, reverse=True)))
STATED = re.compile(rf"(?:about )?({NUMBER}) lines? in all", re.IGNORECASE)


def number(words: str) -> int:
    """'twenty-one' -> 21, '25' -> 25: a count as the walkthroughs write it, up to ninety-nine."""
    words = words.lower()
    if words.isdigit():
        return int(words)
    if words in UNITS:
        return UNITS.index(words)
    tens, _, unit = words.partition("-")
    return TENS.index(tens) * 10 + (UNITS.index(unit) if unit else 0)


def stated_load(text: str) -> int | None:
    """The load a walkthrough's text states: the first "about N lines in all" in it."""
    found = STATED.search(text)
    return number(found.group(1)) if found else None


def agrees(stated: int, measured: int) -> bool:
    """Whether "about `stated`" is a fair word for `measured` lines: within two lines, or a
    tenth of them, whichever is more."""
    return abs(stated - measured) <= max(2, round(measured / 10))
