"""The words a student's edition opens with: its README.md and its pyproject.toml.

The README gives the two commands a student needs (install, then check), says how to read the
report lab_check prints, and how to open the walkthrough notebook. Its install and check
commands are in fenced `sh` blocks under "## 1. Install" and "## 2. Check": the suite runs
them from there, word for word, so the README cannot drift from what works.
"""

from dataclasses import dataclass

from lab.course import lesson_files as lessons, tomlread
from lab.kit.counting import counted

# What the hidden tests grade, by how many gaps the lesson has ("the same code" when none).
IN_WORDS = ("code", "gap", "two gaps", "three gaps", "four gaps", "five gaps", "six gaps",
            "seven gaps", "eight gaps", "nine gaps")


@dataclass(frozen=True)
class Facts:
    """What the edition's words say about its lesson, worked out once by edition.build."""
    lesson: int
    title: str
    visible: int
    visible_points: float
    hidden: int
    hidden_points: float
    has_notebook: bool
    python: str
    student_file: str = "harness.py"  # the file the student fills in (doctor.py for B)
    graded_here: bool = True          # False when the tests need files the grader keeps
    gaps: tuple[str, ...] = ()  # the names of the lesson's gaps, from its manifest

    @property
    def the_gaps(self):
        """"the same gap", "the same five gaps": what the hidden tests grade, counted."""
        count = len(self.gaps)
        return f"the same {IN_WORDS[count] if count < len(IN_WORDS) else counted(count, 'gap')}"

    @property
    def check(self):
        return (f"python lab/lab_check.py --harness {self.student_file} --lesson {self.lesson} "
                "tests.py")


INSTALL = "python -m pip install -e ."
# With a notebook, the kernel too (an extra: the Classroom workflow's grading install leaves it out)
INSTALL_WITH_NOTEBOOK = 'python -m pip install -e ".[notebook]"'


def student_readme(facts):
    # Hidden tests run only where a course grades submissions itself: a Classroom workflow,
    # which runs in the student's repository, grades the visible tests alone.
    tests, points = counted(facts.visible, "test"), counted(facts.visible_points, "point")
    later = ("Where your course grades what you hand in (on Gradescope, or on your teacher's "
             f"machine), {counted(facts.hidden, 'more test')} "
             f"({counted(facts.hidden_points, 'point')}) grade "
             f"{facts.the_gaps} on records you have not seen: make your code follow the rules, "
             "not the examples. GitHub Classroom's check of your repository runs only the tests "
             "here." if facts.hidden else "Every graded test is here.")
    notebook = """
## The walkthrough

`walkthrough.ipynb` is the lesson. Open it in Jupyter:

```sh
python -m pip install jupyterlab
jupyter lab walkthrough.ipynb
```

or in VS Code (open the folder, then the notebook, and pick the Python of the environment
you installed into as its kernel). The outputs you see before running anything are the
finished lesson's. Run the cells from the top: they run on your `harness.py`, and until its
gaps are filled, an example that needs one shows the provider refusing what your code sends,
or says in one line which gap to fill first. Fill the gaps, run the first cell again, and
they answer.
""" if facts.has_notebook else ""
    return f"""# Lesson {facts.lesson}: {facts.title}

Your copy of the lesson's lab. You work in one file, `harness.py`: fill its gaps (each is
marked `# --- your code ---` ... `# --- end ---`), and check your work with `lab_check`.

## 1. Install

You need Python {facts.python.removeprefix('>=')} or newer. In this folder, best inside a
virtual environment of its own (`python -m venv .venv`, then activate it):

```sh
{INSTALL_WITH_NOTEBOOK if facts.has_notebook else INSTALL}
```

## 2. Check

```sh
{facts.check}
```

(`lab-check` does the same, from anywhere in the folder.) It grades your `harness.py` against
the {tests} in `tests.py`, worth {points}. {later}
Your file runs in a process of its own, from a copy: nothing in this folder is written but
lab-check's own record of your scores, in `.lab-check/`, which `lab-check --course` reads to
show the whole course and where you stand in it.

## Reading the report

The report lists every test by its name, which says in words what it checks, marked passed
(✓) or failed (✗). Under each failure: the rule it holds your code to (and where the lesson
teaches it), the record it handed your code, often as a shape such as `U A[c1,c2] R(c1) U`
(user, assistant with calls c1 and c2, c1's result, user), what was expected, and what came
back. At the end, your score. When nothing could be graded (the file does not
import, a name the lesson gives you is missing), the report says that instead, and what to
fix. The exit status is 0 when every test passed, 1 when some failed, 2 when nothing could be
graded. Run just one test with `-k`, e.g. `{facts.check} -k orphan`.
{notebook}
## What is here

| | |
|---|---|
| `harness.py` | your harness: the only file you edit |
| `starter.py` | the same file as you were given it |
| `tests.py`, `manifest.toml`, `scenarios.py` | the graded tests, their points, the sessions they run |
| `ready.py` | what the notebook checks your `harness.py` does before it runs the examples on it |
| `damaged.py` | the damaged records the lesson works on |
| `lab/` | the lab: message builders, the scripted model, the validator, `lab_check` |
"""


