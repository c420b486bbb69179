"""lab_check: grade a harness.py against a lesson's tests, and say in plain words what it gets
right and wrong.

    python lab/lab_check.py --harness harness.py --lesson 10
    lab-check --harness harness.py --lesson 10 -k orphan
    lab-check --where 10

Exit status: 0 every test passed; 1 some test failed; 2 nothing could be graded (no such file,
not Python, a syntax error, an import that fails, a missing name, no such lesson); 3 the grader
itself broke. Your harness runs in a child process of its own, from a copy in a scratch
folder: nothing in your folder is written.
"""

import argparse
import pathlib
import sys

if __package__ in (None, ""):  # run as a file: python lab/lab_check.py
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from lab import lessons  # noqa: E402
from lab.grading.sandbox import Limits  # noqa: E402


def parser():
    p = argparse.ArgumentParser(
        prog="lab_check", description="Grade your harness.py against a lesson's tests.",
        epilog="Exit status: 0 all passed, 1 some failed, 2 nothing could be graded, "
               "3 the grader broke.")
    p.add_argument("tests", nargs="*", help="test files to run instead of the lesson's own")
    p.add_argument("--harness", default="harness.py", help="your harness file (harness.py)")
    p.add_argument("--lesson", type=int, help="the lesson's number (the newest one)")
    p.add_argument("-k", dest="select", metavar="EXPR", help="run only the tests matching EXPR")
    p.add_argument("--time-limit", type=float, default=Limits.seconds, metavar="SECONDS",
                   help=f"how long each test may take, import included ({Limits.seconds:g})")
    p.add_argument("--memory-limit", type=int, default=Limits.memory_mb, metavar="MB",
                   help=f"how much memory your code may allocate in each test ({Limits.memory_mb})")
    p.add_argument("--where", type=int, metavar="LESSON",
                   help="print where the lesson's starter, finished file and tests are, and stop")
    return p


def main(argv=None):
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    args = parser().parse_args(argv)
    try:
        lesson = lessons.lesson(args.where if args.where is not None
                                else args.lesson or max(lessons.available()))
    except (LookupError, ValueError) as error:
        print(f"lab_check: {error}. Name one of those with --lesson.", file=sys.stderr)
        return 2
    if args.where is not None:
        print(f"starter: {lesson.starter}\nfinished: {lesson.finished}\ntests: {lesson.tests}")
        return 0
    if args.time_limit <= 0 or args.memory_limit <= 0:
        print("lab_check: --time-limit and --memory-limit must be more than 0.", file=sys.stderr)
        return 2
    from lab.grading.grade import grade
    from lab.grading.report import text_report

    result = grade(args.harness, lesson, tests=args.tests, select=args.select,
                   limits=Limits(args.time_limit, args.memory_limit))
    sys.stdout.write(text_report(result))
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
