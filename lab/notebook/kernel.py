"""Run a lesson's walkthrough notebook on a real Jupyter kernel (nbclient and ipykernel), cell by
cell, as a reader who runs it from the top does.

    execute(folder, harness_file=None, extra=())   the executed notebook (a NotebookNode)
    errors(nb)                                      (cell id, exception, message) of each error

The notebook is the committed walkthrough.ipynb of `folder`, run with the folder as its working
directory and, when `harness_file` is given, LAB_HARNESS naming it (lab.notebook.harnesses: the file the
examples run on, unless it has moved past the lesson). `extra` cells, (id, source) pairs, are
appended first. A cell that raises stops the run there, with nbclient's CellExecutionError,
which carries the cell's traceback; a cell that takes longer than CELL_TIMEOUT stops it too.
The lab proof (lab.cli.prove) and the project's suite (tests/notebooks.py) both run notebooks here.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterable

import nbformat
from nbclient import NotebookClient

from lab.notebook.harnesses import ENV

NOTEBOOK = "walkthrough.ipynb"
CELL_TIMEOUT = 60  # seconds for one cell; a whole notebook takes a few


def execute(folder: pathlib.Path, harness_file: pathlib.Path | None = None,
            extra: Iterable[tuple[str, str]] = (), *,
            source: str | None = None) -> nbformat.NotebookNode:
    """`folder`'s notebook (or the notebook text `source`), executed on a fresh python3 kernel."""
    text = source if source is not None else \
        (pathlib.Path(folder) / NOTEBOOK).read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    nb.cells += [nbformat.v4.new_code_cell(code, id=name) for name, code in extra]
    env = dict(os.environ, **({ENV: str(harness_file)} if harness_file else {}))
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(folder)}})
    client.reset_execution_trackers()
    with client.setup_kernel(env=env):
        for index, cell in enumerate(nb.cells):  # an error in a cell raises here
            client.execute_cell(cell, index)
    return nb


def errors(nb: nbformat.NotebookNode) -> list[tuple[str, str, str]]:
    """Every error output of the executed notebook: (cell id, exception name, its message)."""
    return [(c.get("id", ""), o.ename, o.evalue) for c in nb.cells
            for o in c.get("outputs", []) if o.output_type == "error"]
