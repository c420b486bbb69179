"""lab_check: grade a harness.py against a lesson's tests, and say in plain words what it gets
right and wrong; for an instructor, grade a whole class, and prove the lesson's tests right.

    python lab/lab_check.py --harness harness.py --lesson 10
    lab-check                                   (from anywhere in the project: finds harness.py
                                                 and the lesson it declares)
    lab-check -k orphan                         (only the tests whose names hold "orphan")
    lab-check --watch                           (grade again on every save; Ctrl-C to stop)
    lab-check --hint [TEST]                     (hints for the first failing test, or for TEST)
    lab-check --reset                           (the starter back; your file kept as a backup)
    lab-check --course                          (the course's map, and where you stand in it)
    lab-check --next                            (once your lab passes: the next lab, started
                                                 from your own file, which is kept as a backup)
    lab-check --harness harness.py --lesson 10 --format gradescope --output results.json
    lab-check --lesson 10 --batch submissions/ --output results/ [--format json] [--jobs 2]
    lab-check --lesson 10 --batch submissions/ --output results/ --resume   (after a Ctrl-C)
    lab-check --lesson 10 --batch submissions/ --output results/ --cluster tcp://head:8786
                                                (on a running Dask cluster: docs/cluster.md)
    lab-check --lesson 10 --batch download/ --output results/ --export canvas [--roster CSV]
              [--due WHEN --late-policy 10%/day]   (an LMS's download to its gradebook)
    lab-check --verify 10
    lab-check --where 10
    lab-check --harness doctor.py --lesson B      (checkpoint B: a letter, not a number)

The harness is looked for from the working folder up to the project's folder (see
lab/course/harness_file.py); the lesson is --lesson, else the one the harness declares on its
`# lab: lesson N` line, else the newest. Test files named on the command line run instead of
the lesson's own; `tests.py`, when there is no such file where lab_check runs, is the lesson's.
    lab-check --release 10 --output DIR [--gradescope FILE.zip]   (see lab/release/)
    lab-check --site DIR [--lesson 10]          (the course as a static web site: lab/site/)
    lab-check --new-lab 12                      (start a lab the course plans: lab/cli/new_lab.py)
    lab-check --prove 12 | --prove all          (the lab proof: lab/cli/prove.py)

Exit status of one grading: 0 every test passed; 1 some test failed; 2 nothing could be graded
(no such file, not Python, a syntax error, an import that fails, a missing name, no such
lesson, no such test file, no test selected: a grading of no test is never a pass); 3 the
grader itself broke. Your harness runs in a sandbox, a clean process a test, from a copy of
your file: nothing in your folder is written but lab-check's own record of the grading, in
.lab-check/progress.json beside your file, for --course (and but by --reset and --next, which
keep your file as a backup and say what they did). Of a batch:
0 every submission has its result, 3 the grader broke on some (see summary.csv), 2 no batch to
grade, 130 stopped by Ctrl-C (every finished result kept; --resume goes on). Of --verify: 0 the lesson's tests hold, 1 some check surprised (the table says which).
--format text|json|junit|gradescope writes the result as a person, a program, a CI system or
Gradescope reads it (see lab/grader/formats.py); a result is written even when nothing could
be graded.
"""

import argparse
import os
import pathlib
import sys
import traceback

if __package__ in (None, ""):  # run as a file: python lab/lab_check.py
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from lab.course import lesson_files as lessons, harness_file as project  # noqa: E402
from lab.grader.formats import FORMATS  # noqa: E402
from lab.kit.counting import counted  # noqa: E402
from lab.sandbox.protocol import Limits  # noqa: E402

STUDENT_ONLY = ("watch", "hint", "reset", "course", "next")  # act on one student's work


def parser():
    p = argparse.ArgumentParser(
        prog="lab_check", description="Grade your harness.py against a lesson's tests.",
        epilog="Exit status: 0 all passed, 1 some failed, 2 nothing could be graded (or nothing "
               "was selected), 3 the grader broke. Of --batch: 0 every submission has its "
               "result, 3 the grader broke on some. Of --verify: 0 the lesson's tests hold, 1 a "
               "check surprised.")
    _student_options(p.add_argument_group("grading your harness"))
    _instructor_options(p.add_argument_group("for instructors"))
    return p


