"""A harness with one idea taken out, written as a change: a unified diff against a lab's
finished harness (its gaps filled), rather than a copy of the functions it touches.

Checkpoint B's five harnesses (and the walkthrough's sixth, fir) are each lesson 10's finished
harness with a few lines changed. Kept as patches, they read as exactly what was taken out,
and a fix anywhere else in lesson 10 reaches them at once. A patch is applied strictly: every
context and removed line must match the harness word for word (no fuzz; only where the lines
stand may have moved), so a lesson 10 that has moved on under a patch fails loudly (PatchError,
naming the patch and the hunk) instead of giving a harness that is wrong in a new way.

The lines before the first `--- ` are the patch's description, as `git format-patch` keeps
them; `description(text)` returns them. `diff(before, after)` writes a patch (difflib, three
lines of context), `apply(text, patch)` applies one.

(GNU patch would do the applying, but it applies with fuzz by default, is not on every grading
image, and a grader that shells out for a harness is one more process to trust; difflib writes
what this reads.)
"""

from __future__ import annotations

import difflib
import re

HUNK = re.compile(r"^@@ -(?P<old>\d+)(?:,(?P<old_count>\d+))? \+\d+(?:,\d+)? @@")


class PatchError(ValueError):
    """A patch that does not apply, word for word, to the harness it was written against."""


def diff(before: str, after: str, *, name: str, description: str = "") -> str:
    """A patch that turns `before` into `after`, headed by `description`."""
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                 fromfile=name, tofile=name, n=3)
    body = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in lines)
    head = description.rstrip("\n") + "\n\n" if description else ""
    return head + body


def description(patch: str) -> str:
    """The words above the patch's first `--- ` line."""
    head, _, _ = patch.partition("\n--- ")
    return "" if patch.startswith("--- ") else head.strip()


def apply(text: str, patch: str, *, name: str = "patch") -> str:
    """`text` with `patch` applied, strictly; PatchError when any hunk does not match.

    Every context and removed line of a hunk must be in `text` word for word, in one run; the
    run may stand elsewhere than the line the hunk names (a lab before moved it up or down),
    and the nearest such run after the hunk before it is the one changed."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    at = 0  # lines of `text` used so far
    hunks = _hunks(patch, name)
    if not hunks:
        raise PatchError(f"{name}: no hunks: it changes nothing")
    for number, (start, body) in enumerate(hunks, 1):
        old = [line[1:] for line in body if line[:1] in (" ", "-")]
        found = _find(lines, old, at, start - 1)
        if found is None:
            raise PatchError(f"{name}, hunk {number}: the lines it changes, from "
                             f"{old[0].rstrip(chr(10)) if old else '(none)'!r} on, are not in the "
                             "harness as the patch has them: the harness moved on under this "
                             "patch; write it again")
        out += lines[at:found]
        at = found + len(old)
        out += [line[1:] for line in body if line[:1] in (" ", "+")]
    return "".join(out + lines[at:])


def _find(lines: list[str], old: list[str], after: int, near: int) -> int | None:
    """Where the run `old` starts in `lines`, at or after `after`, nearest to `near`."""
    if not old:
        return max(after, min(near, len(lines)))
    starts = [i for i in range(after, len(lines) - len(old) + 1)
              if lines[i] == old[0] and lines[i:i + len(old)] == old]
    return min(starts, key=lambda i: abs(i - near)) if starts else None


def _hunks(patch: str, name: str) -> list[tuple[int, list[str]]]:
    hunks: list[tuple[int, list[str]]] = []
    lines = patch.splitlines(keepends=True)
    started = False
    for line in lines:
        if line.startswith("--- ") and not hunks:
            started = True
            continue
        if not started or line.startswith("+++ "):
            continue
        head = HUNK.match(line)
        if head:
            start = int(head["old"]) + (1 if head["old_count"] == "0" else 0)
            hunks.append((start, []))
        elif line.startswith("\\"):
            last = hunks[-1][1]
            last[-1] = last[-1].rstrip("\n")
        elif hunks and line[:1] in (" ", "-", "+"):
            hunks[-1][1].append(line if line.endswith("\n") else line + "\n")
        elif hunks and line == "\n":
            hunks[-1][1].append(" \n")  # an editor that trims a context line's lone space
        else:
            raise PatchError(f"{name}: {line.rstrip()!r} is not a line of a unified diff")
    return hunks
