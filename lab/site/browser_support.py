"""Which of a lesson's cells a browser can run, and which lab modules go into Pyodide.

Pyodide runs Python in the page: no process can be started, no socket opened, no thread
started, and no file of the course's machine read. A cell that needs one of those, or a lab
module that is not handed to students, runs only in the notebook; `why_not` says so in a
sentence the page shows in place of the Run button, found from the cell's own source.

Pyodide is given only the lab's student-facing modules (lab/__init__.py and the lab/kit/
folder, laid out as in the source and the sandbox: lab.worker.bundle's `lab_files`,
what a graded harness may import), three notebook helpers that read no file and import no more
than those (lab.notebook.gaps: whether a harness defines a gap's names yet; lab.notebook.timeline: a run's
moments drawn as a table, as lab.figures draws; lab.notebook.harness_choice: the Pick the browser's harnesses.py
shares with the notebook's), the project's damaged.py, and two files of this package's
browser/ folder: lab.notebook.harnesses as a browser has it, and the cell runner. No grader module,
test, right or wrong answer, or finished harness.
"""

import ast
import pathlib

from lab.worker import bundle

LAB = pathlib.Path(__file__).resolve().parent.parent
BROWSER = pathlib.Path(__file__).resolve().parent / "browser"
# The browser's stand-in for lab.notebook.harnesses has these; the notebook's has more.
BROWSER_HARNESSES = {"pick_harness", "with_repair", "starter_harness", "patched", "load_harness"}
NOTEBOOK_HELPERS = ("gaps", "timeline", "harness_choice")
CANNOT = {"subprocess": "starts a process", "socket": "opens a socket",
          "threading": "starts a thread", "multiprocessing": "starts a process",
          "http": "talks HTTP", "urllib": "talks to the network", "asyncio.subprocess": "starts a process",
          "lab.notebook.loopback": "serves a provider's API on a local socket, from a thread",
          "lab.notebook.sdk": "talks HTTP through the official SDKs"}


def python_files(project):
    """{path in Pyodide's home: text} for every Python file the browser is given."""
    files = {f"lab/{relative}": path.read_text(encoding="utf-8")
             for relative, path in bundle.lab_files().items()}
    files.update({f"lab/notebook/{name}.py": (LAB / "notebook" / f"{name}.py").read_text(encoding="utf-8")
                  for name in ("__init__", *NOTEBOOK_HELPERS)})
    files["lab/notebook/harnesses.py"] = (BROWSER / "harnesses.py").read_text(encoding="utf-8")
    files["_course_runner.py"] = (BROWSER / "runner.py").read_text(encoding="utf-8")
    damaged = pathlib.Path(project) / "damaged.py"
    if damaged.is_file():
        files["damaged.py"] = damaged.read_text(encoding="utf-8")
    return files


def why_not(source):
    """Why a browser cannot run the cell `source`, in a sentence; "" when it can."""
    found = needs(source)
    return f"This cell {found}: a browser cannot run it; run it in the notebook." if found else ""


def needs(source):
    """What the cell `source` needs that a browser lacks, in a few words ("starts a process
    (subprocess)"); "" when nothing."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return ""  # a cell that uses top-level await parses; anything else shows its own error
    shipped = {"lab", "harnesses", "lab.notebook", "lab.notebook.harnesses",
               *(f"lab.{name}" for name in bundle.modules()),
               *(f"lab.notebook.{name}" for name in NOTEBOOK_HELPERS)}
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names
                                     if node.module == "lab"]
        for name in names:
            top = name.split(".")[0]
            if name in CANNOT or top in CANNOT:
                return f"{CANNOT.get(name) or CANNOT[top]} ({name})"
            if top == "lab" and name not in shipped:
                return f"uses {name}, a module that stays on the course's machine"
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "lab" and node.attr in _NOTEBOOK_ONLY):
            return f"uses lab.{node.attr}, which stays on the course's machine"
    return ""


_NOTEBOOK_ONLY = {"harnesses", "casebook", "clinic", "loopback", "sdk", "course", "testkit",
                  "lessons", "rules", "nearly_right"}
