"""Make a lesson's Jupyter notebook from a source you can read and diff: walkthrough.py.

The source is in Jupytext's "percent" format, read by Jupytext itself: a YAML header of the
notebook's metadata (between `# ---` lines), then cells, each starting with `# %%` (code) or
`# %% [markdown]` (markdown, every line a comment). A cell marker may carry `id="NAME"`, which
becomes the cell's id; other cells are numbered (cell-01, ...), so that the notebook made is
the same every time. Comments between the header and the first cell are a preamble for the
reader of the source and go nowhere.

The notebook is written with its outputs stripped, as nbformat writes it, so
`python -m lab.notebook` rewrites every lesson's walkthrough.ipynb and
`python -m lab.notebook --check` tells whether each is what its source makes.
"""

import argparse
import re
import sys

import jupytext
import nbformat

from lab.course import lesson_files as lessons

SOURCE, NOTEBOOK = "walkthrough.py", "walkthrough.ipynb"
MARKER = re.compile(r'^# %%(?P<markdown> \[markdown\])?(?: id="(?P<id>[A-Za-z0-9_-]+)")?\s*$')


class SourceError(ValueError):
    """walkthrough.py is not in the form this module reads; the message says where."""


def check(source, name=SOURCE):
    """Refuse, naming the line, what Jupytext would read silently but wrongly: a marker it
    does not know, or a markdown line that is not a comment (it would be shown as text)."""
    kind = None
    for number, line in enumerate(source.splitlines(), 1):
        marker = MARKER.match(line)
        if marker:
            kind = "markdown" if marker["markdown"] else "code"
        elif line.startswith("# %%"):
            raise SourceError(f"{name}, line {number}: a cell marker is `# %%` or "
                              f'`# %% [markdown]`, optionally followed by ` id="NAME"`; '
                              f"got {line!r}")
        elif kind == "markdown" and line and line != "#" and not line.startswith("# "):
            raise SourceError(f"{name}, line {number}: every line of a markdown cell starts "
                              f"with '# ' (or is a lone '#', or empty); got {line!r}")


def read(source, name=SOURCE):
    """The notebook a percent-format source makes (a NotebookNode, outputs empty)."""
    check(source, name)
    nb = jupytext.reads(source, fmt="py:percent")
    if not MARKER.match(next((l for l in source.splitlines()[_after_header(source):]
                              if l.strip()), "# %%")):
        nb.cells = nb.cells[1:]  # the preamble, which Jupytext keeps as a code cell
    for n, cell in enumerate(nb.cells, 1):
        cell.id = cell.metadata.get("id", f"cell-{n:02d}")
        cell.metadata = {}
    nb.metadata.pop("jupytext", None)
    seen = set()
    for cell in nb.cells:
        if cell.id in seen:
            raise SourceError(f"{name}: the cell id {cell.id!r} is used twice")
        seen.add(cell.id)
    return nb


def build(source, name=SOURCE):
    """The notebook a source makes, as the text to write: outputs stripped."""
    return nbformat.writes(read(source, name)) + "\n"


def _after_header(source):
    """The index of the first line after the YAML header (0 when there is none)."""
    lines = source.splitlines()
    if not lines or lines[0] != "# ---":
        return 0
    return next((i + 1 for i, line in enumerate(lines[1:], 1) if line == "# ---"), 0)


def targets():
    """(source path, notebook path) for every lesson that has a walkthrough.py."""
    return [(l.folder / SOURCE, l.folder / NOTEBOOK) for l in lessons.available().values()
            if (l.folder / SOURCE).is_file()]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m lab.notebook",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    args = parser.parse_args(argv)
    stale = []
    for source, notebook in targets():
        text = build(source.read_text(encoding="utf-8"), str(source))
        if notebook.exists() and notebook.read_text(encoding="utf-8") == text:
            continue
        stale.append(notebook)
        if not args.check:
            notebook.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path.relative_to(lessons.PROJECT)}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
