"""Start a lab the course plans: its folder, made from its entry in lessons/course.toml.

    lab-check --new-lab 12

reads lab 12's entry (title, what it builds on), makes lessons/12-the-wrong-refusal/ and
writes `folder = "12-the-wrong-refusal"` into that entry. Nothing outside the folder and
course.toml is touched. The folder holds a lab that already works end to end, on a stand-in
gap, so that its author starts from a lab whose machinery is green and whose text is not:

    changes.py        what the lab adds to its parent's finished harness (lab.course.compose): one
                      region with one gap, `first_gap`, a stand-in to replace
    finished.py       composed from the chain of changes.py; starter.py made from it
    manifest.toml     the one graded test, its points and gap
    tests.py          that test, importing only lab.testkit
    hints.toml        where the notebook teaches it, and its hints
    ready.py          what the notebook needs of a harness (lab.course.readiness)
    walkthrough.py    every part of a lesson's anatomy (lab.course.anatomy), each to write, and the
                      setup cell that picks the harness; walkthrough.ipynb made from it
    wrong/, right/    one wrong answer the test catches, one other right answer

Every place the author must write is marked TO WRITE, and the lab proof (`lab-check --prove
12`, lab.cli.prove) refuses a lab while one is left. A checkpoint is not made this way: its files
(the nearly-right harnesses, ideas.toml) have a shape of their own; copy checkpoint B's.
"""

from __future__ import annotations

import pathlib
import re
import sys

from lab.course import order as course, lesson_files as lessons
from lab.course.anatomy import PLACEHOLDER

COURSE_FILE = pathlib.Path("lessons") / course.COURSE


class CannotStart(ValueError):
    """The lab cannot be started: not in the course, written already, a checkpoint, a parent
    not written. The message says which, and what to do."""


def make(name: object) -> pathlib.Path:
    """Make lab `name`'s folder under the project's lessons/ and name it in course.toml; its
    path. The project is the one this lab/ sits in (lab.course.lesson_files.PROJECT)."""
    project = lessons.PROJECT
    try:
        lab = course.find(name, project)
    except (LookupError, ValueError) as error:
        raise CannotStart(str(error)) from None
    if lab.is_checkpoint:
        raise CannotStart(f"checkpoint {lab.label} is not made from a skeleton: its files have a "
                          "shape of their own (see lessons/B-transcript-doctor-ii/)")
    if lab.folder is not None:
        raise CannotStart(f"lab {lab.label} has a folder already ({lab.folder.name}, in "
                          f"{COURSE_FILE}): work in it, or empty its `folder` to start again")
    if lab.title.startswith("("):
        raise CannotStart(f"lab {lab.label} has no title yet ({lab.title!r}): give it one in "
                          f"{COURSE_FILE} first; its folder is named after it")
    parent = course.find(lab.builds_on, project) if lab.builds_on is not None else None
    if parent is not None and (parent.folder is None or parent.changes is None):
        raise CannotStart(f"lab {lab.label} builds on lab {parent.label}, which has no harness "
                          "yet: write that lab first")
    folder = project / "lessons" / f"{lab.label}-{slug(lab.title)}"
    if folder.exists():
        raise CannotStart(f"{folder} exists already: move it away, or name it in {COURSE_FILE}")
    facts = {"id": lab.id, "label": lab.label, "title": lab.title,
             "parent": f"{parent.label} · {parent.title}" if parent else "nothing",
             "parent_label": parent.label if parent else "", "minutes": lab.minutes,
             "region": f"lesson {lab.label}", "todo": PLACEHOLDER}
    folder.mkdir()
    for relative, template in SKELETON.items():
        path = folder / relative
        path.parent.mkdir(exist_ok=True)
        path.write_text(template.format(**facts), encoding="utf-8")
    name_folder(project / COURSE_FILE, lab.label, folder.name)
    compose_files(course.find(lab.id, project))
    return folder


def slug(title: str) -> str:
    """A title as a folder name: "The wrong refusal" -> "the-wrong-refusal"."""
    return "-".join(re.findall(r"[a-z0-9]+", title.lower()))


