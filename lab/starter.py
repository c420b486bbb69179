"""Make a lesson's starter file from its finished file: the one source of truth for both.

In finished.py, each gap the student fills is marked like this:

    # --- your code ---
    ...the finished code...
    # --- starter ---
    #| ...what the student is given instead, each line after "#| "...
    # --- end ---

The starter keeps the two outer markers, drops the finished code, and un-quotes the "#|"
lines. Run `python -m lab.starter` to write every lesson's starter.py and the student's
harness.py (the first lesson's starter: where a new student begins), and for a checkpoint
whose manifest names a `student_file` (checkpoint B's doctor.py), that file too; `--check` only
says whether they are up to date.
"""

import argparse
import re
import sys

from . import lessons
from .grading import manifest

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


def gap_count(finished_text):
    return sum(line.strip() == BEGIN for line in finished_text.splitlines())


def _expect(state, wanted, name, number, marker):
    if state != wanted:
        raise GapError(f"{name}, line {number}: {marker!r} is out of place")


def targets():
    """(path, text) for every file the starters make: each lesson's starter.py (a checkpoint's
    too), and the top-level harness.py from the first numbered lesson."""
    found = [l for l in lessons.available().values() if not l.is_edition]
    made = [(l.starter, _starter_of(l)) for l in found]
    if made:
        made.append((lessons.PROJECT / "harness.py", _starter_of(lessons.first())))
    made += [(lessons.PROJECT / manifest.read(l)["student_file"], _starter_of(l))
             for l in found if "student_file" in manifest.read(l)]
    return made


def _starter_of(lesson):
    return make_starter(lesson.finished.read_text(), str(lesson.finished))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m lab.starter", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    stale = []
    for path, text in targets():
        if path.exists() and path.read_text() == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path.relative_to(lessons.PROJECT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
