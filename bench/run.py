"""Benchmarks: how fast the grader, the notebook and the repair really are.

    .venv/bin/python bench/run.py            # four or five minutes; prints the table and
                                             # saves its figures; docs/authoring.md shows them
    .venv/bin/python bench/run.py --quick    # a smaller run, in about a minute; writes nothing
    .venv/bin/python bench/run.py --watch-only   # only the --watch rows, measured and
                                             # written in place of the old ones
    .venv/bin/python bench/run.py --cluster  # only the cluster's rows (half an hour on two
                                             # cores): printed, README.md left alone
    .venv/bin/python bench/run.py --crowded [--copies 300]   # only the crowded batch's rows
                                             # (48 copies by default): printed, nothing saved
    .venv/bin/python bench/suite.py          # the whole suite (the README's test command),
                                             # its wall time against the goal of 30 minutes

Every figure stands next to the floor it is compared with, and the two are measured in the
same run, interleaved, with medians: the machine is shared and noisy, so a ratio within one run
says more than seconds from two runs. What is measured, and against what:

  lab_check   `python lab/lab_check.py` on the finished lesson-10 harness, as a subprocess, the
              way a student runs it, against `python -m pytest --version`: what starting
              pytest costs at the least, and lab_check grades with pytest.
  watch       a --watch re-grade from its warm worker (pytest, the plugin and the sandbox
              kept from the save before), in this process, against the floor's test time:
              the session pytest reports in the floor's process, its start-up left out.
  batch       `lab_check --batch` on 40 submission folders (the finished harness, the starter,
              each wrong and right answer, in turn), with --jobs 1 and with --jobs 2: two alike
              halves of 20, graded with 1, 2, 2, then 1 jobs, so that a change in the machine's
              load falls on both alike. Each copy ends in a comment of its own, so no grader
              could skip one as a repeat.
  cluster     (--cluster) `lab_check --batch --cluster` on a Dask cluster of two worker
              processes started here on 127.0.0.1 (distributed.LocalCluster, a thread each),
              against `--jobs 2` on the same machine: 300 submissions made as the batch's are,
              in two alike halves of 150, graded --jobs 2, cluster, cluster, then --jobs 2, so
              that each way grades all 300 and a change in load falls on both alike. The
              figure is the wall time of the whole command; the ratio is the cluster's price.
  crowded     (--crowded) bench/crowded_batch.py: a class of lesson 10 with hostile
              submissions from the suite's corpus among its answers, graded --jobs 2 while
              batches of lesson 11's class run beside it; then each kind graded alone with
              the class's seed. Every row must score what its submission scores alone, and
              every row saying the grader failed must have been retried and say why.
  notebook    bench/run_notebook.py: the lesson's notebook run headless by nbclient on a real
              ipykernel, timed as a whole process, Python's start-up included.
  repair      the finished repair_tool_history, and lab.validate, on histories of 10k, 100k
              and 1M messages built with lab's builders, valid and damaged, against a single
              pass that reads every message's role and every assistant block's type once:
              the least work any correct repair can do. These are timed in this process, in
              CPU seconds of its thread (time.thread_time), so another process taking the core
              does not count; all histories are built first and timed in rounds over all of
              them. The collector stays on, as in a harness; every call starts after
              gc.collect(), and the histories are frozen out of its way (gc.freeze), so a
              collection walks what the call made, not a million messages it did not.
  memory      the peak resident size of the largest single process (ru_maxrss, from os.wait4
              on the subprocess), and of the whole process tree at its fullest (the sum over
              its processes, sampled every 0.2 s; a page a fork shares counts in each process).
  processes   run with Python's bytecode cache on, as a student's are, even when this shell
              turns it off (PYTHONDONTWRITEBYTECODE); the warm-up run fills it.
  others      every process is also charged its CPU seconds, and the rest of the machine
              what it used meanwhile (/proc/stat), for the notes that say what limits a figure.

The table is printed, and its figures saved in bench/figures/run.json, with the date, the
commit and the machine it was measured on; docs/authoring.md shows them (python -m lab.docs,
which this runs, rewrites that block and nothing else).
--quick writes nothing.
"""

import argparse
import ast
import datetime
import gc
import importlib.util
import json
import math
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass

import psutil  # ipykernel's dependency, so installed with the test extras, as nbclient is

PROJECT = pathlib.Path(__file__).resolve().parent.parent
if __name__ == "__main__":  # run as a file: make `lab` importable, as lab/lab_check.py does
    sys.path.insert(0, str(PROJECT))

import lab  # noqa: E402
from lab.course import lesson_files as lessons  # noqa: E402
from lab.docs import tables  # noqa: E402
from bench import crowded_batch  # noqa: E402

