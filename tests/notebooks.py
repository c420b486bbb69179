"""Running a lesson's walkthrough notebook in the suite: on a real ipykernel, cell by cell, as
the lab proof runs it (lab.notebook.kernel), so that a dead kernel or a timeout fails the test that asked.

A notebook run on the same harness with the same extra cells is executed once a suite run,
whichever worker asks first: the executed notebook is kept in the run's folder (NOTEBOOKS, under
the suite's TMPDIR, removed with it), and a worker that asks while another is executing it waits
for that run instead of starting a second. tests/test_labs.py and the figure tests read the
same executions.
"""

import fcntl
import hashlib
import json
import os
import pathlib
import tempfile

import nbformat

from lab.notebook import kernel, ipynb as notebook

CELL_TIMEOUT = kernel.CELL_TIMEOUT  # seconds for one cell (the checkpoint tests run editions by hand)

NOTEBOOKS = "lab-suite-notebooks"  # the run's executed notebooks, in the suite's TMPDIR

# Cells the suite appends to a lab's notebook wherever it runs it on the lab's own files, so that
# every test of that lab reads the same execution: lesson 10's probe prints what `harness` is
# once every cell has run (tests/test_notebook.py reads it).
PROBES = {10: (("probe", """
print("probe:", harness.context_for_model.__name__,
      lab.validate(harness.context_for_model(damaged.missing_result)) == [])
"""),)}


def run(lesson, harness_file=None, extra=()):
    """The lesson's committed notebook, executed (with LAB_HARNESS=harness_file when given)
    after appending the code cells `extra` ((id, source) pairs): a fresh copy of this suite
    run's one execution of it."""
    source = (lesson.folder / notebook.NOTEBOOK).read_text(encoding="utf-8")
    harness = pathlib.Path(harness_file).read_bytes() if harness_file else b""
    key = hashlib.sha256(json.dumps([str(lesson.folder), source, str(harness_file),
                                     harness.hex(), list(map(list, extra))]).encode())
    folder = os.path.join(tempfile.gettempdir(), NOTEBOOKS)
    os.makedirs(folder, exist_ok=True)
    kept = os.path.join(folder, key.hexdigest()[:24] + ".ipynb")
    with open(kept + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, however this ends
        if not os.path.exists(kept):
            executed = kernel.execute(lesson.folder, harness_file, extra, source=source)
            with open(kept + ".part", "w", encoding="utf-8") as out:
                nbformat.write(executed, out)
            os.replace(kept + ".part", kept)
    return nbformat.read(kept, as_version=4)


def on(lesson, harness_file):
    """The lesson's notebook run on `harness_file` as every test of the suite runs it (with the
    lesson's PROBES): one execution a suite run, whichever test asks first."""
    return run(lesson, harness_file, extra=PROBES.get(lesson.number, ()))


def cell(nb, cell_id):
    found = [c for c in nb.cells if c.get("id") == cell_id]
    assert found, f"expected a cell with id {cell_id!r} in the notebook; there is none"
    return found[0]


def printed(nb, cell_id):
    """What the cell printed (its stream outputs), as one text."""
    return "".join(o.text for o in cell(nb, cell_id).outputs if o.output_type == "stream")
