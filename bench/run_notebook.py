"""Execute lesson 10's notebook once, headless, on a real ipykernel, and write its timings.

    python bench/run_notebook.py TIMINGS.json

The committed walkthrough.ipynb runs on the finished harness (LAB_HARNESS names it), every
cell in order, the way tests/test_notebook.py runs it; a cell that fails raises and the exit
status is not 0. TIMINGS.json gets, in seconds: imports (nbformat and nbclient),
kernel_start (from asking for a kernel until it answers), cells (every cell, run in order).
bench/run.py times the whole process around this, so Python's own start-up counts too.
"""

import json
import sys
import time

began = time.perf_counter()
import os  # noqa: E402
import pathlib  # noqa: E402

import nbformat  # noqa: E402
from nbclient import NotebookClient  # noqa: E402

PROJECT = pathlib.Path(__file__).resolve().parent.parent
LESSON = PROJECT / "lessons" / "10-poisoned-transcript"
CELL_TIMEOUT = 60  # seconds for one cell, as the notebook test allows


def main(timings_file):
    imported = time.perf_counter()
    nb = nbformat.read(LESSON / "walkthrough.ipynb", as_version=4)
    env = dict(os.environ, LAB_HARNESS=str(LESSON / "finished.py"))
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(LESSON)}})
    client.reset_execution_trackers()
    asked = time.perf_counter()
    with client.setup_kernel(env=env):
        started = time.perf_counter()
        for index, cell in enumerate(nb.cells):  # a failing cell raises CellExecutionError
            client.execute_cell(cell, index)
        ran = time.perf_counter()
    pathlib.Path(timings_file).write_text(json.dumps(
        {"imports": imported - began, "kernel_start": started - asked, "cells": ran - started}))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python bench/run_notebook.py TIMINGS.json")
    main(sys.argv[1])
