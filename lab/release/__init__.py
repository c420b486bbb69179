"""Hand a lesson to a class: the student's edition, and the autograders of two platforms.

    lab-check --release 10 --output DIR           the student's copy (edition.py), with
                                                  GitHub Classroom's workflow (classroom.py)
    lab-check --release 10 --gradescope FILE.zip  Gradescope's autograder (gradescope.py),
                                                  which runs autograder.py per submission

Each product holds none of the answer, and `leaks.py` is how that is proved: by the suite, and
by `lab-check --verify`, which builds the edition afresh and searches it.
"""

import pathlib
import sys


def main(args, lesson):
    """lab_check's --release: build what the options ask for, say where, and exit 0; 2 with a
    sentence when the options or the lesson do not allow it."""
    if not (args.output or args.gradescope) or args.batch or args.verify is not None:
        print("lab_check: --release LESSON makes the student's copy with --output DIR, the "
              "Gradescope autograder with --gradescope FILE.zip, or both; nothing else goes "
              "with it.", file=sys.stderr)
        return 2
    from lab.course import manifest
    from lab.release import edition, gradescope, leaks, pins

    if getattr(args, "late_policy", None):
        from lab.grader.gradebook import LatePolicy

        try:
            LatePolicy.parse(args.late_policy)
        except ValueError as error:
            print(f"lab_check: {error}", file=sys.stderr)
            return 2
    made = []
    try:
        if args.output:
            made.append(("student's edition", edition.build(lesson, args.output)))
        if args.gradescope:
            made.append(("Gradescope autograder", gradescope.build(
                lesson, args.gradescope, show_hidden=getattr(args, "show_hidden", False),
                late_policy=getattr(args, "late_policy", None))))
    except FileExistsError as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    except pins.PinsError as error:  # no zip rather than one that fails on an image's Python
        print(f"lab_check: {error}", file=sys.stderr)
        return 1
    for what, path in made:
        found = leaks.leaks_in(path, lesson)
        if found:
            print(f"lab_check: the {what} in {path} holds the answer; it must not be handed "
                  "out:\n  " + "\n  ".join(found), file=sys.stderr)
            return 1
        print(f"lab_check: lesson {lesson.number}'s {what}: {path} ({_size(path)})")
    return 0


def _size(path):
    """ "70 files, 163 KiB": the files a folder holds, or a zip (the files in it), and its
    size on disk."""
    import zipfile

    path = pathlib.Path(path)
    if path.is_file():
        count = len([i for i in zipfile.ZipFile(path).infolist() if not i.is_dir()]) \
            if zipfile.is_zipfile(path) else 1
        total = path.stat().st_size
    else:
        files = [p for p in path.rglob("*") if p.is_file()]
        count, total = len(files), sum(p.stat().st_size for p in files)
    return f"{count} file{'s' if count != 1 else ''}, {total / 1024:.0f} KiB"
