"""The course's acceptance check: the seed lesson's thirteen code cells, each run on its own, in a
fresh interpreter, against the finished and starter files `lab_check --where 10` names, must print
what the seed lesson shows under them.

The cells and their printed outputs are carried as data, in tests/seed/ (cellNN.py and
cellNN.out, the seed's own code and output, unedited: they are the reference, so they are not
rewritten). This file is the runner. A cell sees `harness` (a copy of one of the two files, in a
folder of its own), the project's `lab` and `damaged`, and may `await` at its top level, as in
a notebook. The walk-away that bricks a session (cell03) shows the harness as the lesson starts,
so it runs on the starter; every other cell runs on the finished harness.
"""

import os
import shutil
import subprocess
import sys

import pytest

from conftest import LESSON_10, PROJECT

SEED = PROJECT / "tests" / "seed"
CELLS = sorted(path.stem for path in SEED.glob("cell*.py"))
ON_THE_STARTER = {"cell03"}  # the seed shows it before the fix

# Runs the file named in argv[1] as a notebook cell would: top-level await allowed.
CELL_RUNNER = """
import ast, asyncio, sys
code = compile(open(sys.argv[1], encoding="utf-8").read(), sys.argv[1], "exec",
               flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
pending = eval(code, {"__name__": "__main__"})
if asyncio.iscoroutine(pending):
    asyncio.run(pending)
"""


def lines(text):
    """The text as a reader compares it: no trailing spaces, no blank lines around it."""
    return [line.rstrip() for line in text.strip("\n").splitlines()]


@pytest.fixture(scope="module")
def homes(tmp_path_factory):
    """A folder for each harness the cells run on, holding it as harness.py."""
    found = {}
    for kind in ("finished", "starter"):
        home = tmp_path_factory.mktemp(kind)
        shutil.copyfile(LESSON_10 / f"{kind}.py", home / "harness.py")
        found[kind] = home
    return found


def test_the_seed_gives_thirteen_cells_each_with_its_output():
    assert CELLS == [f"cell{n:02d}" for n in range(1, 14)], CELLS
    assert all((SEED / f"{cell}.out").is_file() for cell in CELLS)


@pytest.mark.parametrize("cell", CELLS)
def test_the_seed_cell_prints_what_the_lesson_shows(cell, homes):
    home = homes["starter" if cell in ON_THE_STARTER else "finished"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(home), str(PROJECT)]))

    ran = subprocess.run([sys.executable, "-c", CELL_RUNNER, str(SEED / f"{cell}.py")],
                         cwd=home, env=env, capture_output=True, text=True, timeout=120)

    assert ran.returncode == 0, f"{cell} raised:\n{ran.stderr}"
    assert lines(ran.stdout) == lines((SEED / f"{cell}.out").read_text(encoding="utf-8")), (
        f"{cell} printed, on the {'starter' if cell in ON_THE_STARTER else 'finished'} harness:"
        f"\n{ran.stdout}\n--- where the lesson shows:\n{(SEED / f'{cell}.out').read_text()}")
