# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson 09, "But I had something to say": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The format is Jupytext's percent format.

# %% [markdown]
# # 09 · But I had something to say
#
# *Watching and steering a run · ~50 min · 1 lab · builds on 08 · Two writers, one list*
#
# The agent is halfway through reformatting three files when the user sees it using tabs and
# types *"Actually, use spaces."* The harness takes the words at once, and the very next
# request is refused. So is every request after it.
#
# This lesson builds on lesson 08, whose `Harness` owns the transcript and refuses a second
# `prompt()` while a run is going, telling the caller to wait for the run to end or close it.
# Neither is what a user with a correction wants, and by the end of this lesson the refusal
# says something better: *"already running; use steer() or follow_up()"*. New here? Start at
# lesson 01, or carry on: every lab is self-contained, and the harness you start from is
# lesson 08's, finished, with that refusal's new words already in it.
#
# By the end of it your harness can **take your input mid-run, at a safe point**: `steer`,
# for words meant for the next gap between turns (*"use spaces instead"*), and `follow_up`,
# for words meant for when the run would otherwise end (*"now run the tests"*). Most of the
# lesson is about *where* a user message may go, and *when* the loop asks for one.
#
# **How to read it.** Run the cells from top to bottom. Each question lists its options folded
# shut: pick one in your head, then open them. Every figure is drawn from a transcript a cell
# has just made.

# %% id="setup"
# Start here: find the project folder, let this notebook import `lab` from it, and choose the
# harness file the examples run on.
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {here} or above it: open this notebook from "
                            "inside the project, e.g. lessons/09-but-i-had-something-to-say/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import pick_harness, starter_harness

chosen = pick_harness(lesson=9)
harness = chosen.module
print(chosen)

# %% [markdown]
# The lines above say which harness file the examples use, and why: until your own
# `harness.py` lets a steer in at a safe point, it is the lesson's finished harness.
#
# **The notation**, as in every lesson: `U` a user message, `A` an assistant reply, `A[c1,c2]`
# a reply asking for calls `c1` and `c2`, `R(c1)` the result of `c1`, `A(error)` a failed reply.

# %% [markdown]
# ## Words in the middle of a batch
#
# The model asks for three steps in one reply: `c1`, `c2`, `c3`. While step 2 runs, the user
# types *"Actually, use spaces."* Lesson 08's harness had no way to take it; the easy way to
# add one is a `steer` that appends the words to the record as soon as they are typed. Where
# do they land, and what does the provider make of the next request?
#
# <details><summary><b>A</b> · After all three results, where a user message belongs; the next request is fine</summary>
#
# ✗ **No.** That is where they *should* land, and nothing in "append at once" knows it. At the
# moment of typing, step 2 is running: the record ends on `R(c1)`, and `R(c2)` goes in next.
#
# </details>
#
# <details><summary><b>B</b> · Inside the batch, between <code>R(c1)</code> and the result of the call that is running; the next request is refused</summary>
#
# ✓ **Right.** The words are typed while step 2 runs, so they are appended before `R(c2)` is:
# `R(c1) U R(c2) R(c3)`. Call `c2` now has a user message between it and its answer, and a
# strict provider refuses the transcript (the lab's model does the same check).
#
# </details>
#
# <details><summary><b>C</b> · Nowhere: the harness is busy, so the words are dropped</summary>
#
# ✗ **No,** though that would be a bug of its own. Appending always succeeds; the trouble is
# where.
#
# </details>
#
# The cell runs the job on this lesson's starter, `starter_harness(lesson=9)`: lesson 08's
# loop, and a `steer` that appends at once.

# %% id="failure"
def step_tool(typed, slot):
    """The job's tool. `typed` maps the n-th execution of the session (from 1) to what the user
    types while it runs: a list of ("steer" or "follow_up", words)."""
    executions = [0]

    def step(arguments):
        executions[0] += 1
        for kind, words in typed.get(executions[0], []):
            getattr(slot[0], kind)(words)
        return f"step {arguments['n']} done"

    return {"name": "step", "description": "Do one step of the job.",
            "parameters": {"type": "object",
                           "properties": {"n": {"type": "integer", "description": "Which step."}},
                           "required": ["n"]},
            "execute": step}


def steps(*ns):
    return lab.reply(lab.text("On it."), *[lab.call("step", {"n": n}) for n in ns])


def job(module, script, typed=None, prompts=("Reformat the three files.",), before=None):
    """Run `prompts` on a fresh Harness of `module`, the user typing at the moments of `typed`;
    `before` maps a prompt's index to what is typed just before it. Returns (h, model)."""
    slot = []
    model = lab.ScriptedModel(list(script) + [lab.forever(lambda request: lab.say("Anything else?"))])
    h = module.Harness(model, module.SYSTEM, [step_tool(typed or {}, slot)])
    slot.append(h)
    for n, words in enumerate(prompts):
        for kind, said in (before or {}).get(n, []):
            getattr(h, kind)(said)
        for _ in h.prompt(words):
            pass
    return h, model


