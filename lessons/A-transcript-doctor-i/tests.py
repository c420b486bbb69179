"""The graded tests of checkpoint A, "transcript doctor I".

    lab-check --harness doctor_a.py --lesson A

Your file is asked for plain data only, in a process of its own: DIAGNOSIS, and what each
case_<name>() returns. Everything else happens on the grader's side: lab.testkit.checkup has
lab.testkit.clinic run the case on the nearly-right harness it names and on lesson 05's finished
harness, and lab.testkit.rules judge the two sessions. The five are patches (harnesses/) against
lesson 05's finished harness, which only the grader holds.

For each harness, its case first: it scores when it breaks a rule on the harness and none on
the finished one. A case that breaks a rule on the finished harness too is a bug in the case,
and the report shows the rule, the record, the request and the refusal. Then its diagnosis:
when it names another idea, the report shows what the case did on the harness (the rule it
broke, with its record and request), which is what a diagnosis is reasoned from.
"""

import pathlib

from lab.testkit import Checkup

checkup = Checkup(pathlib.Path(__file__).resolve().parent, base="05")


def test_auk_case_breaks_a_rule_on_auk_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "auk")


def test_auk_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "auk")


def test_bittern_case_breaks_a_rule_on_bittern_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "bittern")


def test_bittern_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "bittern")


def test_crane_case_breaks_a_rule_on_crane_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "crane")


def test_crane_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "crane")


def test_dunlin_case_breaks_a_rule_on_dunlin_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "dunlin")


def test_dunlin_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "dunlin")


def test_egret_case_breaks_a_rule_on_egret_and_none_on_the_finished_harness(student):
    checkup.expect_case_exposes(student, "egret")


def test_egret_diagnosis_names_the_idea_it_is_missing(student):
    checkup.expect_diagnosis(student, "egret")
