"""Grade a whole class: every submission in a folder, several at once, each in a process of its
own; every result kept the moment it is graded, so that a batch can be stopped and taken up
again.

    lab-check --lesson 10 --batch submissions/ --output results/ [--format json] [--jobs 2]
              [--seed N [--seed-per-student]] [--show-hidden]
    lab-check --lesson 10 --batch submissions/ --output results/ --resume
    lab-check --lesson 10 --batch submissions/ --output results/ --only alice bob
    lab-check --lesson 10 --batch submissions/ --output results/ --cluster tcp://head:8786

A submission is a folder in submissions/ (hidden folders, and the output folder if it is in
there, are skipped); the file graded is the harness.py in it (`discover`, the one place that
finds them). Into the output folder go:

  results/<name>.<ext>   the instructor's result, in the chosen format (json unless --format
                         says otherwise): every test, hidden ones included
  feedback/<name>.txt    what the student may read: the text report of the visible tests only
                         (all of them with --show-hidden)
  summary.json, .csv     one row a submission, in name order: submission, status (graded;
                         not graded: the submission's own fault, such as a syntax error; grader
                         failed: the grader's, such as a sandbox that would not start, never a
                         student's zero), score, max_score, passed, failed, failed_tests,
                         exit_code (as lab-check would exit for it), problem, seed (the one it
                         was graded with), isolation, sha256 (of the file graded), result_file
                         and feedback_file. summary.json also records the lesson, lab-check's
                         version, the format, the class's seed and how each student's was
                         chosen, the isolation, and whether every submission is in it; a row
                         graded again keeps its earlier gradings (regrade.py), and the
                         export's overrides are recorded (overrides.py).
  class.json, .html      the class at a glance (glance.py): written at the end of every run

Each result is written whole or not at all (written beside its place, then renamed), and the
summary is written again after every one, the same way: a batch stopped at any moment, even
killed, leaves every result it finished and a summary of them. Ctrl-C (or SIGTERM) stops it
cleanly: the graders at work are stopped, their submissions left for later, and the batch says
how to go on. --resume then grades only what is not yet graded: a submission is skipped when the
summary has its result under the same lesson and seed for the file's current sha256 (a file
changed since is graded again, as is one the grader failed on). --only NAME... grades those
submissions again, into the results and summary already there. Both refuse, naming what
differs, a -k, test files, limits, seed (or seed mode) or --show-hidden other than the summary
records: one summary is one grading.

Seeds: one for the whole class (--seed N, or a new one the summary records), or, with
--seed-per-student, one for each student derived from the class's seed and the folder's name;
either way the summary's seed replays the class exactly. --resume and --only keep the seed (and
the format) of the batch they continue unless told otherwise.

A folder's name is the student's choice and may be any bytes: not UTF-8, with a newline in it,
"summary.json", "../x" or "=HYPERLINK(...)". So <name> is escape.file_name's (a readable part
and a hash of the name's bytes: never a clash, never a path), the summary shows the name
through escape.shown_name, and every cell of summary.csv that a spreadsheet would run as a
formula is quoted. A submission folder that is a symbolic link, like a harness.py that is one,
is refused, with exit code 2 in its row: its work would be whatever the link points to.

Each submission is graded by the grading function itself (plan.Plan.grade, as a student's own
lab-check grades), called in a process of its own (`python -m lab.grader.batch`, the Plan
handed over as data on its stdin) in a process group and scratch folder of its own: one that
crashes its grader, kills it, or runs past its ceiling costs only its own row. Its stderr goes
to a file, never a pipe, which a process left behind could hold open and so keep the batch
waiting. When a grader leaves no result, the batch writes one that says how the grader ended
and what it last wrote on stderr, with exit code 3, like any grader that broke.

With --cluster, the same gradings run on the workers of a Dask cluster instead
(lab/grader/cluster.py), and everything above that is the batch's record stays here.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import pathlib
import shlex
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol, TextIO

from lab.grader import declared, finder, formats, supervise
from lab.course import manifest
from lab.grader import regrade
from lab.worker import tidy
from lab.kit.counting import counted
from lab.kit.escape import csv_cell, file_name, printable, shown_name
from lab.grader.plan import Plan
from lab.grader.progress_bar import Progress
from lab.grader.results import VERSION, Grade
from lab.grader.whole_file import write_text as _write_text
from lab.sandbox.protocol import Limits

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson

PROJECT = pathlib.Path(__file__).resolve().parent.parent.parent


class Grid(Protocol):
    """Somewhere else to grade a batch's submissions (lab.grader.cluster.Cluster, a Dask
    cluster): the same contract as this module's own _grade_all, and a close."""

    def grade_all(self, found: Sequence[Submission], lesson: Lesson, plan: Plan, *,
                  jobs: int | None = ..., progress_stream: TextIO | None = ...,
                  on_done: Callable[[Submission, Grade], object] | None = ...,
                  stop: threading.Event | None = ..., already: int = ...,
                  whole: int | None = ...) -> tuple[dict[str | bytes, Grade], list[Submission]]:
        ...

    def close(self) -> None:
        ...