SPACES = {2: [("steer", "Actually, use spaces.")]}
yesterday = starter_harness(lesson=9)
h, model = job(yesterday, [steps(1, 2, 3), lab.say("Done, with spaces.")], SPACES)
print("the record:    ", lab.shape(h.messages))
print("second request:", lab.shape(model.calls[1].messages))
print("what came back:", h.messages[-1].get("error_message") or harness.text_of(h.messages[-1]))
for _ in h.prompt("Hello?"):
    pass
print("and 'Hello?':  ", h.messages[-1].get("error_message") or harness.text_of(h.messages[-1]))

# %% [markdown]
# `R(c1) U R(c2) R(c3)`: the user's words arrived while the batch was half answered, and they
# went in exactly there, before the result of the call that was running. The second request is refused, and because the record only grows,
# so is *"Hello?"* and everything after it. (Lesson 10 will build a view that could tidy such a
# record for sending; the point here is never to write it in the first place.) Figure 9.1
# puts the two records side by side.

# %% id="figure-9-1"
fixed, _ = job(harness, [steps(1, 2, 3), lab.say("Done, with spaces.")], SPACES)
lab.draw(
    lab.Panel("1 · in at once (the starter)", list(h.messages)[:6]),
    lab.Panel("2 · at the next gap (the finished loop)", list(fixed.messages)),
    title="Figure 9.1  The same words, typed at the same moment",
    caption="Left: the steer appended while step 2 ran, after the result of c1 and before "
            "the result of c2; the request built from it is refused. Right: the steer waits for "
            "the batch to be answered and opens the next turn.")

# %% [markdown]
# ## The two slots a user message can never take
#
# Take a record of one batch: `U A[c1,c2] R(c1) R(c2) A`. A new user message could be put in
# at any of six places, from before the first message to after the last. At how many of them
# is the transcript still one a provider takes?
#
# <details><summary><b>A</b> · All six: a user can speak whenever they like</summary>
#
# ✗ **No.** They can *type* whenever they like. The record has rules of its own: a call is
# answered by its result before anything else (lesson 03).
#
# </details>
#
# <details><summary><b>B</b> · One: only at the very end, after the last reply</summary>
#
# ✗ **No,** that is too strict, and it is also the follow-up's place mixed up with the
# steer's. After `R(c2)`, before the model's next reply, is a perfectly good place to speak.
#
# </details>
#
# <details><summary><b>C</b> · Four: every place except between a call and its result, which in a batch of two is two places</summary>
#
# ✓ **Right.** Between `A[c1,c2]` and `R(c1)`, and between `R(c1)` and `R(c2)`: the middle of
# a batch. Everywhere else a user message is just one more turn of the conversation.
#
# </details>

# %% id="slots"
quiet, _ = job(harness, [steps(1, 2), lab.say("Done.")], prompts=["Reformat the two files."])
batch = list(quiet.messages)  # a real run of one batch, with nothing typed during it
tries = []
for at in range(len(batch) + 1):
    tried = batch[:at] + [lab.user("Actually, use spaces.")] + batch[at:]
    tries.append(tried)
    problems = lab.validate(tried)
    print(f"at {at}: {lab.shape(tried):34} {'refused: ' + problems[0] if problems else 'taken'}")

# %% [markdown]
# Figure 9.2 draws the six candidates, each checked the way a provider checks it. In the two
# refused panels the red badges mark the call and the results that a user message has come
# between.

# %% id="figure-9-2"
lab.draw(*[lab.Panel(f"the user speaks at {at}", tried) for at, tried in enumerate(tries)],
         title="Figure 9.2  Six places for one user message",
         caption="The record of one real batch, with a user message tried at each of its six "
                 "places. The two inside the batch are refused; the other four are turns like "
                 "any other.")

# %% [markdown]
# Two slots out of six are refused, and they are both inside the batch. That is the whole of
# this lesson's rule: **a user message goes in only at the top of a turn**, when every call
# so far has its result. The loop knows when that is; `steer()` does not. So `steer()` only
# queues the words, and the loop *asks* for them at the one moment it knows is safe.