def _names_after_only(made, argv):
    """`argv` with each name after --only given as --only=NAME, so that a submission whose
    folder's name starts with a dash (-rf) is a name, not an option argparse does not know. A
    name ends where one of lab_check's own options begins (-k, --export, --output=DIR ...)."""
    known = made._option_string_actions

    def opens(word):  # an option of lab_check's, or the end of options
        return word == "--" or word.startswith("-") and (
            word.split("=", 1)[0] if word.startswith("--") else word[:2]) in known

    said, names = [], False
    for at, word in enumerate(argv):
        if opens(word):
            names = word == "--only"
            if not names or at + 1 == len(argv) or opens(argv[at + 1]):
                said.append(word)  # with no name after it, argparse says one is missing
        else:
            said.append(f"--only={word}" if names else word)
    return said


def _student_options(g):
    g.add_argument("tests", nargs="*", help="test files to run instead of the lesson's own")
    g.add_argument("--harness", default="harness.py", help="your harness file (harness.py, "
                   "looked for here and in the folders above, up to the project's)")
    g.add_argument("--lesson", help="the lesson's number, or a checkpoint's letter (B); else "
                   "the one your harness declares, else the newest numbered lesson")
    g.add_argument("-k", dest="select", metavar="WORDS", help="run only the tests whose names "
                   "hold every one of WORDS (words of a test's title, as the report prints it: "
                   "-k \"inside any write\"), or match a pytest -k expression")
    g.add_argument("-v", "--verbose", action="store_true",
                   help="write out every failing test's explanation, not the first of each gap")
    g.add_argument("--watch", action="store_true",
                   help="grade again every time your harness is saved, saying which tests "
                        "changed; Ctrl-C to stop")
    g.add_argument("--hint", nargs="?", const="", metavar="TEST",
                   help="up to three hints, each a step closer, for the first failing test or "
                        "for TEST (words of its name)")
    g.add_argument("--reset", action="store_true",
                   help="put the lesson's starter back in your harness file, keeping your file "
                        "as a backup in .lab-check/backups/ (harness.py.bak-1, -2, ...)")
    g.add_argument("--course", action="store_true",
                   help="print the course's map: every lab in order, what it builds on, and "
                        "for your work found from here whether you have started it, your last "
                        "score, or that it passed (from the record lab-check keeps beside your "
                        "file each time it grades it)")
    g.add_argument("--next", action="store_true",
                   help="start the next lab from your own file: it is graded first (the record "
                        "is not trusted for this) and must pass every test; then the next "
                        "lab's additions and gaps are put in, the definitions it changes are "
                        "replaced by its own (it says which), and your file is kept as a "
                        "backup. A checkpoint gets a file of its own beside your harness")
    g.add_argument("--time-limit", type=float, default=Limits.seconds, metavar="SECONDS",
                   help="how long any one answer of your code may take, your harness's import "
                        "included (and a whole test six times that); past it the test fails as "
                        "timed out, naming the line your code was on, and the other tests still "
                        f"run (default {Limits.seconds:g})")
    g.add_argument("--memory-limit", type=int, default=Limits.memory_mb, metavar="MB",
                   help="how many MiB your code may allocate in each test, on top of what the "
                        "process your harness runs in holds; more fails the test as out of memory "
                        f"(default {Limits.memory_mb})")


