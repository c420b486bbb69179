"""lab.notebook.harnesses as the site's browser has it: which harness a lesson's cells run on.

In the browser there is no finished harness and no lesson folder, only the reader's own
harness.py (the page's editor, written to Pyodide's file system before each run) and the
lab's starter. So it chooses as a student's copy of the lesson does (lab.notebook.harnesses in an
edition): the reader's harness.py whatever it does, the starter only while harness.py does
not import, and, where the examples need lesson 10's repair before it is written, stand-ins
that repair nothing, so that a cell shows what the reader's code sends instead of stopping on
a missing name. The site copies this file into Pyodide as lab/notebook/harnesses.py; the notebook's
lab.notebook.harnesses, which knows where the answers are, never leaves the course's machine.
"""

import importlib.util
import pathlib
import sys

# The notebook's own Pick and patched: they hold no answer.
from lab.notebook.harness_choice import Pick, patched  # noqa: F401 (cells import patched from here)

HOME = pathlib.Path("/home/pyodide")
HARNESS, STARTER = HOME / "harness.py", HOME / "starter.py"
NOT_WRITTEN = "(INTERRUPTED is not written yet: fill the lower gap of harness.py)"


def pick_harness(lesson=10, environ=None, project=None):
    """The reader's harness.py (the editor on the page), or the starter while it does not
    import; installed as `harness` in sys.modules, as the notebook's pick_harness does."""
    try:
        module = load_harness(HARNESS)
    except Exception as error:  # the reader's file, mid-edit: say so, run on the starter
        chosen = Pick(load_harness(STARTER), STARTER,
                      f"harness.py does not import ({type(error).__name__}: {error}); the "
                      "cells run on starter.py, the file this lab starts from, until it does")
    else:
        chosen = Pick(module, HARNESS, "it is your harness.py, from the editor on this page; "
                      "while its gaps are empty the cells show what the starter does")
    sys.modules["harness"] = chosen.module
    return chosen


def with_repair(chosen, lesson=10):
    """`chosen` with a stand-in for each piece of the repair it lacks (as in an edition)."""
    module = chosen.module
    missing = [name for name in ("repair_tool_history", "INTERRUPTED") if not hasattr(module, name)]
    if not hasattr(module, "repair_tool_history"):
        module.repair_tool_history = lambda messages: list(messages)
    if not hasattr(module, "INTERRUPTED"):
        module.INTERRUPTED = NOT_WRITTEN
    reason = (f"your harness.py lacks {', '.join(missing)}: stand-ins that repair nothing "
              "show what your code sends" if missing else "it is your harness.py")
    picked = Pick(module, chosen.path, reason)
    sys.modules["harness"] = module
    return picked


def starter_harness(lesson=10):
    """The file the lab starts from, as a module of its own named `harness_starter`."""
    return load_harness(STARTER, name="harness_starter")


def load_harness(path, name="harness"):
    """The Python file at `path`, run afresh as a module called `name` (not put in
    sys.modules)."""
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # a name Python does not take for source (harness.txt)
        raise ImportError(f"{path} cannot be loaded as a Python module: name it something.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
