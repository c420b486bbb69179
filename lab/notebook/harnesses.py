"""Which harness a lesson's examples run on, and swapping a piece of one for a single example.

The student's own harness.py is used once it does what the lesson builds (what that is, each
lesson says in its own ready.py: see lab.course.readiness); until then the finished harness stands in,
and the lesson says so. A reader whose file has moved on to a later lab (its first line says
which) reopens the lesson on the lesson's own finished harness, told so. `pick_harness` makes
that choice, `with_repair` makes it again where the examples start to need lesson 10's repair,
`starter_harness` loads the file the lesson began from, `nearly_right` loads the finished
harness with a patch applied (the checkpoints' harnesses), and `patched` lends a module a
different function for the length of a `with` block.

In a student's copy of the lesson (an edition: no finished file, see lab.release) nothing
falls back to a finished harness, because there is none: the examples always run on the
student's harness.py (on the starter while harness.py does not even import), and where an
example needs the repair before the student has written it, `with_repair` lends the module
stand-ins that repair nothing, so the example shows what the student's code does (the
provider's refusal) instead of stopping on a missing name.

Files are loaded by path, each time afresh, so an edited harness.py is seen the next time the
choice is made, and an example that changes one module cannot reach another.
"""

import os
import pathlib
import sys

from lab.course import order as course, lesson_files as lessons, readiness
from lab.course import harness_file as project_files
from lab.notebook.harness_choice import Pick, shown
from lab.notebook.harness_choice import patched  # noqa: F401 (notebooks import it from here)
from lab.course.loading import load_harness, nearly_right  # noqa: F401 (notebooks import them from here)

ENV = "LAB_HARNESS"  # names a harness file to use instead, e.g. in the project's own tests
# Where the repair is still missing in an edition, what stands in for it: no repair at all.
NOT_WRITTEN = "(INTERRUPTED is not written yet: fill the lower gap of harness.py)"


def pick_harness(lesson=10, environ=None, project=None):
    """The harness the lesson's examples should run on, as a Pick, whose reason says why.

    The file is the one LAB_HARNESS names in the environment, else the project's top-level
    harness.py. A file whose first line puts it at a later lab of the course (`# lab: lesson
    11` in lesson 06's notebook) has moved past this lesson: the examples run on this lesson's
    finished harness, and the reason says so. Otherwise a file LAB_HARNESS names is used
    whatever it holds, and harness.py once it does the lesson's job (its ready.py, see
    lab.course.readiness: for lesson 10 it repairs a dangling call), else the lesson's finished
    harness. A harness.py that does not even import is not an error here: its error becomes
    the reason the finished harness is used. The module chosen is also installed as `harness`
    in sys.modules, so `import harness` gets the same one.
    """
    environ = os.environ if environ is None else environ
    project = pathlib.Path(project) if project is not None else lessons.PROJECT
    this = lessons.lesson(lesson)
    named = environ.get(ENV, "")
    path = pathlib.Path(named).resolve() if named else project / "harness.py"
    if named and not path.is_file():
        raise FileNotFoundError(f"{ENV}={named} names no file; point it at a harness file, "
                                "e.g. lessons/10-poisoned-transcript/finished.py, or unset it")
    ahead = moved_past(path, this)
    if ahead is not None:
        chosen = _this_lessons_own(this, f"{ENV} names {shown(path)}, which" if named
                                   else path.name, ahead)
    elif named:
        module = load_harness(path)
        ready = readiness.of(this.folder)
        problem = ready.check(module)
        chosen = Pick(module, path, f"{ENV} names it" +
                      (f" (it {ready.does_not} yet: {problem})" if problem else ""))
    else:
        chosen = _student_or_finished(path, this)
    sys.modules["harness"] = chosen.module
    return chosen


def moved_past(path, lesson):
    """The lab of the course that the file at `path` declares on its first line (`# lab:
    lesson 11`), when that lab comes after `lesson` in the course's order; else None (no file,
    no such line, a lab the course does not list, this lesson or an earlier one)."""
    declared = project_files.declared_lesson(path) if path.is_file() else None
    order = [lab.id for lab in course.labs(lessons.PROJECT)]
    try:
        theirs = course.find(declared, lessons.PROJECT) if declared else None
    except (LookupError, ValueError):
        return None
    if theirs is None or lesson.number not in order:
        return None
    return theirs if order.index(theirs.id) > order.index(lesson.number) else None


def where(lab):
    """Where in the course a lab is, as a reader says it: "lesson 11", "checkpoint B"."""
    return f"{'checkpoint' if lab.is_checkpoint else 'lesson'} {lab.label}"