def pyproject(facts, packages, *, with_readme=True):
    """The pyproject.toml of a copy of the lab made for lesson `facts.lesson` (an edition, or
    Gradescope's autograder): the lab's `packages`, installed from that folder, with what it
    needs to grade, and as the extra `notebook` what the notebook needs (a kernel)."""
    project = tomlread.loads((lessons.PROJECT / "pyproject.toml").read_text())["project"]
    needs = project.get("dependencies", [])
    quoted = ", ".join(f'"{p}"' for p in packages)
    wanted = ", ".join(f'"{d}"' for d in needs)
    return f"""[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "harness-lab-{facts.lesson}"
version = "{project.get('version', '0')}"
description = "Lesson {facts.lesson} of the harness course: {facts.title}"
{'readme = "README.md"' if with_readme else "# (no README in this copy)"}
requires-python = "{facts.python}"
dependencies = [{wanted}]

[project.optional-dependencies]
# the notebook's kernel: installed with .[notebook] (the README's install), never to grade
notebook = ["ipykernel>=6.29"]

[project.scripts]
lab-check = "lab.lab_check:main"

[tool.setuptools]
packages = [{quoted}]

[tool.pytest.ini_options]
addopts = "-p no:cacheprovider"
"""


def graded_on_submission(facts):
    """The README of an edition that cannot grade itself: a checkpoint whose tests run the
    student's file against harnesses only the grader holds (see edition.grader_only)."""
    tests = counted(facts.visible + facts.hidden, "test")
    points = counted(facts.visible_points + facts.hidden_points, "point")
    notebook = """
## The walkthrough

`walkthrough.ipynb` is the lesson. Open it in Jupyter (`python -m pip install jupyterlab`, then
`jupyter lab walkthrough.ipynb`) or in VS Code, and run the cells from the top. The harnesses
its examples examine are the grader's, so this copy holds their sessions instead
(`sessions.json`, saved when the copy was made): every verdict and figure is worked out again
on your machine from what those harnesses did. Its last cell reads your own file back.
""" if facts.has_notebook else ""
    return f"""# Checkpoint {facts.lesson}: {facts.title}

Your copy of the checkpoint. You work in one file, `{facts.student_file}`: fill its gaps (each is
marked `# --- your code ---` ... `# --- end ---`). Your file is asked for plain data only: the
diagnoses, and the case each function returns.

## 1. Install

You need Python {facts.python.removeprefix('>=')} or newer. In this folder, best inside a
virtual environment of its own (`python -m venv .venv`, then activate it):

```sh
{INSTALL_WITH_NOTEBOOK if facts.has_notebook else INSTALL}
```

## 2. Graded on submission

The {tests} in `tests.py` ({points}) run your cases on harnesses this copy does not
hold, and must not: each is a lab's finished harness with one idea taken out, and would hand you
that lab's answer. So `{facts.student_file}` is graded where they are, when you hand it in: your
course's grader runs `lab-check --harness {facts.student_file} --lesson {facts.lesson}` on it there,
and the report it prints is the one described below. Here, `lab-check` checks that your file
can be graded at all, and says that nothing was graded.

## Reading the report

For each harness, two tests: your case, run on that harness and on the correct one, and your
diagnosis. A case that shows nothing gets a report of what happened on the harness (the
events, the records, the requests); a case that breaks the correct harness too gets the rule
it broke there. A diagnosis that names another idea gets what your case did on the harness:
the rule it broke, with the record and the request it broke in. Reason from that.
{notebook}
## What is here

| | |
|---|---|
| `{facts.student_file}` | your file: the only one you edit |
| `starter.py` | the same file as you were given it |
| `ideas.toml` | the ideas a diagnosis names, each with the lesson it comes from |
| `tests.py`, `manifest.toml` | the graded tests and their points |
| `hints.toml` | two hints a test, a question and then an outline: `lab-check --hint` |
| `walkthrough.ipynb`, `sessions.json` | the lesson, and the sessions its examples replay |
| `lab/` | the lab: message builders, the clinic that runs a case, the rules, `lab_check` |
"""
