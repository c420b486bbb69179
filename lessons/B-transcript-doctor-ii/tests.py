"""The graded tests of checkpoint B, "transcript doctor II".

    lab-check --harness doctor.py --lesson B

Your file is asked for plain data only, in a process of its own: DIAGNOSIS, and what each
case_<name>() returns. Everything else happens here, on the grader's side: lab.testkit.clinic runs
the case on the nearly-right harness it names and on lesson 10's finished harness, and
lab.testkit.rules judges the two sessions. The five are patches (harnesses/) against lesson 10's
finished harness, which only the grader holds: a student's copy has neither, so it is graded
where they are.

For each harness, its case first: it scores when it breaks a rule on the harness and none on
the finished one. A case that breaks a rule on the finished harness too is a bug in the case:
the report shows the rule, the record, the request and the refusal. Then its diagnosis: when
it names another idea, the report shows what the case did on the harness (the rule it broke,
with its record and request), which is what a diagnosis is reasoned from.
"""

import pathlib

from lab.testkit import Checkup

# The grading itself (running a case on both harnesses, judging a diagnosis with its evidence)
# is lab.testkit.checkup's, shared with checkpoint A.
checkup = Checkup(pathlib.Path(__file__).resolve().parent, base="10")


def test_ash_case_breaks_a_rule_on_ash_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "ash")


def test_ash_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "ash")


def test_birch_case_breaks_a_rule_on_birch_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "birch")


def test_birch_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "birch")


def test_cedar_case_breaks_a_rule_on_cedar_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "cedar")


def test_cedar_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "cedar")


def test_dogwood_case_breaks_a_rule_on_dogwood_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "dogwood")


def test_dogwood_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "dogwood")


def test_elm_case_breaks_a_rule_on_elm_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "elm")


def test_elm_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "elm")
