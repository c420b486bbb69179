"""A checkpoint's graded tests, shared: a student's case run on a nearly-right harness and on
the finished one, and a diagnosis judged with the evidence beside it.

Checkpoints A and B grade alike. Each keeps, on the grader's side, harnesses that are a lab's
finished harness with one idea taken out (harnesses/<name>.patch in the checkpoint's folder),
and its tests.py asks the student's file for plain data only: DIAGNOSIS, and what each
case_<name>() returns. Everything else happens here: lab.testkit.clinic runs the case, lab.testkit.rules
judges the two sessions.

    checkup = Checkup(pathlib.Path(__file__).parent, base="10")
    def test_ash_case_...(student): checkup.expect_case_exposes(student, "ash")
    def test_ash_diagnosis_...(student): checkup.expect_diagnosis(student, "ash")
"""

from __future__ import annotations

import json
import os
import pathlib
import textwrap
import types
from collections.abc import Callable, Sequence
from typing import Any

from lab.course import tomlread

from lab.kit.counting import counted
from lab.testkit import clinic, rules
from lab.course import lesson_files as lessons
from lab.testkit.problems import StudentProblem
from lab.testkit.verdict import expect
from lab.course.loading import load_harness, nearly_right

DIAGNOSIS = ("DIAGNOSIS names, for each harness, the idea it is missing: one id of "
             "ideas.toml.")
WRONG_IDEA = ("DIAGNOSIS names the idea {name} is missing. {name} keeps every other idea, so "
              "the rule your case broke there points at the one it lacks: which idea, had "
              "{name} kept it, would have kept that rule?")
CASE = "case_{name}() returns a case lab.testkit.clinic can run (see its docstring for the form)."
SAME_CASE = ("case_{name}() returns the same case each time it is built: a case is evidence only "
             "if it can be run again as it was (no random choice, no counter, no clock in it).")
OWN_BUG = ("case_{name} must keep every rule on lesson {base}'s finished harness (a case that "
           "breaks the correct harness too exposes a bug of its own, not {name}'s); on it, it "
           "broke `{rule}`")
EXPOSES = ("case_{name} must break a rule of the course on {name} (a case it passes shows "
           "nothing missing); on {name}, it broke none")