# %% [markdown]
# ## When does the loop ask?
#
# The loop is given `get_steering()`, which returns the user messages waiting (often none).
# A job of three turns: the first reply asks for two calls, the second for one, the third
# for nothing. When should the loop call `get_steering()`?
#
# <details><summary><b>A</b> · At the start of the run and after every turn, once that turn's calls all have their results</summary>
#
# ✓ **Right.** Each of those moments is the top of a turn (or the gap just before it), the one
# place a user message is allowed. Asking at every one of them means a steer waits for no
# more than one batch.
#
# </details>
#
# <details><summary><b>B</b> · After every tool result, so the words get in as soon as possible</summary>
#
# ✗ **No.** After `R(c1)` the call `c2` is still owed its result: that is the refused slot of
# the cell above, reached by the loop instead of by `steer`.
#
# </details>
#
# <details><summary><b>C</b> · Only when the run is over, so the job is never disturbed</summary>
#
# ✗ **No.** Then *"use spaces"* arrives after every file has been written with tabs. That is
# the follow-up's moment, and it is the wrong moment for a correction.
#
# </details>

# %% id="asks"
record, asked = [], []


def asker(name, queue):
    def ask():
        owed = sum(len(harness.tool_calls(m)) for m in record if m["role"] == "assistant") - \
            sum(m["role"] == "toolResult" for m in record)
        asked.append(f"{name} asked after {lab.shape(record) or '(nothing yet)'}"
                     f"{'   <- mid-batch!' if owed else ''}")
        return [queue.pop(0)] if queue else []
    return ask


model = lab.ScriptedModel([steps(1, 2), steps(3), lab.say("All three done.")])
for event in harness.run_agent(model, harness.SYSTEM, [], [step_tool({}, [None])], "Do it.",
                               get_steering=asker("steering", []),
                               get_follow_ups=asker("follow_ups", [])):
    if event["type"] == "message_end":
        record.append(event["message"])
print("\n".join(asked) or "neither queue was ever asked")

# %% [markdown]
# On the finished loop: steering at the very start (the user may have typed while the run was
# being set up), then after each turn with every call answered, and the follow-ups once, when
# the newest reply asked for nothing. (On lesson 08's loop, the starter, neither is ever
# asked: that is the gap you fill.) The cell keeps its own copy of the record from the
# `message_end` events, as any frontend of lesson 07 does.

# %% [markdown]
# ## Two queues, two moments
#
# While step 1 of a two-turn job runs, the user types *"Now run the tests."* with
# `follow_up()`. Where does it land?
#
# <details><summary><b>A</b> · At the top of the next turn, like a steer</summary>
#
# ✗ **No.** Then the model is told to run the tests before it has finished the change they
# are meant to test. A follow-up is for after.
#
# </details>
#
# <details><summary><b>B</b> · After the run's last answer, as a new turn of the same run</summary>
#
# ✓ **Right.** When the newest reply asks for nothing the run would end; the loop asks
# `get_follow_ups()` first, and if there is something, the run goes on with it.
#
# </details>
#
# <details><summary><b>C</b> · Nowhere yet: it waits for the next prompt()</summary>
#
# ✗ **No.** It waits for the run to *end*, not for the user to type again. The point of
# queueing it is that nobody has to come back and say it.
#
# </details>

# %% id="follow-up"
typed = {1: [("follow_up", "Now run the tests.")]}
h, _ = job(harness, [steps(1), steps(2), lab.say("Both files reformatted."), lab.say("Tests pass.")], typed)
print("the record:", lab.shape(h.messages))
print("user words:", [m["content"] for m in h.messages if m["role"] == "user"])

# %% [markdown]
# ## Both at once
#
# During the last call of a job, the user types a follow-up and then a steer. Which one goes
# in first?
#
# <details><summary><b>A</b> · The steer, at the next gap; the follow-up when the run would end</summary>
#
# ✓ **Right.** Steering is asked first at every gap, and the follow-up is only asked when
# there is nothing left to steer and nothing left to call.
#
# </details>
#
# <details><summary><b>B</b> · The follow-up: it was typed first</summary>
#
# ✗ **No.** The queues are two, not one with two labels. Order counts within a queue, not
# across them.
#
# </details>
#
# <details><summary><b>C</b> · Both together, in one user turn</summary>
#
# ✗ **No.** They are meant for different moments; merging them sends *"now run the tests"*
# with the correction, before the corrected work exists.
#
# </details>

# %% id="both"
typed = {1: [("follow_up", "Now run the tests."), ("steer", "Actually, use spaces.")]}
h, _ = job(harness, [steps(1), lab.say("Redone, with spaces."), lab.say("Tests pass.")], typed)
print("the record:", lab.shape(h.messages))
print("user words:", [m["content"] for m in h.messages if m["role"] == "user"])

