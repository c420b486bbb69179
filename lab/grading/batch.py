"""Grade a whole class: every submission folder in a folder, several at once, each in a process
of its own, and a result file for every one of them whatever happens.

    lab_check --lesson 10 --batch submissions/ --output results/ [--format json] [--jobs 2]

A submission is a folder in submissions/ (hidden folders, and the output folder if it is in
there, are skipped); the file graded is the harness.py in it. Into results/ go
results/<name>.<ext> for each submission, in the chosen format (json unless --format says
otherwise), then summary.csv and summary.json: one row a submission, in name order, with its
score, max_score, passed, failed, failed_tests, exit_code (as lab_check would exit for it),
problem (why nothing was graded, or how the grader broke), sha256 and result_file (the path of
its result, from results/). A submission with nothing graded is scored out of the lesson's
total, from the manifest, as is one whose grader broke before it finished.

A folder's name is the student's choice and may be any bytes: not UTF-8, with a newline in
it, "summary.json", or "=HYPERLINK(...)". So <name> is escape.file_name's (a readable part
and a hash of the name's bytes: never a clash, never the summary), the summary shows the name
through escape.shown_name, and every cell of summary.csv that a spreadsheet would run as a
formula is quoted. A submission folder that is a symbolic link, like a harness.py that is one,
is refused, with exit code 2 in its row: its work would be whatever the link points to.

Each submission is graded by `python lab/lab_check.py --format json` in a process group and
scratch folder of its own: one that crashes its grader, kills it, or runs past its ceiling
costs only its own row. Its stderr goes to a file, never a pipe, which a process left behind
could hold open and so keep the batch waiting. When a grader leaves no result, the batch
writes one that says how the grader ended and what it last wrote on stderr, with exit code 3,
like any grader that broke. Each result file is written as its submission finishes.
"""

import csv
import hashlib
import io
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor, as_completed

from . import formats, manifest, supervise, tidy
from .escape import csv_cell, file_name, printable, shown_name
from .progress import Progress
from .results import VERSION, Grade
from .inside.protocol import Limits

LAB_CHECK = pathlib.Path(__file__).resolve().parent.parent / "lab_check.py"
HARNESS = "harness.py"
STDERR_LINES = 20  # of a grader that left no result, the last lines of stderr shown
RESULTS = "results"  # the folder of the result files, inside the output folder
COLUMNS = ("submission", "score", "max_score", "passed", "failed", "failed_tests", "exit_code",
           "problem", "sha256", "result_file")


def run(folder, lesson, out, *, fmt="json", jobs=None, limits=Limits(), select=None,
        tests=(), progress_stream=None, isolated=True):
    """Grade every submission in `folder` on `lesson`, write a result file for each and the
    summary into `out`, and return the summary rows. ValueError, saying what to do, when
    `folder` is not a folder of submissions or `fmt` is not a format."""
    if fmt not in formats.EXTENSIONS:
        raise ValueError(f"no result format {fmt!r}; choose one of {', '.join(formats.FORMATS)}")
    out = pathlib.Path(out)
    found = submissions(folder, skip=out)
    total = manifest.total(lesson)

    def result_file(name):  # relative to `out`
        return f"{RESULTS}/{file_name(name)}{formats.EXTENSIONS[fmt]}"

    clashing = _clashes(found, result_file)
    if clashing:
        raise ValueError(f"the submissions {' and '.join(clashing)} would share a result file "
                         "(their names' hashes clash). Rename one of them.")

    def save(name, grade):  # as each finishes, so an interrupted batch keeps what it graded
        formats.write(grade, fmt, out / result_file(name))

    grades = grade_all(found, lesson, jobs=jobs, limits=limits, select=select, tests=tests,
                       progress_stream=progress_stream, on_done=save, isolated=isolated)
    rows = [row(name, grade, total, result_file(name)) for name, grade in sorted(grades.items())]
    write_summary(rows, lesson, fmt, out)
    return rows


def _clashes(found, result_file):
    """The shown names of two submissions whose result files would be the same; [] if none."""
    seen = {}
    for folder in found:
        other = seen.setdefault(result_file(folder.name), folder.name)
        if other != folder.name:
            return [shown_name(other), shown_name(folder.name)]
    return []


def submissions(folder, skip=None):
    """The submission folders in `folder`, by name. ValueError when there is no such folder or
    nothing in it to grade."""
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder. Name the folder that holds one folder per "
                         f"submission, each with its {HARNESS}.")
    skip = pathlib.Path(skip).resolve() if skip else None
    found = sorted(p for p in folder.iterdir()
                   if p.is_dir() and not p.name.startswith(".") and p.resolve() != skip)
    if skip and (skip == folder.resolve() or any(skip.is_relative_to(p.resolve()) for p in found
                                                  if not p.is_symlink())):
        raise ValueError(f"the output folder {shown_name(str(skip))} is the batch's folder or "
                         "inside a submission: results would land among the submissions. Name "
                         "an output folder of its own.")
    if not found:
        raise ValueError(f"{folder} holds no submission folders. Each submission is a folder "
                         f"with its {HARNESS} in it: {folder}/alice/{HARNESS}, ...")
    return found