def _instructor_options(g):
    g.add_argument("--batch", metavar="DIR", help="grade every submission folder in DIR (each "
                   "holding a harness.py), each in a process of its own; needs --output")
    g.add_argument("--seed", type=int, metavar="N",
                   help="the seed the tests' inputs are varied with (a result records the one "
                        "it used): the same seed replays a grading exactly. Of a --batch, the "
                        f"class's seed (a new one when not given; summary.json records it). "
                        f"{SEED_ENV}=N in the environment does the same where no other user "
                        "can read it (a command line, any user can, where the sandbox has "
                        "no namespaces)")
    g.add_argument("--seed-per-student", action="store_true",
                   help="with --batch, grade each student with a seed of their own, derived "
                        "from the class's seed and the submission's name")
    g.add_argument("--resume", action="store_true",
                   help="with --batch, go on with the batch in --output: grade only the "
                        "submissions it has no result for under the same lesson, seed and file")
    g.add_argument("--only", nargs="+", action="extend", metavar="NAME",
                   help="with --batch, grade only these submissions (folder names, or as the "
                        "summary shows them), again, into the results and summary already in "
                        "--output; a name may start with a dash (--only -rf)")
    g.add_argument("--export", choices=("canvas", "csv", "moodle", "blackboard"),
                   help="with --batch, write the gradebook to import into the LMS: canvas "
                        "(Canvas's gradebook import CSV, and gradebook.csv), moodle (the "
                        "assignment's grading worksheet), blackboard (a Grade Center upload) or "
                        "csv (gradebook.csv alone: a row a student, the late policy applied and "
                        "shown)")
    g.add_argument("--overrides", metavar="CSV", help="with --export, grades set by hand: a "
                   "CSV of student, lab, points and reason, applied to every export and "
                   "recorded in summary.json")
    g.add_argument("--roster", metavar="CSV", help="with --export, the class list that names "
                   "each student from the LMS's id (Canvas's own gradebook export will do)")
    g.add_argument("--assignment", metavar="NAME", help="with --export canvas, the gradebook "
                   "column to fill, as Canvas's export names it (\"Lab 10 (4321)\")")
    g.add_argument("--due", metavar="WHEN", help="with --export, the deadline, ISO 8601 "
                   "(2026-12-01T23:59-05:00; UTC without an offset)")
    g.add_argument("--late-policy", metavar="POLICY", help="with --export (or --release "
                   "--gradescope, by Gradescope's submission times), what late work loses: none "
                   "(the default), zero, or 10%%/day, 5%%/hour, with ,max=50%% and ,grace=MINUTES")
    g.add_argument("--show-hidden", action="store_true",
                   help="let what a student reads (a batch's feedback files, Gradescope's "
                        "overall output) name and count the hidden tests too")
    g.add_argument("--require-isolation", action="store_true",
                   help="refuse to grade unless the student's code runs in a sandbox (implied "
                        "by --batch and --format gradescope)")
    g.add_argument("--allow-unisolated", action="store_true",
                   help="let an instructor's grading (--batch, any --format but text, "
                        "--require-isolation) run with no sandbox; its result then says a "
                        "submission could have forged it")
    g.add_argument("--verify", metavar="LESSON", help="prove the lesson's tests: the "
                   "finished file passes, the starter and every wrong answer fail, every right "
                   "answer passes")
    g.add_argument("--format", choices=FORMATS, metavar="FORMAT",
                   help=f"{', '.join(f for f in FORMATS if f != 'text')} or text (the default; "
                        "json for a --batch)")
    g.add_argument("--output", metavar="PATH", help="write the result to this file instead of "
                   "printing it; with --batch, the folder for every result and the summary; with "
                   "--verify, the folder for each answer's result")
    g.add_argument("--jobs", type=int, metavar="N",
                   help="with --batch or --verify, how many to grade at once (one a core)")
    g.add_argument("--cluster", metavar="ADDRESS",
                   help="with --batch, grade on this running Dask cluster (its scheduler's "
                        "tcp://host:port, or its scheduler file) instead of on this machine; "
                        "results, summary and exports stay here (docs/cluster.md)")
    g.add_argument("--where", metavar="LESSON",
                   help="print where the lesson's starter, finished file and tests are, and stop")
    g.add_argument("--release", metavar="LESSON", help="hand the lesson out: its "
                   "student's copy into --output DIR, and/or --gradescope FILE.zip")
    g.add_argument("--gradescope", metavar="FILE.zip", help="with --release, write Gradescope's "
                   "autograder zip")
    g.add_argument("--new-lab", metavar="LAB", help="start a lab the course plans: its folder "
                   "under lessons/, from its entry in lessons/course.toml (see docs/new-lab.md)")
    g.add_argument("--prove", metavar="LAB", help="the lab proof, of one lab or of `all`: "
                   "composed files, anatomy, --verify, and its notebook on a real kernel, on "
                   "its starter, its finished file and every later lab's (lab/cli/prove.py)")
    g.add_argument("--site", metavar="DIR", help="write the course as a static web site into DIR "
                   "(every written lab a page; with --lesson, that lab's page only; see lab/site/)")


