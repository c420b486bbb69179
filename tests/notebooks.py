"""Running a lesson's walkthrough notebook in the suite: on a real ipykernel (nbclient), cell by
cell, so that a dead kernel or a timeout fails the test that asked."""

import os

import nbformat
from nbclient import NotebookClient

from lab import notebook

CELL_TIMEOUT = 60  # seconds for one cell; a whole notebook takes a few


def run(lesson, harness_file=None, extra=()):
    """The lesson's committed notebook, executed (with LAB_HARNESS=harness_file when given)
    after appending the code cells `extra` ((id, source) pairs)."""
    nb = nbformat.reads((lesson.folder / notebook.NOTEBOOK).read_text(encoding="utf-8"),
                        as_version=4)
    nb.cells += [nbformat.v4.new_code_cell(source, id=name) for name, source in extra]
    env = dict(os.environ, **({"LAB_HARNESS": str(harness_file)} if harness_file else {}))
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(lesson.folder)}})
    client.reset_execution_trackers()
    with client.setup_kernel(env=env):
        for index, cell in enumerate(nb.cells):  # an error in a cell raises here
            client.execute_cell(cell, index)
    return nb


def cell(nb, cell_id):
    found = [c for c in nb.cells if c.get("id") == cell_id]
    assert found, f"expected a cell with id {cell_id!r} in the notebook; there is none"
    return found[0]


def printed(nb, cell_id):
    """What the cell printed (its stream outputs), as one text."""
    return "".join(o.text for o in cell(nb, cell_id).outputs if o.output_type == "stream")
