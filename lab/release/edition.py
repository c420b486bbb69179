"""The student's edition of a lesson: the repository a student gets, with none of the answer.

    lab-check --release 10 --output DIR

What goes in, at the top of DIR:

    harness.py         the lesson's starter: the file the student works in (doctor.py for
                       a checkpoint: the manifest's student_file)
    starter.py         the same file, kept as handed out (the walkthrough's "before" example
                       runs on it, whatever harness.py has become)
    tests.py           the visible graded tests (lab.release.visible)
    manifest.toml      their points, gaps and visibility; [submission] counts the rest
    scenarios.py       the lesson's scenarios, which the graded tests drive the harness with
    ready.py           what the notebook needs of harness.py before it runs on it (lab.course.readiness)
    hints.toml         the lesson's hints, when it has some
    course.toml        the course's order (lessons/course.toml, each unwritten lab's folder
                       emptied), so that `lab-check --course` and a passing report's `next:`
                       work here too
    ideas.toml         a checkpoint's ideas, which its diagnoses name
    sessions.json      a checkpoint's worked examples, as the grader's side ran them
    damaged.py ...     the project's other top-level modules, which examples and tests import
    walkthrough.ipynb  the lesson's notebook, with the finished lesson's outputs
    lab/               the lab, lab_check included, without the instructor's tools
    README.md, pyproject.toml, .gitignore, .github/workflows/classroom.yml

The lesson's files sit at the top, beside harness.py, so that the seed lesson's command,
`python lab/lab_check.py --harness harness.py --lesson 10 tests.py`, works word for word there
(lab.course.lesson_files finds the lesson by the manifest's `lesson = N`). What stays out: finished.py,
right/ and wrong/, the hidden tests and their manifest entries, and every line of the gaps'
code (lab.release.leaks proves it, notebook outputs included).

A lesson whose tests need files that hold a lab's answer (checkpoint B: its five harnesses,
built on lesson 10's finished harness) names them in [release] grader_only. Its edition
carries none of them, and so cannot grade itself: lab_check there says so and grades nothing,
there is no Classroom workflow, and the README says the file is graded on submission. Its
notebook's examples, which examine harnesses of that kind, are run on the grader's side while
the edition is made, and their sessions saved into it (sessions.json, see lab.notebook.casebook).
"""

import pathlib
import re
import shutil
from lab.course import tomlread

import nbformat

from lab.notebook import casebook, ipynb as notebook
from lab.course import order as course, lesson_files as lessons
from lab.course import manifest
from lab.course.gap_markers import make_starter
from lab.release import classroom, saved_outputs as outputs, readme, visible

# Parts of the lab that only an instructor runs: they need the finished files, or make copies.
INSTRUCTOR_ONLY = ("release", "site", "docs", "notebook/ipynb.py", "notebook/__main__.py",
                   "notebook/kernel.py", "course/starter.py", "course/anatomy.py", "cli/verify.py",
                   "cli/new_lab.py", "cli/prove.py")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
LESSON_FILES = ("scenarios.py", "ideas.toml", "ready.py")
WORKFLOW = pathlib.Path(".github", "workflows", "classroom.yml")


