"""The lab proof: one command that says whether a lab is done, or every lab.

    lab-check --prove 12          one lab
    lab-check --prove all         every written lab, in course order

Each lab is held to five things, one line of the report each:

    composed     its generated files are what their sources make: finished.py the chain of
                 changes.py (lab.course.compose), starter.py made from finished.py (lab.course.starter),
                 walkthrough.ipynb made from walkthrough.py (lab.notebook.ipynb)
    anatomy      its folder has a lesson's parts (lab.course.anatomy)
    verify       its tests tell right answers from wrong (lab-check --verify, lab.cli.verify)
    moved on     for every later lab's starter and finished file, as harness.py and as the file
                 LAB_HARNESS names, which harness the notebook's picker chooses, and that its
                 reason says so (lab.notebook.harnesses; no kernel: the picker is run here)
    notebook     the notebook executed on a real kernel (lab.notebook.kernel) on the lab's starter, on
                 its finished file, and once on each other harness the picker chose above; for
                 a file that has moved past the lab, the picker chooses the lab's finished
                 harness, whose run is the one on the finished file

So a later file costs a kernel only when it is a harness the notebook really runs on. The suite
runs the same proof, step by step, on every lab (tests/test_labs.py), reusing the notebook runs
its other tests make. Exit status: 0 every lab proved, 1 some step failed, 2 no such lab.
"""

from __future__ import annotations

import contextlib
import pathlib
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from lab.course import anatomy, order as course, lesson_files as lessons
from lab.kit.counting import counted
from lab.notebook import harnesses
from lab.notebook.harness_choice import shown


@dataclass(frozen=True)
class Step:
    """One line of the proof: its name, what was found, and what is wrong (nothing when ok)."""
    name: str
    found: str
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class LaterPick:
    """What the notebook's picker chose for a later lab's file, by one of the two routes."""
    lab: course.Lab        # the later lab
    kind: str              # "starter" or "finished"
    file: pathlib.Path     # that lab's file
    route: str             # "harness.py" or "LAB_HARNESS"
    chosen: pathlib.Path   # the file the examples run on
    said: str              # what the notebook's first cell prints (str(Pick))


# -- composed ----------------------------------------------------------------------------------

def composed(lab: course.Lab) -> Step:
    from lab.notebook import ipynb as notebook
    from lab.course import starter
    from lab.course import gap_markers

    lesson = lessons.lesson(lab.id)
    made: list[tuple[pathlib.Path, Callable[[], str]]] = []
    if lab.changes is not None:
        made.append((lesson.finished, lambda: starter.finished_text(lab)))
    made.append((lesson.starter, lambda: gap_markers.make_starter(
        lesson.finished.read_text(encoding="utf-8"), str(lesson.finished))))
    source = lesson.folder / notebook.SOURCE
    made.append((lesson.folder / notebook.NOTEBOOK,
                 lambda: notebook.build(source.read_text(encoding="utf-8"), str(source))))
    problems = []
    for path, make in made:
        try:
            fresh = make()
        except Exception as error:  # a chain that does not compose: the step says so
            problems.append(f"{path.name} cannot be made: {type(error).__name__}: {error}")
            continue
        if not path.is_file() or path.read_text(encoding="utf-8") != fresh:
            problems.append(f"{path.name} is not what its sources make: run `python -m "
                            f"lab.{'notebook' if path.suffix == '.ipynb' else 'starter'}`")
    return Step("composed", ", ".join(p.name for p, _ in made), problems)


# -- anatomy -----------------------------------------------------------------------------------

def anatomy_step(lab: course.Lab) -> Step:
    problems = anatomy.problems(lab)
    return Step("anatomy", "short" if problems else anatomy.summary(lab), problems)


# -- verify ------------------------------------------------------------------------------------

def verify_step(lab: course.Lab, stream=None) -> Step:
    from lab.cli import verify

    lesson = lessons.lesson(lab.id)
    checks = verify.verify(lesson)
    if stream is not None:
        stream.write(verify.table(lesson, checks))
    problems = [f"{c.subject}: {s}" for c in checks for s in c.surprises]
    return Step("verify", f"{counted(len(checks), 'check')}, {counted(len(problems), 'surprise')}",
                problems)


# -- moved on ----------------------------------------------------------------------------------

def later_files(lab: course.Lab) -> list[tuple[course.Lab, str, pathlib.Path]]:
    """(later lab, "starter" or "finished", its file) for every written lab after `lab` in the
    course's order."""
    order = course.labs()
    after = order[[one.id for one in order].index(lab.id) + 1:]
    found = []
    for later in after:
        if later.written:
            lesson = lessons.lesson(later.id)
            found += [(later, kind, getattr(lesson, kind)) for kind in ("starter", "finished")]
    return found


def later_picks(lab: course.Lab) -> list[LaterPick]:
    """What lab `lab`'s notebook picker chooses for each later lab's file, as harness.py in a
    project of the reader's and as the file LAB_HARNESS names: no kernel, the picker itself."""
    picks = []
    with _kept_harness_module(), tempfile.TemporaryDirectory(prefix="lab-proof-") as scratch:
        reader = pathlib.Path(scratch)
        for later, kind, file in later_files(lab):
            shutil.copyfile(file, reader / "harness.py")
            for route, environ in (("harness.py", {}),
                                   ("LAB_HARNESS", {harnesses.ENV: str(file)})):
                chosen = harnesses.pick_harness(lesson=lab.id, environ=environ, project=reader)
                picks.append(LaterPick(later, kind, file, route, chosen.path.resolve(),
                                       str(chosen)))
    return picks


