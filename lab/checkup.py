"""A checkpoint's graded tests, shared: a student's case run on a nearly-right harness and on
the finished one, and a diagnosis judged with the evidence beside it.

Checkpoints A and B grade alike. Each keeps, on the grader's side, harnesses that are a lab's
finished harness with one idea taken out (harnesses/<name>.patch in the checkpoint's folder),
and its tests.py asks the student's file for plain data only: DIAGNOSIS, and what each
case_<name>() returns. Everything else happens here: lab.clinic runs the case, lab.rules
judges the two sessions.

    checkup = Checkup(pathlib.Path(__file__).parent, base="10")
    def test_ash_case_...(student): checkup.expect_case_exposes(student, "ash")
    def test_ash_diagnosis_...(student): checkup.expect_diagnosis(student, "ash")
"""

import pathlib
from lab import tomlread

from . import clinic, lessons, rules
from .grading.problems import StudentProblem
from .grading.verdict import expect
from .harnesses import load_harness, nearly_right

DIAGNOSIS = ("DIAGNOSIS names, for each harness, the idea it is missing: one id of "
             "ideas.toml.")
WRONG_IDEA = ("DIAGNOSIS names the idea {name} is missing. {name} keeps every other idea, so "
              "the rule your case broke there points at the one it lacks: which idea, had "
              "{name} kept it, would have kept that rule?")
CASE = "case_{name}() returns a case lab.clinic can run (see its docstring for the form)."
OWN_BUG = ("case_{name} keeps every rule on lesson {base}'s finished harness: a case that breaks "
           "the correct harness too exposes a bug of its own, not {name}'s.")
EXPOSES = ("case_{name} breaks a rule of the course on {name}: a case it passes shows nothing "
           "missing.")


class Checkup:
    """The graded checks of the checkpoint in `folder`, whose harnesses are lesson `base`'s
    finished harness with one idea taken out."""

    def __init__(self, folder, base):
        self.folder, self.base = pathlib.Path(folder), base
        self.ideas = tomlread.loads((self.folder / "ideas.toml").read_text())["ideas"]

    def harness(self, name):
        """The nearly-right harness `name`, afresh: harnesses/<name>.patch applied."""
        return nearly_right(self.folder / "harnesses" / f"{name}.patch", lesson=self.base)

    def finished(self):
        return load_harness(lessons.lesson(self.base).finished)

    def expect_diagnosis(self, student, name):
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

    def evidence_of(self, student, name):
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

    def expect_case_exposes(self, student, name):
        case = student.value(f"case_{name}").value
        harness = self.harness(name)
        expect(clinic.problem(case, harness) is None, CASE.format(name=name),
               got=clinic.problem(case, harness))

        healthy = clinic.visit(self.finished(), case)
        sick = clinic.visit(harness, case)

        broken = rules.judge(healthy)
        expect(not broken, OWN_BUG.format(name=name, base=self.base),
               given=case.get("record", []),
               got=indented("\n" + rules.explain(healthy, broken[0])) if broken else None,
               note=indented(f"what happened on the finished harness:\n{healthy.describe()}"))
        expect(rules.judge(sick), EXPOSES.format(name=name), got="no rule broke",
               note=indented(f"what happened on {name}:\n{sick.describe()}"))


def indented(text):
    """`text` with its later lines indented to sit under the first in a report."""
    return text.replace("\n", "\n    ")