# %% [markdown]
# ## Words during the last answer
#
# The job is done and the model is writing its final reply, *"Reformatted."*, which asks for
# no tools. While it is being written, the user steers: *"And mention the tests."* The reply
# that comes back was written without those words. What does the loop do next?
#
# <details><summary><b>A</b> · Nothing: the reply asked for nothing, so the run is over, and the steer waits for the next <code>prompt()</code></summary>
#
# ✗ **No.** The run is not over until the loop has looked. At the bottom of every turn that
# did not fail, the loop asks for steering, the last turn included; a steer that is waiting
# is one more thing to do.
#
# </details>
#
# <details><summary><b>B</b> · It appends the words after the reply and ends the run; the record has them, which is what matters</summary>
#
# ✗ **No.** A user message the model never reads is a message the user thinks was heard. The
# record would say the user spoke, and the run would end without anybody answering.
#
# </details>
#
# <details><summary><b>C</b> · It asks for steering, finds the words, and goes on: one more turn, whose request carries them</summary>
#
# ✓ **Right.** The reply asked for no calls, so every call is answered and the top of a new
# turn is a safe place. The steer opens it, and the model answers again, this time having read
# it. Only when steering gives nothing does the loop ask for follow-ups, and only when both
# give nothing does the run end.
#
# </details>
#
# The model in the cell is a stage prop that calls `steer` itself, as it writes its first
# answer: the moment a user types while a request is out.

# %% id="last-answer"
typed_once = []


def final_words(request):
    """Answers in words; while writing its first answer, the user steers."""
    if "And mention the tests." in [m["content"] for m in request.messages if m["role"] == "user"]:
        return lab.say("Reformatted, and the tests pass.")
    if not typed_once:
        typed_once.append(True)
        h.steer("And mention the tests.")  # typed while this request is out
    return lab.say("Reformatted.")


model = lab.ScriptedModel([lab.forever(final_words)])
h = harness.Harness(model, harness.SYSTEM, [])
events = await lab.drive(h.prompt("Reformat main.py."))
print("the record:     ", lab.shape(h.messages))
print("user words:     ", [m["content"] for m in h.messages if m["role"] == "user"])
print("model requests: ", len(model.calls), "  turns:", sum(e["type"] == "turn_start" for e in events))
print("the last answer:", harness.text_of(h.messages[-1]))

# %% [markdown]
# On the harness the examples use: two turns in one run, and the last answer is the one written
# after the steer was read. On the starter the words go straight into the record *before* the
# reply that never read them (`U U A`): a transcript a provider takes, one model call, and a
# user who was not heard. That is this lesson's rule from the other side: a user message joins
# the record only when the loop asks for it, because that is the only moment it is sure to be
# read next.

# %% [markdown]
# ## One at a time
#
# Two steers are typed during one batch: *"Actually, use spaces."*, then *"And no tabs in
# the README either."* The Harness hands the loop one queued message per ask. What does the
# record look like?
#
# <details><summary><b>A</b> · Both at the top of the next turn, as two user messages</summary>
#
# ✗ **No.** That is what a loop that empties the queue at each ask gives. Some harnesses do
# that on purpose; ours, like pi-mono's default, does not.
#
# </details>
#
# <details><summary><b>B</b> · One at the top of the next turn, the other at the top of the turn after</summary>
#
# ✓ **Right.** Each correction gets a reply of its own before the next one is let in; the
# model is never handed a pile.
#
# </details>
#
# <details><summary><b>C</b> · Only the newest: it replaces the older one</summary>
#
# ✗ **No.** Nothing typed is thrown away. A queue is first in, first out.
#
# </details>

# %% id="one-per-ask"
typed = {1: [("steer", "Actually, use spaces.")], 2: [("steer", "And no tabs in the README either.")]}
h, _ = job(harness, [steps(1, 2), lab.say("Spaces it is."), lab.say("README too.")], typed)
print("the record:", lab.shape(h.messages))

# %% [markdown]
# ## Between runs
#
# The run has ended. The user types a steer and a follow-up, and only then a new prompt.
# What becomes of the two queued messages?
#
# <details><summary><b>A</b> · The steer goes in right after the new prompt, at the top of its first turn; the follow-up after that run's answer</summary>
#
# ✓ **Right.** The run asks for steering before its first request, which is the top of a
# turn like any other.
#
# </details>
#
# <details><summary><b>B</b> · They were typed when nothing was running, so they are thrown away</summary>
#
# ✗ **No.** A harness that silently drops what a user typed is worse than one that refuses
# it. The queues belong to the Harness, not to a run: they outlive runs.
#
# </details>
#
# <details><summary><b>C</b> · They start a run of their own at once</summary>
#
# ✗ **No.** Only `prompt()` starts a run. `steer` and `follow_up` never do: they wait for a
# loop to ask.
#
# </details>

# %% id="between-runs"
h, _ = job(harness, [lab.say("Done."), lab.say("With spaces, then."), lab.say("Tests pass.")],
           prompts=["Reformat main.py.", "And config.py."],
           before={1: [("steer", "Actually, use spaces."), ("follow_up", "Now run the tests.")]})
print("the record:", lab.shape(h.messages))
print("user words:", [m["content"] for m in h.messages if m["role"] == "user"])