class Checkup:
    """The graded checks of the checkpoint in `folder`, whose harnesses are lesson `base`'s
    finished harness with one idea taken out."""

    def __init__(self, folder: str | os.PathLike[str], base: int | str) -> None:
        self.folder, self.base = pathlib.Path(folder), base
        self.ideas = tomlread.loads((self.folder / "ideas.toml").read_text())["ideas"]

    def harness(self, name: str) -> types.ModuleType:
        """The nearly-right harness `name`, afresh: harnesses/<name>.patch applied."""
        return nearly_right(self.folder / "harnesses" / f"{name}.patch", lesson=self.base)

    def finished(self) -> types.ModuleType:
        """Lesson `base`'s finished harness, afresh."""
        return load_harness(lessons.lesson(self.base).finished)

    # `student` is the graded tests' fixture: the student's file, read in the sandbox.
    def expect_diagnosis(self, student: Any, name: str) -> None:
        """The diagnosis of `name`, judged with the evidence beside it: what the student's own
        case for `name` did on that harness, which is what a diagnosis is reasoned from."""
        diagnosis = student.constant("DIAGNOSIS")
        expect(type(diagnosis) is dict, DIAGNOSIS, expected=f'{{"{name}": "an_idea_id", ...}}',
               got=f"a {type(diagnosis).__name__}")
        said = diagnosis.get(name)
        evidence = indented(self.evidence_of(student, name))
        expect(said in self.ideas, DIAGNOSIS,
               expected=f"for {name}, one of: {', '.join(self.ideas)}", got=repr(said),
               note=evidence)
        expect(said == self.harness(name).MISSING, WRONG_IDEA.format(name=name),
               got=f"{said}: {self.ideas[said]['idea']}", note=evidence)

    def evidence_of(self, student: Any, name: str) -> str:
        """What case_<name> shows about `name`, in the words a diagnosis starts from: the first
        rule it broke there, with the record and the request it broke in; or why it shows
        nothing to reason from yet."""
        try:
            case = student.value(f"case_{name}").value
        except StudentProblem as error:
            return f"case_{name} gives no case to reason from: {error.explanation}"
        harness = self.harness(name)
        why = clinic.problem(case, harness)
        if why:
            return f"case_{name} is not a case yet ({why}), so nothing points at an idea."
        if rules.judge(clinic.visit(self.finished(), case)):
            return (f"case_{name} breaks a rule on lesson {self.base}'s finished harness as well, "
                    f"so what it shows on {name} is the case's own doing, not a missing idea "
                    "(its test says how).")
        sick = clinic.visit(harness, case)
        broken = rules.judge(sick)
        if not broken:
            return (f"case_{name} breaks no rule on {name} yet, so nothing points at an idea: "
                    "make its test pass first, then name the idea whose rule it breaks.")
        more = f"\n(and {len(broken) - 1} more: {', '.join(b.rule for b in broken[1:])})" \
            if len(broken) > 1 else ""
        return f"what case_{name} did on {name}:\n{rules.explain(sick, broken[0])}{more}"

    def expect_case_exposes(self, student: Any, name: str) -> None:
        """case_<name>() builds the same case each time, and that case runs, keeps every rule
        on the finished harness, and breaks one on `name`."""
        case = student.value(f"case_{name}").value
        again = student.value(f"case_{name}").value
        expect(again == case, SAME_CASE.format(name=name),
               got=f"two calls of case_{name}() in a row built two different cases",
               note=indented("first: " + _clipped(repr(case)) + "\nthen:  "
                             + _clipped(repr(again))))
        harness = self.harness(name)
        expect(clinic.problem(case, harness) is None, CASE.format(name=name),
               got=clinic.problem(case, harness))

        healthy = clinic.visit(self.finished(), case)
        sick = clinic.visit(harness, case)

        broken = rules.judge(healthy)
        expect(not broken, OWN_BUG.format(name=name, base=self.base,
                                          rule=broken[0].rule if broken else ""),
               given=case.get("record", []),
               got=indented(rules.explain(healthy, broken[0])) if broken else None,
               note=indented(f"what happened on the finished harness:\n{healthy.describe()}"))
        expect(rules.judge(sick), EXPOSES.format(name=name), got="no rule broke",
               note=indented(f"what happened on {name}:\n{sick.describe()}"))


def _clipped(text: str, most: int = 300) -> str:
    return text if len(text) <= most else text[:most] + " ..."


# -- before handing in: what a student's copy, without the harnesses, can check ------------------

HAND_IN = ("Hand {file} in where your course collects it (on Gradescope, upload the file): the "
           "grader runs every case on the {count} harnesses and prints the report described in "
           "README.md. You may hand it in again after reading that report, as often as your "
           "course allows; the last one counts.")
TRY_IT = ("To see a case do what you mean before you hand it in, run it on your own finished "
          "harness.py of lesson {base}, and on a copy of it you break by hand: "
          "rules.judge(clinic.visit(load_harness(PATH), case)) is [] on the first, and "
          "should not be on the second (the walkthrough's \"Build\" section shows how).")


