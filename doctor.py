# lab: checkpoint B  (lab-check reads this line to know which lab's tests to run)
"""Checkpoint B, "transcript doctor II": five harnesses, five ways of being nearly right.

ash, birch, cedar, dogwood and elm are each lesson 10's finished harness with one idea of
lessons 5 to 10 missing. You do not get their code; you get what they do. For each of them,
in this order:

1. case_<name>() returns a case: plain data describing one session (see lab.testkit.clinic for the
   form: the record the harness starts from, the tools and what each does, the model's
   replies, the prompts and when to walk away). It must break a rule of the course on that
   harness and none on lesson 10's finished harness.
2. DIAGNOSIS[<name>] names the missing idea, by its id in ideas.toml: the idea that, had the
   harness kept it, would have kept the rule your case broke.

The grader asks this file for DIAGNOSIS and for what each case_<name>() returns, and nothing
else; it runs every case itself, on its own copies of the harnesses, and judges the sessions
by the rules in lab/testkit/rules.py. The walkthrough (walkthrough.ipynb) shows how to read what a
session did. The five harnesses are the grader's, so your cases run on them where it is:

    lab-check --harness doctor.py --lesson B

in the course's own project, or when you hand the file in from a student's copy.
"""

import lab

# == diagnoses ==
# One id of ideas.toml for each harness.

# --- your code ---
DIAGNOSIS = {"ash": "", "birch": "", "cedar": "", "dogwood": "", "elm": ""}
# --- end ---


# == cases ==
# A case that exposes nothing yet: one prompt, one answer. Each case below starts from it.

def healthy_session():
    """One prompt, answered in words. Every harness of the checkpoint handles it well."""
    return {"prompts": [{"text": "Hello."}]}


def case_ash():
    # --- your code ---
    """The session that shows what ash is missing: yours to write."""
    return healthy_session()
    # --- end ---


def case_birch():
    # --- your code ---
    """The session that shows what birch is missing: yours to write."""
    return healthy_session()
    # --- end ---


def case_cedar():
    # --- your code ---
    """The session that shows what cedar is missing: yours to write."""
    return healthy_session()
    # --- end ---


def case_dogwood():
    # --- your code ---
    """The session that shows what dogwood is missing: yours to write."""
    return healthy_session()
    # --- end ---


def case_elm():
    # --- your code ---
    """The session that shows what elm is missing: yours to write."""
    return healthy_session()
    # --- end ---