def moved_on_problems(lab: course.Lab, picks: list[LaterPick]) -> list[str]:
    """What is wrong with the picks: a file that declares a later lab must run the examples on
    this lab's finished harness, and the notebook must say so, naming the reader's file and the
    lab it is at; any other file must be told which harness it got, and why."""
    finished = lessons.lesson(lab.id).finished.resolve()
    problems = []
    for pick in picks:
        subject = f"{pick.lab.label}'s {pick.kind} as {pick.route}"
        first, _, reason = pick.said.partition("\nwhy: ")
        if first != f"examples run on: {shown(pick.chosen)}" or not reason:
            problems.append(f"{subject}: the notebook does not say which harness it runs on, "
                            f"and why: {pick.said!r}")
            continue
        ahead = harnesses.moved_past(pick.file, lessons.lesson(lab.id))
        if ahead is None:
            continue  # declares no later lab (a checkpoint's file): judged by what it does
        if pick.chosen != finished:
            problems.append(f"{subject}: the examples run on {shown(pick.chosen)}, not on lesson "
                            f"{lab.label}'s finished harness")
        elif f"is at {harnesses.where(ahead)}" not in reason or \
                (pick.route == "harness.py" and not reason.startswith("harness.py")):
            problems.append(f"{subject}: the reason does not say the reader's file has moved on "
                            f"to {harnesses.where(ahead)}: {reason!r}")
    return problems


def moved_on_step(lab: course.Lab) -> tuple[Step, set[pathlib.Path]]:
    """The step, and the harnesses the picker chose (each needs a notebook run)."""
    if lab.is_checkpoint:
        reads = (lab.folder / "walkthrough.py").read_text(encoding="utf-8")  # type: ignore[operator]
        picks_one = "pick_harness" in reads
        return Step("moved on", "the notebook reads the checkpoint's own file, not harness.py",
                    ["the checkpoint's notebook calls pick_harness, so harness.py reaches it: "
                     "prove it as a lesson's"] if picks_one else []), set()
    picks = later_picks(lab)
    chosen = {pick.chosen for pick in picks}
    files = len({pick.file for pick in picks})
    return Step("moved on", f"{files} later files, 2 routes each: {len(chosen)} harness"
                f"{'' if len(chosen) == 1 else 'es'} chosen" if picks else "no later lab is "
                "written yet", moved_on_problems(lab, picks)), chosen


# -- notebook ----------------------------------------------------------------------------------

def notebook_harnesses(lab: course.Lab, chosen: set[pathlib.Path]) -> list[pathlib.Path]:
    """The files the notebook is executed on: the starter, the finished file, then each other
    harness the picker chose for a later file, each once."""
    lesson = lessons.lesson(lab.id)
    own = [lesson.starter.resolve(), lesson.finished.resolve()]
    return own + sorted(path for path in chosen if path not in own)


def notebook_step(lab: course.Lab, chosen: set[pathlib.Path]) -> Step:
    from lab.notebook import kernel

    lesson = lessons.lesson(lab.id)
    runs = notebook_harnesses(lab, chosen)
    problems = []
    for path in runs:
        try:
            nb = kernel.execute(lesson.folder, path)
        except Exception as error:  # a cell raised, or the kernel died: the step says where
            problems.append(f"on {shown(path)}: {type(error).__name__}: "
                            f"{str(error).strip().splitlines()[-1] if str(error).strip() else ''}")
            continue
        problems += [f"on {shown(path)}: cell {cell} raised {name}: {message}"
                     for cell, name, message in kernel.errors(nb)]
    return Step("notebook", f"run on {counted(len(runs), 'harness', 'harnesses')}: "
                + ", ".join(shown(p) for p in runs), problems)


# -- the command -------------------------------------------------------------------------------

def prove(lab: course.Lab, stream=sys.stdout) -> list[Step]:
    """Every step of `lab`'s proof, printed to `stream` as each ends."""
    stream.write(f"\nlab {lab.heading}\n")
    steps = []

    def done(step: Step) -> None:
        steps.append(step)
        stream.write(f"  {'ok' if step.ok else 'FAIL':4}  {step.name:9} {step.found}\n")
        stream.writelines(f"          - {problem}\n" for problem in step.problems)
        stream.flush()

    done(composed(lab))
    done(anatomy_step(lab))
    done(verify_step(lab))
    moved, chosen = moved_on_step(lab)
    done(moved)
    done(notebook_step(lab, chosen))
    return steps


def main(name: str) -> int:
    """--prove N|all."""
    try:
        chosen = [lab for lab in course.labs() if lab.written] if name == "all" else \
            [course.find(name)]
    except (LookupError, ValueError) as error:
        print(f"lab_check: {error}", file=sys.stderr)
        return 2
    unwritten = [lab.label for lab in chosen if not lab.written]
    if unwritten:
        print(f"lab_check: lab {unwritten[0]} is not written yet: lab-check --new-lab "
              f"{unwritten[0]} starts it", file=sys.stderr)
        return 2
    failed = [lab.label for lab in chosen if not all(step.ok for step in prove(lab))]
    print(f"\n{len(chosen) - len(failed)} of {counted(len(chosen), 'lab')} proved"
          + (f"; not: {', '.join(failed)}" if failed else "") + ".")
    return 1 if failed else 0


@contextlib.contextmanager
def _kept_harness_module() -> Iterator[None]:
    """The picker installs its choice as `harness`; put back whatever was there."""
    before = sys.modules.get("harness")
    try:
        yield
    finally:
        if before is None:
            sys.modules.pop("harness", None)
        else:
            sys.modules["harness"] = before