FIGURES = PROJECT / "bench" / "figures" / "run.json"
COMMAND = ".venv/bin/python bench/run.py"
LAB_CHECK = str(PROJECT / "lab" / "lab_check.py")
LESSON = lessons.lesson(10)
CELL = re.compile(r"(?<!\\)\|")  # a cell's edge: a | that is not escaped
# Every process runs as a student's would: with Python's bytecode cache on, as it is by
# default, whatever this shell says (PYTHONDONTWRITEBYTECODE=1 costs lab_check about 0.3 s).
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENVIRONMENT["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # the floor loads its plugins by name
COLUMNS = tables.COLUMNS

# The targets: a ratio to the floor beside it, or seconds, or a scaling exponent.
LAB_CHECK_TARGET = 2.0      # lab_check at most this many times the floor: the same graded
                            # tests in one process, with no isolation (bench/inprocess.py)
WATCH_TARGET = 1.2          # a --watch re-grade, from its warm worker, at most this many
                            # times the floor's own test time (pytest's session, no start-up)
BATCH_TARGET = 1.7          # 2 jobs at least this many times the throughput of 1
NOTEBOOK_TARGET = 8.0       # seconds for the whole notebook, headless
REPAIR_TARGET = 5.0         # repair_tool_history at most this many single passes, at 1M
VALIDATE_TARGET = 15.0      # lab.validate likewise
EXPONENT_TARGET = 1.15      # log(time ratio) / log(size ratio), between each pair of sizes
CLUSTER_TARGET = 1.15       # a batch on a two-worker local cluster at most this many times
                            # the time of --jobs 2 on the same machine
CLUSTER_COPIES = 300        # submissions graded each way
CROWDED_COPIES = 48         # the crowded batch's class, by default (--copies: the 300)


@dataclass(frozen=True)
class Plan:
    runs: int         # lab_check runs, each beside a bare pytest start-up
    copies: int       # submissions in the batch
    notebooks: int    # notebook executions
    sizes: tuple      # history lengths, smallest first
    rounds: int       # rounds of timing, each over every history
    samples: tuple    # timed calls of each function on each history, a round, for each size


FULL = Plan(runs=5, copies=40, notebooks=3, sizes=(10_000, 100_000, 1_000_000), rounds=7,
            samples=(5, 3, 1))
QUICK = Plan(runs=2, copies=4, notebooks=1, sizes=(1_000, 10_000, 100_000), rounds=3,
             samples=(3, 2, 1))


def main(argv=None):
    args = parser().parse_args(argv)
    plan = QUICK if args.quick else FULL
    began, machine = time.monotonic(), describe_machine()
    say(f"benchmarking on {machine}")
    if args.watch_only:
        return watch_only(plan, machine, began, write=not (args.quick or args.print_only))
    if args.cluster:
        return cluster_only(4 if args.quick else CLUSTER_COPIES, machine, began, args.quick)
    if args.crowded:
        return crowded_only(args.copies or (24 if args.quick else CROWDED_COPIES), machine,
                            began)
    figures = {"lab_check": measure_lab_check(plan.runs),
               "watch": measure_watch(plan.runs),
               "batch": measure_batch(plan.copies),
               "notebook": measure_notebook(plan.notebooks),
               "repair": measure_repair(plan.sizes, plan.rounds, plan.samples)}
    minutes = (time.monotonic() - began) / 60
    heading = (f"Measured {datetime.date.today().isoformat()} at {describe_code()} on "
               f"{machine}, by `{COMMAND}{' --quick' if args.quick else ''}` in "
               f"{minutes:.1f} minutes.")
    table = rows(figures, plan)
    print(render(heading, table))
    if not (args.quick or args.print_only):
        record(FIGURES, heading, table)


def parser():
    p = argparse.ArgumentParser(prog="bench/run.py", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true",
                   help="smaller sizes and fewer runs, to see that it all works; writes nothing")
    p.add_argument("--print-only", action="store_true",
                   help="print the table but leave the saved figures alone")
    p.add_argument("--watch-only", action="store_true",
                   help="measure only the --watch re-grade, and put its rows in place of the "
                        "table's old ones; the other rows stay as they were last measured")
    p.add_argument("--cluster", action="store_true",
                   help="measure only a batch on a two-worker local Dask cluster against "
                        "--jobs 2, and print its rows (README.md is left alone)")
    p.add_argument("--crowded", action="store_true",
                   help="grade a class with hostile submissions --jobs 2 beside another "
                        "class's batches, check every row against its submission graded "
                        "alone, and print its rows (nothing is saved)")
    p.add_argument("--copies", type=int, metavar="N",
                   help=f"with --crowded, the class's size (default {CROWDED_COPIES})")
    return p


WATCH_ONLY = " Its --watch rows were measured alone"  # how the heading says so


def watch_only(plan, machine, began, write=True):
    """The --watch rows measured again, put in the saved table in place of the old ones;
    the heading says when, at which commit and on what machine."""
    heading, old = tables.load(FIGURES)
    new = watch_rows(measure_watch(plan.runs), plan.runs)
    at = next((i for i, row in enumerate(old) if is_watch_row(row)), len(old))
    kept = [row for row in old if not is_watch_row(row)]
    table = kept[:at] + new + kept[at:]
    minutes = (time.monotonic() - began) / 60
    heading = (heading.split(WATCH_ONLY)[0] + f"{WATCH_ONLY} on {datetime.date.today()} at "
               f"{describe_code()} on {machine}, by `{COMMAND} --watch-only` in "
               f"{minutes:.1f} minutes.")
    print(render(heading, table))
    if write:
        record(FIGURES, heading, table)


def is_watch_row(row):
    """Whether a row of the table is one of watch_rows's: its measure, or its note."""
    return row[0].startswith("--watch") or (row[0] == "note" and row[1].startswith("--watch:"))


def record(path, heading, table):
    """Save the figures in `path`, then rewrite the documents' blocks made from them."""
    from lab.docs import made

    tables.save(path, heading, table)
    say(f"saved the figures in {path.relative_to(PROJECT)}")
    for block in made.EVERY:
        if made.rewrite(block):
            say(f"rewrote {block.document}'s {block.name}")


def say(words):
    print(f"bench: {words}", file=sys.stderr, flush=True)


def describe_machine():
    """Cores, CPU model, Python version and how busy the machine was when this began."""
    model = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                  if line.startswith("model name")), platform.processor() or "unknown CPU")
    cores = len(os.sched_getaffinity(0))
    return (f"{platform.system()} {platform.release()}, {cores} cores ({model}), Python "
            f"{platform.python_version()} (bytecode cache on), load average "
            f"{os.getloadavg()[0]:.1f} at the start")


