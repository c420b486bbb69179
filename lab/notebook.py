"""Make a lesson's Jupyter notebook from a source you can read and diff: walkthrough.py.

The source is in the "percent" format that Jupytext and VS Code read. A line `# %%` starts a
code cell and `# %% [markdown]` a markdown cell; either may end in `id=NAME`, which becomes
the cell's id (otherwise cells are numbered). A markdown cell's lines are comments: "# "
(or a lone "#") is taken off each, and an empty line stays empty. Anything before the first marker is a preamble for the
reader of the source and goes nowhere. Blank lines at the ends of a cell are dropped.

The notebook is written with its outputs stripped, as plain nbformat 4.5 JSON, the way
nbformat itself writes it, so `python -m lab.notebook` needs nothing but Python and
`python -m lab.notebook --check` tells whether every committed walkthrough.ipynb is what its
source makes.
"""

import argparse
import json
import re
import sys

from . import lessons

SOURCE, NOTEBOOK = "walkthrough.py", "walkthrough.ipynb"
MARKER = re.compile(r"^# %%(?P<markdown> \[markdown\])?(?: id=(?P<id>[A-Za-z0-9_-]+))?\s*$")
METADATA = {
    "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python",
                   "name": "python3"},
    "language_info": {"name": "python"},
}


class SourceError(ValueError):
    """walkthrough.py is not in the form this module reads; the message says where."""


def parse(source, name=SOURCE):
    """The cells of a percent-format source, as (kind, id, text) with kind "code" or
    "markdown", in order."""
    cells, current = [], None
    for number, line in enumerate(source.splitlines(), 1):
        marker = MARKER.match(line)
        if marker:
            current = ["markdown" if marker["markdown"] else "code", marker["id"], [], number]
            cells.append(current)
        elif line.startswith("# %%"):
            raise SourceError(f"{name}, line {number}: a cell marker is `# %%` or "
                              f"`# %% [markdown]`, optionally followed by ` id=NAME`; got {line!r}")
        elif current is None:
            continue  # the preamble
        elif current[0] == "markdown":
            if line and line != "#" and not line.startswith("# "):
                raise SourceError(f"{name}, line {number}: every line of a markdown cell starts "
                                  f"with '# ' (or is a lone '#', or empty); got {line!r}")
            current[2].append(line[2:])
        else:
            current[2].append(line)
    made, seen = [], set()
    for n, (kind, cell_id, lines, number) in enumerate(cells, 1):
        cell_id = cell_id or f"cell-{n:02d}"
        if cell_id in seen:
            raise SourceError(f"{name}, line {number}: the cell id {cell_id!r} is used twice")
        seen.add(cell_id)
        made.append((kind, cell_id, "\n".join(lines).strip("\n")))
    return made


def build(source, name=SOURCE):
    """The notebook a source makes, as the JSON text to write: outputs stripped."""
    cells = []
    for kind, cell_id, text in parse(source, name):
        cell = {"cell_type": kind, "id": cell_id, "metadata": {},
                "source": text.splitlines(keepends=True)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    notebook = {"cells": cells, "metadata": METADATA, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(notebook, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


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
