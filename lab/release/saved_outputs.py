"""The walkthrough notebook as a student's copy carries it: with the finished lesson's outputs.

The notebook is made from the lesson's walkthrough.py (lab.notebook.ipynb) and executed by nbclient
on a real kernel, inside a throwaway copy of the edition whose harness.py is the finished
harness, so every example prints what the lesson shows. The copy is the edition itself (its
own lab, its own damaged.py), so the only path a cell can print is the copy's, and that is
scrubbed away. A first markdown cell tells the student whose outputs they are reading.

A checkpoint whose examples examine grader-only harnesses (lab.notebook.casebook) is run twice: first in
the course's own project, where those harnesses are, to record the sessions its examples make
(`record_sessions`); then inside the copy as it is, where the cells replay them. The second
run is the proof that the copy's notebook runs without the grader's files.
"""

import os
import pathlib
import re
import shutil
import tempfile

import nbformat
from traitlets.config import Config
from nbclient import NotebookClient

from lab.notebook import casebook, ipynb as notebook
from lab.notebook.harnesses import ENV

# A walkthrough ends each graded test's one-line description with `<!-- test: NAME -->`, so the
# suite can check that every test is described. A notebook hides the comment but its file holds
# it, and a hidden test's name is the grader's: a student's copy keeps the line, not the name.
TEST_MARK = re.compile(r"\n?[ \t]*<!--\s*test:\s*\w+\s*-->")
CELL_TIMEOUT = 120  # seconds for one cell on a busy machine; the whole notebook takes seconds
NOTE_ID = "outputs-note"
NOTE = """\
**The outputs under the cells are the finished lesson's.** They were saved when this copy was
made, by running every cell on the finished harness, so that you can read each example before
you write a line. Run the cells yourself and they run on *your* `harness.py`: while its gaps
are empty, the examples show what your code does, which is the failure the lesson is about."""
SAVED_NOTE = """\
**The outputs under the cells were saved when this copy was made**, with `{student}` as you
were given it. The harnesses the examples examine, {example} and lesson {base}'s finished one, are the
grader's: their sessions ran there, and this copy holds what they did (`sessions.json`). Run
the cells yourself and every verdict and figure is worked out again on your machine, from those
sessions; the last cell reads your own `{student}`. Your cases run on the five harnesses when
`{student}` is graded."""


def executed(lesson, edition, with_finished=True):
    """The lesson's walkthrough, run inside a copy of `edition` (a built student's copy) on
    the finished harness (`with_finished=False`: on the copy as it is, for a checkpoint whose
    examples replay saved sessions), its outputs kept: a NotebookNode ready to write."""
    source = lesson.folder / notebook.SOURCE
    nb = notebook.read(source.read_text(encoding="utf-8"), str(source))
    with tempfile.TemporaryDirectory(prefix="lab-release-notebook-") as scratch:
        work = pathlib.Path(scratch, "lesson")
        shutil.copytree(edition, work, ignore=shutil.ignore_patterns(".github", "*.ipynb"))
        if with_finished:
            shutil.copyfile(lesson.finished, work / "harness.py")
        _run(nb, work, {k: v for k, v in os.environ.items() if k not in (ENV, "PYTHONPATH")},
             scratch)
        _scrub(nb, [str(work.resolve()), str(work), scratch])
    _unmark(nb)
    note = NOTE if with_finished else saved_note(lesson)
    nb.cells.insert(0, nbformat.v4.new_markdown_cell(note, id=NOTE_ID))
    nb.metadata.pop("widgets", None)
    return nb


def saved_note(lesson):
    """SAVED_NOTE for checkpoint `lesson`: its student's file, its example, its base lab."""
    from lab.course import order as course

    book = casebook.of(lesson.number)
    return SAVED_NOTE.format(student=book.student_file, example=book.example,
                             base=course.find(book.base).label)


def record_sessions(lesson, path):
    """Run the lesson's walkthrough where the grader's files are (the lesson's own folder in
    the course's project), and write every session its examples ask lab.notebook.casebook for into
    `path`: what a student's copy replays. Its outputs are thrown away."""
    source = lesson.folder / notebook.SOURCE
    nb = notebook.read(source.read_text(encoding="utf-8"), str(source))
    path = pathlib.Path(path).resolve()
    path.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in (ENV, "PYTHONPATH")}
    env.update({casebook.RECORD: str(path), ENV: str(lesson.starter)})  # never an answer's cases
    with tempfile.TemporaryDirectory(prefix="lab-release-sessions-") as sockets:
        _run(nb, lesson.folder, env, sockets)
    return path


def _run(nb, folder, env, sockets):
    """Every cell of `nb` run in `folder` on a python3 kernel whose sockets are in `sockets`."""
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3",
                            config=over_ipc(sockets), record_timing=False,
                            resources={"metadata": {"path": str(folder)}})
    client.reset_execution_trackers()
    with client.setup_kernel(env=env, cwd=str(folder)):
        for index, cell in enumerate(nb.cells):  # a failing cell raises CellExecutionError
            client.execute_cell(cell, index)


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


def _unmark(nb):
    """Take every graded test's name mark out of the markdown cells (see TEST_MARK)."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = TEST_MARK.sub("", cell.source)


def _without(text, paths):
    for path in sorted(paths, key=len, reverse=True):
        text = text.replace(path, ".")
    return text