# %% [markdown]
# ## A follow-up, and a run that fails
#
# The user queues *"Now run the tests."* and prompts *"Reformat main.py."* The provider
# answers 503. The user types *"Try again."*, and this time it works. Where does the
# follow-up land?
#
# <details><summary><b>A</b> · Straight after the 503, as a new turn of the failed run</summary>
#
# ✗ **No.** That asks a provider that has just failed to run the tests of a change that was
# never made. After a failed reply the loop acts on nothing (lesson 05), and asking the
# queues would be acting.
#
# </details>
#
# <details><summary><b>B</b> · It is lost with the failed run</summary>
#
# ✗ **No.** Queues outlive runs, failed ones included.
#
# </details>
#
# <details><summary><b>C</b> · After the answer to "Try again.": it waits for the next run that ends well</summary>
#
# ✓ **Right, and by design.** A follow-up is words for when the work is done. A failed run
# did none of it, so the words wait, and land after the next run's answer, which is the
# first time the work they refer to can have happened.
#
# </details>

# %% id="failed-run"
h, _ = job(harness, [lab.fail("503 overloaded"), lab.say("Reformatted."), lab.say("Tests pass.")],
           prompts=["Reformat main.py.", "Try again."], before={0: [("follow_up", "Now run the tests.")]})
print("the record:", lab.shape(h.messages))
print("user words:", [m["content"] for m in h.messages if m["role"] == "user"])

# %% [markdown]
# That is a decision, and it is this lesson's to make. The other reading, "a follow-up goes
# out whenever a run ends, however it ended", would spend a request on a provider that has
# just failed, about work that was never done, and would start the user's next step without
# them. The cost of ours: if the user never prompts again, the follow-up waits for ever. A
# frontend can show the queue, so the user sees it waiting. A steer queued during a failed
# run waits the same way, and lands after the next prompt.
#
# ### Common answers, and what each one misses
#
# - *"Let `steer` append and have the loop check validity."* Checking finds the hole after it
#   is written; the record never loses it. Only the loop knows when the top of a turn is.
# - *"Use one queue and a flag per message."* It works if the loop reads the flag exactly as
#   two queues would; two queues make the two moments impossible to confuse.
# - *"Interrupt the batch: skip the remaining calls when a steer arrives."* A real design
#   (see below), and it still answers every call; a skipped call needs a result saying so.

# %% [markdown]
# ## A session with both
#
# One session, a steer and a follow-up typed at two different moments of one job. Figure 9.3
# draws every request it sent and the record it kept: each request starts at the top of a
# turn, and none is refused.

# %% id="figure-9-3"
typed = {1: [("steer", "Actually, use spaces.")], 3: [("follow_up", "Now run the tests.")]}
h, model = job(harness, [steps(1, 2), steps(3), lab.say("Spaces."), lab.say("Tests pass.")], typed)
print("requests refused:", sum(bool(lab.validate(r.messages)) for r in model.calls),
      "of", len(model.calls))
lab.draw(*[lab.Panel(f"request {n}", r.messages) for n, r in enumerate(model.calls[:3], 1)],
         lab.Panel("the record", list(h.messages)),
         title="Figure 9.3  Every request starts where a user may speak",
         caption="The steer typed during step 1 waits for step 2's result and opens the next "
                 "turn; the follow-up typed during step 3 waits for the run's last answer.")

# %% [markdown]
# ## Compared with pi-mono
#
# pi-mono's agent loop (badlogic/pi-mono at commit 83378aad, `packages/agent/src/agent-loop.ts`)
# has the same two queues. It asks for steering before the first request (line 165), loops
# *"while (hasMoreToolCalls || pendingMessages.length > 0)"* (line 173), asks again after each
# turn (line 224), and asks for follow-ups only where *"Agent would stop here"* (lines
# 228-234). A reply whose stopReason is `error` or `aborted` ends the run at once, before
# either queue is asked (lines 199-203): the same decision this lesson makes. Its `Agent`
# defaults both queues to `"one-at-a-time"` (`packages/agent/src/agent.ts`, lines 57-64 and
# 160-161).
#
# Where ours is weaker: pi-mono also asks for steering after *each* tool call of a sequential
# batch (lines 397-405), and when there is some, it does not let the words in mid-batch; it
# skips the calls not yet run, each with a result saying it was skipped, and only then opens
# the next turn. A steer there waits for one tool, not a whole batch. Ours waits for the
# batch, which is simpler and never has to write a result for a call it chose not to run;
# for a lab whose tools take milliseconds, that is an acceptable price.