def main(argv=None):
    """lab_check's command line. SIGTERM and SIGHUP end it as Ctrl-C would, so that a grading
    stopped from outside still stops its worker and removes its folders."""
    import signal
    import threading

    def stopped(number, frame):
        raise SystemExit(128 + number)

    previous = {}
    if threading.current_thread() is threading.main_thread():
        for number in (signal.SIGTERM, signal.SIGHUP):
            if signal.getsignal(number) is signal.SIG_DFL:
                previous[number] = signal.signal(number, stopped)
    try:
        return _main(argv)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _main(argv=None):
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="replace")
    made = parser()
    args = made.parse_args(_names_after_only(made, sys.argv[1:] if argv is None else argv))
    problem = _seed_from_environment(args)
    if problem:
        print(f"lab_check: {problem}", file=sys.stderr)
        return 2
    if args.site:
        return _site(args)
    if args.new_lab is not None or args.prove is not None:
        return _authoring(args)
    harness = _find_harness(args.harness)
    if args.course or args.next:
        mistake = _mistake(args)
        if mistake:
            print(f"lab_check: {mistake}", file=sys.stderr)
            return 2
        return _course(args, harness) if args.course else _next(args, harness)
    try:
        named = next((n for n in (args.where, args.verify, args.release, args.lesson)
                      if n is not None), None)
        if named is None and not args.batch:
            named = _declared(harness)
        if args.harness == "harness.py" and isinstance(harness, project.NotFound) and \
                not args.batch and args.where is None and args.verify is None and \
                args.release is None:
            harness, found = _checkpoint(harness, named)
            named = found if named is None else named
        lesson = lessons.newest() if named is None else lessons.lesson(named)
    except (LookupError, ValueError) as error:
        print(f"lab_check: {error}. Name one of those with --lesson.", file=sys.stderr)
        return 2
    if args.where is not None:
        finished = lesson.finished if not lesson.is_edition else \
            "none in a student's copy (the finished harness stays with the course's instructors)"
        print(f"starter: {lesson.starter}\nfinished: {finished}\ntests: {lesson.tests}")
        for source in _sources(lesson):
            print(f"source: {source}")
        return 0
    if lesson.is_edition and (args.release is not None or args.verify is not None):
        print("lab_check: --release and --verify need the instructor's copy of the course, with "
              "the lesson's finished.py; this is a student's copy.", file=sys.stderr)
        return 2
    if args.release is not None:
        try:
            from lab import release
            return _needs_extra("--release") or release.main(args, lesson)
        except ModuleNotFoundError as error:
            return _needs_extra("--release", error)
    mistake = _mistake(args)
    if mistake:
        print(f"lab_check: {mistake}", file=sys.stderr)
        return 2
    limits = Limits(args.time_limit, args.memory_limit)
    if args.verify is not None:
        try:
            return _needs_extra("--verify") or _verify(args, lesson, limits)
        except ModuleNotFoundError as error:
            return _needs_extra("--verify", error)
    if args.batch:
        return _batch(args, lesson, limits)
    if args.reset:
        return _reset(args, harness, lesson)
    from lab.grader import selection

    try:
        tests = selection.test_files(args.tests, lesson)
    except selection.NoSuchTests as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    if args.hint is not None:
        return _hint(args, harness, lesson, tests, limits)
    if args.watch:
        return _watch(args, harness, lesson, tests, limits)
    return _grade(args, harness, lesson, tests, limits)