def name_folder(course_file: pathlib.Path, label: str, folder: str) -> None:
    """Write `folder = "<folder>"` into lab `label`'s entry of course.toml, leaving every other
    line as it was (its comments included)."""
    text = course_file.read_text(encoding="utf-8")
    entries = re.split(r"(?m)^(?=\[\[lab\]\])", text)
    for at, entry in enumerate(entries):
        if re.search(rf'(?m)^id = "{re.escape(label)}"\s*$', entry):
            written, count = re.subn(r'(?m)^folder = ""\s*$', f'folder = "{folder}"', entry)
            if count != 1:
                raise CannotStart(f"lab {label}'s entry in {course_file} has no `folder = \"\"` "
                                  "line to fill in")
            entries[at] = written
            course_file.write_text("".join(entries), encoding="utf-8")
            return
    raise CannotStart(f"{course_file} has no entry with id = \"{label}\"")


def compose_files(lab: course.Lab) -> None:
    """The lab's generated files, from its sources: finished.py (the chain of changes.py),
    starter.py (from finished.py) and walkthrough.ipynb (from walkthrough.py)."""
    from lab.notebook import ipynb as notebook
    from lab.course import starter
    from lab.course import gap_markers

    assert lab.folder is not None
    finished = starter.finished_text(lab)
    (lab.folder / "finished.py").write_text(finished, encoding="utf-8")
    (lab.folder / "starter.py").write_text(gap_markers.make_starter(finished), encoding="utf-8")
    source = lab.folder / notebook.SOURCE
    (lab.folder / notebook.NOTEBOOK).write_text(
        notebook.build(source.read_text(encoding="utf-8"), str(source)), encoding="utf-8")


def main(name: str) -> int:
    """--new-lab N: 0 when the folder is made (its path and the next steps printed), 2 when it
    cannot be."""
    try:
        folder = make(name)
    except CannotStart as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    label = course.label(course.parse_id(name))
    shown = folder.relative_to(lessons.PROJECT)
    print(f"made {shown}/ and named it in {COURSE_FILE}.\n"
          f"next: write every {PLACEHOLDER} in it (grep -rn '{PLACEHOLDER}' {shown}), then\n"
          f"  python -m lab.course.starter            (after editing changes.py)\n"
          f"  python -m lab.notebook.ipynb           (after editing walkthrough.py)\n"
          f"  lab-check --prove {label}              (the lab proof: see docs/new-lab.md)")
    return 0


# -- the skeleton ------------------------------------------------------------------------------
# Each file is a template for str.format: {label}, {title}, {parent}, {todo} and the rest are
# the lab's facts; literal braces are doubled.

CHANGES = '''"""A small agent harness: lesson {label}, "{title}".

{todo}: what the harness is now, read top to bottom, and what is new since lesson {parent_label}.
"""


# == {region} ==
# {todo}: one line on what this region holds; the composed harness prints it under the header.

# --- your code ---
def first_gap(words):
    """{todo}: this lesson's first gap. The skeleton's stand-in returns its words in capitals."""
    return words.upper()
# --- starter ---
#| def first_gap(words):
#|     """{todo}: this lesson's first gap. The skeleton's stand-in returns its words in capitals."""
#|     raise NotImplementedError("fill this gap")
# --- end ---
'''

MANIFEST = '''# Lesson {label}, "{title}": how its graded tests count.
# Each test: its points, whether a student sees it ("visible" or "hidden"), and the gap it grades.
# lab-check --verify {label} proves the starter fails every test of a gap and passes the rest.

lesson = {id!r}
title = "{title}"

# The gaps, in the order to fill them: the report sends the student to the first one with a
# failing test.
[gaps.first]
names = ["first_gap"]
where = "{todo}: where the gap is (the region, marked # --- your code ---)"

[requires]
# Names the lesson gives you. Without them nothing can be graded.
names = ["SYSTEM"]

[tests]
test_the_first_gap_says_its_words_in_capitals = {{ points = 1, gap = "first", visibility = "visible" }}
'''

TESTS = '''"""The graded tests of lesson {label}, "{title}".

Run them with lab_check: each test asks your harness.py, in a process of its own, and judges
the plain data that comes back.

    python lab/lab_check.py --harness harness.py --lesson {label}

{todo}: what the tests try, card by card, in a paragraph.
"""

from lab.testkit import expect

CAPITALS = "{todo}: the rule this test holds a harness to, as the student reads it when it fails."


def test_the_first_gap_says_its_words_in_capitals(student):
    got = student.value("first_gap", "refused").value

    expect(got == "REFUSED", CAPITALS, expected=repr("REFUSED"), got=repr(got))
'''

