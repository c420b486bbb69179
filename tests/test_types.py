"""The lab is typed, and the types are checked (issue 21, item 5; issue 29, item 7).

mypy reads the whole package with pyproject.toml's [tool.mypy] (Python 3.10, the bodies of
every function checked) and must find nothing. Two parts of it are also annotated whole: the
grading, which runs a student's code and judges it (the host, lab/grader; the worker,
lab/worker; the sandbox, lab/sandbox; and the words a test fails in, lab/testkit's verdict,
notation, difference and problems), and the kits (lab/kit and the package's face,
lab/__init__.py, with the notebook's Pick and patched; the public test kit, lab/testkit, that
lessons' tests import), whose annotations are documentation a student or an author reads in
help(). There every public function and method (a name without a leading
underscore, or a special method such as __init__, in a module or a public class; nested
functions aside) has each parameter and its return annotated: mypy alone would let an
unannotated function through as untyped, so the walk is what keeps a new one from arriving
without types. And the kit's annotations resolve at run time, so help() and
typing.get_type_hints read them in a notebook, the sandbox and the browser alike.
"""

import ast
import inspect
import os
import pathlib
import subprocess
import sys
import typing

import tomli

import lab

PROJECT = pathlib.Path(__file__).resolve().parent.parent
GRADING = [PROJECT / "lab" / folder for folder in ("grader", "worker", "sandbox")] + [
    PROJECT / "lab" / "testkit" / f"{name}.py" for name in ("verdict", "notation", "difference",
                                                            "problems")]
KIT = [PROJECT / "lab" / "kit", PROJECT / "lab" / "__init__.py",
       PROJECT / "lab" / "notebook" / "harness_choice.py", PROJECT / "lab" / "testkit"]


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


def modules_in(places):
    return sorted(path for place in places
                  for path in ([place] if place.is_file() else place.rglob("*.py")))


def not_annotated(modules):
    missing = []
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        missing += [f"{path.relative_to(PROJECT)}:{name} ({', '.join(what)})"
                    for name, what in unannotated(tree)]
    return missing


def test_every_public_function_in_lab_grading_is_annotated():
    modules = modules_in(GRADING)
    assert len(modules) > 30
    missing = not_annotated(modules)
    assert not missing, "not annotated:\n" + "\n".join(missing)


def test_every_public_function_and_class_of_the_two_kits_is_annotated():
    modules = modules_in(KIT)
    assert len(modules) > 15
    missing = not_annotated(modules)
    assert not missing, "not annotated:\n" + "\n".join(missing)


def test_the_kits_annotations_resolve_at_run_time_for_help_to_show():
    """Every public name of `lab` that can be called has hints typing can evaluate (a name
    imported only for mypy would leave help() a string that names nothing), and the message
    builders' say which message they make."""
    unresolved = []
    for name in lab.__all__:
        thing = getattr(lab, name)
        target = thing.__init__ if inspect.isclass(thing) and "__init__" in vars(thing) else thing
        if not callable(target) or inspect.isclass(target):
            continue
        try:
            typing.get_type_hints(target)
        except Exception as error:  # what help() would be left to show as an unknown name
            unresolved.append(f"lab.{name}: {type(error).__name__}: {error}")
    assert not unresolved, "\n".join(unresolved)
    assert typing.get_type_hints(lab.user)["return"] is lab.kit.message_types.UserMessage
    assert "ToolResultMessage" in str(inspect.signature(lab.tool_result))


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


def test_mypy_finds_no_error_in_the_whole_lab_package():
    # The cache stays in the project (.mypy_cache, ignored by git), not in the run's TMPDIR.
    env = {**os.environ, "MYPY_CACHE_DIR": str(PROJECT / ".mypy_cache")}
    ran = subprocess.run([sys.executable, "-m", "mypy", "lab"], cwd=PROJECT, env=env,
                         capture_output=True, text=True, timeout=400)
    assert ran.returncode == 0, ran.stdout[-6000:] + ran.stderr[-2000:]
    assert "Success: no issues found" in ran.stdout