# %% [markdown]
# ## Build it
#
# **The spec.** `run_agent(model, system, messages, tools, prompt, *, max_turns=None,
# get_steering=None, get_follow_ups=None)` asks `get_steering()` at the start and after every
# turn whose calls all have their results, and `get_follow_ups()` only when the newest reply
# asks for nothing; whatever they return is appended at the top of the next turn, and after a
# failed reply neither is asked. `Harness.steer(text)` and `Harness.follow_up(text)` queue a
# user message each; the Harness gives the loop one per ask, and its queues outlive runs.
#
# **Your gaps**, about thirty lines in all, in the order to fill them:
#
# 1. **loop**, in `run_agent` (region 3, about 25 lines): lesson 08's loop, which never asks.
#    Make it two loops: turns until nothing is called or steered, then the follow-ups.
# 2. **queues**, in `Harness` (region 4, four lines): `steer` and `follow_up`, which today
#    append straight to the record.
#
# **The hidden tests**, each in one line:
#
# - a steer typed mid-batch lands after the whole batch (loop, 2) <!-- test: test_a_steer_typed_mid_batch_lands_after_the_whole_batch -->
# - steering is asked after every turn and never mid-batch (loop, 2) <!-- test: test_steering_is_asked_after_every_turn_and_never_mid_batch -->
# - a follow-up lands only when the run would end (loop, 2) <!-- test: test_a_follow_up_lands_only_when_the_run_would_end -->
# - steering is asked before follow-ups (loop, 1) <!-- test: test_steering_is_asked_before_follow_ups -->
# - neither queue is asked after a failed reply (loop, 2) <!-- test: test_neither_queue_is_asked_after_a_failed_reply -->
# - with nothing typed, a run is lesson 08's (given) <!-- test: test_a_run_with_nothing_typed_is_lesson_08s_run -->
# - Harness.steer waits for the batch (queues, 2) <!-- test: test_harness_steer_waits_for_the_batch -->
# - a follow-up typed mid-run lands after the last answer (queues, 2) <!-- test: test_a_follow_up_typed_mid_run_lands_after_the_last_answer -->
# - words typed between runs wait for the next run (queues, 1) <!-- test: test_words_typed_between_runs_wait_for_the_next_run -->
# - two steers in one batch land one turn apiece (queues, 1) <!-- test: test_two_steers_in_one_batch_land_one_turn_apiece -->
# - a follow-up queued before a failed run waits for the next answer (queues, 2) <!-- test: test_a_follow_up_queued_before_a_failed_run_waits_for_the_next_answer -->
# - prompt() while running says "already running; use steer() or follow_up()" (given) <!-- test: test_prompt_while_running_says_use_steer_or_follow_up -->
# - a caller that appends to what `messages` handed it leaves the record as it was: lesson 08's snapshot (given) <!-- test: test_appending_to_what_messages_hands_out_leaves_the_record_alone -->
# - any job, words typed at any moment: every word lands where the rules say (loop, 2, generated) <!-- test: test_any_job_lands_every_word_where_the_loop_rules_say -->
# - the same through the Harness, over several prompts (queues, 2, generated) <!-- test: test_any_session_lands_every_word_where_the_harness_rules_say -->
#
# <details><summary>A hint for the gap in run_agent (loop)</summary>
#
# Walk through one job of two turns and mark every moment at which each call made so far has
# its result. Which of those moments comes before a request, and which is the moment the run
# would otherwise end? And what must the loop not do at all once a reply has failed?
#
# </details>
#
# <details><summary>An outline of the gap in run_agent (loop)</summary>
#
# Keep a list of user messages waiting to open the next turn: the prompt, plus whatever
# steering says before the first request. An inner loop runs turns while the reply asked for
# calls or something is waiting; at the top of each turn, record the waiting messages, then
# make the request, record the reply, and run its calls as lesson 08's loop did. At the bottom
# of a turn that did not fail, ask steering and keep what it gives for the next turn. When the
# inner loop ends without a failure, ask the follow-ups; if they give anything, go round the
# outer loop again with it as the waiting messages. A failed reply asks nobody. `agent_end`
# stays the one way out.
#
# </details>
#
# <details><summary>A hint for the gap in Harness (queues)</summary>
#
# `steer` is called while a tool runs, in the middle of a batch. What is the one thing it may
# do then that cannot put a message in the wrong place? Who, in the given code, reads what it
# leaves behind?
#
# </details>
#
# <details><summary>An outline of the gap in Harness (queues)</summary>
#
# The Harness already owns two queues, one for steering and one for follow-ups, and `_run`
# already hands the loop a function for each that gives out the oldest queued message, one per
# ask. `steer` and `follow_up` each make a user message of the text and add it to the back of
# their own queue; neither touches the record.
#
# </details>
#
# To grade your file, from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 09
# ```
#
# The report ends with the next thing to do; `lab-check --hint` gives up to three hints for
# the first failing test. When every test passes, run this notebook's first cell again: it
# will choose your `harness.py`.