def build(lesson, output, *, with_notebook=True):
    """Write the student's edition of `lesson` into the folder `output` (made if need be;
    refused if it holds anything already, so nothing stale is handed out). Returns the
    folder. `with_notebook=False` leaves the notebook out (it takes a kernel to make)."""
    output = pathlib.Path(output)
    if output.exists() and any(output.iterdir()):
        raise FileExistsError(f"{output} is not empty: name a new folder for the edition, or "
                              "empty this one first, so that nothing stale is handed out")
    output.mkdir(parents=True, exist_ok=True)
    meta = manifest.read(lesson)
    hidden = visible.hidden_tests(meta)
    starter = make_starter(lesson.finished.read_text(), str(lesson.finished))
    student = meta.get("student_file", "harness.py")
    (output / student).write_text(starter)
    (output / "starter.py").write_text(starter)
    (output / "tests.py").write_text(visible.visible_tests(lesson.tests.read_text(), hidden))
    (output / "manifest.toml").write_text(visible.visible_manifest(meta, hidden))
    for name in LESSON_FILES:
        if (lesson.folder / name).is_file():
            shutil.copyfile(lesson.folder / name, output / name)
    hints = lesson.folder / "hints.toml"
    if hints.is_file():
        (output / hints.name).write_text(visible.visible_hints(hints.read_text(), hidden))
    (output / course.COURSE).write_text(course_copy())
    for module in given_modules():
        shutil.copyfile(module, output / module.name)
    copy_lab(output / "lab")
    shown = meta.get("tests", {})
    facts = readme.Facts(lesson=lesson.number, title=manifest.title(lesson),
                         visible=len(shown) - len(hidden),
                         visible_points=sum(m.get("points", 1) for n, m in shown.items()
                                            if n not in hidden),
                         hidden=len(hidden),
                         hidden_points=sum(shown[n].get("points", 1) for n in hidden),
                         has_notebook=with_notebook and _has_walkthrough(lesson),
                         python=requires_python(), student_file=student,
                         graded_here=not grader_only(lesson), gaps=tuple(meta.get("gaps", {})))
    (output / "README.md").write_text(readme.student_readme(facts) if facts.graded_here
                                      else readme.graded_on_submission(facts))
    (output / "pyproject.toml").write_text(readme.pyproject(facts, lab_packages(output / "lab")))
    (output / ".gitignore").write_text("__pycache__/\n*.pyc\n.venv/\n.ipynb_checkpoints/\n.lab-check/\n")
    if facts.graded_here:  # a workflow that could grade nothing would fail on every push
        (output / WORKFLOW).parent.mkdir(parents=True)
        (output / WORKFLOW).write_text(classroom.workflow(facts, [
            (name, m.get("points", 1)) for name, m in shown.items() if name not in hidden]))
    if facts.has_notebook:
        if not facts.graded_here:  # its examples' sessions, run where the grader's files are
            outputs.record_sessions(lesson, output / casebook.SAVED)
        nb = outputs.executed(lesson, output, with_finished=facts.graded_here)
        (output / notebook.NOTEBOOK).write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    return output


def course_copy():
    """lessons/course.toml as an edition carries it: word for word, but that a lab with no
    graded tests yet (lessons 01 to 09 hold only their harness's source today) has its folder
    emptied, since in a student's copy the folder field is all that says a lab is written
    (lab.course.next_step.written)."""
    text = (lessons.LESSONS / course.COURSE).read_text(encoding="utf-8")
    unwritten = {lab.label for lab in course.labs() if not lab.written}
    blocks = text.split("\n[[lab]]\n")
    for at, block in enumerate(blocks[1:], 1):
        found = re.search(r'^id = "(\w+)"$', block, re.MULTILINE)
        if found and found[1] in unwritten:
            blocks[at] = re.sub(r'^folder = ".*"$', 'folder = ""', block, flags=re.MULTILINE)
    return "\n[[lab]]\n".join(blocks)


def grader_only(lesson):
    """What of `lesson` stays with the grader ([release] grader_only in its manifest): files and
    folders of its own that its tests need and that no edition carries, since they hold a
    lab's answer (checkpoint B's harnesses, each lesson 10's finished harness with one idea
    taken out). An edition of such a lesson is graded on submission, not in the copy."""
    return list(manifest.read(lesson).get("release", {}).get("grader_only", []))


def given_modules():
    """The project's top-level modules a student is given (damaged.py): every .py file at the
    top but the students' own files (harness.py, which the edition makes from the lesson's
    starter, and a checkpoint's, such as doctor.py)."""
    theirs = {"harness.py"} | {manifest.read(l).get("student_file", "harness.py")
                               for l in lessons.available().values()}
    return sorted(p for p in lessons.PROJECT.glob("*.py") if p.name not in theirs)


def copy_lab(target):
    """Copy the lab package to `target`, less what only an instructor runs."""
    source = lessons.PROJECT / "lab"
    shutil.copytree(source, target, ignore=IGNORED)
    for part in INSTRUCTOR_ONLY:
        path = target / part
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def lab_packages(lab_folder):
    """The dotted names of the lab's packages in a copy, for pyproject.toml: every folder that
    holds a module, with an __init__.py or not (lab/sandbox has none: in the sandbox it
    is the namespace package lab_inside)."""
    root = lab_folder.parent
    return sorted({".".join(module.parent.relative_to(root).parts)
                   for module in lab_folder.rglob("*.py") if "__pycache__" not in module.parts})


def _has_walkthrough(lesson):
    return (lesson.folder / notebook.SOURCE).is_file()


def requires_python():
    """The Python the course asks for, as its pyproject.toml says it (">=3.11")."""
    project = tomlread.loads((lessons.PROJECT / "pyproject.toml").read_text())["project"]
    return project.get("requires-python", ">=3.11")