# What the instructor's commands need beyond grading: building and running notebooks.
INSTRUCTOR_MODULES = ("nbformat", "nbclient", "jupytext", "ipykernel", "markdown_it")


def _site(args):
    """--site DIR: the course's static site (lab.site.build); 2 when it cannot be built."""
    try:
        if _needs_extra("--site"):
            return 2
        from lab.site import build, pyodide_files

        build.build(args.site, only=[args.lesson] if args.lesson else None)
    except ModuleNotFoundError as error:
        if (error.name or "").startswith("lab."):  # a student's copy: lab/site is not in it
            print("lab_check: --site needs the instructor's copy of the course; this is a "
                  "student's copy.", file=sys.stderr)
            return 2
        return _needs_extra("--site", error)
    except (pyodide_files.PyodideMissing, FileExistsError, LookupError, ValueError,
            build.LeakFound) as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    return 0


def _authoring(args):
    """--new-lab LAB and --prove LAB|all: an author's commands (lab.cli.new_lab, lab.cli.prove)."""
    option = "--new-lab" if args.new_lab is not None else "--prove"
    try:
        if _needs_extra(option):
            return 2
        from lab.cli import new_lab, prove as proof

        return new_lab.main(args.new_lab) if args.new_lab is not None else proof.main(args.prove)
    except ModuleNotFoundError as error:
        if (error.name or "").startswith("lab."):  # a student's copy: the author's tools are not in it
            print(f"lab_check: {option} needs the course's own project; this is a student's copy.",
                  file=sys.stderr)
            return 2
        return _needs_extra(option, error)


def _needs_extra(option, error=None):
    """2, after one line naming the extra to install, when an instructor's tool is missing
    (`error`: the import that failed); None when they are all there. Any other missing module
    is the lab's own bug, and goes on up."""
    import importlib.util

    if error is not None and (error.name or "").split(".")[0] not in INSTRUCTOR_MODULES:
        raise error
    missing = error.name if error is not None else next(
        (name for name in INSTRUCTOR_MODULES if importlib.util.find_spec(name) is None), None)
    if missing is None:
        return None
    print(f"lab_check: {option} builds notebooks, with tools the lab's first install leaves "
          f"out (no module named {missing!r}). Install them: pip install -e '.[instructor]'",
          file=sys.stderr)
    return 2


def _find_harness(name):
    """The student's harness file as a path to grade, or the NotFound that says where
    lab_check looked for it."""
    try:
        found = project.find_harness(name)
    except project.NotFound as missing:
        return missing
    return found if os.path.isabs(name) else pathlib.Path(os.path.relpath(found))


def _declared(harness):
    """The lesson id the harness file declares, or None (no file, or no marker in it)."""
    declared = None if isinstance(harness, Exception) else project.declared_lesson(harness)
    return project.lesson_id(declared) if declared else None


def _sources(lesson):
    """The files the lesson's finished file is made from: the changes.py of each lab its
    harness is composed from (lab.course.compose), or, for a checkpoint, whose answer is not a harness,
    its finished.py itself. None in a student's copy, which holds no finished file."""
    if lesson.is_edition:  # lab.course.starter, an author's tool, is not in the copy
        return []
    from lab.course import order as course, starter

    lab = course.find(lesson.number)
    return starter.sources(lab) if lab.changes is not None else [lesson.finished]


SEED_ENV = "LAB_SEED"


