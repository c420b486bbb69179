"""A lesson's readiness: what its notebook needs of a harness before the examples run on the
reader's own file. Each lesson keeps its own, in lessons/<folder>/ready.py, beside the
changes.py that builds what it checks for; nothing outside the folder lists it.

A ready.py holds four names:

    DOES       what a harness that is ready does ("keeps every tool result within a budget"),
    DOES_NOT   the same, denied ("does not keep tool results within a budget"),
    NEEDED     what the examples need, as a noun ("a read and a bash tool that keep a budget"),
    problem    problem(harness) -> "" when the module does the lesson's job, else what it
               lacks, in a few words. It runs the harness on a small case of the lesson's own
               (behaviour, not names alone) and never raises: a half-written harness's
               exception is its answer.

The sentences are the ones the notebook's first cell prints, through lab.notebook.harnesses: "harness.py
does not keep tool results within a budget yet: ...". A ready.py imports from the lab only
`lab` (the student kit), since it travels with the lesson into a student's edition, where the
notebook picks by it too. Why a Python file and not a table in manifest.toml: the check is code,
and the three sentences belong with it; the manifest is the grader's, this is the notebook's.
"""

from __future__ import annotations

import importlib.util
import pathlib
import types
from collections.abc import Callable
from dataclasses import dataclass

FILE = "ready.py"


class NotReadyToPick(LookupError):
    """The lesson has no ready.py, or one without the four names; the message says which."""


@dataclass(frozen=True)
class Ready:
    """What a lesson's examples need of a harness: what one that has it does, what one that
    lacks it does not do, what it is called (for the reasons a Pick gives), and the check."""
    does: str
    does_not: str
    needed: str
    check: Callable[[types.ModuleType], str]


def of(folder: pathlib.Path) -> Ready:
    """The readiness kept in the lesson folder `folder` (its ready.py, loaded afresh)."""
    path = pathlib.Path(folder) / FILE
    if not path.is_file():
        raise NotReadyToPick(f"{path} is missing: a lesson's notebook picks the harness its "
                             "examples run on by it (see lab/course/readiness.py; lab-check --new-lab "
                             "writes one to fill in)")
    spec = importlib.util.spec_from_file_location(f"lab_ready_{path.parent.name[:2]}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lacking = [name for name in ("DOES", "DOES_NOT", "NEEDED", "problem")
               if not hasattr(module, name)]
    if lacking:
        raise NotReadyToPick(f"{path} has no {', '.join(lacking)}: see lab/course/readiness.py for the "
                             "four names a ready.py holds")
    return Ready(module.DOES, module.DOES_NOT, module.NEEDED, module.problem)