def readiness(folder: str | os.PathLike[str], ask: Callable[[str, str], Any],
              gaps: Sequence[str]) -> str:
    """What a student's copy of the checkpoint in `folder` can say of the student's file without
    the graded harnesses: every case_<gap>() gives a case lab.testkit.clinic can run, and DIAGNOSIS
    names, for every gap, an idea of ideas.toml, a different one for each. `ask(what, name)`
    reads the student's file in the sandbox (what: "value" or "constant"), raising
    StudentProblem. One line a problem, or the one line that it is ready; then how to try a
    case and how to hand the file in. Nothing is graded here."""
    folder = pathlib.Path(folder)
    ideas = tomlread.loads((folder / "ideas.toml").read_text())["ideas"]
    stand_in = _loop_stand_in(folder)
    wrong = []
    for gap in gaps:
        try:
            case = ask("value", f"case_{gap}")
        except StudentProblem as error:
            wrong.append(f"case_{gap}(): {_one_line(error.explanation)}")
            continue
        why = clinic.problem(case, stand_in)
        if why:
            wrong.append(f"case_{gap}() gives no case lab.testkit.clinic can run: {why}.")
    try:
        diagnosis = ask("constant", "DIAGNOSIS")
    except StudentProblem as error:
        diagnosis = None
        wrong.append(f"DIAGNOSIS: {_one_line(error.explanation)}")
    if diagnosis is not None and type(diagnosis) is not dict:
        wrong.append(f"DIAGNOSIS is a {type(diagnosis).__name__}, not a dict of one idea id a "
                     "harness.")
    elif diagnosis is not None:
        named: dict[str, list[str]] = {}  # idea id -> the gaps said to miss it
        for gap in gaps:
            said = diagnosis.get(gap)
            if said in (None, ""):
                wrong.append(f'DIAGNOSIS["{gap}"] names no idea yet: one id of ideas.toml.')
            elif type(said) is not str or said not in ideas:  # (a list cannot even be looked up)
                near = _nearest(said, ideas)
                wrong.append(f'DIAGNOSIS["{gap}"] is {_shown(said)}, which is no id of '
                             f"ideas.toml{f' (did you mean {near!r}?)' if near else ''}.")
            else:
                named.setdefault(said, []).append(gap)
        for said, which in named.items():
            if len(which) > 1:
                wrong.append(f"DIAGNOSIS names {said} for {' and '.join(which)}: each harness "
                             f"is missing an idea of its own, so the {len(gaps)} differ.")
    base, student_file = _facts(folder)
    after = ([TRY_IT.format(base=base)] if base else []) + \
        [HAND_IN.format(file=student_file, count=len(gaps))]
    after = [textwrap.fill(paragraph, 96) for paragraph in after]
    if wrong:
        head = (f"Not ready to hand in: {len(wrong)} thing{'s' * (len(wrong) > 1)} to fix "
                "first (nothing was graded here: the tests need harnesses only the grader "
                "holds).")
        return "\n".join([textwrap.fill(head, 96), *(f"  - {line}" for line in wrong), "",
                          *after])
    head = (f"{counted(len(gaps), 'case')} well formed, {counted(len(gaps), 'different idea')}: "
            "ready to hand in. "
            "Nothing was graded here: whether each case breaks its harness, and each idea is "
            "the one missing, only the grader can say, on harnesses a student's copy never "
            "holds.")
    return "\n".join([textwrap.fill(head, 96), "", *after])


def _loop_stand_in(folder):
    """Something lab.testkit.clinic.problem takes for the checkpoint's harnesses: a module with a
    Harness class or one without (a run_agent loop, which takes no walk-away or steer), as
    the sessions the copy was given were run on; None when the copy says nothing of it."""
    try:
        saved = json.loads((folder / "sessions.json").read_text(encoding="utf-8"))
        loops = {entry["visit"]["loop"] for entry in saved}
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if loops == {"run_agent"}:
        return types.SimpleNamespace()
    if loops == {"Harness"}:
        return types.SimpleNamespace(Harness=object)
    return None


def _facts(folder):
    """The label of the lab the checkpoint in `folder` builds on ("05", "" when the copy
    cannot say), and the file the student fills in (its manifest's student_file)."""
    from lab.course import order as course

    meta = tomlread.loads((folder / "manifest.toml").read_text())
    try:
        builds_on = course.find(meta["lesson"]).builds_on
        base = course.label(builds_on) if builds_on is not None else ""
    except Exception:  # a copy without its course map: the sentence goes without the label
        base = ""
    return base, meta.get("student_file", "your file")


def _nearest(said, ideas):
    import difflib

    if type(said) is not str or len(said) > 200:  # no id is near a page of text
        return None
    found = difflib.get_close_matches(said, list(ideas), n=1, cutoff=0.8)
    return found[0] if found else None


def _shown(value, most=80):
    """`value` as Python writes it, cut to `most` characters: it is the student's, any size."""
    text = repr(value)
    return text if len(text) <= most else text[:most] + "..."


def _one_line(text):
    return " ".join(str(text).split())[:300]


def indented(text: str) -> str:
    """`text` with its later lines indented to sit under the first in a report."""
    return text.replace("\n", "\n    ")