def grade_all(folders, lesson, *, jobs=None, limits=Limits(), select=None, tests=(),
              progress_stream=None, on_done=None, isolated=True, seed=None):
    """{folder name: Grade} for every folder, graded `jobs` at a time (default: one a core);
    `on_done(name, grade)` is called for each as it finishes, in this thread. On Ctrl-C the
    submissions not yet started are dropped, and those being graded are let finish."""
    jobs = jobs or len(os.sched_getaffinity(0))
    progress = Progress(len(folders), progress_stream)
    grades = {}
    with tidy.GraderFolder("batch") as scratch, \
            ThreadPoolExecutor(max_workers=jobs) as pool:
        running = {pool.submit(grade_one, folder, lesson, scratch, limits=limits, select=select,
                               tests=tests, isolated=isolated, seed=seed): folder
                   for folder in folders}
        try:
            for future in as_completed(running):
                name = running[future].name
                grades[name] = grade = _outcome(future, running[future], lesson)
                if on_done:
                    on_done(name, grade)
                progress.done(shown_name(name), grade)
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        finally:
            progress.close()
    return grades


def _outcome(future, folder, lesson):
    try:
        return future.result()
    except Exception as error:  # the batch's own bug, for this one: its row says so
        return Grade.broken(lesson.number, manifest.title(lesson), folder / HARNESS,
                            f"the batch could not grade it ({type(error).__name__}: {error}). "
                            "This is a bug in the lab: please report it.",
                            points=manifest.total(lesson))


def grade_one(folder, lesson, scratch, *, limits=Limits(), select=None, tests=(), isolated=True,
              seed=None):
    """The Grade of the harness.py in `folder`, from a lab_check process of its own working in
    a new folder inside `scratch`; a broken Grade saying how that process ended when it left
    no result."""
    folder = pathlib.Path(folder)
    harness = folder / HARNESS
    if folder.is_symlink():
        return _a_linked_folder(folder, lesson)
    own = tempfile.mkdtemp(prefix=f"{file_name(folder.name)}-", dir=scratch)
    result = os.path.join(own, "result.json")
    # absolute, but with no link resolved: a harness.py that is a link is lab_check's to refuse
    command = [sys.executable, str(LAB_CHECK), "--harness", os.path.abspath(harness),
               "--lesson", str(lesson.number), "--format", "json", "--output", result,
               "--require-isolation" if isolated else "--allow-unisolated",
               *(["--seed", str(seed)] if seed is not None else []),
               "--time-limit", str(limits.seconds), "--memory-limit", str(limits.memory_mb),
               *(["-k", select] if select else []),
               *(str(pathlib.Path(test).resolve()) for test in tests)]
    ceiling = _ceiling(lesson, limits)
    with open(os.path.join(own, "stderr"), "wb+") as stderr:
        process = subprocess.Popen(command, cwd=own, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=stderr,
                                   start_new_session=True)
        try:
            status = process.wait(timeout=ceiling)
            ended = _how_it_ended(status)
        except subprocess.TimeoutExpired:
            ended = f"ran past the batch's ceiling of {ceiling:g} seconds and was stopped"
        finally:
            _kill_group(process)
        if os.path.exists(result):
            try:
                return Grade.from_dict(json.loads(pathlib.Path(result).read_text()))
            except (ValueError, KeyError, TypeError) as error:
                ended += f", and its result could not be read ({type(error).__name__}: {error})"
        stderr.seek(0)
        said = stderr.read().decode(errors="replace").rstrip().splitlines()[-STDERR_LINES:]
    why = (f"The grader's process for this submission {ended}, without writing a result. The "
           f"submission's code may have killed it, or the grader broke: grade it alone with "
           f"`lab_check --harness {harness} --lesson {lesson.number}` to see which."
           + ("\nIts last words on stderr:\n" + "\n".join(f"  | {line}" for line in said)
              if said else ""))
    return Grade.broken(lesson.number, manifest.title(lesson), harness, why,
                        points=manifest.total(lesson), sha256=_sha256(harness))


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
    """Seconds one submission's lab_check may take: its worker's ceiling (supervise.py), the
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


def _sha256(path):
    try:
        return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""  # no such file, or not a file: the grade already says so


# -- the summary ----------------------------------------------------------------------------

def row(name, grade, total, result_file=""):
    """One submission's line of the summary, its name shown as escape.shown_name does;
    `total`, the lesson's, is the max_score of a submission with nothing graded;
    `result_file` is where its result was written, relative to the output folder."""
    errors = [t.message for t in grade.tests if t.outcome == "error"]
    return {"submission": shown_name(name), "score": grade.score,
            "max_score": grade.max_score if grade.tests else total,
            "passed": grade.passed, "failed": grade.failed,
            "failed_tests": [printable(t.test) for t in grade.tests if t.outcome != "passed"],
            "exit_code": grade.exit_code,
            "problem": printable(grade.problem or (errors[0] if errors else "")),
            "sha256": grade.sha256, "result_file": result_file}


def write_summary(rows, lesson, fmt, out):
    """summary.json (everything, with the lesson and the format) and summary.csv (a row a
    submission; failed_tests joined by ";"; no cell a spreadsheet would run) in `out`."""
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    summary = {"lesson": lesson.number, "title": manifest.title(lesson),
               "version": VERSION, "format": fmt, "submissions": rows}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, ensure_ascii=False) + "\n",
                                      encoding="utf-8")
    table = io.StringIO()
    writer = csv.DictWriter(table, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for entry in rows:
        cells = dict(entry, failed_tests=";".join(entry["failed_tests"]),
                     score=f"{entry['score']:g}", max_score=f"{entry['max_score']:g}")
        writer.writerow({key: csv_cell(value) for key, value in cells.items()})
    (out / "summary.csv").write_text(table.getvalue(), encoding="utf-8")