def _seed_from_environment(args):
    """Take the seed from LAB_SEED when --seed is not given (an environment is its owner's to
    read; a command line is anyone's), and note where it came from; a sentence when it is no
    number, else ""."""
    args.seed_shown = args.seed is not None
    given = os.environ.get(SEED_ENV, "").strip()
    if args.seed is None and given:
        try:
            args.seed = int(given)
        except ValueError:
            return f"{SEED_ENV}={given!r}: the seed is a whole number."
    return ""


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
    batch_only = [f"--{name.replace('_', '-')}" for name in ("resume", "only", "seed_per_student",
                                                             "cluster") if getattr(args, name)]
    if batch_only and not args.batch:
        return f"{' and '.join(batch_only)} go with --batch DIR --output OUTDIR."
    exporting = [f"--{name.replace('_', '-')}" for name in ("export", "roster", "due",
                                                           "late_policy", "assignment",
                                                           "overrides")
                 if getattr(args, name) and not (name == "late_policy" and args.gradescope)]
    if exporting and not args.batch:
        return f"{' and '.join(exporting)} go with --batch DIR --output OUTDIR."
    if args.cluster and args.tests:
        return "--cluster grades with the lesson's own tests, which every worker has: leave out " \
               "the test files, or grade on this machine."
    if args.resume and args.only:
        return "--resume grades what is left, --only NAME... grades some again: use one of them."
    if args.verify is not None and (args.tests or args.select or args.format):
        return "--verify runs every test of the lesson on its own answers and prints a table: " \
               "leave out test files, -k and --format."
    chosen = [f"--{name}" for name in STUDENT_ONLY if getattr(args, name) not in (None, False)]
    if len(chosen) > 1:
        return f"{' and '.join(chosen)} do different things: use one of them at a time."
    if chosen and (args.batch or args.verify is not None or args.format or args.output):
        return f"{chosen[0]} works on your own harness, in the terminal: leave out --batch, " \
               "--verify, --format and --output."
    if (args.next or args.course) and (args.tests or args.select):
        return f"--{'next' if args.next else 'course'} works on the whole lab: leave out -k " \
               "and test files."
    return None


# -- one student's harness ----------------------------------------------------------------

def _graded(args, harness, lesson, tests, limits, warm=None):
    """The Grade of the harness; when it cannot be found, or the grader itself breaks, a Grade
    that says so."""
    import dataclasses

    from lab.grader import plan

    from lab.course import manifest
    from lab.grader.results import Grade

    if isinstance(harness, project.NotFound):
        return Grade(lesson=lesson.number, title=manifest.title(lesson), harness=args.harness,
                     problem=str(harness))
    try:
        chosen = dataclasses.replace(plan.from_args(args), limits=limits,
                                     tests=tuple(str(t) for t in tests))
        return chosen.grade(harness, lesson, warm=warm)
    except Exception as error:  # the grader's own bug: still leave a result that says so
        traceback.print_exc()
        why = (f"the grader itself failed ({type(error).__name__}: {error}). This is a bug in "
               "the lab, not in your harness: please report it.")
        return Grade.broken(lesson.number, manifest.title(lesson), harness, why,
                            points=manifest.total(lesson))


def _grade(args, harness, lesson, tests, limits):
    """Grade one harness and print or write its result."""
    from lab.grader import formats
    from lab.course import manifest
    from lab.grader.report import text_report

    fmt = args.format or "text"
    result = _graded(args, harness, lesson, tests, limits)
    if fmt == "text" and not args.output:
        _remember(harness, lesson, result)
    if not args.output:
        sys.stdout.write(text_report(result, lesson, verbose=args.verbose) if fmt == "text"
                         else formats.render(result, fmt, args.show_hidden))
        sys.stdout.write(manifest.on_submission(lesson) if fmt == "text" else "")
        return result.exit_code
    try:
        written = formats.write(result, fmt, args.output, args.show_hidden)
    except OSError as error:
        print(f"lab_check: cannot write {args.output} ({error.strerror or error}). Name a file "
              "in a folder you can write to.", file=sys.stderr)
        return 2
    print(f"lab_check: lesson {lesson.number}, {result.score:g} of "
          f"{counted(result.max_score, 'point')}"
          f"{' (nothing graded)' if result.problem else ''}; {fmt} result in {written}")
    return result.exit_code


def _watch(args, harness, lesson, tests, limits):
    from lab.cli import watch
    from lab.grader.report import text_report

    if isinstance(harness, project.NotFound):
        print(f"lab_check: {harness}", file=sys.stderr)
        return 2
    from lab.grader.supervise import Warm

    with Warm() as warm:  # one worker for every round: pytest imported, the sandbox started
        def graded():
            result = _graded(args, harness, lesson, tests, limits, warm=warm)
            _remember(harness, lesson, result)
            return result

        return watch.run(harness, graded,
                         lambda grade: text_report(grade, lesson, verbose=args.verbose))


