# lab: checkpoint A  (lab-check reads this line to know which lab's tests to run)
"""Checkpoint A, "transcript doctor I": five harnesses, each one idea short of lesson 05's.

auk, bittern, crane, dunlin and egret are each lesson 05's finished harness with one idea of
lessons 01 to 05 taken out. You do not get their code; you get what they do. For each of them,
in this order:

1. case_<name>() returns a case: plain data describing one session (see lab.testkit.clinic for the
   form: the record the harness starts from, the tools and what each does, the model's
   replies, the prompts, and max_turns if the run should have a limit). It must break a rule
   of the course on that harness and none on lesson 05's finished harness.
2. DIAGNOSIS[<name>] names the missing idea, by its id in ideas.toml: the idea that, had the
   harness kept it, would have kept the rule your case broke.

The grader asks this file for DIAGNOSIS and for what each case_<name>() returns, and nothing
else; it runs every case itself, on its own copies of the harnesses, and judges the sessions
by the rules in lab/testkit/rules.py. The walkthrough (walkthrough.ipynb) shows how to read what a
session did. The five harnesses are the grader's, so your cases run on them where it is:

    lab-check --harness doctor_a.py --lesson A

in the course's own project, or when you hand the file in from a student's copy.
"""

import lab

# == diagnoses ==
# One id of ideas.toml for each harness.

# --- your code ---
DIAGNOSIS = {"auk": "", "bittern": "", "crane": "", "dunlin": "", "egret": ""}
# --- end ---


# == cases ==
# A case that exposes nothing yet: one prompt, one answer. Each case below starts from it.

def healthy_session():
    """One prompt, answered in words. Every harness of the checkpoint handles it well."""
    return {"prompts": [{"text": "Hello."}]}


def case_auk():
    # --- your code ---
    """The session that shows what auk is missing: yours to write."""
    return healthy_session()
    # --- end ---


def case_bittern():
    # --- your code ---
    """The session that shows what bittern is missing: yours to write."""
    return healthy_session()
    # --- end ---


def case_crane():
    # --- your code ---
    """The session that shows what crane is missing: yours to write."""
    return healthy_session()
    # --- end ---


def case_dunlin():
    # --- your code ---
    """The session that shows what dunlin is missing: yours to write."""
    return healthy_session()
    # --- end ---


def case_egret():
    # --- your code ---
    """The session that shows what egret is missing: yours to write."""
    return healthy_session()
    # --- end ---
