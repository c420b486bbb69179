"""Benchmarks of a class's batch: throughput, and what taking a stopped batch up again costs.

    .venv/bin/python bench/batch.py            # about five minutes on two cores; prints the
                                               # table and saves its figures (docs/instructor.md)
    .venv/bin/python bench/batch.py --quick    # a class of 8, in about a minute; writes nothing

What is measured, each a whole `lab-check --batch` process timed from outside (bench/run.py's
`run`: wall seconds, CPU seconds of the process tree, what the rest of the machine used):

  throughput  a class of 60 (the finished harness, the starter, each wrong and right answer of
              lesson 10 in turn, each copy its own file), graded from scratch with --jobs 1
              and with --jobs 2, into a fresh output folder each time.
  resume      the same class half graded (its first 30 by `--only`, as a batch stopped half-way
              leaves it), then `--resume --jobs 2`, which must grade the other 30 and skip the
              rest; compared with grading the same 30 afresh into an empty folder (--only),
              measured right after it, so that both see the same machine. And `--resume` of the class once it is all graded: the cost of
              deciding that nothing is left (hashing every file, reading the summary).

Each batch's summary is checked before its time counts: every submission graded (a pass or a
fail, none broken), and a resumed one graded exactly the ones it should have.
"""

import argparse
import datetime
import importlib.util
import json
import pathlib
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("bench_run", HERE / "run.py")
common = importlib.util.module_from_spec(spec)
spec.loader.exec_module(common)

FIGURES = common.PROJECT / "bench" / "figures" / "batch.json"
COMMAND = ".venv/bin/python bench/batch.py"
THROUGHPUT_TARGET = 1.7  # --jobs 2 at least this many times the throughput of --jobs 1
RESUME_TARGET = 1.15     # resuming the last half at most this many times grading it afresh


def main(argv=None):
    args = parser().parse_args(argv)
    size = 8 if args.quick else args.size
    began, machine = time.monotonic(), common.describe_machine()
    common.say(f"benchmarking batches of {size} on {machine}")
    figures = measure(size)
    minutes = (time.monotonic() - began) / 60
    heading = (f"Measured {datetime.date.today().isoformat()} at {common.describe_code()} on "
               f"{machine}, by `{COMMAND}{' --quick' if args.quick else ''}` in "
               f"{minutes:.1f} minutes.")
    table = rows(figures)
    print(common.render(heading, table))
    if not (args.quick or args.print_only):
        common.record(FIGURES, heading, table)


def parser():
    p = argparse.ArgumentParser(prog="bench/batch.py", description=__doc__.split("\n")[0])
    p.add_argument("--size", type=int, default=60, help="submissions in the class (60)")
    p.add_argument("--quick", action="store_true",
                   help="a class of 8, to see that it all works; writes nothing")
    p.add_argument("--print-only", action="store_true",
                   help="print the table but leave the saved figures alone")
    return p


def measure(size):
    """{"size", 1 and 2: the Run of grading the class with that many jobs, "half": how many
    the resume had left, "resume": its Run, "nothing_left": the Run of a resume with none}."""
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as scratch:
        scratch = pathlib.Path(scratch)
        folder = common.make_submissions(scratch / "class", size)
        names = sorted(p.name for p in folder.iterdir())
        found = {"size": size}
        for jobs in (1, 2):
            common.say(f"lab-check --batch on a class of {size}, --jobs {jobs}")
            out = scratch / f"out-{jobs}"
            found[jobs] = common.run(batch(folder, out, "--jobs", str(jobs)), expect=(0,))
            check(out, size)
        out = scratch / "out-resumed"
        half = names[: size // 2]
        common.say(f"grading the first {len(half)} with --only, then --resume of the rest")
        common.run(batch(folder, out, "--jobs", "2", "--only", *half), expect=(0,))
        check(out, len(half))
        before = stamps(out)
        found["half"] = size - len(half)
        found["resume"] = common.run(batch(folder, out, "--jobs", "2", "--resume"), expect=(0,))
        check(out, size)
        regraded = [name for name, stamp in before.items() if stamps(out)[name] != stamp]
        if regraded:
            raise RuntimeError(f"--resume graded again what was graded: {regraded}")
        common.say("--resume of the class once every submission is graded")
        found["nothing_left"] = common.run(batch(folder, out, "--resume"), expect=(0,))
        rest = names[size // 2:]
        common.say(f"the floor: the same {len(rest)} graded afresh (--only), right after")
        afresh = scratch / "out-afresh"
        found["afresh"] = common.run(batch(folder, afresh, "--jobs", "2", "--only", *rest),
                                     expect=(0,))
        check(afresh, len(rest))
    return found


def batch(folder, out, *more):
    return [sys.executable, common.LAB_CHECK, "--lesson", str(common.LESSON.number),
            "--batch", str(folder), "--output", str(out), *more]


def check(out, count):
    """A batch is only worth timing if it graded every submission it should have: `count`
    rows, each a pass or a fail."""
    rows = json.loads((out / "summary.json").read_text())["submissions"]
    odd = [(r["submission"], r["status"]) for r in rows if r["status"] != "graded"]
    if len(rows) != count or odd:
        raise RuntimeError(f"the batch in {out} should have graded {count} submissions; it "
                           f"has {len(rows)} rows, and these are not graded: {odd}")


def stamps(out):
    return {p.name: p.stat().st_mtime_ns for p in (out / "results").iterdir()}


def rows(found):
    size = found["size"]
    one, two = (size / found[jobs].seconds for jobs in (1, 2))
    busy = {jobs: f"{found[jobs].cpu / size:.1f} CPU-s each; the rest of the machine "
                  f"{found[jobs].others / found[jobs].seconds:.1f} cores busy meanwhile"
            for jobs in (1, 2)}
    afresh = found["afresh"].seconds
    resume = found["resume"].seconds
    table = [
        (f"batch of a class of {size}, --jobs 1", f"{one:.2f} submissions/s ({busy[1]})",
         "", "", "", ""),
        (f"batch of a class of {size}, --jobs 2", f"{two:.2f} submissions/s ({busy[2]})",
         f"--jobs 1: {one:.2f} submissions/s", common.times(two / one),
         f"≥ {THROUGHPUT_TARGET:g}×", common.verdict(two / one, ">=", THROUGHPUT_TARGET)),
        (f"--resume of the class half graded ({found['half']} left), --jobs 2",
         common.seconds(resume), f"the same {found['half']} graded afresh (--only), --jobs 2: "
         f"{common.seconds(afresh)}", common.times(resume / afresh), f"≤ {RESUME_TARGET:g}×",
         common.verdict(resume / afresh, "<=", RESUME_TARGET)),
        (f"--resume of the class all graded (nothing left, {size} files hashed)",
         common.seconds(found["nothing_left"].seconds), "", "", "", ""),
    ]
    if common.missed(table):
        table.append(common.note(
            f"batch: with --jobs 2 its processes kept {found[2].cpu / found[2].seconds:.2f} "
            f"cores busy on average (--jobs 1: {found[1].cpu / found[1].seconds:.2f}); the rest "
            "of the machine (other processes, and time the hypervisor took) is in the figures."))
    return table

if __name__ == "__main__":
    main()
