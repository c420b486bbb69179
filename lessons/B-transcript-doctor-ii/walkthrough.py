# Checkpoint B, "Transcript doctor II": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook`
# to write the notebook again (outputs stripped). tests/test_checkpoint_b.py proves the
# committed notebook is what this makes and runs it on a real kernel.

# %% [markdown]
# # Checkpoint B · Transcript doctor II
#
# *Five harnesses, five ways of being nearly right · after lesson 10 · one graded lab*
#
# Lessons 5 to 10 each added one idea to your harness, and each idea was there for a
# session that goes wrong in one particular way. A harness that lacks one of them still runs,
# still answers, and passes most sessions you would think of trying. That is what makes a
# missing idea dangerous, and it is what this checkpoint is about.
#
# The grader holds five harnesses, **ash**, **birch**, **cedar**, **dogwood** and **elm**.
# Each is lesson 10's finished harness with exactly one idea of lessons 5 to 10 taken out. You
# never see their code. You see what they do, the way you would see a colleague's harness
# misbehave in production: through the record it keeps, the requests it sends, and the events
# it hands out. For each of them you write, in `doctor.py`:
#
# 1. **a diagnosis**: the id of the missing idea, from `ideas.toml`;
# 2. **a case**: a session, written as plain data, on which that harness breaks a rule of
#    the course and lesson 10's finished harness breaks none.
#
# This notebook shows how to examine a harness, works one example from start to finish on a
# sixth harness, **fir**, that is not among the five, and ends with what the grader does.

# %% id="setup"
# Start here: find the project folder, let this notebook import `lab` from it, and load the two
# harnesses the worked example compares: lesson 10's finished harness, and fir.
import pathlib
import sys
import tomllib

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "lab").is_dir()
             and (folder / "lessons").is_dir()), None)
