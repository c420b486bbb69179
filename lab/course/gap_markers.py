"""A finished file's gap markers, and the two files made from them: the starter and the solved.

In finished.py, each gap the student fills is marked like this:

    # --- your code ---
    ...the finished code...
    # --- starter ---
    #| ...what the student is given instead, each line after "#| "...
    # --- end ---

`make_starter` keeps the two outer markers, drops the finished code and un-quotes the "#|"
lines; `solve` keeps the finished code and drops the rest. lab.course.starter writes the files.
"""

import re

BEGIN, SWAP, END = "# --- your code ---", "# --- starter ---", "# --- end ---"
QUOTED = re.compile(r"^(\s*)#\|(?: (.*))?$")


class GapError(ValueError):
    """finished.py's gap markers are out of order or unclosed."""


def make_starter(finished_text, name="finished.py"):
    """The starter's text for the finished file whose text is `finished_text`."""
    out, state = [], "outside"
    for number, line in enumerate(finished_text.splitlines(keepends=True), 1):
        marker = line.strip()
        if marker == BEGIN:
            _expect(state, "outside", name, number, marker)
            state = "finished"
            out.append(line)
        elif marker == SWAP:
            _expect(state, "finished", name, number, marker)
            state = "starter"
        elif marker == END:
            _expect(state, "starter", name, number, marker)
            state = "outside"
            out.append(line)
        elif state == "starter":
            quoted = QUOTED.match(line.rstrip("\n"))
            if not quoted:
                raise GapError(f"{name}, line {number}: a starter line must begin with '#|'")
            out.append(quoted.group(1) + (quoted.group(2) or "") + "\n")
        elif state == "outside":
            out.append(line)
    if state != "outside":
        raise GapError(f"{name}: a gap is still open at the end of the file (no {END!r})")
    return "".join(out)


def solve(finished_text, name="finished.py"):
    """`finished_text` with every gap filled in: the finished code kept, the markers and the
    quoted starter lines gone. What a later lab's harness is composed onto (lab.course.compose)."""
    out, state = [], "outside"
    for number, line in enumerate(finished_text.splitlines(keepends=True), 1):
        marker = line.strip()
        if marker in (BEGIN, SWAP, END):
            _expect(state, {BEGIN: "outside", SWAP: "finished", END: "starter"}[marker], name,
                    number, marker)
            state = {BEGIN: "finished", SWAP: "starter", END: "outside"}[marker]
        elif state != "starter":
            out.append(line)
    if state != "outside":
        raise GapError(f"{name}: a gap is still open at the end of the file (no {END!r})")
    return "".join(out)


def gap_count(finished_text):
    return sum(line.strip() == BEGIN for line in finished_text.splitlines())


def _expect(state, wanted, name, number, marker):
    if state != wanted:
        raise GapError(f"{name}, line {number}: {marker!r} is out of place")