HARNESS = "harness.py"
STDERR_LINES = 20  # of a grader that left no result, the last lines of stderr shown
RESULTS = "results"    # the folder of the instructor's result files, inside the output folder
FEEDBACK = "feedback"  # the folder of what each student may read
SUMMARY = "summary.json"
GRADED, NOT_GRADED, GRADER_FAILED = "graded", "not graded", "grader failed"
COLUMNS = ("submission", "status", "score", "max_score", "passed", "failed", "failed_tests",
           "exit_code", "problem", "seed", "isolation", "sha256", "result_file",
           "feedback_file")
INTERRUPTED = 130  # the exit status of a batch stopped by Ctrl-C, as a shell reports SIGINT
# hypothesis's folder for the tables it works out once and keeps (the Unicode categories and a
# codec's characters, behind st.text and st.characters; the constants of the lab's modules):
# shared by every grading of one batch, inside its folder and removed with it. Worked out anew
# by each worker, they cost seconds of every grading of a lesson whose tests draw text; kept,
# they are read in milliseconds, and the same tables draw the same examples.
HYPOTHESIS_TABLES = "hypothesis"


@dataclass(frozen=True)
class Submission:
    """One student's work: `name` (the folder's name, as the file system gives it), the
    `folder`, and the `harness` file in it to grade."""
    name: str
    folder: pathlib.Path
    harness: pathlib.Path
    note: str = ""  # what finding the file has to tell the student, or ""
    problem: str = ""  # why the finder found nothing to grade (lab.grader.finder), or ""


@dataclass
class BatchRun:
    """What a run of the batch did: its summary `rows` (in name order), how many it graded in
    this run and how many it left (`pending`: stopped before them), whether it was
    `interrupted`, and the summary's facts."""
    rows: list[dict[str, Any]]
    graded_now: int = 0
    skipped: int = 0
    pending: list[str] = field(default_factory=list)
    interrupted: bool = False
    facts: dict[str, Any] = field(default_factory=dict)
    glance: dict[str, Any] = field(default_factory=dict)  # the class at a glance (glance.py)


# -- finding the submissions ---------------------------------------------------------------

def discover(folder: str | os.PathLike[str], skip: str | os.PathLike[str] | None = None,
             wanted: str = HARNESS) -> list[Submission]:
    """The submissions in `folder`, by name: the one place the batch finds them, as
    lab.grader.finder finds them (Gradescope's autograder finds a student's file the same
    way): a folder per student, an LMS's flat download (Canvas, Moodle, Blackboard), or both; a
    file graded from a zip is staged in `skip`/staged. A name the finder cannot place is a
    submission of its own, with its `problem`, never dropped. ValueError, saying what to do,
    when there is no such folder or nothing in it to grade, or when `skip` (the output folder)
    is the folder itself or inside a submission. `wanted`: the student's file (harness.py, or
    the lab's manifest's student_file: finder.student_file)."""
    folder = pathlib.Path(folder)
    skip = pathlib.Path(skip).resolve() if skip else None
    if folder.is_dir() and skip and (skip == folder.resolve() or any(
            _inside(skip, p.resolve()) for p in folder.iterdir()
            if p.is_dir() and not p.is_symlink() and p.resolve() != skip)):
        raise ValueError(f"the output folder {shown_name(str(skip))} is the batch's folder or "
                         "inside a submission: results would land among the submissions. Name "
                         "an output folder of its own.")
    staging = skip / "staged" if skip else pathlib.Path(
        tempfile.mkdtemp(prefix="lab-check-staged-"))
    return [Submission(one.name, one.folder, one.harness or one.folder / wanted, one.note,
                       problem=one.problem)
            for one in finder.in_class(folder, staging=staging, skip=skip, wanted=wanted)]


def submissions(folder: str | os.PathLike[str],
                skip: str | os.PathLike[str] | None = None) -> list[pathlib.Path]:
    """The submission folders in `folder`, by name (see `discover`)."""
    return [found.folder for found in discover(folder, skip)]


def _inside(path, folder):
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def _clashes(found, result_file):
    """The shown names of two submissions whose result files would be the same; [] if none."""
    seen: dict[str, str | bytes] = {}
    for one in found:
        other = seen.setdefault(result_file(one.name), one.name)
        if other != one.name:
            return [shown_name(other), shown_name(one.name)]
    return []


