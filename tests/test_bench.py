"""bench/run.py: the saved figures are in the form the script writes, and the script's own
parts (its histories, its table, its figures file) do what they say. No timings are judged
here; the benchmark itself is `.venv/bin/python bench/run.py`."""

import importlib.util
import shlex

import lab
from conftest import PROJECT

spec = importlib.util.spec_from_file_location("bench_run", PROJECT / "bench" / "run.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def run(seconds, cpu=None, process_mb=50.0, tree_mb=90.0):
    return bench.Run(seconds=seconds, code=0, process_mb=process_mb, tree_mb=tree_mb,
                     cpu=seconds if cpu is None else cpu, others=0.0)


def figures(lab_check_seconds=0.4, two_jobs_seconds=10.0, repair_1m=0.3):
    """What measuring might have found, as `bench.main` collects it: defaults all pass."""
    sizes = bench.FULL.sizes
    repair = {}
    for size in sizes:
        for damaged in (False, True):
            scale = size / sizes[-1]
            repair[size, damaged] = {"pass": 0.1 * scale, "keyed": 0.15 * scale,
                                     "repair": repair_1m * scale, "validate": 0.6 * scale}
    return {"lab_check": {"seconds": lab_check_seconds, "bare": 0.3, "described": 0.5,
                          "process_mb": 45.0, "tree_mb": 84.0, "bare_mb": 28.0, "tests": 20,
                          "tests_seconds": 0.3, "properties": 5, "properties_seconds": 0.2},
            "watch": {"seconds": 0.5, "alone": 0.6, "workers": 2, "floor_tests": 0.45},
            "batch": {"copies": 40, 1: run(18.0), 2: run(two_jobs_seconds, cpu=19.0)},
            "notebook": {"imports": 0.1, "kernel_start": 0.6, "cells": 0.4, "seconds": 1.3},
            "repair": repair}


def test_the_saved_figures_are_in_the_form_the_script_writes_and_the_docs_show_them():
    from lab.docs import blocks, tables

    heading, rows = tables.load(bench.FIGURES)
    section = (PROJECT / "docs" / "authoring.md").read_text(encoding="utf-8")

    assert heading.startswith("Measured ") and "Python" in heading and "cores" in heading, (
        f"expected the heading to give the date and the machine; got {heading!r}")
    assert blocks.read(section, "benchmarks").strip("\n") == bench.render(heading, rows), (
        "expected docs/authoring.md's benchmark table to be what bench/run.py saved; run "
        "`python -m lab.docs` to rewrite it")
    assert {row[-1] for row in rows} <= {"PASS", "MISS", ""}, (
        f"expected every result to be PASS, MISS or empty; got {sorted({r[-1] for r in rows})}")


def test_every_miss_is_followed_by_a_note_saying_what_limits_it():
    found = figures(lab_check_seconds=2.0, two_jobs_seconds=15.0, repair_1m=0.9)

    rows = bench.rows(found, bench.FULL)

    misses = [i for i, row in enumerate(rows) if row[-1] == "MISS"]
    assert len(misses) == 3, f"expected lab_check, batch and repair to miss; got {misses}"
    for i in misses:
        assert rows[i + 1][0] == "note" and rows[i + 1][1], (
            f"expected a note after the miss {rows[i][0]!r}; got {rows[i + 1]}")


def test_a_table_that_passes_everywhere_has_no_notes_and_reads_back_as_written():
    rows = bench.rows(figures(), bench.FULL)

    section = bench.render("Measured today.", rows)

    assert [row for row in rows if row[-1] == "MISS" or row[0] == "note"] == []
    assert bench.parse(section) == ("Measured today.", rows)


def test_a_valid_history_is_valid_and_a_damaged_one_is_not_both_exactly_as_long_as_asked():
    valid, damaged = bench.history(503), bench.history(503, damaged=True)

    assert (len(valid), len(damaged)) == (503, 503)
    assert lab.validate(valid) == [], "expected the valid history to be valid"
    assert lab.validate(damaged) != [], "expected the damaged history to be refused"


def test_a_crowded_batchs_row_holds_only_if_it_scores_as_alone_or_its_failure_was_retried_and_says_why(
        tmp_path):
    crowded = bench.crowded_batch
    results = tmp_path / "results"
    results.mkdir()
    made = {"a": "finished", "b": "finished", "c": "starter", "d": "starter", "e": "starter"}

    def row(name, status, score, code):
        return {"submission": name, "id": name, "status": status, "score": score,
                "exit_code": code, "problem": ""}

    crowd = crowded.Crowd(copies=5, seconds=1.0, alone={"finished": (29, 0), "starter": (0, 1)},
                          rows=[row("a", "graded", 29, 0), row("b", "graded", 28, 1),
                                row("c", crowded.GRADER_FAILED, 0, 3),
                                row("d", crowded.GRADER_FAILED, 0, 3)])
    (results / "c.grader-failure.txt").write_text(
        "attempt 1 of 2: the grading process ended (exit 1) without reporting any result, "
        "while running test_x\nits grader's last words on stderr:\n  | boom\n")
    (results / "d.grader-failure.txt").write_text(
        "attempt 1 of 2: the grading process ended (exit 1) without reporting any result\n"
        "its grader's last words on stderr:\n  | boom\n"
        "attempt 2 of 2: the grading process ended (exit 1) without reporting any result\n"
        "its grader's last words on stderr:\n  | boom\n")
    crowded.check(crowd, made, tmp_path)

    wrong = {sentence.split(":", 1)[0] for sentence in crowd.wrong}
    assert wrong == {"b", "c", "e"}, crowd.wrong  # a's score holds; d failed twice, and says so
    assert crowd.failures == 2
    rows = bench.crowded_rows(crowd)
    assert rows[1][1] == "2 of 5" and rows[1][-1] == "MISS"


def test_the_suites_bench_runs_the_readmes_test_command_as_ci_does():
    spec = importlib.util.spec_from_file_location("bench_suite", PROJECT / "bench" / "suite.py")
    suite = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite)

    command = suite.readme_test_command((PROJECT / "README.md").read_text(encoding="utf-8"))

    ci = [line for line in (PROJECT / ".ci" / "run").read_text().splitlines()
          if "-m pytest" in line]
    assert ci and all(shlex.split(line.split("&&")[-1]) == command for line in ci), (command, ci)
    assert command[1:3] == ["-m", "pytest"] and "-n" in command, command