def _this_lessons_own(lesson, shown_as, ahead):
    """The Pick for a reader whose file has moved past `lesson` to the lab `ahead`: the
    lesson's finished harness (in an edition, which holds none, its starter)."""
    label = course.label(lesson.number)
    said = (f"{shown_as} is at {where(ahead)} (its first line says so), past lesson "
            f"{label}, and this lesson's examples are written for lesson {label}'s harness")
    if lesson.is_edition:
        return Pick(load_harness(lesson.starter), lesson.starter,
                    f"{said}: they run on {lesson.starter.name}, the file lesson {label} starts "
                    f"from. To run them on your own lesson {label} code, set {ENV} to that file")
    return Pick(load_harness(lesson.finished), lesson.finished,
                f"{said}: they run on lesson {label}'s finished harness. To run them on your "
                f"own lesson {label} code, set {ENV} to that file (--next kept it in "
                ".lab-check/backups/, as harness.py.bak-N)")


def with_repair(chosen, lesson=10):
    """`chosen` (a Pick) if its harness does the lesson's job (for lesson 10, it repairs a
    dangling call), else the finished harness, as a Pick whose reason says why. Installed as
    `harness` in sys.modules, like pick_harness.
    """
    ready = readiness.of(lessons.lesson(lesson).folder)
    problem = ready.check(chosen.module)
    if not problem:
        picked = Pick(chosen.module, chosen.path,
                      f"it {ready.does}, which the examples from here on need")
    elif lessons.lesson(lesson).is_edition:
        picked = Pick(_standing_in(chosen.module), chosen.path,
                      f"{shown(chosen.path)} {ready.does_not} yet ({problem}). The examples "
                      "from here on show what your code sends, which a provider refuses, until "
                      "you fill the gaps and run this cell again")
    else:
        path = lessons.lesson(lesson).finished
        picked = Pick(load_harness(path), path,
                      f"{shown(chosen.path)} {ready.does_not} yet ({problem}), "
                      f"and the examples from here on need {ready.needed}")
    sys.modules["harness"] = picked.module
    return picked


def starter_harness(lesson=10):
    """The harness the lesson starts from (its starter.py), as a module of its own named
    `harness_starter`: loading it changes nothing anyone else has imported."""
    return load_harness(lessons.lesson(lesson).starter, name="harness_starter")


def _standing_in(module):
    """`module` with a stand-in for each piece of the repair it lacks: a repair that changes
    nothing (a new list of the same messages) and a placeholder for INTERRUPTED. The student's
    own context_for_model is left as it is: it is what the examples are about."""
    if not hasattr(module, "repair_tool_history"):
        module.repair_tool_history = _no_repair
    if not hasattr(module, "INTERRUPTED"):
        module.INTERRUPTED = NOT_WRITTEN
    return module


def _no_repair(messages):
    """Stands in for a repair_tool_history not written yet: the same messages, unrepaired."""
    return list(messages)


def _student_or_finished(path, chosen):
    if chosen.is_edition:
        return _student_or_starter(path, chosen)
    finished, ready = chosen.finished, readiness.of(chosen.folder)
    if not path.is_file():
        problem = f"there is no {path.name} at {path.parent}"
    else:
        try:
            module = load_harness(path)
        except Exception as error:  # the student's file, mid-edit: report it, use the finished one
            problem = f"{path.name} does not import: {type(error).__name__}: {error}"
        else:
            problem = ready.check(module)
            if not problem:
                return Pick(module, path, f"{path.name} {ready.does}: its gaps are filled")
            problem = f"{path.name} {ready.does_not} yet: {problem}"
    return Pick(load_harness(finished), finished,
                f"{problem}. Fill its gaps and run this cell again to use your own.")


def _student_or_starter(path, lesson):
    """In an edition: harness.py, whatever it does; the starter only while harness.py cannot
    be loaded at all, since the examples need some harness to run on."""
    if not path.is_file():
        problem = f"there is no {path.name} at {path.parent}"
    else:
        try:
            module = load_harness(path)
        except Exception as error:  # the student's file, mid-edit: report it, use the starter
            problem = f"{path.name} does not import: {type(error).__name__}: {error}"
        else:
            ready = readiness.of(lesson.folder)
            problem = ready.check(module)
            return Pick(module, path, f"{path.name} {ready.does}: its gaps are filled"
                        if not problem else f"it is your {path.name}, which {ready.does_not} "
                        f"yet ({problem}); fill its gaps and run this cell again")
    return Pick(load_harness(lesson.starter), lesson.starter,
                f"{problem}. The examples run on {lesson.starter.name}, the file you started "
                f"from, until {path.name} imports.")
