# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson 14, "Who really spoke": the source of walkthrough.ipynb. Edit this file, never the .ipynb;
# then run `python -m lab.notebook.ipynb` from the project root. lab.course.anatomy says what each part
# needs; lessons/10-poisoned-transcript/walkthrough.py is the worked example.

# %% [markdown]
# # 14 · Who really spoke
#
# *TO WRITE: the part of the course · about 50 minutes · one lab · builds on 13 · The conversation that outgrew its window*
#
# TO WRITE: the hook, then a user's bad afternoon in three to five sentences. New here? Start at
# lesson 01, or carry on: every lab is self-contained.

# %% id="setup"
# Start here: find the project folder (it holds damaged.py), import `lab` from it, and choose
# which harness file the examples use.
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {here} or above it: open this notebook from "
                            "inside the project")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab

chosen = lab.pick_harness(lesson=14)
harness = chosen.module
print(chosen)

# %% [markdown]
# ## The failure
#
# TO WRITE: the failure first, shown by the cell below; then the questions, eight or more, each
# with three or more options folded like this one, and a cell after each that settles it.
#
# <details><summary><b>A</b> · TO WRITE: an option</summary>
#
# TO WRITE: why it is right, or exactly what it misses.
# </details>

# %% [markdown]
# ## Figures
#
# TO WRITE: two or more figures drawn by lab.draw from what the cells ran, each captioned
# "Figure 14.1  ..." in the cell that draws it.
#
# ## Common answers, and what each one misses
#
# TO WRITE
#
# ## Compared with a production harness
#
# TO WRITE: a real harness read at a pinned commit, its file and lines, and where ours is weaker.
#
# ## Build
#
# TO WRITE: the spec in a paragraph, the gaps by region and size, the hidden tests one line each,
# and a hint in two folds.

# %%
try:
    print("first_gap:", harness.first_gap("refused"))
except NotImplementedError:  # the starter's gap: the reader has not filled it yet
    print("first_gap is not written yet: fill its gap in harness.py first")

# %% [markdown]
# ## After the lab passes
#
# TO WRITE: a cell on the reader's own code that shows what only a correct harness shows.
#
# ## In your own words
#
# TO WRITE
#
# ## A further case
#
# TO WRITE
#
# ## Wrapping up
#
# TO WRITE: you hit, you built, the principle, your harness now, still open; next: the next lab.