def _hint(args, harness, lesson, tests, limits):
    """Print the hints for the test named by --hint, or for the first test that fails."""
    from lab.grader import hints, report
    from lab.course import manifest

    names = [name for path in tests for name in manifest.graded_tests(pathlib.Path(path))]
    if args.hint:
        picked = hints.matching(names, args.hint)
        if len(picked) != 1:
            some = ", ".join(n.removeprefix("test_") for n in (picked or names))
            print(f"lab_check: --hint {args.hint!r} names {len(picked) or 'none'} of the tests"
                  f"{'' if picked else ' of lesson ' + str(lesson.number)}: {some}. Name one "
                  "with words of its name.", file=sys.stderr)
            sys.stderr.write(hints.menu(lesson, names, among=picked))
            return 2
        name = picked[0]
    else:
        result = _graded(args, harness, lesson, tests, limits)
        _remember(harness, lesson, result)
        if result.problem:  # no test to pick the first failing of: the words to ask by
            sys.stdout.write(report.text_report(result, lesson) + hints.menu(lesson, names))
            return result.exit_code
        failing = report.first_failing(result, lesson)
        if failing is None:
            print(f"lab_check: every test of lesson {lesson.number} passes: no hint needed.")
            return 0
        name = failing
    sys.stdout.write(hints.text(name, lesson))
    return 0


def _reset(args, harness, lesson):
    """Put the lesson's starter where the harness is, keeping the student's file."""
    from lab.cli import reset

    target = harness if not isinstance(harness, project.NotFound) else (
        (project.root() or pathlib.Path.cwd()) / args.harness)
    try:
        said = reset.reset(pathlib.Path(target), lesson.starter)
    except OSError as error:
        print(f"lab_check: cannot reset {target} ({error.strerror or error}); nothing was "
              "changed.", file=sys.stderr)
        return 2
    print(f"lab_check: {said}")
    return 0


def _remember(harness, lesson, result):
    """Keep what a student's grading found, for --course (lab.course.progress): only a grading of
    their own file (not one of the course's own under lessons/), of the whole lab, that the
    grader finished. Never for --verify, --batch, --format or --output, which do not come
    here."""
    from lab.course import next_step as onward, student_position as position, progress

    if isinstance(harness, project.NotFound) or result.exit_code == 3 or (
            not result.problem and not onward.graded_whole(result, lesson)) or \
            position.course_owned(harness):
        return
    problem = progress.remember(pathlib.Path(harness).parent, _label(lesson),
                                progress.of_grade(result))
    if problem:
        print(problem, file=sys.stderr)


def _label(lesson):
    from lab.course import order as course

    return course.label(lesson.number)


# -- the course -----------------------------------------------------------------------------

def _follows(args):
    """Whether a started checkpoint beside the harness counts as where the student is (see
    lab/course/student_position.py): only when neither the file nor the lab was named."""
    return args.harness == "harness.py" and args.lesson is None


def _course(args, harness):
    """Print the course's map, with where the student whose work is found from here stands."""
    from lab.course import order as course, next_step as onward, student_position as position, progress
    from lab.cli import course_map

    here, marks, looked = None, None, ""
    if isinstance(harness, project.NotFound) and args.harness == "harness.py":
        harness = _checkpoint_file(harness)
    if isinstance(harness, project.NotFound):
        looked = (f"No {onward.shown(args.harness)} found from here, so no progress to show "
                  f"({harness})")
    else:
        marks = progress.read(pathlib.Path(harness).parent)
        if marks.problem:
            print(marks.problem, file=sys.stderr)
        try:
            here = position.locate(pathlib.Path(harness), args.lesson, follow=_follows(args),
                                   marks=marks)
        except (LookupError, ValueError) as error:
            looked = f"Your work: {onward.shown(harness)}, for no lab of the course ({error})"
    try:
        order = course.labs()
    except course.CourseError as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    sys.stdout.write(course_map.course_map(order, lessons.available(), marks, here, looked))
    return 0


