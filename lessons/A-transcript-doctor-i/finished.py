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
DIAGNOSIS = {
    "auk": "result_under_the_calls_id",
    "bittern": "every_call_answered_in_call_order",
    "crane": "run_carries_on_after_a_tool_error",
    "dunlin": "max_turns_counts_every_request",
    "egret": "empty_failure_left_out",
}
# --- starter ---
#| DIAGNOSIS = {"auk": "", "bittern": "", "crane": "", "dunlin": "", "egret": ""}
# --- end ---


# == cases ==
# A case that exposes nothing yet: one prompt, one answer. Each case below starts from it.

def healthy_session():
    """One prompt, answered in words. Every harness of the checkpoint handles it well."""
    return {"prompts": [{"text": "Hello."}]}


def case_auk():
    # --- your code ---
    """One call, numbered by the model: auk files its result under "read", not "c1"."""
    return {"tools": [{"name": "read", "result": "PORT = 8080\n"}],
            "replies": [lab.reply(lab.call("read", {"path": "settings.toml"}))],
            "prompts": [{"text": "Which port is set in settings.toml?"}]}
    # --- starter ---
    #| """The session that shows what auk is missing: yours to write."""
    #| return healthy_session()
    # --- end ---


def case_bittern():
    # --- your code ---
    """Two calls in one reply: bittern answers the first and asks again."""
    return {"tools": [{"name": "read", "result": "x = 1\n"}],
            "replies": [lab.reply(lab.call("read", {"path": "a.py"}),
                                  lab.call("read", {"path": "b.py"}))],
            "prompts": [{"text": "Read a.py and b.py."}]}
    # --- starter ---
    #| """The session that shows what bittern is missing: yours to write."""
    #| return healthy_session()
    # --- end ---


def case_crane():
    # --- your code ---
    """A tool that raises: crane stops with the error unread."""
    return {"tools": [{"name": "read", "error": "File not found: notes.md"}],
            "replies": [lab.reply(lab.call("read", {"path": "notes.md"}))],
            "prompts": [{"text": "Summarise notes.md."}]}
    # --- starter ---
    #| """The session that shows what crane is missing: yours to write."""
    #| return healthy_session()
    # --- end ---


def case_dunlin():
    # --- your code ---
    """A model that keeps asking, and a limit of two: dunlin sends a third request."""
    step = lab.call("step", {})
    return {"tools": [{"name": "step", "result": "ok"}],
            "replies": [lab.reply(step), lab.reply(lab.call("step", {})),
                        lab.reply(lab.call("step", {}))],
            "prompts": [{"text": "Keep stepping."}], "max_turns": 2}
    # --- starter ---
    #| """The session that shows what dunlin is missing: yours to write."""
    #| return healthy_session()
    # --- end ---


def case_egret():
    # --- your code ---
    """A reply that fails with nothing in it, then a second prompt: egret fills the gap."""
    return {"replies": [lab.fail("503 Service Unavailable")],
            "prompts": [{"text": "Hello?"}, {"text": "Are you there?"}]}
    # --- starter ---
    #| """The session that shows what egret is missing: yours to write."""
    #| return healthy_session()
    # --- end ---