# %% [markdown]
# ## After it passes: a long afternoon
#
# Five prompts, a steer or a follow-up typed at moments picked by a seeded dice, some replies
# failing with a 503. No tests here: read what it prints. On a harness that passes, every
# request is one a provider takes, every steer lands at the top of a turn with the batch
# before it answered, every follow-up lands after an answer, and whatever has not landed yet
# is still waiting in its queue, not lost. On the starter the first steer typed mid-batch is
# enough to have every later request refused.

# %% id="after-pass"
import random

chance = random.Random(9)
script = [chance.choice([steps(1), steps(1, 2), lab.say("Done."), lab.fail("503 overloaded")])
          for _ in range(14)]
typed = {n: [(chance.choice(["steer", "follow_up"]), f"note {n}")] for n in range(1, 7, 2)}
h, model = job(harness, script, typed, prompts=[f"Task {n}." for n in range(5)])
refused = [lab.validate(r.messages)[0] for r in model.calls if lab.validate(r.messages)]
print("requests:", len(model.calls), " refused:", len(refused), refused[:1])
print("the record:", lab.shape(h.messages))
record = list(h.messages)
executions = sum(m["role"] == "toolResult" for m in record)  # one result per tool that ran
for at in sorted(typed):
    for kind, words in typed[at]:
        if at > executions:
            print(f"  {kind:9} {words!r:9} never typed: "
                  f"the session ran only {lab.counted(executions, 'tool')}")
            continue
        where = [i for i, m in enumerate(record) if m["role"] == "user" and m["content"] == words]
        if not where:
            print(f"  {kind:9} {words!r:9} typed during tool {at}, not in the record: still queued")
            continue
        owed = sum(len(harness.tool_calls(m)) for m in record[:where[0]]
                   if m["role"] == "assistant") - sum(m["role"] == "toolResult"
                                                      for m in record[:where[0]])
        print(f"  {kind:9} {words!r:9} typed during tool {at}, landed after "
              f"{lab.shape(record[where[0] - 1:where[0]]):6} "
              f"{'MID-BATCH: ' + str(owed) + ' calls still owed' if owed else 'every call answered'}")

# %% [markdown]
# ## In your own words
#
# Two questions. Answer each in a sentence or two before you open the model answer.
#
# 1. A colleague asks why `steer()` does not simply append the message, "since the harness
#    owns the record anyway, and appending is what owning it means". What do you tell them?
# 2. Your harness has two queues for user messages, and pi-mono's has the same two. Why two?
#    What would one queue, asked at every gap, get wrong?
#
# <details><summary>A hint</summary>
#
# For the first: at the moment the user types, who knows whether a call is waiting for its
# result? For the second: "use spaces" and "now run the tests" are both user messages. What is
# the difference between them, and is it something the words themselves carry?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# 1. Owning the record means deciding *when* something is written to it, not writing the moment
#    you are asked. The user types at any time, but a user message is valid only at the top of a
#    turn, and only the loop knows when a batch has been answered; `steer()` runs inside a tool,
#    in the one place a user message must never go. So `steer` queues, and the loop asks at the
#    gap it knows is safe. The record then never holds the hole, which matters because the
#    record only grows: a message written in the wrong slot is refused on every request after it.
# 2. Because the two kinds of words are meant for two different moments, and the moment is not
#    in the words. A steer corrects the work that is under way, so it belongs at the next gap;
#    a follow-up is about the work once it is done, so it belongs where the run would end. One
#    queue asked at every gap would hand "now run the tests" to the model between the first
#    batch and the second, before the change it tests exists; one queue asked only at the end
#    would deliver "use spaces" after every file had been written with tabs.
#
# Common answers, and what each one misses:
#
# - *"It usually lands at a safe point."* Usually is the problem: the refusal, and every one
#   after it, comes from the one time it did not, and a tool that calls back into the harness
#   (as the opening's did) makes that time the common case.
# - *"Lock the record while a tool runs, and let `steer` wait for the lock."* Then the user's
#   program stalls until the tool is done, which is what a queue was for, and once the lock is
#   released the words still go in wherever the run has got to: between `R(c1)` and `R(c2)`, if
#   the batch has two calls.
# - *"One queue is enough if the message says which kind it is."* It can work, if the loop reads
#   that label exactly as two queues would; two queues make it impossible to hand the wrong one
#   out at the wrong moment, and each keeps its own order.
# - *"The model can cope with a user message mid-batch; it is only text."* The model never gets
#   to try: the provider checks the shape of the request before any model reads it (lesson 10
#   meets the same check from the other side).
#
# </details>