def file_sha256(submission: Submission) -> str:
    """The sha256 of the file a submission would be graded on, read without following a link
    and only if it is a regular file; "" when there is none (the grade will say why)."""
    if submission.folder.is_symlink():
        return ""
    try:
        fd = os.open(submission.harness, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    with open(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return ""
        digest = hashlib.sha256()
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


# -- the batch ------------------------------------------------------------------------------

def run(folder: str | os.PathLike[str], lesson: Lesson, out: str | os.PathLike[str], *,
        fmt: str | None = None, jobs: int | None = None, plan: Plan | None = None,
        resume: bool = False, only: Sequence[str] = (), progress_stream: TextIO | None = None,
        stop: threading.Event | None = None, limits: Limits | None = None,
        select: str | None = None, tests: Iterable[str | os.PathLike[str]] = (),
        isolated: bool = True, cluster: Grid | None = None) -> BatchRun:
    """Grade the submissions in `folder` on `lesson` under `plan` into the folder `out`, as the
    module docstring says, and return the BatchRun. `resume`: grade only what is not yet graded;
    `only`: names of submissions to grade again into the results there. `stop`, a
    threading.Event, stops the batch when set (Ctrl-C sets it). `cluster`, a checked
    cluster.Cluster, grades the submissions on its workers instead of here. ValueError, saying what to do,
    when the batch cannot be run as asked."""
    plan = plan or Plan(isolated=isolated, limits=limits or Limits(), select=select,
                        tests=tuple(str(t) for t in tests))
    out = pathlib.Path(out)
    found = discover(folder, skip=out, wanted=finder.student_file(lesson))
    previous = read_summary(out)
    if previous is not None and not (resume or only):
        raise ValueError(f"{out} already holds a batch's results ({_count(previous)}). Go on "
                         "with it (--resume), grade some students again into it (--only NAME "
                         "...), or name another output folder.")
    if previous is not None and previous.get("lesson") != lesson.number:
        raise ValueError(f"the results in {out} are of lesson {previous.get('lesson')}, not "
                         f"{lesson.number}: name another output folder.")
    fmt = fmt or (previous or {}).get("format") or "json"
    if fmt not in formats.EXTENSIONS:
        raise ValueError(f"no result format {fmt!r}; choose one of {', '.join(formats.FORMATS)}")
    if previous is not None and previous.get("format") != fmt:
        raise ValueError(f"the results in {out} are in the {previous.get('format')} format: "
                         f"leave out --format, or give --format {previous.get('format')}.")
    if plan.seed is None and previous is not None and previous.get("seed") is not None:
        plan = replace(plan, seed=previous["seed"],
                       per_student=plan.per_student or previous.get("seed_mode") == "per-student")
    if previous is not None:
        _same_grading(previous, plan, out, "--only" if only else "--resume")
    plan = plan.with_class_seed()
    clashing = _clashes(found, lambda name: file_name(name))
    if clashing:
        raise ValueError(f"the submissions {' and '.join(clashing)} would share a result file "
                         "(their names' hashes clash). Rename one of them.")
    found = [replace(one, note=" ".join(filter(None, (one.note, declared.other_lab(
        one.harness if one.problem == "" else None, lesson.number))))) for one in found]
    chosen = _chosen(found, only)
    rows = {row["id"]: row for row in _rows_of(previous)}
    todo = [one for one in chosen if not (resume and not only and _done(rows.get(
        file_name(one.name)), one, plan, out))]
    done = BatchRun(rows=[], skipped=len(chosen) - len(todo))
    facts = _facts(lesson, fmt, plan)
    total = manifest.total(lesson)
    pace = Pace()

    def keep(submission, attempt, diagnosis):  # what a grader failure left, beside its row
        path = out / failure_file(submission.name)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w" if attempt == 1 else "a", encoding="utf-8",
                  errors="backslashreplace") as file:
            file.write(diagnosis)

    def save(submission, grade):  # as each finishes, so an interrupted batch keeps what it graded
        key = file_name(submission.name)
        entry = row(submission.name, grade, total, f"{RESULTS}/{key}{formats.EXTENSIONS[fmt]}",
                    f"{FEEDBACK}/{key}.txt", seed=plan.seed_for(submission.name),
                    note=declared.other_lab(submission.harness, lesson.number))
        trail = regrade.keep(out, rows.get(key))  # a regrade keeps the result it replaces
        if trail:
            entry["earlier"] = trail
        if entry["status"] == GRADER_FAILED and (out / failure_file(submission.name)).is_file():
            entry["problem"] += f" (what it left: {failure_file(submission.name)})"
        formats.write(grade, fmt, out / entry["result_file"], show_hidden=plan.show_hidden,
                      heading=_instructors_heading(entry) if fmt == "text" else "")
        _write_text(out / entry["feedback_file"], _feedback(grade, lesson, plan, submission,
                                                            folder))
        rows[key] = entry
        done.graded_now += 1
        pace.write(lambda: write_summary(_ordered(rows), lesson, fmt, out,
                                         facts=dict(facts, complete=False)))

    out.mkdir(parents=True, exist_ok=True)
    write_summary(_ordered(rows), lesson, fmt, out, facts=dict(facts, complete=False))
    if cluster:  # its graders' machines are others': what a failure left stays on them
        grades, pending = cluster.grade_all(todo, lesson, plan, jobs=jobs,
                                            progress_stream=progress_stream, on_done=save,
                                            stop=stop, already=done.skipped,
                                            whole=len(chosen))
    else:
        grades, pending = _grade_all(todo, lesson, plan, jobs=jobs,
                                     progress_stream=progress_stream, on_done=save, stop=stop,
                                     already=done.skipped, whole=len(chosen), keep=keep)
    done.pending = [one.name for one in pending]
    done.interrupted = bool(pending)
    done.rows = _ordered(rows)
    missing = [one for one in found if file_name(one.name) not in rows]
    done.facts = dict(facts, complete=not missing and not pending,
                         not_yet_graded=len(missing))
    write_summary(done.rows, lesson, fmt, out, facts=done.facts)
    done.glance = _at_a_glance(done.rows, lesson, out, found)
    return done


def _at_a_glance(rows, lesson, out, found):
    """The class at a glance, written beside the summary as class.json and class.html."""
    from lab.grader import glance, glance_page

    files = {file_name(one.name): one.harness for one in found
             if not one.problem and not one.folder.is_symlink()}
    view = glance.summarize(rows, lesson, out, files)
    glance_page.write(view, out)
    return view


def failure_file(name: str | bytes) -> str:
    """Where, in the output folder, what the grader left when it failed on the submission
    `name` is kept (each failed attempt's sentence, and its last words on stderr)."""
    return f"{RESULTS}/{file_name(name)}.grader-failure.txt"


class Pace:
    """Writes the summary again after a result, unless the last writing was so recent that
    writing it this often would cost more than a tenth of the batch's time (a class of
    thousands): then at most every ten times as long as a writing takes. A summary left
    behind that way is at most a moment behind the result files, and the final writing, at
    the end or on Ctrl-C, always happens."""

    def __init__(self, share: float = 10) -> None:
        self.share, self.last, self.took = share, float("-inf"), 0.0

    def write(self, writing: Callable[[], object]) -> None:
        if time.monotonic() - self.last < self.took * self.share:
            return
        began = time.monotonic()
        writing()
        self.last, self.took = time.monotonic(), time.monotonic() - began


def _chosen(found, only):
    """The submissions `only` names (each by its folder's name or as the summary shows it),
    or all of them; ValueError naming any that is not there."""
    if not only:
        return found
    only = [name.rstrip("/") or name for name in only]  # a shell's completion adds a "/"
    by_name: dict[str | bytes, Submission] = {}
    for one in found:
        by_name.setdefault(one.name, one)
        by_name.setdefault(shown_name(one.name), one)
        by_name.setdefault(str(csv_cell(shown_name(one.name))), one)  # as summary.csv shows it
    unknown = [name for name in only if name not in by_name]
    if unknown:
        some = ", ".join(shown_name(one.name) for one in found[:10])
        raise ValueError(f"--only names {counted(len(unknown), 'submission')} the batch does not "
                         f"have: {', '.join(shown_name(n) for n in unknown)}. It has: {some}"
                         f"{', ...' if len(found) > 10 else ''}.")
    picked = {by_name[name].name: by_name[name] for name in only}
    return sorted(picked.values(), key=lambda one: one.name)


def _rows_of(summary):
    """The rows of an earlier summary that are whole rows (a summary edited by hand, or not
    this batch's, may hold anything): the others are as if never graded."""
    listed = (summary or {}).get("submissions", [])
    return [entry for entry in listed if isinstance(entry, dict) and isinstance(entry.get("id"), str)
            and all(key in entry for key in COLUMNS)
            and isinstance(entry["failed_tests"], list)
            and all(isinstance(entry[key], (int, float)) for key in ("score", "max_score"))]


def _done(entry, submission, plan, out):
    """Whether the summary's `entry` already holds this submission's result under this plan:
    the same file, the same seed, a result file there, not the grader's failure, and not
    graded without a sandbox when this plan insists on one."""
    return (entry is not None and entry.get("status") in (GRADED, NOT_GRADED)
            and not (plan.isolated and entry.get("isolation") == "none")
            and entry.get("seed") == plan.seed_for(submission.name)
            and entry.get("sha256") == file_sha256(submission)
            and (out / str(entry.get("result_file", ""))).is_file()
            and not os.path.isabs(str(entry.get("result_file", ""))))


def _ordered(rows):
    return sorted(rows.values(), key=lambda r: (str(r.get("submission")), str(r.get("id"))))


def _count(summary):
    rows = summary.get("submissions", [])
    return counted(len(rows) if isinstance(rows, list) else 0, "submission") + " graded"


def _facts(lesson, fmt, plan):
    kind, _ = plan.isolation() if plan.isolated else (None, "")
    if kind is None:
        from lab.worker import isolation
        try:
            kind = isolation.detect()
        except isolation.Unavailable:
            kind = ""
    return {"lesson": lesson.number, "title": manifest.title(lesson), "version": VERSION,
            "lab_check": _package_version(), "format": fmt, "seed": plan.seed,
            "seed_mode": plan.seed_mode, "isolation": kind, "isolated": plan.isolated,
            "show_hidden": plan.show_hidden, "select": plan.select or None,
            "tests": list(plan.tests),
            "time_limit": plan.limits.seconds, "memory_limit": plan.limits.memory_mb}


def _said(value):
    return shlex.quote(printable(str(value)))


def _options(select, tests, seconds, memory, show_hidden, seed, seed_mode):
    """{the summary's name for it: how a command line gives it} of each option of a grading
    that shapes its rows."""
    return {"select": f"-k {_said(select)}" if select else "no -k",
            "tests": (f"the test files {' '.join(_said(t) for t in tests)}"
                      if tests and isinstance(tests, (list, tuple)) else "the lesson's own tests"),
            "time_limit": f"--time-limit {seconds:g}" if isinstance(seconds, (int, float))
            else f"--time-limit {_said(seconds)}",
            "memory_limit": f"--memory-limit {_said(memory)}",
            "show_hidden": "--show-hidden" if show_hidden else "no --show-hidden",
            "seed": f"--seed {_said(seed)}",
            "seed_mode": ("--seed-per-student" if seed_mode == "per-student"
                          else "one seed for the class")}


def _same_grading(previous, plan, out, how):
    """ValueError, in one line naming each difference, when `plan` would grade rows otherwise
    than the batch whose summary is `previous` did: another -k, other test files, limits or
    seed, or feedback with or without the hidden tests. A summary's rows and its facts describe
    one grading; an option an older summary did not record is not compared."""
    then = _options(*(previous.get(key) for key in ("select", "tests", "time_limit",
                                                    "memory_limit", "show_hidden", "seed",
                                                    "seed_mode")))
    now = _options(plan.select, plan.tests, plan.limits.seconds, plan.limits.memory_mb,
                   plan.show_hidden, plan.seed, plan.seed_mode)
    differ = [key for key in then if key in previous and then[key] != now[key]]
    if differ:
        raise ValueError(
            f"the batch in {out} was graded with {', '.join(then[k] for k in differ)}, and this "
            f"{how} wants {', '.join(now[k] for k in differ)}: its rows would not be graded "
            f"alike. Go on with the batch's own options, or name a fresh output folder to grade "
            "the class anew with these.")


def _package_version():
    import importlib.metadata

    try:
        return importlib.metadata.version("harness-labs")
    except importlib.metadata.PackageNotFoundError:
        return ""


def _feedback(grade, lesson, plan, submission, folder):
    from lab.grader.report import student_report

    # never the seed: --only and --resume grade a resubmission with the seed the batch keeps, so
    # a seed in the feedback is the seed of the student's next grading, known beforehand, and
    # with it every visible test's input (a table of answers). The instructor's result has it.
    # Nor the instructor's own folders: the file is named as it is in the class's folder.
    said = student_report(replace(grade, seed=None, harness=_as_handed_in(grade.harness, folder)),
                          lesson, show_hidden=plan.show_hidden)
    return (f"{printable(submission.note)}\n\n" if submission.note else "") + said


def _as_handed_in(harness, folder):
    """The graded file as the student knows it: its path inside the class's `folder`, or its
    name alone (a file staged from a zip)."""
    path, top = pathlib.Path(harness), pathlib.Path(folder).absolute()
    return str(path.relative_to(top)) if path.is_relative_to(top) else path.name


def _instructors_heading(entry):
    return (f"(the instructor's copy: it names the hidden tests too. The student's is "
            f"{entry['feedback_file']}.)\n\n")


# -- grading many ---------------------------------------------------------------------------

def grade_all(folders: Iterable[str | os.PathLike[str] | Submission], lesson: Lesson, *,
              jobs: int | None = None, limits: Limits = Limits(), select: str | None = None,
              tests: Iterable[str | os.PathLike[str]] = (), progress_stream: TextIO | None = None,
              on_done: Callable[[str, Grade], object] | None = None, isolated: bool = True,
              seed: int | None = None, plan: Plan | None = None) -> dict[str, Grade]:
    """{folder name: Grade} for every folder (or Submission), graded `jobs` at a time (default:
    one a core); `on_done(name, grade)` is called for each as it finishes, in this thread. On
    Ctrl-C the graders at work are stopped, and KeyboardInterrupt is raised."""
    plan = plan or Plan(isolated=isolated, limits=limits, seed=seed, select=select,
                        tests=tuple(str(t) for t in tests))
    found = [one if isinstance(one, Submission) else
             Submission(pathlib.Path(one).name, pathlib.Path(one), pathlib.Path(one) / HARNESS)
             for one in folders]
    done = (lambda one, grade: on_done(one.name, grade)) if on_done else None
    grades, pending = _grade_all(found, lesson, plan, jobs=jobs, progress_stream=progress_stream,
                                 on_done=done)
    if pending:
        raise KeyboardInterrupt
    return grades


def _grade_all(found, lesson, plan, *, jobs=None, progress_stream=None, on_done=None, stop=None,
               already=0, whole=None, keep=None):
    """({name: Grade}, the submissions not graded because the batch was stopped). Ctrl-C and
    SIGTERM set `stop` (a new Event when None) while this runs in the main thread; once it is
    set no grader starts, the running ones are killed, and what they were grading is pending.
    `keep`: _grade_one's, for what a grader failure left."""
    jobs = jobs or len(os.sched_getaffinity(0))
    stop = stop or threading.Event()
    progress = Progress(len(found) if whole is None else whole, progress_stream, already=already)
    grades, running = {}, Running()
    restore = _on_signals(stop)
    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = {}
    with tidy.GraderFolder("batch") as scratch:
        try:
            futures = {pool.submit(_grade_one, one, lesson, scratch, plan, running, stop,
                                   keep): one for one in found}
            waiting = set(futures)
            while waiting and not stop.is_set():
                finished, waiting = wait(waiting, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in sorted(finished, key=lambda f: futures[f].name):
                    one = futures[future]
                    grade = _outcome(future, one, lesson)
                    if grade is None:  # stopped before it finished
                        continue
                    grades[one.name] = grade
                    if on_done:
                        on_done(one, grade)
                    progress.done(shown_name(one.name), grade)
        finally:
            if restore:  # a second Ctrl-C while it stops must not break the stopping
                signal.signal(signal.SIGINT, signal.SIG_IGN)
            stop.set()
            running.kill_all()
            pool.shutdown(wait=True, cancel_futures=True)
            for future, one in futures.items():
                if one.name not in grades and future.done() and not future.cancelled():
                    grade = _outcome(future, one, lesson)  # finished as it was stopped: kept
                    if grade is not None:
                        grades[one.name] = grade
                        if on_done:
                            on_done(one, grade)
                        progress.done(shown_name(one.name), grade)
            progress.close()
            if restore:
                restore()
    return grades, [one for one in found if one.name not in grades]


def _on_signals(stop):
    """Make SIGINT and SIGTERM set `stop` instead of raising; a function that puts the old
    handlers back, or None when this is not the main thread (a signal cannot be caught here)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    def handler(signum, frame):
        stop.set()

    old = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    return lambda: [signal.signal(sig, was) for sig, was in old.items()]


class Running:
    """The grading processes at work, so that a stopped batch can end them all at once."""

    def __init__(self) -> None:
        self.processes: set[subprocess.Popen[bytes]]
        self.lock, self.processes, self.closed = threading.Lock(), set(), False

    def add(self, process: subprocess.Popen[bytes]) -> bool:
        with self.lock:
            if self.closed:
                _kill_group(process)
                return False
            self.processes.add(process)
            return True

    def remove(self, process: subprocess.Popen[bytes]) -> None:
        with self.lock:
            self.processes.discard(process)

    def kill_all(self) -> None:
        with self.lock:
            self.closed = True
            for process in list(self.processes):
                try:
                    os.killpg(process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def _outcome(future, one, lesson):
    try:
        return future.result()
    except Exception as error:  # the batch's own bug, for this one: its row says so
        return _could_not_grade(one, lesson, error)


def _could_not_grade(one, lesson, error):
    """The broken Grade of `one` when the batch itself raised `error` grading it."""
    return Grade.broken(lesson.number, manifest.title(lesson), one.harness,
                        f"the batch could not grade it ({type(error).__name__}: {error}). "
                        "This is a bug in the lab, or the machine could not start a process: "
                        "please report it.", points=manifest.total(lesson))


def grade_one(folder: str | os.PathLike[str], lesson: Lesson, scratch: str | os.PathLike[str], *,
              limits: Limits = Limits(), select: str | None = None,
              tests: Iterable[str | os.PathLike[str]] = (), isolated: bool = True,
              seed: int | None = None) -> Grade:
    """The Grade of the harness.py in `folder`, graded in a process of its own working in a new
    folder inside `scratch`."""
    folder = pathlib.Path(folder)
    plan = Plan(isolated=isolated, limits=limits, seed=seed, select=select,
                tests=tuple(str(t) for t in tests))
    return _grade_one(Submission(folder.name, folder, folder / HARNESS), lesson, scratch, plan,
                      Running(), threading.Event())


def _grade_one(one, lesson, scratch, plan, running, stop, keep=None):
    """The Grade of `one` under `plan`, from a process of its own (this module's `child`)
    working in a new folder inside `scratch`; a broken Grade saying how that process ended
    when it left no result; None when the batch was stopped before it finished. A grader
    failure is graded once more before it is reported (a machine under load, a passing
    fault); `keep(one, attempt, diagnosis)` is handed what each failed attempt left: the
    result's sentence, and the last words on stderr of the grader and of its worker (with
    the phase that worker died in, supervise.py)."""
    for attempt in (1, 2):
        told = "its grader's last words on stderr"
        try:
            grade, said = _attempt(one, lesson, scratch, plan, running, stop)
        except Exception as error:  # no process to be had, say: graded again like the rest
            grade, told = _could_not_grade(one, lesson, error), "where the batch raised it"
            said = "".join(traceback.format_exception(error)).splitlines()[-STDERR_LINES:]
        if grade is None or status(grade) != GRADER_FAILED:
            return grade
        if keep is not None:
            errors = [t.message for t in grade.errors]
            keep(one, attempt, f"attempt {attempt} of 2: {grade.problem or errors[0]}\n"
                 + (f"{told}:\n" + "\n".join(f"  | {line}" for line in said) if said
                    else "its grader said nothing on stderr") + "\n")
    return grade


def _attempt(one, lesson, scratch, plan, running, stop):
    """One attempt at `one`'s Grade, as _grade_one says, and the last STDERR_LINES lines its
    grading process wrote on stderr."""
    if stop.is_set():
        return None, []
    if one.folder.is_symlink():
        return _a_linked_folder(one.folder, lesson), []
    if one.problem:  # the finder found nothing to grade: its sentence is the grade's problem
        return Grade(lesson=lesson.number, title=manifest.title(lesson), harness=str(one.harness),
                     problem=one.problem), []
    own = tempfile.mkdtemp(prefix=f"{file_name(one.name)}-", dir=scratch)
    result = os.path.join(own, "result.json")
    order = {"harness": os.path.abspath(one.harness),  # no link resolved: the grader refuses one
             "lesson": str(lesson.number), "result": result, "plan": plan.as_dict(),
             "name": os.fsencode(one.name).hex()}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(PROJECT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]),
        HYPOTHESIS_STORAGE_DIRECTORY=os.path.join(scratch, HYPOTHESIS_TABLES))
    ceiling = _ceiling(lesson, plan.limits)
    with open(os.path.join(own, "stderr"), "wb+") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "lab.grader.batch"], cwd=own, env=env,
                                   stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                   stderr=stderr, start_new_session=True)
        if not running.add(process):
            return None, []
        try:
            try:
                assert process.stdin is not None  # (stdin=PIPE)
                process.stdin.write(json.dumps(order).encode())
                process.stdin.close()
            except OSError:
                pass  # it died before reading: its exit says how
            status = process.wait(timeout=ceiling)
            ended = _how_it_ended(status)
        except subprocess.TimeoutExpired:
            ended = f"ran past the batch's ceiling of {counted(ceiling, 'second')} and was stopped"
        finally:
            running.remove(process)
            _kill_group(process)
        stderr.seek(0)
        said = stderr.read().decode(errors="replace").rstrip().splitlines()[-STDERR_LINES:]
        if os.path.exists(result):
            try:
                written = json.loads(pathlib.Path(result).read_text())
                if "grader_failed" in written:
                    return _grader_failed(lesson, one, str(written["grader_failed"])), said
                return Grade.from_dict(written["grade"]), said
            except (ValueError, KeyError, TypeError) as error:
                ended += f", and its result could not be read ({type(error).__name__}: {error})"
        if stop.is_set():
            return None, []  # killed because the batch was stopped: not graded, not a grade
    why = (f"The grader's process for this submission {ended}, without writing a result. The "
           f"submission's code may have killed it, or the grader broke: grade it alone with "
           f"`lab-check --harness {one.harness} --lesson {lesson.number}` to see which."
           + ("\nIts last words on stderr:\n" + "\n".join(f"  | {line}" for line in said)
              if said else ""))
    return Grade.broken(lesson.number, manifest.title(lesson), one.harness, why,
                        points=manifest.total(lesson), sha256=file_sha256(one)), said


def _grader_failed(lesson, one, why):
    """The Grade of a submission the grader could not grade for a reason of its own (no
    sandbox would start): broken, exit code 3, never the student's fault."""
    return Grade.broken(lesson.number, manifest.title(lesson), one.harness,
                        f"the grader failed, not the submission: {why} Fix this machine and "
                        "grade it again (--resume grades it, and every other such one).",
                        points=manifest.total(lesson), sha256=file_sha256(one))


def child() -> int:
    """One submission's grading, in the process `_grade_one` starts: the order as JSON on
    stdin; the grade (or why the grader cannot grade here) written to the order's result."""
    order = json.loads(sys.stdin.read())
    from lab.course import lesson_files as lessons

    plan = Plan.from_dict(order["plan"])
    lesson = lessons.lesson(order["lesson"])
    _, problem = plan.isolation()
    if problem:
        said: dict[str, object] = {"grader_failed": problem}
    else:
        graded = plan.grade(order["harness"], lesson, name=bytes.fromhex(order["name"]))
        said = {"grade": graded.as_dict()}
    _write_text(order["result"], json.dumps(said))  # ASCII: a name may hold any bytes
    return 0


def _a_linked_folder(folder, lesson):
    """The Grade of a submission folder that is a symbolic link: nothing graded, and why."""
    try:
        target = f" to {shown_name(os.readlink(folder))}"
    except OSError:
        target = ""
    return Grade(lesson=lesson.number, title=manifest.title(lesson),
                 harness=str(folder / HARNESS),
                 problem=(f"The submission folder {shown_name(folder.name)} is a symbolic link"
                          f"{target}, not a folder, and a link is not graded: its work would be "
                          "whatever the link points to, perhaps another submission. Submit the "
                          "folder itself."))


def _ceiling(lesson, limits):
    """Seconds one submission's grading may take: its worker's ceiling (supervise.py), the
    import check's time limit before it, and as long again as the worker has to start up."""
    return supervise.ceiling_for(lesson, limits) + limits.seconds + supervise.STARTUP


def _how_it_ended(status):
    if status >= 0:
        return f"exited with status {status}"
    try:
        return f"was killed by {signal.Signals(-status).name}"
    except ValueError:  # a signal with no name, such as a real-time one
        return f"was killed by signal {-status}"


def _kill_group(process):
    """Kill whatever the grader left running in its process group (it may be gone already)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # the group is empty: nothing was left running
    process.wait()


# -- the summary ----------------------------------------------------------------------------

def status(grade: Grade) -> str:
    """graded, not graded (the submission's own fault) or grader failed (the grader's)."""
    return {0: GRADED, 1: GRADED, 2: NOT_GRADED}.get(grade.exit_code, GRADER_FAILED)


def row(name: str | bytes, grade: Grade, total: float, result_file: str = "",
        feedback_file: str = "", seed: int | None = None, note: str = "") -> dict[str, Any]:
    """One submission's line of the summary, its name shown as escape.shown_name does;
    `total`, the lesson's, is the max_score of a submission with nothing graded;
    `result_file` and `feedback_file` are where its files were written, relative to the output
    folder; `seed` the one it was graded with (the grade's own, when not given); `note`, what
    the instructor should know of a file graded all the same (declared.other_lab), joins the
    problem."""
    errors = [t.message for t in grade.errors]
    return {"submission": shown_name(name), "id": file_name(name), "status": status(grade),
            "score": grade.score, "max_score": grade.max_score if grade.tests else total,
            "passed": grade.passed, "failed": grade.failed,
            "failed_tests": [printable(t.test) for t in grade.tests if t.outcome != "passed"],
            "exit_code": grade.exit_code,
            "problem": printable("; ".join(filter(None, (
                grade.problem or (errors[0] if errors else ""), note)))),
            "seed": grade.seed if seed is None else seed, "isolation": grade.isolation,
            "sha256": grade.sha256, "result_file": result_file, "feedback_file": feedback_file}


def read_summary(out: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The summary.json in `out` as a dict, or None when there is none. ValueError when there
    is one that cannot be read: a batch would write over it."""
    path = pathlib.Path(out) / SUMMARY
    if not path.is_file():
        return None
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{path} cannot be read ({error}): move it away, or name another "
                         "output folder.") from None
    if not isinstance(summary, dict):
        raise ValueError(f"{path} is not a batch's summary: name another output folder.")
    return summary


def write_summary(rows: Sequence[Mapping[str, Any]], lesson: Lesson, fmt: str,
                  out: str | os.PathLike[str], facts: Mapping[str, Any] | None = None) -> None:
    """summary.json (everything, with the lesson, the format and the batch's facts) and
    summary.csv (a row a submission; failed_tests joined by ";"; no cell a spreadsheet would
    run) in `out`, each written whole or not at all."""
    out = pathlib.Path(out)
    facts = facts or {"lesson": lesson.number, "title": manifest.title(lesson),
                      "version": VERSION, "format": fmt}
    summary = dict(facts, submissions=rows)
    _write_text(out / SUMMARY, json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
    table = io.StringIO()
    writer = csv.DictWriter(table, fieldnames=COLUMNS, lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    for entry in rows:
        cells = dict(entry, failed_tests=";".join(entry["failed_tests"]),
                     score=f"{entry['score']:g}", max_score=f"{entry['max_score']:g}")
        writer.writerow({key: csv_cell(value) for key, value in cells.items()})
    _write_text(out / "summary.csv", table.getvalue())


# -- the command ----------------------------------------------------------------------------

def command(args: argparse.Namespace, lesson: Lesson, plan: Plan,
            open_grid: Callable[[str | None, Lesson, Plan], Grid | None] = lambda *_: None) -> int:
    """lab-check --batch: check the machine can grade, run the batch, say what it did and how
    to go on; the exit status (0 every submission has its result, 3 the grader failed on
    some, 2 no batch to grade, 130 stopped by Ctrl-C)."""
    from lab.worker import isolation

    kind, problem = plan.isolation()
    if kind == "uid" and not problem and isolation.exposed_submissions(args.batch):
        problem = (f"without namespaces, each submission runs as a user of its own, and the "
                   f"submissions in {args.batch} are readable by any user: one could hand in "
                   f"another's. Run: chmod -R o-rwx {args.batch}")
    if problem:
        print(f"lab_check: {problem}", file=sys.stderr)
        return 2
    grid = None
    try:
        grid = open_grid(getattr(args, "cluster", None), lesson, plan)
        done = run(args.batch, lesson, args.output, fmt=args.format, jobs=args.jobs, plan=plan,
                   resume=args.resume, only=args.only or (), cluster=grid)
    except ValueError as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    finally:
        if grid:
            grid.close()
    rows, facts = done.rows, done.facts
    failed = [r["submission"] for r in rows if r["status"] == GRADER_FAILED]
    ungraded = sum(r["status"] == NOT_GRADED for r in rows)
    skipped = f", {done.skipped} already graded and left as they were" if done.skipped else ""
    seed = f"seed {facts['seed']}" + (" (a seed per student, from it)"
                                      if facts["seed_mode"] == "per-student" else "")
    if done.interrupted:
        print(f"lab_check: stopped. Graded {counted(done.graded_now, 'submission')} of lesson "
              f"{lesson.number} in this run{skipped}; {len(done.pending)} not graded yet. Every "
              f"finished result is kept, and summary.csv in {args.output} lists "
              f"{counted(len(rows), 'submission')}. To go on:\n  {resume_command(args, lesson)}",
              file=sys.stderr)
        return INTERRUPTED
    if not done.graded_now and done.skipped:
        print(f"lab_check: nothing left to grade: {counted(done.skipped, 'submission')} of "
              f"lesson {lesson.number} already graded under {seed}, their results in "
              f"{args.output}")
    else:
        print(f"lab_check: graded {counted(done.graded_now, 'submission')} of lesson "
              f"{lesson.number}{skipped}, {seed}"
              + (f"; {ungraded} could not be graded (the problem column says why)"
                 if ungraded else "")
              + f"; results as {facts['format']}, feedback and summary.csv in {args.output}")
    from lab.grader.glance import gist

    for line in gist(done.glance):
        print(f"lab_check: {line}")
    if failed:
        print(f"lab_check: the grader failed on {', '.join(failed)} (the grader's fault, not "
              "the students'): see the problem column of summary.csv, then grade them again "
              f"with:\n  {resume_command(args, lesson)}", file=sys.stderr)
    return 3 if failed else 0


def resume_command(args: argparse.Namespace, lesson: Lesson) -> str:
    """The command that takes this batch up where it stopped."""
    words = ["lab-check", "--lesson", str(lesson.number), "--batch", args.batch,
             "--output", args.output, "--resume"]
    if args.jobs:
        words += ["--jobs", str(args.jobs)]
    if getattr(args, "cluster", None):
        words += ["--cluster", args.cluster]
    for option, value, default in (("--time-limit", args.time_limit, Limits.seconds),
                                   ("--memory-limit", args.memory_limit, Limits.memory_mb)):
        if value != default:
            words += [option, f"{value:g}"]
    if args.allow_unisolated:
        words.append("--allow-unisolated")
    if args.show_hidden:
        words.append("--show-hidden")
    if args.select:
        words += ["-k", args.select]
    return " ".join(shlex.quote(printable(str(word))) for word in [*words, *args.tests])


if __name__ == "__main__":
    sys.exit(child())
