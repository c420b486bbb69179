"""The graded tests of checkpoint B, "transcript doctor II".

    lab-check --harness doctor.py --lesson B

Your file is asked for plain data only, in a process of its own: DIAGNOSIS, and what each
case_<name>() returns. Everything else happens here, on the grader's side: lab.clinic runs
the case on the nearly-right harness it names and on lesson 10's finished harness, both
loaded from the lab's own files (the five live in harnesses/, never copied into your sandbox),
and lab.rules judges the two sessions.

A case scores when it breaks a rule on its harness and none on the finished one. A case that
breaks a rule on the finished harness too is a bug in the case: the report shows the rule,
the record, the request and the refusal, so that you can see where the session went wrong.
"""

import pathlib
import tomllib

from lab import clinic, lessons, rules
from lab.grading.verdict import expect
from lab.harnesses import load_harness, nearly_right

HERE = pathlib.Path(__file__).resolve().parent
IDEAS = tomllib.loads((HERE / "ideas.toml").read_text())["ideas"]

DIAGNOSIS = ("DIAGNOSIS names, for each harness, the idea it is missing: one id of "
             "ideas.toml.")
RIGHT_IDEA = ("the diagnosis names the idea {name} is missing. It has the others: run your "
              "case on it and look at which rule broke, and where, before naming another.")
CASE = "case_{name}() returns a case lab.clinic can run (see its docstring for the form)."
OWN_BUG = ("case_{name} keeps every rule on lesson 10's finished harness: a case that breaks "
           "the correct harness too exposes a bug of its own, not {name}'s.")
EXPOSES = ("case_{name} breaks a rule of the course on {name}: a case it passes shows nothing "
           "missing.")


def harness(name):
    """The nearly-right harness `name`, afresh: lesson 10's finished harness with the
    patch harnesses/<name>.patch applied."""
    return nearly_right(HERE / "harnesses" / f"{name}.patch")


def expect_diagnosis(student, name):
    diagnosis = student.constant("DIAGNOSIS")
    expect(type(diagnosis) is dict, DIAGNOSIS, expected='{"ash": "an_idea_id", ...}',
           got=f"a {type(diagnosis).__name__}")
    said = diagnosis.get(name)
    expect(said in IDEAS, DIAGNOSIS, expected=f"for {name}, one of: {', '.join(IDEAS)}",
           got=repr(said))
    expect(said == harness(name).MISSING, RIGHT_IDEA.format(name=name),
           got=f"{said}: {IDEAS[said]['idea']}")


def expect_case_exposes(student, name):
    case = student.value(f"case_{name}").value
    problem = clinic.problem(case)
    expect(problem is None, CASE.format(name=name), got=problem)

    healthy = clinic.visit(load_harness(lessons.lesson(10).finished), case)
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


def test_ash_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "ash")


def test_ash_case_breaks_a_rule_on_ash_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "ash")


def test_birch_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "birch")


def test_birch_case_breaks_a_rule_on_birch_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "birch")


def test_cedar_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "cedar")


def test_cedar_case_breaks_a_rule_on_cedar_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "cedar")


def test_dogwood_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "dogwood")


def test_dogwood_case_breaks_a_rule_on_dogwood_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "dogwood")


def test_elm_diagnosis_names_the_idea_it_is_missing(student):
    expect_diagnosis(student, "elm")


def test_elm_case_breaks_a_rule_on_elm_and_none_on_the_finished_harness(student):
    expect_case_exposes(student, "elm")
