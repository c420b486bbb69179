"""The student bundle: everything the sandbox holds of the project, three things of the source
tree copied whole, so that the tree itself says what the student's code may see.

    sandbox (/lab-bundle)    source tree                 what it is
    lab/__init__.py          lab/__init__.py             the package `lab`, its public names
    lab/kit/                 lab/kit/                    the lab's student-facing modules
    lab_inside/              lab/sandbox/                the sandbox's own side: the zygote, the
                                                         code that serves a test, the protocol
    damaged.py               damaged.py                  lesson 10's wrecked records

lab/kit/ is the folder to look at: a module is in the sandbox exactly when it is in that
folder (nothing is found by walking imports, and nothing is listed by name), and each of its
modules imports only its neighbours and the standard library (the suite checks both, by
importing lab from a bundle in a real sandbox, and by reading every import of the folder).
lab/__init__.py hands the kit's public names on, so a harness writes `from lab import call,
user` on the course's machine, in the sandbox and in Pyodide alike (the site ships the same
files, lab.site.browser_support). The rest of lab/ (lessons, harnesses, lab_check, the
grader, checkpoint B's clinic, the casebook and the rules) knows where the answers are, and
is in none of the three.

The worker builds the bundle once a grading, readable by anyone, in the host's public folder
(bubblewrap binds it read-only at /lab-bundle; under uid the sandbox's user reads it there),
and deletes it after.
"""

from __future__ import annotations

import os
import pathlib
import shutil

LAB = pathlib.Path(__file__).resolve().parent.parent
PROJECT = LAB.parent
STUDENT = LAB / "kit"                  # the folder: what a student's code may import of the lab
INSIDE = LAB / "sandbox"               # the sandbox's own code, lab_inside there
GIVEN = PROJECT / "damaged.py"         # a top-level module a lesson gives the student
# lab/sandbox's modules the sandbox itself never runs: the one record of a test's result sits
# there so that the worker and the host share it without an import running up, and is built
# in the worker, outside the namespaces (lab/sandbox/outcome.py says so)
NOT_INSIDE = ("outcome.py",)


def lab_files() -> dict[str, pathlib.Path]:
    """{path in the bundle's lab/ (posix): path in the source tree} for the package `lab` as
    the sandbox has it: lab/__init__.py and every file of the student folder."""
    files = {"__init__.py": LAB / "__init__.py"}
    for path in sorted(STUDENT.rglob("*")):
        relative = path.relative_to(LAB)
        if path.is_file() and "__pycache__" not in relative.parts and path.suffix != ".pyc":
            files[relative.as_posix()] = path
    return files


def modules() -> tuple[str, ...]:
    """The names of the lab's modules the bundle holds, `lab.<name>` each ("__init__" for
    lab itself, "kit" for the kit's package, "kit.wire" and so on), read from the folder."""
    return ("__init__", "kit", *sorted(f"kit.{path.stem}" for path in STUDENT.glob("*.py")
                                       if path.stem != "__init__"))


class Bundle:
    """A folder holding what the sandbox may import (above): lab/ (lab/__init__.py and the
    student folder), lab_inside/ and damaged.py. Made once for a grading, readable by anyone,
    deleted with it."""

    def __init__(self, parent: str | None = None) -> None:
        self.path: str | None = None
        self._parent = parent

    def __enter__(self) -> Bundle:
        import tempfile

        self.path = tempfile.mkdtemp(prefix="lab-bundle-", dir=self._parent)
        for relative, source in lab_files().items():
            target = os.path.join(self.path, "lab", *relative.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(source, target)
        shutil.copytree(INSIDE, os.path.join(self.path, "lab_inside"),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", *NOT_INSIDE))
        if GIVEN.exists():
            shutil.copyfile(GIVEN, os.path.join(self.path, GIVEN.name))
        for root, folders, files in os.walk(self.path):
            os.chmod(root, 0o755)
            for name in files:
                os.chmod(os.path.join(root, name), 0o644)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.path is not None:  # (always: __enter__ set it)
            shutil.rmtree(self.path, ignore_errors=True)