def describe_code():
    """The commit measured, and whether lab/ or lessons/ differed from it."""
    def git(*words):
        done = subprocess.run(["git", *words], cwd=PROJECT, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else None

    commit = git("rev-parse", "--short", "HEAD")
    if commit is None:
        return "code outside git"
    changed = git("status", "--porcelain", "--", "lab", "lessons")
    return f"commit {commit}" + (" with uncommitted changes to lab/ or lessons/" if changed else "")


def _read(path):
    try:
        return pathlib.Path(path).read_text()
    except OSError:
        return ""


# == lab_check ==

def measure_lab_check(runs):
    """lab_check on the finished harness and the floor it competes with, in turns (the same
    graded tests run by pytest in one process, the harness imported into it, no isolation:
    bench/inprocess.py); then one more lab_check with --format json, for how its time divides
    between the tests and the rest."""
    graded = [sys.executable, LAB_CHECK, "--harness", str(LESSON.finished), "--lesson",
              str(LESSON.number)]
    floor = [sys.executable, "-m", "pytest", str(LESSON.tests), "-p", "bench.inprocess",
             "-p", "hypothesis.extra.pytestplugin", "-p", "no:cacheprovider", "-q",
             "-c", os.devnull, "--rootdir", tempfile.gettempdir(),
             "--harness", str(LESSON.finished)]
    say(f"lab_check on the finished harness, {runs} runs beside the floor (the same tests in "
        "one process)")
    for command in (floor, graded):
        run(command)  # fills the disk cache and the bytecode cache; not counted
    seen = {"lab_check": [], "floor": []}
    for _ in range(runs):
        seen["floor"].append(run(floor, expect=(0,)))
        seen["lab_check"].append(run(graded, expect=(0,)))
    with tempfile.TemporaryDirectory(prefix="bench-") as scratch:
        result = pathlib.Path(scratch) / "result.json"
        described = run([*graded, "--format", "json", "--output", str(result)], expect=(0,))
        grade = json.loads(result.read_text())
    properties = property_tests(LESSON.tests)
    return {"seconds": median(r.seconds for r in seen["lab_check"]),
            "bare": median(r.seconds for r in seen["floor"]),
            "process_mb": max(r.process_mb for r in seen["lab_check"]),
            "tree_mb": max(r.tree_mb for r in seen["lab_check"]),
            "bare_mb": max(r.process_mb for r in seen["floor"]),
            "described": described.seconds,
            "tests": len(grade["tests"]),
            "tests_seconds": sum(t["seconds"] for t in grade["tests"]),
            "properties": len(properties),
            "properties_seconds": sum(t["seconds"] for t in grade["tests"]
                                      if t["test"] in properties)}


FLOOR_SESSION = re.compile(r" in (\d+(?:\.\d+)?)s")  # pytest's last line: "20 passed in 3.2s"


def measure_watch(runs):
    """A --watch re-grade from its warm workers (lab.grader.supervise.Warm: pytest and the
    plugin imported, the sandbox's zygote kept; the file rewritten as a save would), timed in
    this process from the save's grading call to its Grade (the watcher's debounce is left
    out), against the floor's test time: what pytest itself says its session took in the
    floor's process (collection and the tests, no start-up). Each save is graded twice, as
    lab-check --watch grades it (its tests shared among workers side by side where the
    sandbox and the cores allow: supervise.workers_for) and by one worker alone, and the floor
    runs it with the same seed, so that all three run the same examples. In turns, after one
    of each."""
    from lab.grader.grade import grade
    from lab.grader.supervise import Warm, workers_for

    floor = [sys.executable, "-m", "pytest", str(LESSON.tests), "-p", "bench.inprocess",
             "-p", "hypothesis.extra.pytestplugin", "-p", "no:cacheprovider", "-q",
             "-c", os.devnull, "--rootdir", tempfile.gettempdir(),
             "--harness", str(LESSON.finished)]
    say(f"--watch's re-grade from warm workers, {runs} runs beside the floor's test time")
    seen = {"watch": [], "alone": [], "floor": []}
    with tempfile.TemporaryDirectory(prefix="bench-watch-") as scratch, \
            Warm() as warm, Warm(workers=1) as alone:
        harness = pathlib.Path(scratch, "harness.py")
        for count in range(runs + 1):
            harness.write_text(LESSON.finished.read_text() + f"\n# save {count}\n")
            seed = 1 + count
            for kept, key in ((warm, "watch"), (alone, "alone")):
                began = time.perf_counter()
                graded = grade(harness, LESSON, warm=kept, seed=seed)
                took = time.perf_counter() - began
                if graded.problem or graded.score != graded.max_score:
                    raise RuntimeError(f"the warm re-grade did not pass: {graded.problem}")
                if count:  # the first of each fills caches and starts the workers: not counted
                    seen[key].append(took)
            printed = run_printing([*floor, "--hypothesis-seed", str(seed)])
            if count:
                seen["floor"].append(float(FLOOR_SESSION.findall(printed)[-1]))
        workers = len(warm.pids())
    return {"seconds": median(seen["watch"]), "alone": median(seen["alone"]),
            "workers": workers, "floor_tests": median(seen["floor"])}


def run_printing(command):
    """What `command` printed, run from the project's folder; it must exit 0."""
    done = subprocess.run(command, cwd=PROJECT, env=ENVIRONMENT, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"`{' '.join(command)}` exited with {done.returncode}:\n"
                           f"{done.stdout[-3000:]}")
    return done.stdout


def property_tests(tests_file):
    """The names of the tests in `tests_file` that hypothesis drives (decorated @given)."""
    def names(decorator):
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        return getattr(target, "id", getattr(target, "attr", ""))

    return {node.name for node in ast.parse(tests_file.read_text()).body
            if isinstance(node, ast.FunctionDef)
            and any(names(d) == "given" for d in node.decorator_list)}


# == batch ==

def measure_batch(copies):
    """`lab_check --batch` on `copies` submissions with one job and with two. The submissions
    are two alike halves, graded in the order 1, 2, 2, 1 jobs, so that a change in the
    machine's load over the minutes this takes falls on both alike; each job count grades
    all of them."""
    half, found = copies // 2, {1: [], 2: []}
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as scratch:
        halves = [make_submissions(pathlib.Path(scratch) / f"half-{part}", half, first=part * half)
                  for part in (0, 1)]
        for turn, (jobs, folder) in enumerate([(1, halves[0]), (2, halves[0]),
                                               (2, halves[1]), (1, halves[1])]):
            say(f"lab_check --batch on {half} submissions, --jobs {jobs}")
            out = pathlib.Path(scratch) / f"results-{turn}"
            found[jobs].append(run([sys.executable, LAB_CHECK, "--lesson", str(LESSON.number),
                                    "--batch", str(folder), "--output", str(out),
                                    "--jobs", str(jobs)], expect=(0,)))
            check_summary(out / "summary.json", half)
    return {"copies": half * 2, 1: together(found[1]), 2: together(found[2])}


def make_submissions(folder, count, first=0):
    """`count` submission folders, each holding a harness.py: the finished harness, the
    starter, each wrong answer and each right answer, in turn. Each ends in a comment with its
    number, from `first` on, so no grader could skip one as a repeat of another."""
    kinds = crowded_batch.answers(LESSON)
    for n in range(count):
        kind, text = kinds[n % len(kinds)]
        submission = folder / f"{first + n:02d}-{kind}"
        submission.mkdir(parents=True)
        (submission / "harness.py").write_text(
            f"{text}\n# submission {first + n}: a copy of its own\n")
    return folder


def check_summary(summary_file, copies):
    """A batch is only worth timing if it graded every submission: each one passed or failed,
    none left ungraded and none broke the grader."""
    rows = json.loads(summary_file.read_text())["submissions"]
    odd = [(r["submission"], r["exit_code"]) for r in rows if r["exit_code"] not in (0, 1)]
    if len(rows) != copies or odd:
        raise RuntimeError(f"the batch in {summary_file.parent} should have graded {copies} "
                           f"submissions, each passing or failing; it has {len(rows)} rows, "
                           f"and these exit codes are not 0 or 1: {odd}")


# == cluster ==

def cluster_only(copies, machine, began, quick=False):
    """The cluster's rows, measured (measure_cluster) and printed under a heading saying when,
    at which commit and on what machine."""
    table = cluster_rows(measure_cluster(copies))
    minutes = (time.monotonic() - began) / 60
    heading = (f"Measured {datetime.date.today().isoformat()} at {describe_code()} on "
               f"{machine}, by `{COMMAND} --cluster{' --quick' if quick else ''}` in "
               f"{minutes:.1f} minutes.")
    print(render(heading, table))


def measure_cluster(copies):
    """`lab_check --batch` on `copies` submissions, --jobs 2 and on a local cluster of two
    worker processes of one thread each, in the order --jobs 2, cluster, cluster, --jobs 2 on
    two alike halves (the module docstring)."""
    import dask
    from distributed import LocalCluster

    half, found = copies // 2, {"local": [], "cluster": []}
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as scratch, \
            dask.config.set({"temporary-directory": scratch}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                         dashboard_address="127.0.0.1:0") as cluster:
        halves = [make_submissions(pathlib.Path(scratch) / f"half-{part}", half, first=part * half)
                  for part in (0, 1)]
        for turn, (way, folder) in enumerate([("local", halves[0]), ("cluster", halves[0]),
                                              ("cluster", halves[1]), ("local", halves[1])]):
            say(f"lab_check --batch on {half} submissions, "
                f"{'--jobs 2' if way == 'local' else 'on the cluster'}")
            out = pathlib.Path(scratch) / f"results-{turn}"
            how = ["--jobs", "2"] if way == "local" else ["--cluster", cluster.scheduler_address]
            found[way].append(run([sys.executable, LAB_CHECK, "--lesson", str(LESSON.number),
                                   "--batch", str(folder), "--output", str(out), *how],
                                  expect=(0,)))
            check_summary(out / "summary.json", half)
    return {"copies": half * 2, "local": together(found["local"]),
            "cluster": together(found["cluster"])}


def cluster_rows(cluster):
    local, remote = (cluster[way].seconds for way in ("local", "cluster"))
    ratio = remote / local
    table = [(f"batch of {cluster['copies']} submissions (2 × {cluster['copies'] // 2}), "
              "--jobs 2", f"{seconds(local)} ({cluster['copies'] / local:.2f} submissions/s)",
              "", "", "", ""),
             (f"batch of {cluster['copies']} submissions (2 × {cluster['copies'] // 2}), on a "
              "local Dask cluster of 2 workers", f"{seconds(remote)} "
              f"({cluster['copies'] / remote:.2f} submissions/s)", f"--jobs 2: {seconds(local)}",
              times(ratio), f"≤ {CLUSTER_TARGET:g}×", verdict(ratio, "<=", CLUSTER_TARGET))]
    if missed(table):
        table.append(note(
            f"cluster: the rest of the machine kept {cluster['cluster'].others / remote:.1f} "
            f"cores busy during the cluster's runs ({cluster['local'].others / local:.1f} during "
            "--jobs 2's), the workers' own grading included, since they are not the command's "
            "children."))
    return table


# == crowded ==

def crowded_only(copies, machine, began):
    """The crowded batch's rows (bench/crowded_batch.py), printed under a heading saying when,
    at which commit and on what machine; exit 1 when a row does not hold."""
    crowd = crowded_batch.run(copies, say=say)
    minutes = (time.monotonic() - began) / 60
    heading = (f"Measured {datetime.date.today().isoformat()} at {describe_code()} on "
               f"{machine}, by `{COMMAND} --crowded --copies {copies}` in {minutes:.1f} "
               "minutes.")
    print(render(heading, crowded_rows(crowd)))
    for sentence in crowd.wrong:
        say(f"a row that does not hold: {sentence}")
    return 1 if crowd.wrong else 0


def crowded_rows(crowd):
    rows, wrong = len(crowd.rows), {sentence.split(":", 1)[0] for sentence in crowd.wrong}
    held = sum(row["submission"] not in wrong for row in crowd.rows)
    return [(f"batch of {crowd.copies} submissions of lesson 10, hostile ones among them, "
             f"--jobs 2, beside {crowd.beside} batches of lesson 11 ({crowd.beside_rows} rows)",
             f"{seconds(crowd.seconds)} ({rows / crowd.seconds:.2f} submissions/s)", "", "",
             "", ""),
            ("rows that score what their submission scores alone, or say why the grader "
             "failed after a second attempt", f"{held} of {crowd.copies}", "", "",
             f"{crowd.copies} of {crowd.copies}", verdict(held, ">=", crowd.copies)),
            ("rows the grader failed (after two attempts) / graded on the second attempt",
             f"{crowd.failures} / {crowd.retried}", "", "", "", "")]


# == notebook ==

def measure_notebook(times):
    """bench/run_notebook.py, `times` times: the whole process, and its kernel's start-up."""
    say(f"the lesson-10 notebook, headless, {times} runs")
    seen = []
    with tempfile.TemporaryDirectory(prefix="bench-notebook-") as scratch:
        timings = pathlib.Path(scratch) / "timings.json"
        for _ in range(times):
            process = run([sys.executable, str(PROJECT / "bench" / "run_notebook.py"),
                           str(timings)], expect=(0,))
            seen.append(dict(json.loads(timings.read_text()), seconds=process.seconds))
    return {key: median(s[key] for s in seen) for key in seen[0]}


# == repair ==

def measure_repair(sizes, rounds, samples):
    """The median seconds of the single pass, repair_tool_history and lab.validate on a valid
    and a damaged history of each size. Every history is built first; then each round times
    every function on every history in turn, so that a change in the machine's load falls on
    all of them alike and the ratios between sizes hold as well as those within one. Before
    its turn in a round, a history is read once untimed, so no function is the first to meet
    it after a bigger one has pushed it out of the CPU's caches."""
    repair = load_finished().repair_tool_history
    functions = {"pass": single_pass, "keyed": keyed_pass, "repair": repair,
                 "validate": lab.validate}
    histories = {}
    for size in sizes:
        for damaged in (False, True):
            histories[size, damaged] = history(size, damaged=damaged)
            check_history(histories[size, damaged], damaged, repair)
    say(f"repair and validate on histories of {', '.join(f'{n:,}' for n in sizes)} messages, "
        f"valid and damaged, {rounds} rounds")
    gc.collect()
    gc.freeze()  # kept to the end: a collection during a call walks only what the call made
    seen = {(key, name): [] for key in histories for name in functions}
    try:
        for _ in range(rounds):
            for (size, damaged), messages in histories.items():
                single_pass(messages)  # untimed: the history back in the caches the last one used
                for _ in range(samples[sizes.index(size)]):
                    for name, function in functions.items():
                        seen[(size, damaged), name].append(time_one(function, messages))
    finally:
        gc.unfreeze()
    return {key: {name: median(seen[key, name]) for name in functions} for key in histories}


def load_finished():
    """The finished lesson-10 harness, as a module of its own."""
    spec = importlib.util.spec_from_file_location("finished_harness", LESSON.finished)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def single_pass(messages):
    """The floor: the least work any correct repair can do, reading every message's role and
    the type of every block of every assistant message, once."""
    calls = 0
    for message in messages:
        if message["role"] == "assistant":
            for block in message["content"]:
                if block["type"] == "toolCall":
                    calls += 1
    return calls


def keyed_pass(messages):
    """The single pass, also filing every result by its call id, as a repair must do in some
    way to find a result recorded out of place: for the notes on scaling."""
    calls, filed = 0, {}
    for message in messages:
        if message["role"] == "toolResult":
            filed[message["tool_call_id"]] = message
        elif message["role"] == "assistant":
            for block in message["content"]:
                if block["type"] == "toolCall":
                    calls += 1
    return calls, filed


def history(size, damaged=False):
    """`size` messages of a working session, built with lab's builders. An exchange is five
    messages: the user asks, the model calls read and bash, their two results, the model's
    answer. When `damaged`, every tenth exchange is wrecked the way one of damaged.py's five
    cards is, in turn: a missing result, an orphan result, a late result, two results for one
    call, a reply cut off mid-call. A last exchange that would not fit is left out and user
    messages fill the space (two in a row are valid), so a valid history stays valid."""
    messages, n = [], 0
    while True:
        exchange = _exchange(n, wreck=n // 10 % 5 if damaged and n % 10 == 9 else None)
        if len(messages) + len(exchange) > size:
            break
        messages += exchange
        n += 1
    messages += [lab.user("And now?") for _ in range(size - len(messages))]
    return messages


def _exchange(n, wreck=None):
    read = lab.call("read", {"path": f"src/module_{n}.py"}, id=f"r{n}")
    tests = lab.call("bash", {"command": "pytest -q"}, id=f"b{n}")
    ask = lab.reply(lab.text("Reading it, and running the tests."), read, tests)
    results = [lab.tool_result(read, "def main():\n    return 1\n"),
               lab.tool_result(tests, "3 passed")]
    asked, answer = lab.user(f"Step {n}: check module {n}."), lab.say("Done: it returns 1.")
    if wreck == 0:    # missing_result: bash was asked for and never answered
        return [asked, ask, results[0], answer]
    if wreck == 1:    # orphan_result: the message that asked is lost
        return [asked, lab.say("Let me look."), results[0], answer]
    if wreck == 2:    # late_result: the results come after the user speaks again
        return [asked, ask, lab.user("Use spaces."), *results, answer]
    if wreck == 3:    # duplicate_result: read answered twice
        return [asked, ask, results[0], lab.tool_result(read, "(read again)"), results[1], answer]
    if wreck == 4:    # failed_reply_with_a_call: the reply broke off mid-call
        return [asked, lab.fail("stream ended", lab.text("Reading it."), read), answer]
    return [asked, ask, *results, answer]


def check_history(messages, damaged, repair):
    """What is timed must be what it says: a valid history is valid, a damaged one is not,
    and the repair of either is."""
    problems, repaired = lab.validate(messages), lab.validate(repair(messages))
    if bool(problems) != damaged or repaired:
        raise RuntimeError(f"a {'damaged' if damaged else 'valid'} history of {len(messages)} "
                           f"messages has {len(problems)} problems, and {len(repaired)} once "
                           "repaired; expected some and none (damaged) or none and none (valid)")


def time_one(function, messages):
    """CPU seconds of this thread for one call: a process that takes the core meanwhile,
    which on a shared machine is often, does not count."""
    gc.collect()  # every call starts with the same garbage: none
    began = time.thread_time()
    function(messages)
    return time.thread_time() - began


# == running a process ==

@dataclass(frozen=True)
class Run:
    seconds: float      # wall time
    code: int           # exit status
    process_mb: float   # the largest single process of its tree, at its peak (ru_maxrss)
    tree_mb: float      # every process of its tree together, at the fullest sample
    cpu: float          # CPU seconds its whole tree used
    others: float       # CPU seconds the rest of the machine used meanwhile


def run(command, expect=None):
    """Run `command` from the project's folder to its end, and time it. With `expect`, an
    exit status not in it raises, with what the command printed."""
    with tempfile.TemporaryFile() as output:
        busy, began = machine_busy(), time.perf_counter()
        process = subprocess.Popen(command, cwd=PROJECT, env=ENVIRONMENT,
                                   stdin=subprocess.DEVNULL, stdout=output,
                                   stderr=subprocess.STDOUT)
        sampler = TreeSampler(process.pid)
        _, status, usage = os.wait4(process.pid, 0)
        seconds, busy = time.perf_counter() - began, machine_busy() - busy
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        tree = sampler.stop()
        if expect is not None and process.returncode not in expect:
            output.seek(0)
            printed = output.read().decode(errors="replace")[-3000:]
            raise RuntimeError(f"`{' '.join(command)}` exited with {process.returncode}, not "
                               f"{' or '.join(map(str, expect))}; it printed:\n{printed}")
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, process.returncode, usage.ru_maxrss / 1024, tree / 2**20, cpu,
               max(busy - cpu, 0.0))  # the two clocks tick apart: never less than nothing


def machine_busy():
    """CPU seconds every core of the machine has spent not idle since it started."""
    ticks = [int(n) for n in _read("/proc/stat").split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait; guests are already counted in user
    return (sum(ticks[:8]) - idle) / os.sysconf("SC_CLK_TCK")


class TreeSampler:
    """The most memory a process and all its descendants held at once, sampled every
    `interval` seconds by a thread, until stop()."""

    def __init__(self, pid, interval=0.2):
        self._root, self._interval = psutil.Process(pid), interval
        self._stopped, self.peak = threading.Event(), 0
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def stop(self):
        self._stopped.set()
        self._thread.join()
        return self.peak

    def _watch(self):
        while not self._stopped.is_set():
            total = 0
            try:
                for process in [self._root, *self._root.children(recursive=True)]:
                    try:
                        total += process.memory_info().rss
                    except psutil.Error:
                        continue  # it ended between the listing and the reading
            except psutil.Error:
                return  # the root has ended
            self.peak = max(self.peak, total)
            self._stopped.wait(self._interval)


def together(runs):
    """Runs one after another, as one: times add up, peaks are the highest."""
    return Run(sum(r.seconds for r in runs), max(r.code for r in runs),
               max(r.process_mb for r in runs), max(r.tree_mb for r in runs),
               sum(r.cpu for r in runs), sum(r.others for r in runs))


def median(values):
    return statistics.median(list(values))


# == the table ==

def rows(figures, plan):
    """The table's rows, in COLUMNS' order, from what was measured; a note after each miss."""
    return [*lab_check_rows(figures["lab_check"], plan.runs),
            *watch_rows(figures["watch"], plan.runs), *batch_rows(figures["batch"]),
            *notebook_rows(figures["notebook"]), *repair_rows(figures["repair"], plan.sizes),
            *memory_rows(figures["lab_check"], figures["batch"])]


def lab_check_rows(lab_check, runs):
    table = []
    ratio = lab_check["seconds"] / lab_check["bare"]
    table.append((f"lab_check, finished lesson-10 harness (median of {runs} runs)",
                  seconds(lab_check["seconds"]),
                  f"the floor, its tests in one process: {seconds(lab_check['bare'])}",
                  times(ratio),
                  f"≤ {LAB_CHECK_TARGET:g}×", verdict(ratio, "<=", LAB_CHECK_TARGET)))
    if missed(table):
        tests, bare = lab_check["tests_seconds"], lab_check["bare"]
        rest = lab_check["described"] - tests
        table.append(note(
            "lab_check: in one more run, with --format json, of "
            f"{seconds(lab_check['described'])}, "
            f"its {lab_check['tests']} graded tests took {seconds(tests)} "
            f"({lab_check['properties']} @given property tests "
            f"{seconds(lab_check['properties_seconds'])} of that) and everything else "
            f"{seconds(rest)} (two Pythons, the sandbox and pytest starting), "
            f"{times(rest / bare)} the whole floor. Each answer crosses the sandbox's boundary "
            "as JSON, and a session's every event is a round trip."))
    return table


def watch_rows(watch, runs):
    ratio = watch["seconds"] / watch["floor_tests"]
    alone = watch.get("alone", watch["seconds"])
    workers = watch.get("workers", 1)
    shared = f"{workers} workers side by side" if workers > 1 else "its one worker"
    table = [(f"--watch re-grade from warm workers, as lab-check --watch runs it here: "
              f"{shared} (median of {runs} saves)",
              seconds(watch["seconds"]),
              f"the floor's test time (pytest's session, the same seed): "
              f"{seconds(watch['floor_tests'])}",
              times(ratio), f"≤ {WATCH_TARGET:g}×", verdict(ratio, "<=", WATCH_TARGET))]
    if missed(table):
        table.append(note(
            "--watch: what a re-grade no longer pays is Python, pytest, the plugin, the "
            "collection and the sandbox starting; each test's process is forked, by the "
            "request that clears the last test's, while the grader reports that test. What a "
            "worker still pays, for its guarantees: a clean process a test and one more for "
            "the import check (a fork, its limits, Landlock, the import, and its killing and "
            "the clearing of its folders after it: about 6 ms each), and a round trip across "
            "the sandbox's boundary for every request, answer and callback of a test (about "
            "1,500 a grading of lesson 10), each judged as JSON on the grader's side. Where "
            "the sandbox has no namespaces of its own, or the machine one core, one worker "
            "runs every test."))
    table.append((f"--watch re-grade from one warm worker alone (median of {runs} saves)",
                  seconds(alone), "the same floor", times(alone / watch["floor_tests"]),
                  "", ""))
    return table


def batch_rows(batch):
    table = []
    one, two = (batch["copies"] / batch[jobs].seconds for jobs in (1, 2))
    busy = {jobs: f"{batch[jobs].cpu / batch['copies']:.1f} CPU-s each; the rest of the "
                  f"machine {batch[jobs].others / batch[jobs].seconds:.1f} cores busy meanwhile"
            for jobs in (1, 2)}
    table.append((f"batch of {batch['copies']} mixed submissions (2 × {batch['copies'] // 2}), "
                  "--jobs 1", f"{one:.2f} submissions/s ({busy[1]})", "", "", "", ""))
    table.append((f"batch of {batch['copies']} mixed submissions (2 × {batch['copies'] // 2}), "
                  "--jobs 2", f"{two:.2f} submissions/s ({busy[2]})",
                  f"--jobs 1: {one:.2f} submissions/s", times(two / one), f"≥ {BATCH_TARGET:g}×",
                  verdict(two / one, ">=", BATCH_TARGET)))
    if missed(table):
        single, double = batch[1], batch[2]
        table.append(note(
            f"batch: with --jobs 2 its processes kept {double.cpu / double.seconds:.2f} of "
            f"{len(os.sched_getaffinity(0))} cores busy on average (--jobs 1: "
            f"{single.cpu / single.seconds:.2f}) and took {times(double.cpu / single.cpu)} the "
            "CPU time of --jobs 1 for the same work; the rest of the machine (other "
            "processes, and time the hypervisor took) is in the figures."))
    return table


def notebook_rows(book):
    whole = book["seconds"]
    table = [("lesson-10 notebook, headless (nbclient, real ipykernel)", seconds(whole),
                  f"kernel start-up: {seconds(book['kernel_start'])}; cells: "
                  f"{seconds(book['cells'])}", "", f"≤ {NOTEBOOK_TARGET:g} s",
                  verdict(whole, "<=", NOTEBOOK_TARGET))]
    if missed(table):
        table.append(note(
            f"notebook: {seconds(book['imports'])} importing nbclient, "
            f"{seconds(book['kernel_start'])} starting the kernel, {seconds(book['cells'])} "
            "running the cells; the rest is Python starting and the kernel shutting down."))
    return table


def repair_rows(found, sizes):
    """A row for each function and size (valid / damaged), then each one's scaling."""
    table = []
    for name, function, target in (("repair_tool_history", "repair", REPAIR_TARGET),
                                   ("lab.validate", "validate", VALIDATE_TARGET)):
        for size in sizes:
            valid, damaged = found[size, False], found[size, True]
            ratios = [valid[function] / valid["pass"], damaged[function] / damaged["pass"]]
            judged = size == sizes[-1]
            table.append((f"{name}, {count(size)} messages (valid / damaged)",
                          f"{seconds(valid[function])} / {seconds(damaged[function])}",
                          f"single pass: {seconds(valid['pass'])} / {seconds(damaged['pass'])}",
                          " / ".join(times(r) for r in ratios),
                          f"≤ {target:g}×" if judged else "",
                          verdict(max(ratios), "<=", target) if judged else ""))
            if missed(table):
                smallest = max(found[sizes[0], d][function] / found[sizes[0], d]["pass"]
                               for d in (False, True))
                table.append(note(f"{name} at {count(size)}: {times(max(ratios))} a single "
                                  f"pass; at {count(sizes[0])}, {times(smallest)}."))
        steps = list(zip(sizes, sizes[1:]))
        mine, floor, keyed = ([max(exponent(found, a, b, damaged, f) for damaged in (False, True))
                               for a, b in steps] for f in (function, "pass", "keyed"))
        table.append((f"{name}, scaling exponent "
                      f"{' / '.join(f'{count(a)}→{count(b)}' for a, b in steps)}",
                      exponents(mine),
                      f"single pass: {exponents(floor)}; with a dict of results: "
                      f"{exponents(keyed)}", "", f"≤ {EXPONENT_TARGET:g}",
                      verdict(max(mine), "<=", EXPONENT_TARGET)))
        if missed(table):
            table.append(note(scaling_note(name, found, function, sizes, mine, floor, keyed)))
    return table


def scaling_note(name, found, function, sizes, mine, floor, keyed):
    """What the exponents say about why `function` grows faster than its size."""
    cost = " / ".join(times(max(found[size, d][function] / found[size, d]["pass"]
                                for d in (False, True))) for size in sizes)
    words = [f"{name} scaling: per message it costs {cost} single passes at "
             f"{' / '.join(count(size) for size in sizes)}. Over the same steps the single pass "
             f"scales {exponents(floor)}, and with every result also filed in a dict by call id "
             f"(as a repair must do somehow, to find a result recorded out of place) "
             f"{exponents(keyed)}."]
    if max(floor + keyed) > 1.05:
        words.append("Reading a history, and a table with an entry a call, costs more a message "
                     "as they outgrow the CPU's caches.")
    own = max(m - k for m, k in zip(mine, keyed))
    if own > 0.05:
        words.append(f"Up to {own:.2f} of the exponent is {name}'s own.")
    return " ".join(words)


def exponents(values):
    return " / ".join(f"{value:.2f}" for value in values)


def memory_rows(lab_check, batch):
    table = [("peak memory, lab_check on the finished harness",
                  f"{megabytes(lab_check['process_mb'])} largest process; "
                  f"{megabytes(lab_check['tree_mb'])} whole tree",
                  f"the floor: {megabytes(lab_check['bare_mb'])}",
                  times(lab_check["process_mb"] / lab_check["bare_mb"]), "", "")]
    for jobs in (1, 2):
        table.append((f"peak memory, batch of {batch['copies']}, --jobs {jobs}",
                      f"{megabytes(batch[jobs].process_mb)} largest process; "
                      f"{megabytes(batch[jobs].tree_mb)} whole tree", "", "", "", ""))
    return table


def exponent(found, small, large, damaged, function):
    """log(time ratio) / log(size ratio): 1 is linear, 2 quadratic."""
    return (math.log(found[large, damaged][function] / found[small, damaged][function])
            / math.log(large / small))


def missed(table):
    """Whether the row just added missed its target: a note follows it."""
    return table[-1][-1] == "MISS"


def note(words):
    return ("note", words, "", "", "", "")


def verdict(value, sense, target):
    """PASS or MISS, judged on `value` to the two decimals the table shows, so that a figure
    shown as on the target is on it."""
    value = round(value, 2)
    return "PASS" if (value <= target if sense == "<=" else value >= target) else "MISS"


def seconds(value):
    if value < 0.01:
        return f"{value * 1e6:.0f} µs" if value < 0.001 else f"{value * 1000:.2f} ms"
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def times(ratio):
    return f"{ratio:.2f}×" if ratio < 20 else f"{ratio:.1f}×"


def megabytes(value):
    return f"{value:.0f} MB"


def count(size):
    return f"{size // 1_000_000}M" if size >= 1_000_000 else f"{size // 1000}k"


render = tables.render  # the section as Markdown: the heading line, a blank line, the table


def parse(section):
    """(heading, rows) of a section `render` wrote; ValueError saying where it is not."""
    lines = section.strip("\n").split("\n")
    if len(lines) < 4 or lines[1] != "" or lines[2:4] != render("", []).split("\n")[2:]:
        raise ValueError("expected a heading line, a blank line, then the table's header "
                         f"({' | '.join(COLUMNS)}); got {lines[:4]}")
    table = []
    for number, line in enumerate(lines[4:], 5):
        cells = [cell.strip().replace("\\|", "|") for cell in CELL.split(line)[1:-1]]
        if not (line.startswith("| ") and line.endswith(" |")) or len(cells) != len(COLUMNS):
            raise ValueError(f"line {number} of the section should be a row of "
                             f"{len(COLUMNS)} cells; got {line!r}")
        table.append(tuple(cells))
    return lines[0], table

if __name__ == "__main__":
    main()