# %% [markdown]
# ## A further case
#
# The user types *"stop"* with `steer()` while a slow test suite runs as the second call of a
# batch of three. With our harness the suite finishes, the third call runs too, and the model
# reads *"stop"* at the top of the next turn. Is that good enough? What would it take to stop
# sooner without breaking the rule of this lesson? Write the rule you would apply in one
# sentence, so that it also settles the next case like it.
#
# <details><summary>A hint</summary>
#
# Who can stop a running tool: the model, the words, or the harness? And if the harness does
# stop the batch early, what does each call that never ran still need?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# The rule: **a user's words go only to the model, at the top of a turn; anything that must act
# sooner is the harness's to do, and every call it cuts short still gets a true result.** Words
# cannot stop a process. A steer changes the model's mind at the next gap; it does nothing to
# the tool that is running, and in our harness nothing to the calls of the batch still waiting.
# To stop sooner, the harness must act: skip the calls not yet started, each answered with a
# result that says it was skipped and why, and only then let *"stop"* in at the top of the next
# turn. That is exactly what pi-mono does after each tool of a sequential batch (see "Compared
# with pi-mono"). To stop the suite itself, mid-run, the harness would have to cancel the tool,
# and then the call's result can honestly say only that it was interrupted: lesson 10 writes
# that sentence. The next case like it: the user types *"wait, not that folder"* while a
# `write` is queued as the third call. Same rule: the words wait for the gap; if the write must
# not happen, it is the harness that skips it, with a result saying so.
#
# Common answers, and what each one misses:
#
# - *"Let a steer that says stop jump the queue and go in at once."* That is the opening's bug
#   with a special case: a user message between a call and its result, refused on every request
#   after it. What a message says does not change where it may go.
# - *"Drop the rest of the batch when a steer arrives."* Dropping is not skipping: a call with
#   no result is refused by the provider, and a call removed from the reply rewrites what the
#   model said.
# - *"The model will stop at the next turn anyway; nothing is lost."* Here nothing is; with a
#   `write` or a deploy still in the batch, a great deal can be. "Good enough" depends on what
#   the waiting calls do, which is why pi-mono pays for the extra code.
#
# </details>
#
# The cell runs the case on the harness the examples use: both steps run, and the model reads
# *"stop"* only once the batch is answered.

# %% id="further-case"
typed = {1: [("steer", "stop")]}
h, _ = job(harness, [steps(1, 2), lab.say("Stopping, as asked.")], typed)
record = list(h.messages)
said = [i for i, m in enumerate(record) if m["role"] == "user" and m["content"] == "stop"]
print("the record:", lab.shape(record))
print("results recorded before 'stop':",
      [m["content"] for m in record[:said[0] if said else None] if m["role"] == "toolResult"])
print("what came back after it:", record[-1].get("error_message") or harness.text_of(record[-1]))

# %% [markdown]
# ### Your harness can
#
# 1. Hold a conversation: it knows what was said, and who said it.
# 2. Run a tool the model asks for and show it the result.
# 3. Keep going until the model stops asking.
# 4. Tell the model when a tool fails, and carry on.
# 5. Stop a runaway, and survive a provider failure.
# 6. Keep every tool result within a budget.
# 7. Report what it is doing, as events, to any frontend.
# 8. Own its transcript: one writer at a time.
# 9. **New:** Take your input mid-run, at a safe point.

# %% [markdown]
# ## Wrapping up
#
# **You hit** a steer let in the moment it was typed, between the result of one call and the
# result of the next, and a session refused from then on.
#
# **You built** the two queues and the loop's two asks: steering at every gap between turns,
# follow-ups only when the run would end, one message per ask, nothing asked after a failure.
#
# **The principle:** the user may type at any time; the record takes a user message only at
# the top of a turn, and only the loop knows when that is.
#
# **Your harness now** (new in this lesson in bold):
#
# - `SYSTEM`, `user_message`, `text_of` (lesson 01)
# - `tool_calls`, `tool_specs`, `run_tool`, `make_read_tool`, `make_write_tool`,
#   `make_bash_tool` (lesson 02; `str_arg`, `int_arg` from lesson 04)
# - `error_message`, `context_for_model` (lesson 05)
# - `MAX_LINES`, `MAX_BYTES`, `fit_budget` (lesson 06)
# - `JsonRenderer`, `FinalTextRenderer` (lesson 07)
# - `Harness`: `messages`, `is_running`, `prompt` and the door in `_run` (lesson 08)
# - `run_agent`, lessons 03, 05 and 07's loop, **now asking `get_steering` at every gap
#   between turns and `get_follow_ups` where the run would end, and neither after a failure**
# - **`Harness.steer`, `Harness.follow_up`**: two queues that outlive runs, one message per ask
#
# **Still open.** The user closes the tab while the tests are starting. The run is closed at
# `tool_execution_start`, the tool never runs, and the record ends on a call with no result.
# Every later prompt is refused. Your loop never lets a user message into a batch, but it
# cannot stop a consumer from walking away from one.
#
# **Previous:** 08 · Two writers, one list.
#
# **Next:** 10 · The poisoned transcript.
