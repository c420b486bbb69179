"""The student bundle: everything the sandbox holds of the project, declared here by name.

lab/ (the student-facing modules only, STUDENT_MODULES), lab_inside/ (lab/grading/inside: the
zygote, the code that serves a test, the protocol), and damaged.py. Nothing else of the project
enters the sandbox: the rest of lab (lessons, harnesses, lab_check, grading, checkpoint B's
clinic) knows where the answers are. The worker builds it once a grading, readable by anyone,
in the host's public folder, and deletes it after.
"""

import os
import pathlib
import shutil

LAB = pathlib.Path(__file__).resolve().parent.parent.parent
PROJECT = LAB.parent


# What the sandbox holds of the lab, by name: the modules `import lab` loads (and the figure a
# lesson's notebook draws), none of which knows an answer. Declared here, never found by
# reading imports: putting a module in the sandbox is a decision, and the suite proves that
# this list is exactly what `import lab` needs (tests/test_untrusted.py).
STUDENT_MODULES = ("__init__", "disk", "display", "drive", "figures", "ids", "messages", "model",
                   "shell", "validate", "wire", "wire_figure", "workspace")


class Bundle:
    """A folder holding what the sandbox may import: lab/ (the student-facing modules only),
    lab_inside/ (the zygote and the code that serves a test), and damaged.py. Made once for a
    grading, readable by anyone, deleted with it."""

    def __init__(self, parent=None):
        self.path = None
        self._parent = parent

    def __enter__(self):
        import tempfile

        self.path = tempfile.mkdtemp(prefix="lab-bundle-", dir=self._parent)
        os.mkdir(os.path.join(self.path, "lab"))
        for name in STUDENT_MODULES:
            shutil.copyfile(LAB / f"{name}.py", os.path.join(self.path, "lab", f"{name}.py"))
        shutil.copytree(LAB / "grading" / "inside", os.path.join(self.path, "lab_inside"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        damaged = PROJECT / "damaged.py"
        if damaged.exists():
            shutil.copyfile(damaged, os.path.join(self.path, "damaged.py"))
        for root, folders, files in os.walk(self.path):
            os.chmod(root, 0o755)
            for name in files:
                os.chmod(os.path.join(root, name), 0o644)
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)


