"""The walkthrough notebook as a student's copy carries it: with the finished lesson's outputs.

The notebook is made from the lesson's walkthrough.py (lab.notebook) and executed by nbclient
on a real kernel, inside a throwaway copy of the edition whose harness.py is the finished
harness, so every example prints what the lesson shows. The copy is the edition itself (its
own lab, its own damaged.py), so the only path a cell can print is the copy's, and that is
scrubbed away. A first markdown cell tells the student whose outputs they are reading.
"""

import os
import pathlib
import shutil
import tempfile

import nbformat
from traitlets.config import Config
from nbclient import NotebookClient

from .. import notebook
from ..harnesses import ENV

CELL_TIMEOUT = 120  # seconds for one cell on a busy machine; the whole notebook takes seconds
NOTE_ID = "outputs-note"
NOTE = """\
**The outputs under the cells are the finished lesson's.** They were saved when this copy was
made, by running every cell on the finished harness, so that you can read each example before
you write a line. Run the cells yourself and they run on *your* `harness.py`: while its gaps
are empty, the examples that need the repair show what your code sends, and the provider
refusing it."""


def executed(lesson, edition):
    """The lesson's walkthrough, run on the finished harness inside a copy of `edition` (a
    built student's copy), its outputs kept: a NotebookNode ready to write."""
    source = lesson.folder / notebook.SOURCE
    nb = notebook.read(source.read_text(encoding="utf-8"), str(source))
    with tempfile.TemporaryDirectory(prefix="lab-release-notebook-") as scratch:
        work = pathlib.Path(scratch, "lesson")
        shutil.copytree(edition, work, ignore=shutil.ignore_patterns(".github", "*.ipynb"))
        shutil.copyfile(lesson.finished, work / "harness.py")
        env = {k: v for k, v in os.environ.items() if k not in (ENV, "PYTHONPATH")}
        client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                                config=over_ipc(scratch), record_timing=False,
                                resources={"metadata": {"path": str(work)}})
        client.reset_execution_trackers()
        with client.setup_kernel(env=env, cwd=str(work)):
            for index, cell in enumerate(nb.cells):  # a failing cell raises CellExecutionError
                client.execute_cell(cell, index)
        _scrub(nb, [str(work.resolve()), str(work), scratch])
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(NOTE, id=NOTE_ID))
    nb.metadata.pop("widgets", None)
    return nb


def over_ipc(folder):
    """The kernel manager's settings for a kernel that talks over sockets in `folder` (IPC),
    not over TCP: no port is opened, so ipykernel has no unencrypted TCP to warn about on the
    instructor's terminal."""
    return Config({"KernelManager": {"transport": "ipc", "ip": os.path.join(folder, "kernel")}})


def _scrub(nb, paths):
    """Replace every path of the throwaway copy in the outputs by "." (the student's folder)."""
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if "text" in output:
                output.text = _without(output.text, paths)
            for kind, value in output.get("data", {}).items():
                if isinstance(value, str):
                    output.data[kind] = _without(value, paths)
            if "traceback" in output:
                output.traceback = [_without(line, paths) for line in output.traceback]


def _without(text, paths):
    for path in sorted(paths, key=len, reverse=True):
        text = text.replace(path, ".")
    return text
