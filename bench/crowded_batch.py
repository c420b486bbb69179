"""A class graded beside another class: does every row of a crowded batch hold?

    .venv/bin/python bench/crowded_batch.py [--copies 300] [--jobs 2] [--keep DIR]

One lab's class of `copies` submissions (lesson 10: the finished harness, the starter, each
wrong and right answer, and hostile ones from the suite's corpus in tests/submissions: a syntax
error, endless loops, sys.exit and os._exit, vandalism, patching of the lab and of pytest, a
forged results pipe, a killed grader, a classmate's work taken) is graded by
`lab_check --batch --jobs N` while a second class, of another lab, is graded by batch after
batch beside it until the first is done. Then each kind of submission is graded alone, with
the class's seed, and every row of the crowded batch is checked against it:

- a graded row must have the score and exit code its submission gets alone;
- a row saying the grader failed must have been graded twice (both attempts in the file the
  row names), and what each attempt left must say how the grader ended (its exit, or the
  sentence naming the worker's phase) and hold the last words it wrote on stderr.

bench/run.py runs this as its `crowded` case (`--crowded`, with `--quick` for a few dozen).
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

PROJECT = pathlib.Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path.insert(0, str(PROJECT))

from lab.course import lesson_files as lessons  # noqa: E402

LAB_CHECK = str(PROJECT / "lab" / "lab_check.py")
CORPUS = PROJECT / "tests" / "submissions"
SEED = 33  # the class's seed, given to the batch and to each alone grading
# Hostile submissions from the suite's corpus: each is its base harness with the file appended
# (the starter where the file names none: the thief, as tests/test_untrusted.py grades it).
HOSTILE = ("hangs_at_import", "runs_for_ever_in_small_steps", "exits_at_import",
           "sys_exit_during_a_test", "os_exit_during_a_test", "vandalises_files",
           "monkeypatches_the_lab", "monkeypatches_pytest_and_rewrites_tests",
           "forges_the_results_pipe", "kills_its_grader", "batch/takes_a_classmates_work")
SYNTAX_ERROR = "\ndef repair_tool_history(messages:\n    return messages\n"
GRADER_FAILED = "grader failed"
# What a grader failure's file must say of each attempt: how its grader ended.
ENDED = re.compile(r"exited with status -?\d+|was killed by \w+|ran past the batch's ceiling"
                   r"|ended \(exit -?\d+\)|killed by|while (reading|building|starting|checking"
                   r"|collecting|running|sending)")


@dataclass
class Crowd:
    """What a crowded batch came to."""
    copies: int
    seconds: float
    rows: list = field(default_factory=list)        # the summary's rows
    alone: dict = field(default_factory=dict)       # kind -> (score, exit code) graded alone
    beside: int = 0                                 # batches of the other class graded meanwhile
    beside_rows: int = 0
    wrong: list = field(default_factory=list)       # sentences: rows that do not hold
    failures: int = 0                               # rows saying the grader failed
    retried: int = 0                                # rows whose first attempt failed, then held


def answers(lesson) -> list[tuple[str, str]]:
    """The ordinary submissions of `lesson`, as (kind, the harness's text): its finished
    harness, its starter, each wrong and each right answer."""
    found = [("finished", lesson.finished.read_text()), ("starter", lesson.starter.read_text())]
    return found + [(f"{answer.parent.name}-{answer.stem}", lesson.variant(answer))
                    for answer in [*lesson.wrong_answers, *lesson.right_answers]]


def kinds(lesson) -> list[tuple[str, str]]:
    """Every kind of submission of `lesson`, as (kind, the harness's text): its answers, and
    for lesson 10 the hostile ones."""
    found = answers(lesson)
    if lesson.number != 10:  # the corpus is written on lesson 10's harness
        return found
    bases = {"finished": lesson.finished.read_text(), "starter": lesson.starter.read_text(),
             "none": ""}
    for name in HOSTILE:
        text = (CORPUS / f"{name}.py").read_text()
        base = re.search(r"^# base: (\w+)", text, re.M)
        found.append((f"hostile-{name.rsplit('/', 1)[-1]}",
                      bases[base.group(1) if base else "starter"] + "\n" + text))
    found.append(("hostile-syntax_error", lesson.starter.read_text() + SYNTAX_ERROR))
    return found


def make_class(folder: pathlib.Path, lesson, copies: int) -> dict[str, str]:
    """`copies` submission folders in `folder`, the kinds in turn, each a copy of its own (a
    comment with its number at the end); {folder name: kind}."""
    every, made = kinds(lesson), {}
    for n in range(copies):
        kind, text = every[n % len(every)]
        name = f"{n:03d}-{kind}"
        (folder / name).mkdir(parents=True)
        (folder / name / "harness.py").write_text(f"{text}\n# submission {n}: its own copy\n")
        made[name] = kind
    return made


def lab_check(*words: str, niceness: int = 0) -> subprocess.CompletedProcess:
    return subprocess.run(["nice", "-n", str(niceness), sys.executable, LAB_CHECK, *words],
                          cwd=PROJECT, stdin=subprocess.DEVNULL, capture_output=True, text=True)


def grade_alone(harness: pathlib.Path, lesson, scratch: pathlib.Path) -> tuple[float, int]:
    """(score, exit code) of `harness` graded by itself with the class's seed."""
    result = scratch / f"alone-{harness.parent.name}.json"
    if not result.is_file():  # (one graded before is kept: --check DIR reads it again)
        lab_check("--harness", str(harness), "--lesson", str(lesson.number), "--seed",
                  str(SEED), "--format", "json", "--output", str(result))
    if not result.is_file():
        return (float("nan"), -1)
    graded = json.loads(result.read_text())
    return (graded["score"], graded["exit_code"])


def beside(lesson, folder: pathlib.Path, scratch: pathlib.Path, until: threading.Event,
           crowd: Crowd, niceness: int) -> None:
    """Batch after batch of the other class, until `until` is set (the last one finishes)."""
    while not until.is_set():
        out = scratch / f"beside-{crowd.beside}"
        lab_check("--lesson", str(lesson.number), "--batch", str(folder), "--output", str(out),
                  "--jobs", "2", niceness=niceness)
        crowd.beside += 1
        summary = out / "summary.json"
        if summary.is_file():
            crowd.beside_rows += len(json.loads(summary.read_text())["submissions"])


def check(crowd: Crowd, made: dict[str, str], out: pathlib.Path) -> None:
    """Each row against its kind's grading alone, and each grader failure's diagnosis."""
    seen = {row["submission"] for row in crowd.rows}
    crowd.wrong += [f"{name}: no row" for name in made if name not in seen]
    for row in crowd.rows:
        name, kind = row["submission"], made.get(row["submission"])
        failure = out / "results" / f"{row['id']}.grader-failure.txt"
        left = failure.read_text() if failure.is_file() else ""
        if row["status"] == GRADER_FAILED:
            crowd.failures += 1
            attempts = left.split("attempt ")[1:]
            if len(attempts) != 2:
                crowd.wrong.append(f"{name}: the grader failed, and {len(attempts)} attempts "
                                   f"are kept (retried once: 2): {row['problem']}")
            crowd.wrong += [f"{name}: attempt {n} does not say how its grader ended, or holds "
                            f"no stderr: {said[:300]!r}" for n, said in enumerate(attempts, 1)
                            if not ENDED.search(said) or "said nothing" in said]
            continue
        if left:
            crowd.retried += 1
        want = crowd.alone.get(kind)
        if want is None or (row["score"], row["exit_code"]) != want:
            crowd.wrong.append(f"{name}: scored {row['score']} (exit {row['exit_code']}) in "
                               f"the batch, {want} alone: {row['problem'][:300]}")


def run(copies: int = 300, jobs: int = 2, niceness: int = 0, keep: str | None = None,
        lesson_number: int = 10, other_number: int = 11, say=print) -> Crowd:
    """Build both classes, grade them side by side, grade each kind alone, check every row."""
    lesson, other = lessons.lesson(lesson_number), lessons.lesson(other_number)
    if keep is None:
        with tempfile.TemporaryDirectory(prefix="bench-crowded-") as scratch:
            return run(copies, jobs, niceness, scratch, lesson_number, other_number, say)
    scratch = pathlib.Path(keep)
    made = make_class(scratch / "class", lesson, copies)
    make_class(scratch / "other-class", other, min(copies, 40))
    out = scratch / "results"
    until, crowd = threading.Event(), Crowd(copies=copies, seconds=0)
    side = threading.Thread(target=beside, args=(other, scratch / "other-class", scratch, until,
                                                 crowd, niceness))
    say(f"lab_check --batch on {copies} submissions of lesson {lesson.number}, --jobs {jobs}, "
        f"beside batches of lesson {other.number}, in {scratch}")
    side.start()
    began = time.monotonic()
    try:
        done = lab_check("--lesson", str(lesson.number), "--batch", str(scratch / "class"),
                         "--output", str(out), "--jobs", str(jobs), "--seed", str(SEED),
                         niceness=niceness)
    finally:
        until.set()
    crowd.seconds = time.monotonic() - began
    (scratch / "batch.stderr").write_text(done.stderr)
    side.join()
    crowd.rows = json.loads((out / "summary.json").read_text())["submissions"]
    say(f"graded in {crowd.seconds:.0f} s (exit {done.returncode}); {crowd.beside} batches of "
        "the other class beside it; now each kind alone")
    first = {}
    for name, kind in made.items():
        first.setdefault(kind, scratch / "class" / name / "harness.py")
    for kind, harness in first.items():
        crowd.alone[kind] = grade_alone(harness, lesson, scratch)
    check(crowd, made, out)
    return crowd


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--copies", type=int, default=300)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--keep", help="build and keep everything in this folder (must not exist)")
    args = p.parse_args(argv)
    crowd = run(args.copies, args.jobs, keep=args.keep,
                say=lambda words: print(f"crowded: {words}", file=sys.stderr, flush=True))
    print(json.dumps({"copies": crowd.copies, "seconds": round(crowd.seconds),
                      "failures": crowd.failures, "retried": crowd.retried,
                      "beside": crowd.beside, "beside_rows": crowd.beside_rows,
                      "alone": crowd.alone, "wrong": crowd.wrong}, indent=1))
    return 1 if crowd.wrong else 0


if __name__ == "__main__":
    sys.exit(main())
