"""lab_check: grade a harness.py against a lesson's tests, and say in plain words what it gets
right and wrong; for an instructor, grade a whole class, and prove the lesson's tests right.

    python lab/lab_check.py --harness harness.py --lesson 10
    lab-check --harness harness.py --lesson 10 -k orphan
    lab-check --harness harness.py --lesson 10 --format gradescope --output results.json
    lab-check --lesson 10 --batch submissions/ --output results/ [--format json] [--jobs 2]
    lab-check --verify 10
    lab-check --where 10
    lab-check --release 10 --output DIR [--gradescope FILE.zip]   (see lab/release/)

Exit status of one grading: 0 every test passed; 1 some test failed; 2 nothing could be graded
(no such file, not Python, a syntax error, an import that fails, a missing name, no such
lesson); 3 the grader itself broke. Your harness runs in a child process of its own, from a
copy in a scratch folder: nothing in your folder is written. Of a batch: 0 every submission has
its result, 3 the grader broke on some (see summary.csv), 2 no batch to grade. Of --verify: 0
the lesson's tests hold, 1 some check surprised (the table says which).
--format text|json|junit|gradescope writes the result as a person, a program, a CI system or
Gradescope reads it (see lab/grading/formats.py); a result is written even when nothing could
be graded.
"""

import argparse
import pathlib
import sys
import traceback

if __package__ in (None, ""):  # run as a file: python lab/lab_check.py
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from lab import lessons  # noqa: E402
from lab.grading.formats import FORMATS  # noqa: E402
from lab.grading.sandbox import Limits  # noqa: E402


def parser():
    p = argparse.ArgumentParser(
        prog="lab_check", description="Grade your harness.py against a lesson's tests.",
        epilog="Exit status: 0 all passed, 1 some failed, 2 nothing could be graded, "
               "3 the grader broke. Of --batch: 0 every submission has its result, 3 the grader "
               "broke on some. Of --verify: 0 the lesson's tests hold, 1 a check surprised.")
    p.add_argument("tests", nargs="*", help="test files to run instead of the lesson's own")
    p.add_argument("--harness", default="harness.py", help="your harness file (harness.py)")
    p.add_argument("--lesson", type=int, help="the lesson's number (the newest one)")
    p.add_argument("-k", dest="select", metavar="EXPR", help="run only the tests matching EXPR")
    p.add_argument("--time-limit", type=float, default=Limits.seconds, metavar="SECONDS",
                   help="how long each test may take, your harness's import included; past it "
                        "the test fails as timed out, naming the line your code was on, and the "
                        f"other tests still run (default {Limits.seconds:g})")
    p.add_argument("--memory-limit", type=int, default=Limits.memory_mb, metavar="MB",
                   help="how many MiB your code may allocate in each test, on top of what the "
                        "grader's child process holds; more fails the test as out of memory "
                        f"(default {Limits.memory_mb})")
    p.add_argument("--where", type=int, metavar="LESSON",
                   help="print where the lesson's starter, finished file and tests are, and stop")
    p.add_argument("--format", choices=FORMATS, metavar="FORMAT",
                   help="text (the default), json, junit or gradescope; json for a --batch")
    p.add_argument("--output", metavar="PATH", help="write the result to this file instead of "
                   "printing it; with --batch, the folder for every result and the summary")
    p.add_argument("--batch", metavar="DIR", help="grade every submission folder in DIR (each "
                   "holding a harness.py), each in a process of its own; needs --output")
    p.add_argument("--jobs", type=int, metavar="N",
                   help="with --batch or --verify, how many to grade at once (one a core)")
    p.add_argument("--verify", type=int, metavar="LESSON", help="prove the lesson's tests: the "
                   "finished file passes, the starter and every wrong answer fail, every right "
                   "answer passes")
    p.add_argument("--release", type=int, metavar="LESSON", help="hand the lesson out: its "
                   "student's copy into --output DIR, and/or --gradescope FILE.zip")
    p.add_argument("--gradescope", metavar="FILE.zip", help="with --release, write Gradescope's "
                   "autograder zip")
    return p


