"""The grading's public interfaces are typed, and the types are checked (issue 21, item 5).

The grading is what runs a student's code and judges it: the host (lab/grader), the worker
(lab/worker), the sandbox (lab/sandbox) and the words a test fails in (lab/testkit's verdict,
notation, difference and problems). Two checks. mypy reads those with pyproject.toml's [tool.mypy] (Python 3.10, the bodies of
every function checked) and must find nothing. And every public function and method there (a
name without a leading underscore, or a special method such as __init__, in a module or a
public class; nested functions aside) has each parameter and its return annotated: mypy alone
would let an unannotated function through as untyped, so the walk is what keeps a new one from
arriving without types.
"""

import ast
import os
import pathlib
import subprocess
import sys

import tomli

PROJECT = pathlib.Path(__file__).resolve().parent.parent
GRADING = [PROJECT / "lab" / folder for folder in ("grader", "worker", "sandbox")] + [
    PROJECT / "lab" / "testkit" / f"{name}.py" for name in ("verdict", "notation", "difference",
                                                            "problems")]


def public(name):
    """A name without a leading underscore, or a special method's (__init__, __enter__)."""
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def unannotated(tree):
    """(qualified name, what is missing) for each public function or method in a module's
    syntax tree whose parameters or return are not all annotated."""
    found = []

    def visit(body, prefix):
        for node in body:
            if isinstance(node, ast.ClassDef) and public(node.name):
                visit(node.body, f"{prefix}{node.name}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and public(node.name):
                args = node.args
                params = [*args.posonlyargs, *args.args, *args.kwonlyargs,
                          *filter(None, [args.vararg, args.kwarg])]
                if prefix and params and not any(isinstance(d, ast.Name) and d.id == "staticmethod"
                                                 for d in node.decorator_list):
                    params = params[1:]  # self, or cls
                missing = [a.arg for a in params if a.annotation is None]
                if node.returns is None:
                    missing.append("return")
                if missing:
                    found.append((f"{prefix}{node.name}", missing))

    visit(tree.body, "")
    return found


def test_every_public_function_in_lab_grading_is_annotated():
    modules = sorted(path for place in GRADING
                     for path in ([place] if place.is_file() else place.rglob("*.py")))
    assert len(modules) > 30
    missing = []
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        missing += [f"{path.relative_to(PROJECT)}:{name} ({', '.join(what)})"
                    for name, what in unannotated(tree)]
    assert not missing, "not annotated:\n" + "\n".join(missing)


def test_the_walk_finds_a_missing_annotation():
    tree = ast.parse("def f(a: int, b) -> int: ...\n"
                     "class C:\n"
                     "    def m(self, x: int): ...\n"
                     "    @staticmethod\n"
                     "    def s(y) -> None: ...\n"
                     "    def _private(self, z): ...\n"
                     "    def __init__(self, w: int): ...\n"
                     "def g(*args: int, **kwargs) -> None: ...\n")
    assert unannotated(tree) == [("f", ["b"]), ("C.m", ["return"]), ("C.s", ["y"]),
                                 ("C.__init__", ["return"]), ("g", ["kwargs"])]


def test_mypy_finds_no_error_in_lab_grading():
    # The cache stays in the project (.mypy_cache, ignored by git), not in the run's TMPDIR.
    env = {**os.environ, "MYPY_CACHE_DIR": str(PROJECT / ".mypy_cache")}
    ran = subprocess.run([sys.executable, "-m", "mypy",
                          *(str(place.relative_to(PROJECT)) for place in GRADING)], cwd=PROJECT, env=env,
                         capture_output=True, text=True, timeout=240)
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]
    assert "Success: no issues found" in ran.stdout