HINTS = '''# Lesson {label}, "{title}": where the notebook teaches each gap and each graded test, and up
# to three hints a test, each a step closer, for `lab-check --hint [TEST]`. A section is a
# heading of walkthrough.py, word for word; a hint is words, never a line of the answer.

[passed]
next = """Every test passes. Re-run the walkthrough's first cell: its examples now run on your \\
harness. {todo}: what to read or run next."""

[gaps.first]
section = "Build"

[tests.test_the_first_gap_says_its_words_in_capitals]
section = "Build"
hints = [
  "{todo}: a question that points at the rule.",
  "{todo}: the outline of the answer, in words.",
]
'''

READY = '''"""What lesson {label}'s notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

DOES = "{todo}: what a ready harness does, e.g. says its words in capitals"
DOES_NOT = "{todo}: the same, denied"
NEEDED = "{todo}: what the examples need, as a noun"


def problem(harness):
    """"" when `harness` does lesson {label}'s job, else what it lacks, in a few words."""
    if not hasattr(harness, "first_gap"):
        return "it has no first_gap"
    try:
        said = harness.first_gap("refused")
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"its first_gap raised {{type(error).__name__}}: {{error}}"
    return "" if said == "REFUSED" else f"its first_gap gives {{said!r}} for 'refused'"
'''

WALKTHROUGH = '''# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson {label}, "{title}": the source of walkthrough.ipynb. Edit this file, never the .ipynb;
# then run `python -m lab.notebook.ipynb` from the project root. lab.course.anatomy says what each part
# needs; lessons/10-poisoned-transcript/walkthrough.py is the worked example.

# %% [markdown]
# # {label} · {title}
#
# *{todo}: the part of the course · about {minutes} minutes · one lab · builds on {parent}*
#
# {todo}: the hook, then a user's bad afternoon in three to five sentences. New here? Start at
# lesson 01, or carry on: every lab is self-contained.

# %% id="setup"
# Start here: find the project folder (it holds damaged.py), import `lab` from it, and choose
# which harness file the examples use.
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {{here}} or above it: open this notebook from "
                            "inside the project")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import pick_harness

chosen = pick_harness(lesson={id!r})
harness = chosen.module
print(chosen)

# %% [markdown]
# ## The failure
#
# {todo}: the failure first, shown by the cell below; then the questions, eight or more, each
# with three or more options folded like this one, and a cell after each that settles it.
#
# <details><summary><b>A</b> · {todo}: an option</summary>
#
# {todo}: why it is right, or exactly what it misses.
# </details>

# %% [markdown]
# ## Figures
#
# {todo}: two or more figures drawn by lab.draw from what the cells ran, each captioned
# "Figure {id}.1  ..." in the cell that draws it.
#
# ## Common answers, and what each one misses
#
# {todo}
#
# ## Compared with a production harness
#
# {todo}: a real harness read at a pinned commit, its file and lines, and where ours is weaker.
#
# ## Build
#
# {todo}: the spec in a paragraph, the gaps by region and size, the hidden tests one line each,
# and a hint in two folds.

# %%
try:
    print("first_gap:", harness.first_gap("refused"))
except NotImplementedError:  # the starter's gap: the reader has not filled it yet
    print("first_gap is not written yet: fill its gap in harness.py first")

# %% [markdown]
# ## After the lab passes
#
# {todo}: a cell on the reader's own code that shows what only a correct harness shows.
#
# ## In your own words
#
# {todo}
#
# ## A further case
#
# {todo}
#
# ## Wrapping up
#
# {todo}: you hit, you built, the principle, your harness now, still open; next: the next lab.
'''

WRONG = '''"""Wrong: the words come back as they were given, not in capitals.
Fails: test_the_first_gap_says_its_words_in_capitals
"""


def first_gap(words):
    return words
'''

RIGHT = '''"""Right: capitals made a character at a time, which reads the same words."""


def first_gap(words):
    return "".join(character.upper() for character in words)
'''

SKELETON = {"changes.py": CHANGES, "manifest.toml": MANIFEST, "tests.py": TESTS,
            "hints.toml": HINTS, "ready.py": READY, "walkthrough.py": WALKTHROUGH,
            "wrong/words_as_given.py": WRONG, "right/a_character_at_a_time.py": RIGHT}