if ROOT is None:
    raise FileNotFoundError(f"no lab/ in {here} or above it: open this notebook from inside "
                            "the project, e.g. lessons/B-transcript-doctor-ii/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab import clinic, lessons, rules
from lab.harnesses import load_harness, nearly_right

CHECKPOINT = lessons.lesson("B").folder
finished = load_harness(lessons.lesson(10).finished)
fir = nearly_right(CHECKPOINT / "fir.patch")
IDEAS = tomllib.loads((CHECKPOINT / "ideas.toml").read_text())["ideas"]
print(f"{len(IDEAS)} ideas to choose from; harnesses loaded: finished, fir")

# %% [markdown]
# ## The rules a session is judged by
#
# The grader does not read a harness's code either. It runs your case and checks what
# happened against the rules the course has been building, each one something you can see
# from outside: in the requests, in the record, or in which tools ran.

# %% id="rules"
for name, words in rules.RULES.items():
    print(f"{name:10} {words}")

# %% [markdown]
# A rule names a symptom, not a cause. The same broken rule can come from different missing
# ideas, and one missing idea can break different rules in different sessions. The rule tells
# you *where to look*; the session you wrote tells you *what the harness did there*; the
# diagnosis is yours to make.

# %% [markdown]
# ## How to examine a harness
#
# A case is a dict: the record the harness starts from, the session's tools and what each
# does, the model's replies in order, and the prompts, each run to its end or walked away from
# after a number of events. `clinic.visit(harness, case)` runs it and keeps everything it saw.
# Start with the dullest session there is: one prompt, one answer.

# %% id="healthy"
hello = {"prompts": [{"text": "Hello."}]}

seen = clinic.visit(fir, hello)

print(seen.describe())
print("rules broken:", rules.judge(seen) or "none")

# %% [markdown]
# Three things to read in every visit, in this order:
#
# - **the events** of each prompt: here six, from `agent_start` to `agent_end`. Walking away
#   after event *k* is how a user closes the lid at exactly that moment.
# - **the record**, `seen.records[k]` after prompt *k*: what the harness keeps as having
#   happened. It may only grow, and only with what somebody typed, the model said or a tool
#   returned.
# - **the requests**, `seen.requests[n].messages`, each kept with `.record`, the record as it
#   stood when that request was sent, and `.refusal`, the provider's 400 if it refused.
#
# fir passes the healthy session, as all five of the checkpoint's harnesses do. Every
# missing idea needs a session that *goes wrong in its particular way*: that is the case you
# are looking for.

# %% [markdown]
# ## A worked example: what is fir missing?
#
# Which sessions leave something for a harness to get wrong? Lesson 10 opened with one: the
# user walks away while a tool is about to run, and prompts again later. Count the events of
# a run with one tool call: `agent_start`, `turn_start`, the prompt's `message_end`, the
# reply's `message_end`, then `tool_execution_start`. Walking away after event 5 leaves a call
# whose tool never ran.
#
# <details><summary>Why event 5, and not 6?</summary>
#
# After event 5 the run is paused at the `yield` that announced the tool, before the tool is
# called: closing the run there means the tool never starts. Event 6, on a correct harness, is
# the `message_end` of the tool's result, which is on the record by then.
#
# </details>

# %% id="walk-away"
walk_away = {
    "tools": [{"name": "bash", "result": "3 passed"}],
    "replies": [lab.reply(lab.text("Running the tests."), lab.call("bash", {"command": "pytest"}))],
    "prompts": [{"text": "Run the tests.", "walk_away_after": 5},
                {"text": "Never mind. What is in config.py?"}],
}

on_finished, on_fir = clinic.visit(finished, walk_away), clinic.visit(fir, walk_away)

for label, seen in (("finished", on_finished), ("fir", on_fir)):
    print(f"== {label}\n{seen.describe()}")
    print("rules broken:", [str(b) for b in rules.judge(seen)] or "none", "\n")

# %% [markdown]
# Both harnesses sent a request the provider accepted, and both kept the same record. The
# finished harness broke no rule; fir broke one, and the sentence says which message was at
# fault. `rules.picture` draws the second request next to the record it was built from,
# message by message: what the request holds and the record does not is marked, and the
# broken rule is written above and under it.

# %% id="figure-b-1"
breach = rules.judge(on_fir)[0]
rules.picture(on_fir, breach, title="Figure B.1 · fir after a walk-away: the request holds a "
                                    "reply the model never wrote")

# %% [markdown]
# The record's `A[c1]` became a plain `A` in the request: the call is gone. The provider
# has no objection, because a reply with words and no call is perfectly valid. The model, on
# the other hand, is now shown a turn in which it said "Running the tests." and then did
# nothing, and it will believe that. Set fir's request beside the one the finished harness
# sent for the same session, and the difference is two messages:

# %% id="figure-b-2"
lab.draw(("request 2 on the finished harness", on_finished.requests[1].messages),
         ("request 2 on fir", on_fir.requests[1].messages),
         compare=True, title="Figure B.2 · the same session, the same record, two requests")

# %% [markdown]
# ### From the symptom to the idea
#
# Which idea of the list does this? Read the candidates against what the figures show:
#
# <details><summary><b>A</b> · <code>record_is_not_the_view</code></summary>
#
# ✗ The record is untouched: both harnesses ended on the same record, and the rewriting
# happened in the request only. That is the view doing its job, badly.
#
# </details>
#
# <details><summary><b>B</b> · <code>answer_the_dangling_call</code></summary>
#
# ✓ The call had no result, and instead of answering it with INTERRUPTED, fir took it out of
# the reply. Deleting a call is the one repair the provider cannot tell from the truth.
#
# </details>
#
# <details><summary><b>C</b> · <code>repair_every_request</code></summary>
#
# ✗ fir did repair the second request, which was built after the damage happened; a harness
# that repaired only once, at load, would have sent the dangling call and been refused.
#
# </details>

# %% id="diagnosis"
print("fir:", "answer_the_dangling_call", "-", IDEAS["answer_the_dangling_call"]["idea"])
print("and fir says of itself:", fir.MISSING)

# %% [markdown]
# ### The same idea, another symptom
#
# A missing idea does not always break the same rule. If the reply carries the call and no
# words, deleting the call leaves an assistant message with nothing in it, and *that* the
# provider refuses. Same harness, same missing idea, a different broken rule:

# %% id="figure-b-3"
no_words = dict(walk_away, replies=[lab.reply(lab.call("bash", {"command": "pytest"}))])
seen = clinic.visit(fir, no_words)
print([b.rule for b in rules.judge(seen)])
rules.picture(seen, rules.judge(seen)[0], title="Figure B.3 · fir again: a call with no words "
                                                "around it is refused once deleted")

# %% [markdown]
# ### Before you hand a case in: run it on the finished harness
#
# A case scores only if the finished harness keeps every rule on it. A case can be wrong on
# its own: a record that is not a real session, or call ids that clash. Here the hand-made
# record calls its call `c1`, and the model hands out `c1` again for the next call:

# %% id="own-bug"
read = lab.call("read", {"path": "config.py"}, id="c1")
clash = {"record": [lab.user("Read config.py."), lab.reply(read), lab.tool_result(read, "PORT = 9090\n")],
         "tools": [{"name": "read", "result": "PORT = 9090\n"}],
         "replies": [lab.reply(lab.call("read", {"path": "config.py"}))],
         "prompts": [{"text": "Read it again."}]}

seen = clinic.visit(finished, clash)
for found in rules.judge(seen):
    print(rules.explain(seen, found))

# %% [markdown]
# The grader reports exactly this when a case breaks the correct harness: the rule, the
# record, the request and the refusal. Give hand-made calls ids of your own (`r1`, `r2`),
# which the scripted model never hands out, and the clash is gone.

# %% [markdown]
# ## Your turn
#
# `doctor.py`, at the top of the project, holds `DIAGNOSIS` and one `case_<name>()` for each
# of the five. Each case function returns a case; the lab's builders (`lab.reply`,
# `lab.call`, `lab.fail`, ...) make the messages. Sessions worth trying, each a place where one
# of the ideas is the only thing standing between a harness and a broken rule:
#
# - walking away after each event of a run in turn, then prompting again;
# - a steer typed while a tool runs, in batches of one call and of several;
# - a reply that fails, with nothing in it, with words, with a call in it;
# - a record handed over already damaged: a missing result, an orphan, a late result, two
#   results for one call, results out of call order;
# - a second and a third prompt after any of these.
#
# Run each candidate on `finished` here first. Then grade the file:
#
# ```
# lab-check --harness doctor.py --lesson B
# ```
#
# For a case that breaks nothing on its harness, the report shows what happened there: the
# events, the records and the requests. That is the examination; the diagnosis is yours.
