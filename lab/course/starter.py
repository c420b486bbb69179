"""Make a lesson's starter file from its finished file: the one source of truth for both.

In finished.py, each gap the student fills is marked like this:

    # --- your code ---
    ...the finished code...
    # --- starter ---
    #| ...what the student is given instead, each line after "#| "...
    # --- end ---

The starter keeps the two outer markers, drops the finished code, and un-quotes the "#|"
lines. A lab's finished.py is itself made, by lab.course.compose, from the changes.py of every lab on
its chain (lessons/course.toml). Run `python -m lab.course.starter` to write them all: every lab's
finished.py and starter.py, the student's harness.py (the course's home lab's starter) and,
for a checkpoint whose manifest names a `student_file` (checkpoint B's doctor.py), that file
too; `--check` writes nothing and exits 1 naming each file that is stale.
"""

import argparse
import sys

from lab.course import order as course, lesson_files as lessons
from lab.course import manifest
from lab.course.gap_markers import GapError, make_starter, solve

def declares(lab):
    """The first line of a lab's files, which tells lab_check whose tests to run."""
    return f"# lab: lesson {lab.label}  (lab-check reads this line to know which lesson's tests to run)"


def finished_text(lab):
    """The finished harness of `lab`, composed from the changes.py of every lab on its chain
    (lab.course.order.chain): the first one's whole, each later one's onto the one before. A lab
    with no changes.py (a checkpoint, which writes no harness code) adds nothing."""
    from lab.course import compose

    text = None
    for link in course.chain(lab):
        if link.changes is not None:
            edits = link.edits.read_text(encoding="utf-8") if link.edits else None
            text = compose.compose(text, link.changes.read_text(encoding="utf-8"), declares(lab),
                                   patch=edits,
                                   name=str(link.changes.relative_to(lessons.PROJECT)))
    if text is None:
        raise LookupError(f"lab {lab.label} has no harness: no lab on its chain has a changes.py")
    return text


def sources(lab):
    """The files `lab`'s finished harness is composed from, first to last: each lab's
    changes.patch (where it has one) and changes.py."""
    return [path for link in course.chain(lab) for path in (link.edits, link.changes)
            if path is not None]


def targets():
    """(path, text) for every file the rebuild makes: each lab's finished.py where the lab has
    a changes.py (composed, see finished_text; a lab still being written too, so that its
    author reads the harness it starts from), every written lab's starter.py (made from its
    finished.py), the top-level harness.py (the course's home lab's starter) and, for a
    checkpoint whose manifest names a `student_file` (checkpoint B's doctor.py), that file."""
    made, finished = [], {}
    for lab in course.labs():
        if lab.changes is not None:  # a lab being written has its finished harness already
            finished[lab.id] = finished_text(lab)
            made.append((lab.changes.parent / "finished.py", finished[lab.id]))
        if not lab.written or lessons.lesson(lab.id).is_edition:
            continue
        lesson = lessons.lesson(lab.id)
        if lab.changes is None:
            finished[lab.id] = lesson.finished.read_text(encoding="utf-8")
        made.append((lesson.starter, make_starter(finished[lab.id], str(lesson.finished))))
        if "student_file" in manifest.read(lesson):
            made.append((lessons.PROJECT / manifest.read(lesson)["student_file"], made[-1][1]))
    home = course.home()
    if home.id in finished:
        made.append((lessons.PROJECT / "harness.py", make_starter(finished[home.id])))
    return made


def absorb(lab):
    """Rewrite `lab`'s changes.py and changes.patch so that they compose its finished.py as it
    stands now (see lab.course.decompose); the first lab's changes.py is its whole finished harness."""
    from lab.course.decompose import changes_of

    finished = (lab.folder / "finished.py").read_text(encoding="utf-8")
    parent = course.find(lab.builds_on) if lab.builds_on is not None else None
    if parent is None:
        (lab.folder / "changes.py").write_text(finished.split("\n", 1)[1], encoding="utf-8")
        return
    changes, patch = changes_of(finished_text(parent), finished, declares(lab))
    (lab.folder / "changes.py").write_text(changes, encoding="utf-8")
    if patch:
        (lab.folder / "changes.patch").write_text(patch, encoding="utf-8")
    elif (lab.folder / "changes.patch").exists():
        (lab.folder / "changes.patch").unlink()


def broken_patches():
    """(patch, why) for every patch a checkpoint keeps (its harnesses with one idea taken out,
    see lab.course.patches) that no longer applies to the finished harness of the lab it builds on."""
    from lab.course import patches

    broken = []
    for lab in course.labs():
        if not (lab.folder is not None and lab.written and lab.is_checkpoint
                and lab.builds_on is not None):
            continue
        base = solve(finished_text(course.find(lab.builds_on)))
        for patch in sorted(lab.folder.rglob("*.patch")):
            try:
                patches.apply(base, patch.read_text(encoding="utf-8"), name=patch.name)
            except patches.PatchError as error:
                broken.append((patch, str(error)))
    return broken


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m lab.course.starter", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    parser.add_argument("--absorb", metavar="LAB", help="first work LAB's changes.py and "
                        "changes.patch out of its edited finished.py (lab.course.decompose)")
    args = parser.parse_args(argv)
    from lab.course.compose import ComposeError

    if args.absorb:
        try:
            absorb(course.find(args.absorb))
        except (LookupError, ValueError) as error:
            print(f"cannot absorb: {error}", file=sys.stderr)
            return 1

    try:
        made = targets()
    except (ComposeError, GapError) as error:
        print(f"cannot compose: {error}", file=sys.stderr)
        return 1
    stale = []
    for path, text in made:
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path.relative_to(lessons.PROJECT)}")
    broken = broken_patches()
    for patch, why in broken:
        print(f"broken: {patch.relative_to(lessons.PROJECT)}: {why}", file=sys.stderr)
    return 1 if (args.check and stale) or broken else 0


if __name__ == "__main__":
    sys.exit(main())
