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
DIAGNOSIS = {
    "ash": "steering_between_batches",
    "birch": "mutate_then_announce",
    "cedar": "failed_reply_not_acted_on",
    "dogwood": "record_is_not_the_view",
    "elm": "results_directly_after_in_call_order",
}
# --- starter ---
#| DIAGNOSIS = {"ash": "", "birch": "", "cedar": "", "dogwood": "", "elm": ""}
# --- end ---


# == cases ==
# A case that exposes nothing yet: one prompt, one answer. Each case below starts from it.

def healthy_session():
    """One prompt, answered in words. Every harness of the checkpoint handles it well."""
    return {"prompts": [{"text": "Hello."}]}


def case_ash():
    # --- your code ---
    """A steer typed while the first of two tools runs: it must wait for the second result."""
    return {"tools": [{"name": "step", "result": "ok", "steer": "Use spaces, not tabs."}],
            "replies": [lab.reply(lab.text("Two steps."), lab.call("step", {"n": 1}),
                                  lab.call("step", {"n": 2}))],
            "prompts": [{"text": "Do both steps."}]}
    # --- starter ---
    #| """The session that shows what ash is missing: yours to write."""
    #| return healthy_session()
    # --- end ---


def case_birch():
    # --- your code ---
    """Walk away at the sixth event, tool_execution_end: the tool has run, and the record
    must already hold its result when anybody is told so."""
    return {"tools": [{"name": "bash", "result": "3 passed"}],
            "replies": [lab.reply(lab.text("Running the tests."),
                                  lab.call("bash", {"command": "pytest"}))],
            "prompts": [{"text": "Run the tests.", "walk_away_after": 6},
                        {"text": "Did they pass?"}]}
    # --- starter ---
    #| """The session that shows what birch is missing: yours to write."""
    #| return healthy_session()
    # --- end ---


def case_cedar():
    # --- your code ---
    """A reply that breaks off mid-stream with a write call in it: the write must not run."""
    return {"tools": [{"name": "write", "result": "written"}],
            "replies": [lab.fail("stream ended before the message was complete",
                                 lab.text("Writing the file."),
                                 lab.call("write", {"path": "main.py"}))],
            "prompts": [{"text": "Reformat main.py."}]}
    # --- starter ---
    #| """The session that shows what cedar is missing: yours to write."""
    #| return healthy_session()
    # --- end ---


def case_dogwood():
    # --- your code ---
    """Walk away before the tool runs, then prompt again: the request needs INTERRUPTED for
    the dangling call, and the record must not gain it."""
    return {"tools": [{"name": "bash", "result": "3 passed"}],
            "replies": [lab.reply(lab.text("Running the tests."),
                                  lab.call("bash", {"command": "pytest"}))],
            "prompts": [{"text": "Run the tests.", "walk_away_after": 5},
                        {"text": "Never mind. What is in config.py?"}]}
    # --- starter ---
    #| """The session that shows what dogwood is missing: yours to write."""
    #| return healthy_session()
    # --- end ---


def case_elm():
    # --- your code ---
    """A record whose result was written after the next user message: the request needs it
    moved up to its call."""
    read = lab.call("read", {"path": "config.py"}, id="r1")
    return {"record": [lab.user("What is in config.py?"), lab.reply(read),
                       lab.user("Take your time."), lab.tool_result(read, "PORT = 9090\n")],
            "prompts": [{"text": "Well?"}]}
    # --- starter ---
    #| """The session that shows what elm is missing: yours to write."""
    #| return healthy_session()
    # --- end ---
