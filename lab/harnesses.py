"""Which harness a lesson's examples run on, and swapping a piece of one for a single example.

The student's own harness.py is used once it does what the lesson builds; until then the
finished harness stands in, and the lesson says so. `pick_harness` makes that choice,
`with_repair` makes it again where the examples start to need lesson 10's repair,
`starter_harness` loads the file the lesson began from, and `patched` lends a module a
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

import contextlib
import copy
import importlib.util
import os
import pathlib
import sys
from dataclasses import dataclass

from . import lessons
from .messages import call, reply, text, user
from .validate import validate

ENV = "LAB_HARNESS"  # names a harness file to use instead, e.g. in the project's own tests
# Where the repair is still missing in an edition, what stands in for it: no repair at all.
NOT_WRITTEN = "(INTERRUPTED is not written yet: fill the lower gap of harness.py)"


@dataclass(frozen=True)
class Pick:
    """A harness module, the file it came from, and why it was chosen."""
    module: object
    path: pathlib.Path
    reason: str

    def __str__(self):
        return f"examples run on: {_shown(self.path)}\nwhy: {self.reason}"


def pick_harness(lesson=10, environ=None, project=None):
    """The harness the lesson's examples should run on, as a Pick.

    If the environment names a file in LAB_HARNESS, that file, whatever it holds. Otherwise
    the project's top-level harness.py once it repairs a dangling call (see `repair_problem`),
    else the lesson's finished harness. A harness.py that does not even import is not an
    error here: its error becomes the reason the finished harness is used. The module chosen
    is also installed as `harness` in sys.modules, so `import harness` gets the same one.
    """
    environ = os.environ if environ is None else environ
    project = pathlib.Path(project) if project is not None else lessons.PROJECT
    named = environ.get(ENV, "")
    if named:
        path = pathlib.Path(named).resolve()
        if not path.is_file():
            raise FileNotFoundError(f"{ENV}={named} names no file; point it at a harness file, "
                                    "e.g. lessons/10-poisoned-transcript/finished.py, or unset it")
        module = load_harness(path)
        problem = repair_problem(module)
        chosen = Pick(module, path, f"{ENV} names it" +
                      (f" (it does not repair a dangling call yet: {problem})" if problem else ""))
    else:
        chosen = _student_or_finished(project / "harness.py", lesson)
    sys.modules["harness"] = chosen.module
    return chosen


def with_repair(chosen, lesson=10):
    """`chosen` (a Pick) if its harness repairs a dangling call, else the finished harness,
    as a Pick whose reason says why. Installed as `harness` in sys.modules, like pick_harness.
    """
    problem = repair_problem(chosen.module)
    if not problem:
        picked = Pick(chosen.module, chosen.path,
                      "it repairs a dangling call, which the examples from here on need")
    elif lessons.lesson(lesson).is_edition:
        picked = Pick(_standing_in(chosen.module), chosen.path,
                      f"{_shown(chosen.path)} does not repair a dangling call yet ({problem}). "
                      "The examples from here on show what your code sends, which a provider "
                      "refuses, until you fill the gaps and run this cell again")
    else:
        path = lessons.lesson(lesson).finished
        picked = Pick(load_harness(path), path,
                      f"{_shown(chosen.path)} does not repair a dangling call yet ({problem}), "
                      "and the examples from here on need the repair")
    sys.modules["harness"] = picked.module
    return picked


def starter_harness(lesson=10):
    """The harness the lesson starts from (its starter.py), as a module of its own named
    `harness_starter`: loading it changes nothing anyone else has imported."""
    return load_harness(lessons.lesson(lesson).starter, name="harness_starter")


def load_harness(path, name="harness"):
    """The Python file at `path`, run afresh as a module called `name`. Not put in
    sys.modules: whoever wants it importable decides that."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def repair_problem(module):
    """"" when `module` does lesson 10's job, else what it is missing, in a few words.

    The test is behaviour, not names alone: it must have INTERRUPTED and repair_tool_history,
    and its context_for_model, given a record that ends on a call nobody answered, must
    return a request a strict provider accepts, with INTERRUPTED standing in for the missing
    result, and leave the record as it was.
    """
    for name in ("INTERRUPTED", "repair_tool_history", "context_for_model"):
        if not hasattr(module, name):
            return f"it has no {name}"
    asked = call("bash", {"command": "pytest"}, id="c1")
    record = [user("Run the tests."), reply(text("Running them."), asked), user("Never mind.")]
    untouched = copy.deepcopy(record)
    try:
        view = list(module.context_for_model(record))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"its context_for_model raised {type(error).__name__}: {error}"
    if record != untouched:
        return "its context_for_model changed the record it was given"
    problems = validate(view)
    if problems:
        return f"its context_for_model sends a request a provider refuses: {problems[0]}"
    if not any(isinstance(m, dict) and m.get("role") == "toolResult"
               and m.get("tool_call_id") == "c1" and m.get("content") == module.INTERRUPTED
               for m in view):
        return "its context_for_model does not answer the dangling call with INTERRUPTED"
    return ""


@contextlib.contextmanager
def patched(module, **replacements):
    """Inside the block, `module` has the given names set to the given values; afterwards
    the old values are back, however the block ended. Only names the module already has can
    be swapped, so a typo fails at once instead of swapping nothing."""
    unknown = [name for name in replacements if not hasattr(module, name)]
    if unknown:
        raise AttributeError(f"{getattr(module, '__name__', module)} has no "
                             f"{', '.join(unknown)} to swap; it has "
                             f"{', '.join(n for n in dir(module) if not n.startswith('_'))}")
    saved = {name: getattr(module, name) for name in replacements}
    try:
        for name, value in replacements.items():
            setattr(module, name, value)
        yield module
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


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


def _student_or_finished(path, lesson):
    chosen = lessons.lesson(lesson)
    if chosen.is_edition:
        return _student_or_starter(path, chosen)
    finished = chosen.finished
    if not path.is_file():
        problem = f"there is no {path.name} at {path.parent}"
    else:
        try:
            module = load_harness(path)
        except Exception as error:  # the student's file, mid-edit: report it, use the finished one
            problem = f"{path.name} does not import: {type(error).__name__}: {error}"
        else:
            problem = repair_problem(module)
            if not problem:
                return Pick(module, path, f"{path.name} repairs a dangling call: its gaps are filled")
            problem = f"{path.name} does not repair a dangling call yet: {problem}"
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
            problem = repair_problem(module)
            return Pick(module, path, f"{path.name} repairs a dangling call: its gaps are filled"
                        if not problem else f"it is your {path.name}, which does not repair a "
                        f"dangling call yet ({problem}); fill its gaps and run this cell again")
    return Pick(load_harness(lesson.starter), lesson.starter,
                f"{problem}. The examples run on {lesson.starter.name}, the file you started "
                f"from, until {path.name} imports.")


def _shown(path):
    path = pathlib.Path(path)
    try:
        return str(path.resolve().relative_to(lessons.PROJECT))
    except ValueError:
        return str(path)
