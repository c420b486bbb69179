"""The graded tests of checkpoint B, "transcript doctor II".

    lab-check --harness doctor.py --lesson B

Your file is asked for plain data only, in a process of its own: DIAGNOSIS, and what each
case_<name>() returns. Everything else happens here, on the grader's side: lab.clinic runs
the case on the nearly-right harness it names and on lesson 10's finished harness, and
lab.rules judges the two sessions. The five are patches (harnesses/) against lesson 10's
finished harness, which only the grader holds: a student's copy has neither, so it is graded
where they are.

For each harness, its case first: it scores when it breaks a rule on the harness and none on
the finished one. A case that breaks a rule on the finished harness too is a bug in the case:
the report shows the rule, the record, the request and the refusal. Then its diagnosis: when
it names another idea, the report shows what the case did on the harness (the rule it broke,
with its record and request), which is what a diagnosis is reasoned from.
"""

import pathlib
from lab import tomlread

from lab import clinic, lessons, rules
from lab.grading.problems import StudentProblem
from lab.grading.verdict import expect
from lab.harnesses import load_harness, nearly_right

HERE = pathlib.Path(__file__).resolve().parent
IDEAS = tomlread.loads((HERE / "ideas.toml").read_text())["ideas"]

DIAGNOSIS = ("DIAGNOSIS names, for each harness, the idea it is missing: one id of "
             "ideas.toml.")
WRONG_IDEA = ("DIAGNOSIS names the idea {name} is missing. {name} keeps every other idea, so "
              "the rule your case broke there points at the one it lacks: which idea, had "
              "{name} kept it, would have kept that rule?")
CASE = "case_{name}() returns a case lab.clinic can run (see its docstring for the form)."
OWN_BUG = ("case_{name} keeps every rule on lesson 10's finished harness: a case that breaks "
           "the correct harness too exposes a bug of its own, not {name}'s.")
EXPOSES = ("case_{name} breaks a rule of the course on {name}: a case it passes shows nothing "
           "missing.")


def harness(name):
    """The nearly-right harness `name`, afresh: lesson 10's finished harness with the
    patch harnesses/<name>.patch applied."""
    return nearly_right(HERE / "harnesses" / f"{name}.patch")


def finished():
    return load_harness(lessons.lesson(10).finished)


def expect_diagnosis(student, name):
    """The diagnosis of `name`, judged with the evidence beside it: what the student's own
    case for `name` did on that harness, which is what a diagnosis is reasoned from."""
    diagnosis = student.constant("DIAGNOSIS")
    expect(type(diagnosis) is dict, DIAGNOSIS, expected='{"ash": "an_idea_id", ...}',
           got=f"a {type(diagnosis).__name__}")
    said = diagnosis.get(name)
    evidence = indented(evidence_of(student, name))
    expect(said in IDEAS, DIAGNOSIS, expected=f"for {name}, one of: {', '.join(IDEAS)}",
           got=repr(said), note=evidence)
    expect(said == harness(name).MISSING, WRONG_IDEA.format(name=name),
           got=f"{said}: {IDEAS[said]['idea']}", note=evidence)


def evidence_of(student, name):
    """What case_<name> shows about `name`, in the words a diagnosis starts from: the first
    rule it broke there, with the record and the request it broke in; or why it shows nothing
    to reason from yet."""
    try:
        case = student.value(f"case_{name}").value
    except StudentProblem as error:
        return f"case_{name} gives no case to reason from: {error.explanation}"
    if clinic.problem(case):
        return f"case_{name} is not a case yet ({clinic.problem(case)}), so nothing points at an idea."
    if rules.judge(clinic.visit(finished(), case)):
        return (f"case_{name} breaks a rule on lesson 10's finished harness as well, so what it "
                f"shows on {name} is the case's own doing, not a missing idea (its test says how).")
    sick = clinic.visit(harness(name), case)
    broken = rules.judge(sick)
    if not broken:
        return (f"case_{name} breaks no rule on {name} yet, so nothing points at an idea: make "
                f"its test pass first, then name the idea whose rule it breaks.")
    more = f"\n(and {len(broken) - 1} more: {', '.join(b.rule for b in broken[1:])})" \
        if len(broken) > 1 else ""
    return f"what case_{name} did on {name}:\n{rules.explain(sick, broken[0])}{more}"


def expect_case_exposes(student, name):
    case = student.value(f"case_{name}").value
    problem = clinic.problem(case)
    expect(problem is None, CASE.format(name=name), got=problem)

    healthy = clinic.visit(finished(), case)
    sick = clinic.visit(harness(name), case)

    broken = rules.judge(healthy)
    expect(not broken, OWN_BUG.format(name=name), given=case.get("record", []),
           got=indented("\n" + rules.explain(healthy, broken[0])) if broken else None,
           note=indented(f"what happened on the finished harness:\n{healthy.describe()}"))
    expect(rules.judge(sick), EXPOSES.format(name=name), got="no rule broke",
           note=indented(f"what happened on {name}:\n{sick.describe()}"))


def indented(text):
    """`text` with its later lines indented to sit under the first in a report."""
    return text.replace("\n", "\n    ")


def test_ash_case_breaks_a_rule_on_ash_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "ash")


def test_ash_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "ash")


def test_birch_case_breaks_a_rule_on_birch_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "birch")


def test_birch_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "birch")


def test_cedar_case_breaks_a_rule_on_cedar_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "cedar")


def test_cedar_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "cedar")


def test_dogwood_case_breaks_a_rule_on_dogwood_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "dogwood")


def test_dogwood_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "dogwood")


def test_elm_case_breaks_a_rule_on_elm_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "elm")


def test_elm_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "elm")
