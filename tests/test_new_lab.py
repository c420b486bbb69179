"""A new lab, as its author makes it, in a scratch copy of the project: the course plans a lab
(an entry in lessons/course.toml, placed before lesson 16 and built on lesson 11, so that a later
lab is written and the moved-on step has files to prove), `lab-check --new-lab 17` makes its
folder, every place its skeleton marks TO WRITE is written (minimally: one gap, one test, a
walkthrough with the parts of a lesson), the generated files are remade by the course's own
commands, and the lab proof, `lab-check --prove 17`, passes. The copy is a git repository
committed once the entry is planned, so what the rest touched is read off `git status`: the
lab's folder and its `folder` line in lessons/course.toml, nothing else. The lab is the test's
own, so the test holds however far the real course is written.
"""

import re
import subprocess
import sys

import pytest

from course_copy import scratch_course

NEW = "17"
PLANNED = """[[lab]]
id = "17"
title = "A lab the suite made"
part = "Meeting the world"
builds_on = "11"
minutes = 30
adds = "say its words in capitals"
folder = ""
released = true

[[lab]]
id = "18"
title = "(to be written)"
part = "Meeting the world"
builds_on = "17"
minutes = 30
adds = "(not named yet)"
folder = ""
released = false

"""

# The walkthrough a minimal lab 17 might have: each part of a lesson's anatomy, briefly.
QUESTION = """
# %% [markdown]
# ### Question {n}
#
# What does the stand-in gap say for "refused"?
#
# <details><summary><b>A</b> · "REFUSED"</summary>
#
# Right: the gap says its words in capitals.
# </details>
#
# <details><summary><b>B</b> · "refused"</summary>
#
# That is the words as they came, which is what the starter's missing gap would leave.
# </details>
#
# <details><summary><b>C</b> · "Refused"</summary>
#
# Only the first letter: the gap says every letter in capitals.
# </details>

# %%
print("first_gap:", filled("refused"))
"""

WALKTHROUGH = """# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# %% [markdown]
# # 17 · A lab the suite made
#
# *Meeting the world · about 30 minutes · one lab · builds on 11 · The power cable*
#
# A provider refuses a request and the harness reads the wrong thing into it.

# %% id="setup"
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next(folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file())
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import pick_harness

chosen = pick_harness(lesson=17)
harness = chosen.module
print(chosen)


def filled(words):
    try:
        return harness.first_gap(words)
    except NotImplementedError:
        return "(fill the gap in harness.py first)"

# %%
record = [lab.user("Refuse me."), lab.say(filled("refused"))]
lab.draw(record, title="Figure 17.1  A refusal, said in capitals")

# %%
lab.draw(record, record, title="Figure 17.2  The same refusal, twice")

# %% [markdown]
# ## Common answers, and what each one misses
#
# Leaving the words as they came misses the capitals.
#
# ## Compared with a production harness
#
# No production harness says its words in capitals; this lab's gap is a stand-in.
#
# ## Build
#
# One gap, first_gap, and one test.
{questions}
# %% [markdown]
# ## In your own words
#
# Why capitals? Because the test asks for them.
#
# ## A further case
#
# Any words at all: the same rule.
#
# ## Wrapping up
#
# You built a gap that says its words in capitals. Next: lesson 16.
"""


def run(copy, *args, timeout=900):
    return subprocess.run([sys.executable, "-m", "lab.lab_check", *args], cwd=copy,
                          capture_output=True, text=True, timeout=timeout)


def git(copy, *args):
    done = subprocess.run(["git", "-c", "user.name=course", "-c", "user.email=course@localhost",
                           *args], cwd=copy, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def fill_in(folder):
    """Write every place the skeleton marks TO WRITE, as an author would, minimally."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".toml") and \
                path.name not in ("finished.py", "starter.py"):
            text = path.read_text(encoding="utf-8")
            path.write_text(re.sub(r"TO WRITE: ?", "", text), encoding="utf-8")
    questions = "".join(QUESTION.format(n=n) for n in range(1, 9))
    (folder / "walkthrough.py").write_text(WALKTHROUGH.format(questions=questions),
                                           encoding="utf-8")


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    folder = scratch_course(tmp_path_factory.mktemp("new-lab"))
    (folder / ".gitignore").write_text("__pycache__/\n.hypothesis/\n")
    plan = folder / "lessons" / "course.toml"
    text = plan.read_text(encoding="utf-8")
    before_16 = text.index("[[lab]]\nid = \"16\"")
    plan.write_text(text[:before_16] + PLANNED + text[before_16:], encoding="utf-8")
    git(folder, "init", "-q")
    git(folder, "add", "-A")
    git(folder, "commit", "-q", "-m", "the course, planning lab 17")
    return folder


def test_a_new_lab_filled_in_passes_the_lab_proof_touching_only_its_folder_and_the_course(copy):
    made = run(copy, "--new-lab", NEW)
    assert made.returncode == 0, made.stdout + made.stderr
    assert made.stdout.startswith("made lessons/17-a-lab-the-suite-made/"), made.stdout
    folder = copy / "lessons" / "17-a-lab-the-suite-made"
    unfinished = subprocess.run([sys.executable, "-c", "from lab.course import anatomy, order; "
                                 f"print(anatomy.problems(order.find({NEW})))"], cwd=copy,
                                capture_output=True, text=True, timeout=60)
    assert "still marked TO WRITE" in unfinished.stdout, (
        f"expected the skeleton itself short of a lesson, on its placeholders:\n{unfinished}")

    fill_in(folder)
    for remake in ("lab.course.starter", "lab.notebook.ipynb"):
        done = subprocess.run([sys.executable, "-m", remake], cwd=copy, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
    proved = run(copy, "--prove", NEW)

    assert proved.returncode == 0, proved.stdout + proved.stderr
    assert "1 of 1 lab proved." in proved.stdout, proved.stdout
    assert re.search(r"ok +moved on +2 later files, 2 routes each: 1 harness chosen",
                     proved.stdout), proved.stdout
    touched = sorted(line[3:] for line in git(copy, "status", "--porcelain",
                                              "--untracked-files=all").splitlines())
    outside = [path for path in touched if not path.startswith("lessons/17-a-lab-the-suite-made/")
               and path != "lessons/course.toml"]
    assert outside == [], f"expected only the lab's folder and course.toml touched; also {outside}"
    changed = [line for line in git(copy, "diff", "-U0", "lessons/course.toml").splitlines()
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert changed == ['-folder = ""', '+folder = "17-a-lab-the-suite-made"'], changed


def test_a_lab_that_has_a_folder_is_not_made_again(copy):
    again = run(copy, "--new-lab", "11")

    assert again.returncode == 2, again.stdout + again.stderr
    assert "has a folder already (11-power-cable" in again.stderr, again.stderr


def test_a_lab_with_no_title_yet_is_not_made(copy):
    untitled = run(copy, "--new-lab", "18")

    assert untitled.returncode == 2, untitled.stdout + untitled.stderr
    assert "has no title yet" in untitled.stderr, untitled.stderr