def main(argv=None):
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    args = parser().parse_args(argv)
    try:
        named = next((n for n in (args.where, args.verify, args.release, args.lesson)
                      if n is not None), None)
        lesson = lessons.lesson(max(lessons.available()) if named is None else named)
    except (LookupError, ValueError) as error:
        print(f"lab_check: {error}. Name one of those with --lesson.", file=sys.stderr)
        return 2
    if args.where is not None:
        print(f"starter: {lesson.starter}\nfinished: {lesson.finished}\ntests: {lesson.tests}")
        return 0
    if lesson.is_edition and (args.release is not None or args.verify is not None):
        print("lab_check: --release and --verify need the instructor's copy of the course, with "
              "the lesson's finished.py; this is a student's copy.", file=sys.stderr)
        return 2
    if args.release is not None:
        from lab import release
        return release.main(args, lesson)
    mistake = _mistake(args)
    if mistake:
        print(f"lab_check: {mistake}", file=sys.stderr)
        return 2
    limits = Limits(args.time_limit, args.memory_limit)
    if args.verify is not None:
        return _verify(args, lesson, limits)
    if args.batch:
        return _batch(args, lesson, limits)
    return _grade(args, lesson, limits)


def _mistake(args):
    """What is wrong with this combination of options, or None."""
    if args.time_limit <= 0 or args.memory_limit <= 0:
        return "--time-limit and --memory-limit must be more than 0."
    if args.jobs is not None and args.jobs < 1:
        return f"--jobs {args.jobs}: grade at least 1 at a time."
    if args.batch and args.verify is not None:
        return "--batch grades submissions and --verify grades the lesson: use one of them."
    if args.batch and not args.output:
        return f"--batch {args.batch} needs --output OUTDIR, the folder for the results."
    if args.verify is not None and (args.tests or args.select or args.format or args.output):
        return "--verify runs every test of the lesson on its own answers and prints a table: " \
               "leave out test files, -k, --format and --output."
    return None


def _grade(args, lesson, limits):
    """Grade one harness and print or write its result; a result is written even when the
    grader itself breaks, saying so."""
    from lab.grading import formats, manifest
    from lab.grading.grade import grade
    from lab.grading.results import Grade

    fmt = args.format or "text"
    try:
        result = grade(args.harness, lesson, tests=args.tests, select=args.select, limits=limits)
    except Exception as error:  # the grader's own bug: still leave a result that says so
        traceback.print_exc()
        why = (f"the grader itself failed ({type(error).__name__}: {error}). This is a bug in "
               "the lab, not in your harness: please report it.")
        result = Grade.broken(lesson.number, manifest.title(lesson), args.harness, why,
                              points=manifest.total(lesson))
    if not args.output:
        sys.stdout.write(formats.render(result, fmt))
        sys.stdout.write(manifest.on_submission(lesson) if fmt == "text" else "")
        return result.exit_code
    try:
        written = formats.write(result, fmt, args.output)
    except OSError as error:
        print(f"lab_check: cannot write {args.output} ({error.strerror or error}). Name a file "
              "in a folder you can write to.", file=sys.stderr)
        return 2
    print(f"lab_check: lesson {lesson.number}, {result.score:g} of {result.max_score:g} points"
          f"{' (nothing graded)' if result.problem else ''}; {fmt} result in {written}")
    return result.exit_code


def _batch(args, lesson, limits):
    from lab.grading import batch

    fmt = args.format or "json"
    try:
        rows = batch.run(args.batch, lesson, args.output, fmt=fmt, jobs=args.jobs,
                         limits=limits, select=args.select, tests=args.tests)
    except ValueError as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    broke = [r["submission"] for r in rows if r["exit_code"] == 3]
    ungraded = sum(r["exit_code"] == 2 for r in rows)
    print(f"lab_check: graded {len(rows)} submissions of lesson {lesson.number} "
          f"({ungraded} could not be graded); {fmt} results and summary.csv in {args.output}")
    if broke:
        print(f"lab_check: the grader broke on {', '.join(broke)}: see the problem column of "
              "summary.csv", file=sys.stderr)
    return 3 if broke else 0


def _verify(args, lesson, limits):
    from lab.grading import verify

    checks = verify.verify(lesson, jobs=args.jobs, limits=limits)
    sys.stdout.write(verify.table(lesson, checks))
    return 0 if all(check.ok for check in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
