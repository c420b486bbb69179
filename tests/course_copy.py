"""A scratch copy of the project, as a student has it, for the tests that run the real lab-check
on a student's folder (--course, --next, --reset, and attacks on what they keep): the lab, the
lessons and the student's files, each copied afresh, without bytecode caches or a progress
record (.lab-check) of this checkout's own."""

import shutil

from conftest import PROJECT

STUDENT_COPY = ("lab", "lessons", "harness.py", "doctor.py", "doctor_a.py", "damaged.py",
                "pyproject.toml")


def scratch_course(tmp_path, names=STUDENT_COPY):
    """tmp_path/course, holding the project's `names` (folders whole); its path."""
    copy = tmp_path / "course"
    copy.mkdir()
    for name in names:
        source = PROJECT / name
        if source.is_dir():
            shutil.copytree(source, copy / name,
                            ignore=shutil.ignore_patterns("__pycache__", ".lab-check"))
        else:
            shutil.copyfile(source, copy / name)
    return copy