def _checkpoint_file(missing):
    """With no harness.py found, the file of a checkpoint this copy holds (doctor.py, in
    checkpoint B's edition), as found from here; else `missing`, the NotFound for harness.py."""
    return _checkpoint(missing)[0]


def _checkpoint(missing, wanted=None):
    """(the file, the checkpoint's id) of a checkpoint whose student_file (its manifest's) is
    found from here, with no harness.py found: checkpoint A's edition grades doctor_a.py with
    a bare `lab-check`, as a lesson's grades harness.py. Only checkpoint `wanted` when one is
    named (--lesson A). Else (`missing`, the NotFound for harness.py, None)."""
    from lab.course import manifest

    try:
        available = lessons.available()
    except Exception:  # a course that cannot be read: the usual error says so later
        return missing, None
    if wanted is not None:
        try:
            wanted = lessons.lesson_id(str(wanted))
        except ValueError:
            return missing, None
    for number, lesson in available.items():
        if wanted is not None and number != wanted:
            continue
        named = manifest.read(lesson).get("student_file")
        found = _find_harness(named) if named else missing
        if not isinstance(found, project.NotFound):
            return found, number
    return missing, None


def _next(args, harness):
    """Start the next lab from the student's passing file (lab/cli/next_lab.py)."""
    from lab.cli import next_lab
    from lab.course import next_step as onward, student_position as position
    from lab.grader import selection

    if isinstance(harness, project.NotFound) and args.harness == "harness.py":
        harness = _checkpoint_file(harness)
    if isinstance(harness, project.NotFound):
        print(f"lab_check: {harness}", file=sys.stderr)
        return 2
    try:
        at = position.locate(pathlib.Path(harness), args.lesson, follow=_follows(args))
    except (LookupError, ValueError) as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    limits = Limits(args.time_limit, args.memory_limit)

    def grade(file, lesson):
        print(f"lab_check: grading {onward.shown(file)} as {onward.name(_lab(lesson))} first: "
              "--next moves "
              "on from a passing file only ...", flush=True)
        result = _graded(args, file, lesson, selection.test_files([], lesson), limits)
        _remember(file, lesson, result)
        return result

    try:
        started = next_lab.start_next(at, grade)
    except next_lab.Refused as refused:
        print(f"lab_check: {refused}", file=sys.stderr)
        return refused.status
    print("\n".join(next_lab.said(started)))
    return 0


def _lab(lesson):
    from lab.course import order as course

    return course.find(lesson.number)


# -- for instructors ------------------------------------------------------------------------

def _batch(args, lesson, limits):
    """Grade a class (lab/grader/batch.py); Ctrl-C stops it cleanly and says how to go on."""
    import dataclasses

    from lab.grader import batch, gradebook, plan, selection

    try:  # test files of one's own, found from here (each grading runs in a folder of its own)
        tests = selection.test_files(args.tests, lesson) if args.tests else []
    except selection.NoSuchTests as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    chosen = dataclasses.replace(plan.from_args(args), limits=limits,
                                 tests=tuple(str(test) for test in tests))
    try:
        gradebook.check(args)  # the export's options, before an hour of grading
    except ValueError as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    try:
        from lab.grader.cluster import open_for

        status = batch.command(args, lesson, chosen, open_grid=open_for)
        return (gradebook.command(args, lesson) or status) if args.export and status in (0, 3) \
            else status
    except KeyboardInterrupt:  # before the grading began, or as it ended
        print(f"lab_check: stopped. What was graded is kept in {args.output}; go on with "
              "--resume.", file=sys.stderr)
        return batch.INTERRUPTED


def _verify(args, lesson, limits):
    from lab.cli import verify

    checks = verify.verify(lesson, jobs=args.jobs, limits=limits, keep=args.output)
    sys.stdout.write(verify.table(lesson, checks))
    return 0 if all(check.ok for check in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
