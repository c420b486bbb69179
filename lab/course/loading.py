"""A harness file loaded as a module of its own: a student's, a lab's finished one, or a checkpoint's
nearly-right one (a lab's finished harness with one of its ideas taken out by a patch).

Each load runs the file afresh and puts nothing in sys.modules: whoever wants the module
importable as `harness` decides that (lab.notebook.harnesses does, for a notebook's cells).
"""

import importlib.util
import pathlib
import re
import types

from lab.course import lesson_files as lessons


def load_harness(path, name="harness"):
    """The Python file at `path`, run afresh as a module called `name`. Not put in
    sys.modules: whoever wants it importable decides that."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # a name Python does not take for source (harness.txt)
        raise ImportError(f"{path} cannot be loaded as a Python module: name it something.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nearly_right(path, lesson=None):
    """A lab's finished harness with one idea taken out: the patch at `path` (see lab.course.patches)
    applied to it, its gaps filled. The lab is `lesson`, or else the one the patch's own
    header names ("--- lesson 05's finished harness"), or else lesson 10. A module of its own,
    named after the file, not put in sys.modules; its MISSING is the idea the patch's
    description names on its "Missing:" line."""
    from lab.course import gap_markers, patches  # the instructor's side: a student's copy holds neither

    path = pathlib.Path(path)
    patch = path.read_text(encoding="utf-8")
    if lesson is None:
        named = re.search(r"^--- lesson (\w+)'s finished harness$", patch, re.MULTILINE)
        lesson = named.group(1) if named else 10
    base = gap_markers.solve(lessons.lesson(lesson).finished.read_text(encoding="utf-8"))
    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    exec(compile(patches.apply(base, patch, name=str(path)), str(path), "exec"), module.__dict__)
    missing = re.search(r"^Missing: (\w+)$", patches.description(patch), re.MULTILINE)
    setattr(module, "MISSING", missing.group(1) if missing else None)  # the module's own name
    return module
