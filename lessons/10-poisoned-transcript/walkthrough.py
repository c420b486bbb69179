# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson 10, "The poisoned transcript": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The format is Jupytext's percent format
# (see lab/notebook/ipynb.py); the block above is its header, the notebook's metadata.
# tests/test_notebook.py proves the committed notebook is what this makes,
# runs it on a real kernel, and checks what its cells print against the lesson.

# %% [markdown]
# # 10 · The poisoned transcript
#
# *Watching and steering a run · ~50 min · 1 lab · builds on 09 · But I had something to say*
#
# **The user walked away in the middle of a tool. Every prompt after that is refused.**
#
# Picture the session. Your user asks the agent to reformat a file and run the test suite,
# and shuts the laptop lid just as pytest is about to launch. When they come back, they type
# "never mind". The provider replies with a 400. A second try: 400. A third: 400. The session
# is dead, and nothing they type will bring it back.
#
# This notebook takes you from that dead session to a harness that answers all three
# prompts, and does it without inventing a single fact.
#
# This lesson builds on lesson 09, whose harness takes the user's words mid-run and lets them
# in only at the top of a turn; it leans on lesson 05's failed reply, lesson 07's ordering rule
# and lesson 08's door as well, and names each where it does. New here? Start at lesson 01, or
# carry on: every lab is self-contained, and the harness you start from is lesson 09's,
# finished, with this lesson's two gaps.
#
# **How to read it.** Run the cells from top to bottom. Each question lists its options folded
# shut: settle on one in your head, then click to unfold the verdicts. Every figure is drawn
# live from a transcript built a cell or two earlier, so if you edit a cell, re-run its figure.

# %% id="setup"
# Start here: locate the project folder (it holds damaged.py), let this notebook import
# `lab` and `damaged` from it, and choose which harness file the examples use.
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {here} or above it: open this notebook from "
                            "inside the project, e.g. lessons/10-poisoned-transcript/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import damaged
import lab
from lab.notebook.harnesses import patched, pick_harness, starter_harness, with_repair

chosen = pick_harness(lesson=10)
harness = chosen.module
print(chosen)

# %% [markdown]
# The two lines printed above name the harness file the examples are using, and the reason.
# Read them again whenever an example surprises you: while your own `harness.py` still has its
# two gaps, the repair at work in the examples is not yours, and those lines say what stands
# in for it. Fill the gaps, re-run that cell, and the examples run on your code.

# %% [markdown]
# ## Warm-up: where does a steer land?
#
# **The notation.** This lesson writes a transcript as its *shape*, one token a message, as
# `lab.shape` prints it (and lab_check's reports too): `U` is a user message, `A` an assistant
# reply, `A[c1,c2]` a reply asking for the tool calls `c1` and `c2`, `(error)` after an `A`
# marks a reply that failed, and `R(c1)` is the result of call `c1`. So `U A[c1] R(c1) A`
# reads: the user asks, the model calls one tool, its result comes back, the model answers.
# Where a message is named by its place, as in `messages[1]`, counting starts at 0.
#
# One reply from the model requests three tools: `c1`, `c2` and `c3`. Midway through the
# second, *"Actually, use spaces."* arrives from the user, and `steer()` queues it. Once the run is over, where in the record does that user message sit?
#
# <details><summary><b>A</b> · After the third result, at the start of the following turn: <code>U A[c1,c2,c3] R(c1) R(c2) R(c3) U A</code></summary>
#
# ✓ **Right.** The loop checks the steering queue only once the whole batch has been answered,
# and it opens the next turn with what it finds, which is a legal place for a user to speak.
#
# </details>
#
# <details><summary><b>B</b> · Immediately after c2's result: <code>U A[c1,c2,c3] R(c1) R(c2) U R(c3) A</code></summary>
#
# ✗ **No.** That files the message the instant it is typed, which leaves a user turn wedged
# between call `c3` and its answer: the very slot lesson 9 taught you to keep empty.
#
# </details>
#
# <details><summary><b>C</b> · After the run's final reply, as a turn of its own: <code>U A[c1,c2,c3] R(c1) R(c2) R(c3) A U A</code></summary>
#
# ✗ **No,** that is how a follow-up behaves. Both queues carry user messages; they differ in
# *when* the loop consults them, and the steering queue is consulted at the earliest safe gap.
#
# </details>

# %% id="steering"
def step_tool(execute):
    """A tool named `step`, taking the step's number as n; running it calls `execute`."""
    number = {"type": "integer", "description": "Which step."}
    return {"name": "step", "description": "Do one step of the job.", "execute": execute,
            "parameters": {"type": "object", "properties": {"n": number}, "required": ["n"]}}


def step_with_an_interruption(arguments):
    n = arguments["n"]
    if n == 2:  # the user types while the second step is still going
        h.steer("Actually, use spaces.")
    return f"step {n} done"


three_calls = [lab.call("step", {"n": n}) for n in (1, 2, 3)]
model = lab.ScriptedModel([lab.reply(lab.text("Three steps, then."), *three_calls),
                           lab.say("Done, with spaces.")])
h = harness.Harness(model, harness.SYSTEM, [step_tool(step_with_an_interruption)])
await lab.drive(h.prompt("Do the three steps."))

report = {"the record:": lab.shape(h.messages),
          "model calls:": len(model.calls),
          "second request:": lab.shape(model.calls[1].messages),
          "valid record:": lab.validate(list(h.messages)) == []}
for label, value in report.items():
    print(f"{label:17}", value)

# %% [markdown]
# The model was called twice, and the second request ends with the steer, in a shape that
# providers accept. Every call from the first reply got its answer, in order, before any other
# message was let in. Keep an eye on that word *every*: this lesson is about the moment it
# breaks.

# %% [markdown]
# ## Lesson 05's 503, on a colleague's harness
#
# Before the new failure, an old one. Lesson 05 met a provider that answered one request with
# `503 overloaded`, and gave your `context_for_model` its first job because of it. Your
# colleague's harness is a copy of yours with that job undone: each request is simply the
# record, unfiltered. Their session is humming along when a single model call fails with the
# same 503. What happens to the prompts that follow?
#
# <details><summary><b>A</b> · Business as usual: the failure is saved like any message, and the following prompt simply calls the model again</summary>
#
# ✗ **No.** Being saved like any other message is the problem. Since lesson 05, a failed
# reply is stored with empty content, and the lab's provider, like Anthropic's, rejects an
# assistant turn with nothing in it.
#
# </details>
#
# <details><summary><b>B</b> · That prompt and every later one are rejected, for as long as the failure keeps going out</summary>
#
# ✓ **Right.** One outage, one dead session. Count the 400s in the output.
#
# </details>
#
# <details><summary><b>C</b> · One rejection, then recovery, once something newer than the failure has been recorded</summary>
#
# ✗ **No.** That assumes the damage ages out. The record never shrinks, so the empty reply
# is there permanently; what goes out is a choice that has to be made again on each request.
#
# </details>
#
# For this one cell, `patched` gives `harness` the colleague's version of
# `context_for_model`, and restores yours when the `with` block exits, so later cells are
# unaffected.

# %% id="teammate-503"
def outcome(message):
    """What the user ends up seeing for a reply: its error if it failed, otherwise its text."""
    if message.get("error_message"):
        return message["error_message"]
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")


def unfiltered(messages):
    """The colleague's context_for_model: the record, exactly as it stands."""
    return list(messages)


prompts = ["What is in config.py?", "And main.py?", "Never mind. Hello?", "Anyone?"]
replies = [lab.say("config.py sets PORT = 9090."), lab.fail("503 overloaded"),
           lab.say("It is back."), lab.say("Still here.")]
with patched(harness, context_for_model=unfiltered):
    model = lab.ScriptedModel(replies)
    h = harness.Harness(model, harness.SYSTEM, [])
    for prompt in prompts:
        await lab.drive(h.prompt(prompt))
        print(f"{prompt!r:24} -> {outcome(h.messages[-1])}")
print()
print("the record:", lab.shape(h.messages))

# %% [markdown]
# What your colleague deleted is exactly lesson 05's `context_for_model`: the empty failure
# stays in the record, readable by anyone investigating later, and is kept out of each
# request. Without that one function, two prompts were lost for good. Lesson 05 used the move
# for one kind of message. Remember its shape, since the rest of this lesson turns it into a
# rule: **something the record must keep is not always something a request may carry.**

# %% [markdown]
# ## Walking away mid-tool
#
# The user asks: *"Reformat main.py and run the tests."* The model replies *"Running the
# tests."* along with a `bash` call for `pytest`. Your harness emits `tool_execution_start`,
# a spinner starts turning, and the user shuts the browser tab.
#
# Your harness already handles that exit gracefully, as lesson 8 made it. The consumer closes the generator, the
# `finally` clause of `_run` fires, `is_running` is reset, and new prompts are welcome again. No crash, no lost work. An hour passes. The user returns and types something
# new.
#
# Because the run stopped at `tool_execution_start`, pytest never launched and the call has no
# recorded result. Now the user writes *"Never mind. What is in config.py?"* What reply do
# they get, and what about their next two prompts?
#
# <details><summary><b>A</b> · A real answer: the model notices the pytest call got nothing back and moves on</summary>
#
# ✗ **No.** That treats the transcript as messy when it is in fact invalid. The model never
# reads it: the provider checks the request's structure first, so nobody downstream gets a
# chance to be lenient.
#
# </details>
#
# <details><summary><b>B</b> · One rejection, then answers, since <code>context_for_model</code> builds a brand-new list each time</summary>
#
# ✗ **No.** The list is brand-new, yes, but its contents come from the record, which still
# contains the unanswered call.
#
# </details>
#
# <details><summary><b>C</b> · Three rejections, each one naming the hour-old call</summary>
#
# ✓ **Right.** The fresh prompt is fine. The damage sits earlier in the list, an unfinished
# pair, and it is sent again with every request.
#
# </details>
#
# This cell deliberately runs on the **starter**, the harness you were handed at the start
# of the lesson, whatever the first cell chose, so that you see the failure before the fix.

# %% id="walk-away"
starter = starter_harness(lesson=10)


class WatchedShell(lab.Shell):
    """The lab's shell, keeping a list of every command it was asked to run."""

    def __init__(self, workspace):
        super().__init__(workspace)
        self.commands = []

    def run(self, command):
        self.commands.append(command)
        return super().run(command)


ws = lab.Workspace({"main.py": damaged.MAIN_PY, "config.py": "PORT = 9090\n"})
shell = WatchedShell(ws)
model = lab.ScriptedModel([
    lab.reply(lab.text("Running the tests."), lab.call("bash", {"command": "pytest"})),
    lab.say("config.py sets PORT = 9090."),
    lab.say("Yes, still here."),
    lab.say("Shall we start again?"),
])
h = starter.Harness(model, starter.SYSTEM, [starter.make_read_tool(ws), starter.make_bash_tool(shell)])

# The frontend takes five events and the tab closes: drive() shuts the run down right there.
events = await lab.drive(h.prompt("Reformat main.py and run the tests."), stop_after=5)
left_behind = list(h.messages)
print("the last event the screen got:", events[-1]["type"])
print("commands that ran:            ", shell.commands)
print("the record:                   ", lab.shape(left_behind))
print()
for prompt in ["Never mind. What is in config.py?", "Are you still there?", "Hello?"]:
    await lab.drive(h.prompt(prompt))
    print(f"{prompt!r:36} -> {outcome(h.messages[-1])}")
print()
print("the record:", lab.shape(h.messages))

# %% [markdown]
# Three identical rejections: `toolCall c1 has no toolResult`. No bookkeeping was skipped.
# The tool never ran, and the record faithfully describes a job abandoned midway. Trouble
# is, that same record is the source of every later request, so one old accident now answers
# three unrelated questions. A single incomplete pair has **bricked the session**.
#
# A call left without its result is called a **dangling call**. [general] Hosted providers
# reject a request that holds one, each in its own words: Tau's note on the subject quotes
# one such refusal (`dev-notes/tool-history-recovery.md:19-25`, huggingface/tau at `62eab4e`,
# the commit lesson 01 read). The lab's scripted model performs the same structural check
# locally and returns the rejection as a normal failed reply, so you can observe it offline.
# Figure 10.1 lays out the full failure, drawn from the transcript you just produced.
#
# ### Four times prevented, and why not a fifth
#
# You have met this refusal before, and kept it away four times. Lesson 02 answered a call
# with a `toolResult` under its id instead of a sentence. Lesson 03 ran every call of a reply
# before the loop stopped. Lesson 04 turned a tool that raised into an `is_error` result.
# Lesson 05 checked `max_turns` before a request, never after a reply that asks for tools.
# Each time the harness was still there when the result was owed, and each time it could
# write one.
#
# This time nobody is there. The consumer closed the run at a `yield`, so no line of your
# loop runs between the call and its result; a `kill -9` or a power cut would not even run
# the `finally`; and a record saved yesterday by an older harness was damaged before your
# code started. Prevention works at the moment of the call, and that moment has gone. What is
# left is the list you hold now. Tau's note says the same in one line: stopping new damage
# "does not make existing user sessions usable" (`dev-notes/tool-history-recovery.md:27-28`).
# So this lesson repairs instead of preventing.

# %% id="figure-10-1"
lab.draw(
    lab.Panel("1 · the record, when the tab closed", left_behind),
    lab.Panel("2 · the request for “Never mind…”", model.calls[1].messages),
    lab.Panel("3 · what came back", [h.messages[3]], check=False,
              note="The model never got to the question."),
    arrows=True,
    title="Figure 10.1  One list, two jobs",
    caption="The gap in the record is copied straight into the request, and the request is "
            "rejected. Red badges mark what lab.validate objects to; its wording is listed "
            "under each list.")

# %% [markdown]
# ### The shortcut you must not take
#
# One fix jumps to mind: delete the assistant message that requested pytest. The list would
# validate, and it would now claim that the agent never attempted the tests, which is untrue.
# Deleting is always available, and it always falsifies history.
#
# So the record loses nothing. Instead: what is the *smallest honest addition* that turns this
# list into a request a provider accepts?
#
# <details><summary>A hint</summary>
#
# The provider's objection is tiny and precise: one call lacks a result. What is the minimum
# you can write that is both a valid tool result and a true statement?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# Add a single `toolResult` for `c1`, placed immediately after the reply that contains the
# call. It bears the call id and the tool name, both known, and as its content the one thing
# anyone can truthfully say: nothing was recorded for this call. One message in, none out.
# The rest of the lesson is about keeping that message's claims to a minimum.
#
# Tempting alternatives, and their flaws:
#
# - *Execute the tool now and store its real output.* It is an hour later, the files may have
#   changed, and the user has already said never mind. You would pay to answer a question
#   that has been withdrawn.
# - *Insert a user message describing what happened.* The provider wants a `toolResult` for
#   `c1`; an explanation in some other role does not supply one (lesson 2's maxim: prose is
#   not protocol).
# - *Strip the call out of the assistant message but keep its words.* Neat and valid, and
#   now the record shows a model announcing a test run and then requesting nothing. That is
#   editing history until it fits.
#
# </details>

# %% [markdown]
# ## Five wrecks
#
# Dangling calls are just one species of broken transcript, and a repair that knows only that
# species will trip over the others at the worst moment. The lab gives you `damaged.py`, a
# read-only module holding five damaged records of the sort that crashes, buggy harnesses and
# providers genuinely produce. Each access hands you a fresh copy.
#
# Each of the five cards below presents a record and asks what the request derived from it
# should contain, and then runs a repair: yours, once it exists and works; until then the
# next cell says what stands in for it, and why. Across the whole lesson
# there are exactly four possible moves: **invent** a message, **drop** one, **move** one, or
# **change nothing**.

# %% id="repair-switch"
chosen = with_repair(chosen)
harness = chosen.module
print(chosen)


def verdict(messages):
    """How the strict provider answers a request: "accepted", or "refused: " and its first objection."""
    objections = lab.validate(list(messages))
    return "accepted" if not objections else f"refused: {objections[0]}"

# %% [markdown]
# Figure 10.2 places the five next to a well-formed exchange built in the cell: a call and,
# right after it, its one result. Each of the other panels violates that pattern in a
# different place.
#
# Credit where it is due: Tau, the real harness we compare against near the end, lists in its
# recovery note the broken shapes a repair must survive (`dev-notes/tool-history-recovery.md:27-34`,
# huggingface/tau at `62eab4e`). Cards 1 to 4 cover four of them. The fifth on Tau's list, parallel results stored out of order, is
# exercised by your lab's tests instead. Card 5 is original to this course.

# %% id="figure-10-2"
read_main = lab.call("read", {"path": "main.py"}, id="c1")
healthy = [lab.user("What does main.py return?"),
           lab.reply(lab.text("Let me read it."), read_main),
           lab.tool_result(read_main, damaged.MAIN_PY),
           lab.say("It returns 1.")]
wrecks = [(name, getattr(damaged, name)) for name in damaged.NAMES]
lab.draw(("a healthy pair", healthy), *wrecks,
         title="Figure 10.2  Five wrecks beside a healthy pair",
         caption="A healthy pair: one call, then its single result directly after it. Each "
                 "later panel breaks that in a different place; the badges mark the messages a "
                 "provider would reject.")

# %% [markdown]
# ### Card 1 · `damaged.missing_result`
#
# A reply requested two tools, `c1` (read) and `c2` (bash). There is a result for `c1`, none
# for `c2`, and then the user speaks. What should the request contain?
#
# <details><summary><b>A</b> · Drop the reply and c1's result too: a half-finished turn is worse than none</summary>
#
# ✗ **No.** You would discard a file the model genuinely read and used, all to quiet an
# objection about some other call. That is the deletion you already rejected, only larger.
#
# </details>
#
# <details><summary><b>B</b> · An invented result for c2, placed right after c1's</summary>
#
# ✓ **Right.** Every call gets exactly one result, and the results follow the calls' order.
# What the invented result should *say* is a question for a later section.
#
# </details>
#
# <details><summary><b>C</b> · Nothing for now: send it, see which call the provider objects to, and fix that</summary>
#
# ✗ **No.** You would be paying for a rejected request just to learn something. Whatever the
# provider would tell you is already visible in the list you hold.
#
# </details>

# %% id="card-1"
wreck = damaged.missing_result
sent = harness.repair_tool_history(wreck)
print(f"record   {lab.shape(wreck):32} {verdict(wreck)}")
print(f"view     {lab.shape(sent):32} {verdict(sent)}")
print()
print("what stands in c2's place:")
print(lab.show(sent[3:4], clip=200))

# %% [markdown]
# In: four messages. Out: five, in the order the model made its calls. The record keeps its
# gap; the five-message list exists only to be sent. The invented message is shaped exactly
# like a real tool result, since a provider accepts nothing else in that slot.

# %% [markdown]
# ### Card 2 · `damaged.orphan_result`
#
# The mirror image: a `toolResult` for `c7` is in the record, but nothing anywhere requested
# `c7`, because the assistant message that did went missing. What should the request contain?
#
# <details><summary><b>A</b> · Omit the result: with no call, it cannot be sent</summary>
#
# ✓ **Right.** Nothing invented, nothing asserted. You lose one file's contents, which the
# model can simply request again.
#
# </details>
#
# <details><summary><b>B</b> · Recreate the call: the result names its tool and id, so add an assistant message requesting read with the obvious arguments</summary>
#
# ✗ **No.** "Obvious arguments" means inventing a file name and presenting the invention as
# the model's own words. The output's final line shows that the arguments are precisely what
# the record does not know.
#
# </details>
#
# <details><summary><b>C</b> · Keep it, but relabel it as a user message so the text is not lost</summary>
#
# ✗ **No.** Then file contents masquerade as something the user typed. A role asserts who is
# speaking, and this assertion would be false. Keep that thought for lesson 14, which is about
# exactly this: a message's role is a claim about who spoke.
#
# </details>

# %% id="card-2"
wreck = damaged.orphan_result
sent = harness.repair_tool_history(wreck)
print(f"record   {lab.shape(wreck):26} {verdict(wreck)}")
print(f"view     {lab.shape(sent):26} {verdict(sent)}")
print()
orphan = next(m for m in wreck if m["role"] == "toolResult")
wanted = orphan["tool_call_id"]
matching = [block for m in wreck if m["role"] == "assistant"
            for block in harness.tool_calls(m) if block["id"] == wanted]
print("the result nobody asked for:")
print(lab.show([orphan]))
print("everything the record can tell you about the call it answers:")
print("  tool_call_id:", wanted)
print("  tool_name:   ", orphan["tool_name"])
print("  arguments:   ", matching[0]["arguments"] if matching
      else f"no message in the record asked for {wanted}")

# %% [markdown]
# The orphan goes, and no call is fabricated for it. Do not budge on this one. Fabricating a
# call is not housekeeping: it puts words in the model's mouth that it never produced, and all
# of its later reasoning builds on them. Dropping a result costs, at worst, one repeated tool
# call; a fabricated call can never be undone. Tau drops such results for the same reason:
# once the call is gone, its arguments cannot be recovered safely
# (`src/tau_agent/tool_history.py:43-45`, huggingface/tau at `62eab4e`).

# %% [markdown]
# ### Card 3 · `damaged.late_result`
#
# The call `c1` comes first, a user message second, and `c1`'s genuine result third: two
# writers on one list, the bug lesson 8 got rid of. The result is real; it just arrived one slot
# late. What should the request contain?
#
# <details><summary><b>A</b> · No change: each call has a result somewhere, and pairing happens by id</summary>
#
# ✗ **No.** Ids tell you which result belongs to which call; providers also require the result
# to be *adjacent*, which establishes whose turn it is. See the second objection printed
# below.
#
# </details>
#
# <details><summary><b>B</b> · Invent a result for c1 in the right place and throw the late one away: a single rule for every gap is simpler</summary>
#
# ✗ **No.** Simpler, yes, and the model is then told it never saw a file it did see.
# A genuine result always outranks an invented one, even when it costs more code.
#
# </details>
#
# <details><summary><b>C</b> · Relocate it, so that it immediately follows the reply that requested it</summary>
#
# ✓ **Right.** Nothing lost and nothing fabricated; the user's message keeps its relative
# order, shifted down by one.
#
# </details>

# %% id="card-3"
wreck = damaged.late_result
sent = harness.repair_tool_history(wreck)
late = next(m for m in wreck if m["role"] == "toolResult")
print(f"record   {lab.shape(wreck):30} refused, twice over:")
for objection in lab.validate(wreck):
    print(" " * 9 + objection)
print(f"view     {lab.shape(sent):30} {verdict(sent)}")
print()
print("what the model is shown for c1:")
print(lab.show(sent[2:3]))
print("is that the very message that was recorded?", sent[2] is late)
print("made-up results in the view:",
      sum(m["role"] == "toolResult" and m["content"] == harness.INTERRUPTED for m in sent))

# %% [markdown]
# Relocated, not replaced: the view contains no invented results, and the result now in
# position is the identical object from the record, not a copy. A repair unable to tell
# *late* from *missing* would silently lose what `main.py` said here. The four moves cannot
# stand in for one another.

# %% [markdown]
# ### Card 4 · `damaged.duplicate_result`
#
# A single call, `c2`, with two results: `"3 passed"` and then `"3 passed (second run)"`. A
# retry somewhere stored its answer twice. One must go. Which survives?
#
# <details><summary><b>A</b> · The later one: newest is most accurate</summary>
#
# ✗ **No.** "Latest wins" suits facts about the world, not transcripts, which record what was
# said and when. The reply that follows was responding to the first.
#
# </details>
#
# <details><summary><b>B</b> · Keep both; the model can pick</summary>
#
# ✗ **No.** The provider decides before the model ever looks: one call, one result. Besides,
# handing a model two answers to one question just passes your problem along.
#
# </details>
#
# <details><summary><b>C</b> · The earlier one</summary>
#
# ✓ **Right.** The run carried on from it: the assistant message that follows was produced by
# a model that saw that text and nothing else.
#
# </details>

# %% id="card-4"
wreck = damaged.duplicate_result
sent = harness.repair_tool_history(wreck)
results_in = lambda messages: [m for m in messages if m["role"] == "toolResult"]
print(f"record   {lab.shape(wreck):30} {verdict(wreck)}")
print(f"view     {lab.shape(sent):30} {verdict(sent)}")
print()
print("the two results on the record, in the order they were recorded:")
print(lab.show(results_in(wreck)))
print("the one the model is shown:")
print(lab.show(results_in(sent)))

# %% [markdown]
# The earlier result stays and the later one goes. Quality is not the criterion; dependence
# is. The conversation after this point was built on the first answer, and with the second in
# its place the reply that follows would stop making sense.

# %% [markdown]
# ### Card 5 · a reply cut off mid-call
#
# This one is new. A streamed reply dies halfway: it got out *"Writing the file."* and a
# `write` call cut in half (a path, no content), and it is flagged as an error. Since
# lesson 5 your loop ignores everything in a failed reply, so nothing executed. What will the next
# request contain?
#
# <details><summary><b>A</b> · The reply is kept unchanged, and its half-formed call gets an invented result like any unanswered call</summary>
#
# ✓ **Right.** If the model can see a call, the provider expects that call to be answered,
# whatever the reply's stop reason.
#
# </details>
#
# <details><summary><b>B</b> · The reply is omitted, calls included, as the view already omits failed replies</summary>
#
# ✗ **No.** The view omits failed replies that are *empty*. This one managed to emit text
# before the connection dropped, and that text is the model's only clue about what went
# wrong. Check what the view retains.
#
# </details>
#
# <details><summary><b>C</b> · The loop should execute the call now and keep the real result: the path is known, the rest can be filled in</summary>
#
# ✗ **No.** Half of a write's arguments is not a write: it overwrites an unknown portion of a
# file with an unknown amount of nothing. Notice, too, where that error would live: the
# repair is innocent here; the fault would belong to a loop that acts on a half-arrived
# message.
#
# </details>

# %% id="card-5"
ws = lab.Workspace({"main.py": damaged.MAIN_PY, "config.py": "PORT = 9090\n"})
broken_off = lab.fail("stream ended before the message was complete",
                      lab.text("Writing the file."), lab.call("write", {"path": "main.py"}))
model = lab.ScriptedModel([broken_off, lab.say("Nothing was written. Shall I try again?")])
h = harness.Harness(model, harness.SYSTEM, [harness.make_read_tool(ws), harness.make_write_tool(ws)])

await lab.drive(h.prompt("Reformat main.py."))
print("the reply that came back:")
print(lab.show([h.messages[1]]))
print("writes to the disk: ", ws.writes)
print("the record:         ", lab.shape(h.messages))
print()
await lab.drive(h.prompt("What happened?"))
next_request = model.calls[1].messages
print("the next request:   ", lab.shape(next_request))
print(lab.show([m for m in next_request if m["role"] == "toolResult"], clip=200))
print("the record:         ", lab.shape(h.messages))

# %% [markdown]
# The disk is untouched, the record preserves the failed reply byte for byte, and the next
# request answers its call with an invented result, as for any unanswered call. Two rules
# meet here, and both hold: **never act on a failed reply**, and **never ship a call
# unanswered**. Tau enforces the first the same way: an error reply ends its run at
# once, before the code that would execute its calls (`src/tau_agent/loop.py:139-144`,
# huggingface/tau at `62eab4e`).

# %% [markdown]
# ## What the invented result says
#
# Two of the cards required a message that no tool produced. It must be a `toolResult`,
# carrying the call id and the tool name; what remains open is its content, the slot where
# a tool's output normally goes. Below are three candidates, and one of them is Tau's.
#
# Back to the walk-away case: `c2` requested pytest and got no reply. Which text should the
# model see, and should `is_error` be set?
#
# <details><summary><b>A</b> · "Tool call interrupted by user", flagged as an error: brief, and it assigns responsibility</summary>
#
# ✗ **No.** That is the style of an ops log aimed at an on-call engineer. Here the reader is
# the model, which will draw conclusions: the user stopped this, so they wanted it stopped.
# Nobody knows that. A crash, a `kill -9` or a broken connection produces exactly the same
# record.
#
# </details>
#
# <details><summary><b>B</b> · "Tool call interrupted: no result was recorded. It may not have run, or may have run partly; check before repeating it.", flagged as an error</summary>
#
# ✓ **Right.** Each part of it describes something the program can really see, and the last
# part tells the model how to proceed.
#
# </details>
#
# <details><summary><b>C</b> · "The tool ran.", not an error: it almost surely completed, and this keeps the model calm</summary>
#
# ✗ **No.** "Almost surely" is the flaw. Had it not run, the model would now believe the
# tests ran; had it run, the model would believe they passed. In both cases an unverified
# fact has been slipped into the transcript.
#
# </details>

# %% id="choosing-words"
record = damaged.missing_result                # U A[c1,c2] R(c1) U, and no result for c2
unanswered = harness.tool_calls(record[1])[1]


def with_stand_in(content, is_error):
    """The record, with a result for the unanswered call saying `content` put in its place."""
    stand_in = {"role": "toolResult", "tool_call_id": unanswered["id"],
                "tool_name": unanswered["name"], "content": content, "is_error": is_error}
    return [*record[:3], stand_in, *record[3:]]


candidates = [("(a) Tool call interrupted by user", "Tool call interrupted by user", True),
              (f"(b) {harness.INTERRUPTED[:31]}...", harness.INTERRUPTED, True),
              ("(c) The tool ran. (not an error)", "The tool ran.", False)]
for label, content, is_error in candidates:
    answer = verdict(with_stand_in(content, is_error))
    print(f"{label:38} provider: {answer.partition(':')[0]}")
print()
recorded = [m for m in record if m["role"] == "toolResult" and m["tool_call_id"] == unanswered["id"]]
print("what the record actually says about", unanswered["id"] + ":")
print("  it was asked for:       ", unanswered["name"], unanswered["arguments"])
print("  results recorded for it:", len(recorded))
print("  anything else:          ", "nothing was written down")

# %% [markdown]
# All three pass the provider's check, which examines structure, not truthfulness: no later
# stage is going to flag a soothing untruth on your behalf. The record justifies exactly two
# statements: that the call happened, and that nothing came back into the record. `is_error` is True because, so
# far as anyone can tell, the tool did not accomplish its task.
#
# The course deliberately avoids Tau's wording. Tau's constant blames the *user*
# (`src/tau_agent/tool_history.py:16`, huggingface/tau at `62eab4e`), yet the same code path
# is taken after an ordinary provider failure in which no user was involved at all.
#
# One thing you can be sure of, thanks to lesson 7: your loop records each result before
# announcing it, so a consumer can never stop listening in a way that leaves a completed tool
# unrecorded. What it cannot exclude is a tool that began, did part of its work, and was
# mid-flight when the process died. That is why the text says "may have run partly" rather
# than "did not run".

# %% [markdown]
# ## When should the repair happen?
#
# Every wreck now has a rule. Where do you apply it? The natural spot seems to be wherever the
# damage is discovered: when a session is opened, check the list, patch its holes once, and
# build every later request from the patched list.
#
# Yesterday's session ended with a walk-away, and it gets repaired once, while loading. Today's
# first prompt succeeds. Then the user abandons a run mid-tool again, and returns. What does
# their next prompt receive?
#
# <details><summary><b>A</b> · A reply: the session was repaired, and being repaired is a yes-or-no property of a session</summary>
#
# ✗ **No.** That models damage as an attribute of a session, rather than something that can
# occur at any moment. Today's walk-away is yesterday's accident happening again, nothing
# more.
#
# </details>
#
# <details><summary><b>B</b> · A rejection, and that is the hook: catch the rejection, repair, resend</summary>
#
# ✗ **No.** That runs a repair you already own only after paying for a failed request, and the
# retry must parse the provider's error message to decide whether the rejection is fixable.
# Lesson 12 meets a harness that matches error text for a different refusal, and counts what
# that costs.
#
# </details>
#
# <details><summary><b>C</b> · A rejection, for the new gap, the same as yesterday</summary>
#
# ✓ **Right.** Repairing on load answers "was it broken when I opened it?". What you need
# answered is "is what I am sending right now valid?".
#
# </details>

# %% id="when-repair-runs"
YESTERDAY = [lab.user("Reformat main.py and run the tests."),
             lab.reply(lab.text("Running the tests."),
                       lab.call("bash", {"command": "pytest"}, id="y1"))]


def view_before_this_lesson(messages):
    """context_for_model as lesson 5 left it: failed replies with no content are left out."""
    return [m for m in messages
            if m["content"] or m["role"] != "assistant" or m.get("stop_reason") != "error"]


def last_user_words(request):
    return next(m["content"] for m in reversed(request.messages) if m["role"] == "user")


def tests_or_words(request):
    """The model: a bash call for pytest whenever the user says "Run the tests.", words otherwise."""
    if last_user_words(request) == "Run the tests.":
        return lab.reply(lab.text("Running them."), lab.call("bash", {"command": "pytest"}))
    return lab.say("Carrying on.")


def answered_or_why(h):
    return h.messages[-1].get("error_message") or "answered"


async def two_walk_aways(title, view, messages):
    """A session resumed from `messages`, with `view` as its context_for_model: one prompt, a
    second walk-away mid-tool, and one more prompt."""
    with patched(harness, context_for_model=view):
        bash = harness.make_bash_tool(lab.Shell(lab.Workspace({"config.py": "PORT = 9090\n"})))
        h = harness.Harness(lab.ScriptedModel([lab.forever(tests_or_words)]), harness.SYSTEM,
                            [bash], messages=messages)
        await lab.drive(h.prompt("What is in config.py?"))
        first = answered_or_why(h)
        await lab.drive(h.prompt("Run the tests."), stop_after=5)   # gone again, mid-tool
        await lab.drive(h.prompt("Never mind. Hello?"))
        second = answered_or_why(h)
    print(title)
    print("   prompt 1, on yesterday's hole:  ", first)
    print("   prompt 2, after a second hole:  ", second)
    print("   the record:                     ", lab.shape(h.messages))


await two_walk_aways("repaired once, when the session was loaded:",
                     view_before_this_lesson, harness.repair_tool_history(YESTERDAY))
print()
await two_walk_aways("repaired before every request:", harness.context_for_model, list(YESTERDAY))

# %% [markdown]
# Two harnesses, the same double walk-away. The repair-on-load harness gets through prompt 1
# and fails on prompt 2, and its record now holds an invented result from yesterday that it
# can never again tell apart from a genuine one. The harness that repairs
# on every request answers both. What matters is not when the damage occurred but what the
# current request contains.
#
# Repairing on every request means thousands of runs a session, nearly all of them on lists
# that are perfectly fine. Which properties must the repair have for that to be reasonable?
# Choose all that apply, then unfold each one.
#
# <details><summary><b>A</b> · Applying it to its own output changes nothing: repair(repair(x)) == repair(x)</summary>
#
# ✓ **Required.** Otherwise an invented result gets an invented result of its own next time,
# and the list grows with every request.
#
# </details>
#
# <details><summary><b>B</b> · Hand it a transcript with nothing wrong, and you get back an equal one</summary>
#
# ✓ **Required.** Otherwise thousands of healthy requests are silently rewritten by code that
# no one monitors, and you find out only when something downstream stops lining up.
#
# </details>
#
# <details><summary><b>C</b> · It tells you how many messages it altered</summary>
#
# ✗ **Not for safety.** Counts are handy in a log, but they make the repair no safer.
#
# </details>
#
# <details><summary><b>D</b> · It runs quicker than the model call after it</summary>
#
# ✗ **Not the concern.** Iterating over a list is negligible next to a model call.
#
# </details>
#
# The first property is called **idempotence**. It is what frees you from caring when the
# damage happened.

# %% [markdown]
# ## Two lists
#
# A last question, and the central one. The repair yields a list. Should the harness keep
# that list from now on, in place of the one it holds?
#
# The record below combines both of today's problems: an empty `503` failure, as lesson 5 met it, and
# a call that was never answered. Where should the repaired list go?
#
# <details><summary><b>A</b> · Into h.messages: fix the stored list once, and then nobody ever needs to remember to repair it again</summary>
#
# ✗ **No.** Then the record claims an outcome for a tool that may not even have begun, and
# the claim looks exactly like real tool output. The empty failure
# would have to be removed as well, erasing any trace of why the session stalled.
#
# </details>
#
# <details><summary><b>B</b> · Only into context_for_model: skip the empty failure, pair up calls and results, send that, and leave the record untouched</summary>
#
# ✓ **Right.** Two steps in one function, and a new list for each request. The record retains
# everything that happened, gaps and all.
#
# </details>
#
# <details><summary><b>C</b> · Into h.messages, with an untouched backup of the record kept alongside for diagnostics</summary>
#
# ✗ **No.** Now there are two lists with equal claim to being the session, and each new
# message has to be written to both. You already have the backup: it is the record, and the list you send is the one that
# is cheap to regenerate.
#
# </details>

# %% id="record-and-view"
pytest_call = lab.call("bash", {"command": "pytest"}, id="c1")
record = [lab.user("Run the tests."),
          lab.fail("503 overloaded"),               # the empty failure, with no content
          lab.user("Try again."),
          lab.reply(pytest_call),                   # a call that never got its result
          lab.user("Never mind. What is in config.py?")]

shape_before = lab.shape(record)
view = harness.context_for_model(record)
holds = lambda messages, message: any(message is m for m in messages)
only_in_record = [m for m in record if not holds(view, m)]
only_in_view = [m for m in view if not holds(record, m)]

print("the record:", shape_before)
print("the view:  ", lab.shape(view))
print("the record, after building the view:", lab.shape(record))
print()
print("in the record and not in the view:")
print(lab.show(only_in_record))
print("in the view and not in the record:")
print(lab.show(only_in_view, clip=200))
print()
print("messages the view shares with the record:", len(view) - len(only_in_view), "of", len(view))

# %% [markdown]
# Both lists hold five messages, and they differ by one each way: the view omits a failure
# that only the record can explain, and includes an invented result that the record must
# never contain. The other four are shared, object for object, since nothing here modifies a
# message. This is
# the idea the lesson has been building towards: **record what happened; send what is
# valid.** There are two lists, and only the one you send is ever repaired.
#
# Figure 10.3 aligns them message by message. Shared messages sit on the same row; a message
# present in only one list gets a dashed amber outline, and the other column notes the
# absence.

# %% id="figure-10-3"
lab.draw(lab.Panel("the record", record, note="Stored for good: what happened."),
         lab.Panel("the view", view, note="context_for_model(record): built, sent, dropped."),
         compare=True,
         title="Figure 10.3  The record and the view",
         caption="The record holds the empty failure and the unanswered call. The view omits "
                 "the first and answers the second with an invented result. Only the view is "
                 "sent; only the record is stored.")

# %% [markdown]
# ## Your turn
#
# Everything is decided; what is left is one function and one line. The spec, in a paragraph:
# the view that goes to the model has every tool call followed at once by exactly one result,
# in the order the calls were written. A recorded result is kept, and moved to its place when
# it is out of it; of two results for one call, the first one recorded wins; a result whose
# call is nowhere is left out; a call with no result gets one made up, which says
# `INTERRUPTED`. The list is new, holds the recorded message objects themselves, is built
# afresh for every request, and never changes the record.
#
# Open `harness.py` at the project root. **Two gaps at the bottom of region 3, about
# twenty-one lines in all**, both marked `# --- your code ---`:
#
# 1. **`INTERRUPTED` and `repair_tool_history(messages)`**, the lower gap, about twenty lines;
#    it holds the spec and nothing else. The constant must read exactly
#    `Tool call interrupted: no result was recorded. It may not have run, or may have run partly; check before repeating it.`
#    The function builds and returns a fresh list in which each tool call is immediately
#    followed by precisely one result, results in call order. Apply the moves from
#    the cards: keep a recorded result, relocating it when it is out of place; when a call
#    has two results, keep the earlier; drop any result whose call does not exist; for a call
#    lacking a result, create a `toolResult` with that call's id and name, content
#    `INTERRUPTED` and `is_error` True. It must be **pure**: the input list and its messages
#    stay unchanged, and the output reuses the same message objects. And it must be
#    **idempotent**: repairing twice equals repairing once, and a transcript that needs no
#    repair is returned equal to itself. You may assume that call ids never repeat.
# 2. **`context_for_model(messages)`**, the upper gap, one line. Keep the filter lesson 05
#    gave it, and pass its output through `repair_tool_history`.
#
# **Twenty-two graded tests.** Seventeen are visible on a grading platform; the last five, on
# records hypothesis makes up, are hidden there (lab-check runs all twenty-two). The card tests
# do not hand you the cards as printed: each grading puts the wreck after one or two healthy
# turns and renames its ids the way real providers write them (`toolu_…`, `call_…`), so a
# repair that only works at `messages[0]`, or on ids like `c1`, is caught.
#
# *The five cards*
#
# 1. `damaged.missing_result`: c2 gets a result right after c1's, `is_error`, whose text is
#    `INTERRUPTED` word for word. <!-- test: test_missing_result_gets_interrupted_right_after_its_call -->
# 2. `damaged.orphan_result`: the result nobody asked for is left out, no call is invented, and
#    every message kept is the one recorded. <!-- test: test_orphan_result_is_dropped_without_inventing_a_call -->
# 3. `damaged.late_result`: the result recorded after a user message moves to just after its
#    call, the very object, and nothing is made up. <!-- test: test_late_result_is_moved_up_not_made_up -->
# 4. `damaged.duplicate_result`: the first result for c2 stays and the second is dropped.
#    <!-- test: test_first_of_two_results_for_one_call_wins -->
# 5. `damaged.failed_reply_with_a_call`: the half-built call of a reply that failed
#    mid-stream is answered with `INTERRUPTED`. <!-- test: test_call_in_a_reply_cut_off_mid_stream_gets_interrupted -->
#
# *The rules around them*
#
# 6. One reply asks for c1, c2 and c3; the record holds c3's result, then c1's. The view has
#    c1's, `INTERRUPTED` for c2, then c3's. <!-- test: test_results_come_back_in_call_order -->
# 7. A record that ends on its own damage, with nothing after it (the reply, or the reply and
#    one of its two results), is repaired to its end; the same record with both results comes
#    back as it was. <!-- test: test_record_that_ends_on_its_own_damage_is_repaired_to_its_end -->
# 8. A valid transcript comes back equal, in a new list holding the very same message
#    objects. <!-- test: test_valid_transcript_comes_back_equal_holding_the_same_objects -->
# 9. Each of the five wrecks, and all five glued together, repaired twice equals repaired
#    once. <!-- test: test_repairing_twice_is_repairing_once -->
# 10. After a repair of each wreck, the record handed in is exactly what it was: same length,
#     same messages, no message changed. <!-- test: test_repair_leaves_its_input_untouched -->
# 11. `context_for_model` drops lesson 05's empty failure and then repairs: what it returns is
#     valid, and the record still shows the failure and the dangling call. <!-- test: test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone -->
# 12. At a record's edges: an empty record repairs to an empty list, and damage at the very
#     first message (a call with no result, an orphan result) or the very last is repaired as
#     anywhere else. <!-- test: test_repair_holds_at_a_records_edges -->
# 13. The same edges through `context_for_model`: an empty record gives an empty view, and a
#     record that opens on an orphan or ends on a dangling call gives one the provider
#     accepts. <!-- test: test_view_holds_at_a_records_edges -->
#
# *Whole sessions on your `Harness`*
#
# 14. The walk-away: the consumer closes the run at `tool_execution_start`, the next two
#     prompts are answered, every later request shows `INTERRUPTED` for the call, and the
#     record keeps its hole. <!-- test: test_walk_away_at_tool_start_leaves_a_session_that_still_answers -->
# 15. A reply fails mid-stream with a half-built `write` in it: the tool never runs, the next
#     prompt is answered, and the record keeps the failed reply as it came. <!-- test: test_failed_reply_with_a_call_runs_no_tool_and_next_prompt_is_answered -->
# 16. A three-call job, closed after event k for every k from 1 to 21: two more prompts are
#     answered each time, and the model is never told `INTERRUPTED` about a step that ran.
#     <!-- test: test_walking_away_after_any_event_never_bricks_the_session -->
# 17. Lesson 09's steer still lands at the top of the next turn (no points: it guards the code
#     you were given). <!-- test: test_steering_lands_at_the_top_of_the_next_turn -->
#
# *On records hypothesis makes up* (results lost, late, doubled, reordered, orphaned, replies
# failed mid-call, records cut off anywhere)
#
# 18. The view `context_for_model` builds is one the strict provider accepts.
#     <!-- test: test_any_wreck_gives_a_view_the_provider_accepts -->
# 19. Repairing the repair changes nothing. <!-- test: test_repair_of_any_wreck_is_idempotent -->
# 20. The record handed in is left as it was. <!-- test: test_repair_of_any_wreck_leaves_its_input_untouched -->
# 21. Every message that is not a result comes through as the very object, in its order.
#     <!-- test: test_repair_keeps_every_message_that_is_not_a_result_as_the_same_object -->
# 22. Each call that has a result on the record is shown the first one recorded for its id.
#     <!-- test: test_repair_of_any_wreck_shows_each_call_the_first_result_recorded_for_it -->
#
# <details><summary>A hint, as a question</summary>
#
# Walk the record once from the top. At an assistant message you know which calls want
# results, and in what order. At a result you cannot yet tell whether it is early, late, a
# duplicate or an orphan. So which of the two should the loop that builds the view be built
# around, and what would you need to have looked up before it starts?
#
# </details>
#
# <details><summary>An outline of the repair: two passes over the record</summary>
#
# **Pass one: find each call's result.** Walk the record once, looking at tool results only,
# and file each one under its call id, unless that id has a result filed already: the first
# one recorded stays, which is card 4's rule. Nothing is built yet.
#
# **Pass two: build the view.** Walk the record again from the top, into a new, empty list.
# Skip every tool result, because this pass puts each back in its place. Put every other
# message in as it is, the very object. After an assistant message, go through its calls in
# the order the model wrote them, and put for each the result filed under its id, or, when
# none was filed, a new result saying `INTERRUPTED`. Return the new list.
#
# Notice what needed no rule of its own: an orphan (card 2) and the second of two results
# (card 4) are results no call ever asks for, so they never reach the view, and a late
# result (card 3) is asked for by its call and lands right after it. In `context_for_model`,
# what the filter returns goes through the repair: one more call.
#
# </details>
#
# Five of the graded tests are the wrecks in `damaged.py`; inspect them with `lab.show` first.
# To grade your file, run this from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 10
# ```
#
# The report ends with the next thing to do. `lab-check --watch` grades again each time you
# save, and `lab-check --hint` gives up to three hints for the first failing test.
#
# Once everything passes, re-run this notebook's first cell. It will switch to your
# `harness.py`, and every example except the bricked session will use your code.

# %% [markdown]
# ## Walk away, three ways
#
# One three-step job, abandoned at three points: before any step, after step 1 only,
# and partway through the second turn. Two prompts follow each abandonment. Nothing here
# passes or fails; read the six lines printed for each case. When your lab passes, this runs
# on your code.

# %% id="walk-away-sweep"
AFTERWARDS = ("Never mind, what is in config.py?", "And main.py?")


def the_job(request):
    """The model: steps 1 and 2 together, then step 3, then done; words for any other prompt."""
    if last_user_words(request) != "Do the job.":
        return lab.say("Carrying on.")
    answered = sum(m["role"] == "toolResult" for m in request.messages)
    if answered == 0:
        return lab.reply(lab.text("Two steps first."),
                         lab.call("step", {"n": 1}), lab.call("step", {"n": 2}))
    if answered == 2:
        return lab.reply(lab.text("One more."), lab.call("step", {"n": 3}))
    return lab.say("Done.")


def fresh_session():
    """A harness over the job, its model, and the list of the steps that really ran."""
    ran = []

    def step(arguments):
        ran.append(arguments["n"])
        return f"step {arguments['n']}: ok"

    model = lab.ScriptedModel([lab.forever(the_job)])
    return harness.Harness(model, harness.SYSTEM, [step_tool(step)]), model, ran


async def walk_away_at(k, out_of):
    h, model, ran = fresh_session()
    events = await lab.drive(h.prompt("Do the job."), stop_after=k)
    left = lab.shape(h.messages)
    for prompt in AFTERWARDS:
        await lab.drive(h.prompt(prompt))
    step_number = {call["id"]: call["arguments"]["n"] for m in h.messages
                   if m["role"] == "assistant" for call in harness.tool_calls(m)}
    stood_in = {step_number[m["tool_call_id"]] for request in model.calls
                for m in request.messages
                if m["role"] == "toolResult" and m["content"] == harness.INTERRUPTED}
    refused = any(m.get("stop_reason") == "error" for m in h.messages)
    print(f"walked away at event {k} of {out_of}, on {events[-1]['type']}")
    lines = {"steps that ran:": ran,
             "the record it left:": left,
             "two prompts later:": "refused" if refused else "answered, answered",
             "the record now:": lab.shape(h.messages),
             "steps shown as interrupted:": sorted(stood_in),
             "... that really ran:": sorted(stood_in & set(ran))}
    for label, value in lines.items():
        print(f"   {label:28}{value}")


h, _, _ = fresh_session()
events_in_the_whole_job = len(await lab.drive(h.prompt("Do the job.")))
for k in (5, 8, 14):
    await walk_away_at(k, events_in_the_whole_job)

# %% [markdown]
# Three abandoned runs, six later prompts, no rejections. Compare the final two lines of
# each block: across all three cases the model was only ever told "interrupted" about steps
# that had not finished (1 and 2, then 2, then 3), never about one whose tool had really
# completed. That is lesson 7's ordering guarantee at work: a completed tool's
# result lands in the record before anyone is told that the tool finished. It is what allows
# the invented message to say "no result was recorded" instead of "this never happened".
#
# Notice the records themselves, too: none was cleaned up. Each still holds the unanswered
# call, exactly where its run stopped.
#
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
# 9. Take your input mid-run, at a safe point.
# 10. **New:** Send a valid transcript even after an interruption.

# %% [markdown]
# ## In your own words
#
# Your harness just got six answers out of three damaged sessions, and not one of those
# sessions was mended. In a sentence or two: why leave them that way?
#
# <details><summary>A hint</summary>
#
# Tomorrow someone asks whether the tests were ever run. Which list can tell them, and what
# would the other one claim?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# The record exists to be accurate, and an unanswered call is the accurate account of that
# run. Plugging the gap in the record makes it valid only by asserting something nobody
# observed, and from then on it could not be told apart from real tool output. The repair
# belongs in the copy you send, which lives for one request and is then discarded.
#
# Common replies, and their gaps:
#
# - *"That is extra code."* It is actually less: one repair, instead of one per request.
#   Effort is not the reason.
# - *"The record is read-only."* You can append to it freely; lesson 11 does almost nothing
#   else. What you must not append is a claim that nothing supports.
# - *"The model can do without it."* It cannot, on any request, and that is precisely the
#   view's reason for carrying it. The record serves a different reader: you, tomorrow.
#
# </details>

# %% [markdown]
# ## Compared with Tau
#
# Tau, a production harness, has a function of the same name guarding the same invariant, and
# it makes the four decisions you reached through the cards. One of them it makes more
# carefully than you do. We read it at the commit lesson 01 read, **huggingface/tau at
# `62eab4e`** (`62eab4e5fe20018613f91bd085b3c9ed69e013a7`); every path below is in that
# repository at that commit. Its docstring is the contract you wrote, in one line: "Return
# history where every tool call has exactly one adjacent result"
# (`src/tau_agent/tool_history.py:40-47` · pinned to commit `62eab4e` ·
# [view on GitHub](https://github.com/huggingface/tau/blob/62eab4e5fe20018613f91bd085b3c9ed69e013a7/src/tau_agent/tool_history.py#L40-L47)).
# Tau is async; read `async for` as `for` and
# `await f(x)` as `f(x)` until lesson 15, where your harness goes async too.
#
# - **Rebuilding.** Like your second pass, it walks the list leaving results aside, and puts
#   them back one per call, in call order, right behind the assistant message that asked
#   (`src/tau_agent/tool_history.py:134-146`).
# - **The view, not the record.** The repair lives in the function that builds the model's
#   context, whose docstring says an empty failed turn "is not model context"
#   (`src/tau_agent/loop.py:178-194`): lesson 05's filter, then this lesson's repair, one
#   filter and one call.
# - **Every request.** That function is called where each provider call is assembled
#   (`src/tau_agent/loop.py:119-127`), not once on load. Tau's session layer repairs on load
#   as well; see Tau's extra step below.
# - **A test per decision**, starting with the one you wrote first: valid history comes back
#   unchanged (`tests/test_tool_history.py:23, 45, 60, 72, 85`). The loop's own test is this
#   lesson's opening in a few lines, and its last two assertions are the two lists: the orphan
#   is not in what was sent, and is still in the record (`tests/test_agent_loop.py:319-346`).
#   Its design note names the property you picked for running before every request:
#   applying the policy again changes nothing (`dev-notes/tool-history-recovery.md:51-52`).
#
# **Tau's extra step.** Tau also writes the repair down. On top of repairing the view, it
# appends invented results to its own record when a run starts and when a cancelled run
# exits, so that they flow as events to every listener, the screen and the saved session
# alike (`src/tau_agent/harness.py:168-173, 193-202`). Its session storage never rewrites an
# entry: the repaired history goes in as a new branch, after a `tau.session-history-repair`
# entry that counts the changes (`src/tau_coding/session.py:2246-2280`).
#
# **Why Tau needs it.** In Tau's loop the order is: `tool_execution_end` goes out, then the
# result message is announced (`src/tau_agent/loop.py:277-292`), and only after that is it
# appended to the record (`src/tau_agent/loop.py:157-163`). A consumer that stops listening in
# between leaves a completed tool with no recorded result. Your rule from lesson 07, record
# and then announce, eliminates that gap, and that is why your harness can get away with
# repairing only the view.
#
# **Your weak spot.** You assume that call ids never repeat. Tau does not assume it, because it
# is not guaranteed: it matches results to calls by occurrence, serving first the results
# that already sit beside their own turn (`src/tau_agent/tool_history.py:48-55, 65-78`), and
# a dedicated pass makes sure a genuine result beats an invented one
# (`src/tau_agent/tool_history.py:113-132`). Your rule is simply "whatever was stored first
# under an id wins". What can that cost?
#
# ### A reused id
#
# A provider issues `c1` in one turn, and issues `c1` again two turns on. Each call received
# its own genuine result, stored in the right place, so the transcript is complete. How does
# your repair treat it?
#
# <details><summary><b>A</b> · It hands the second call the result that belongs to the first</summary>
#
# ✓ **Right.** Your entire rule is "first result stored under this id", and for the second call
# that is the wrong one.
#
# </details>
#
# <details><summary><b>B</b> · Nothing: there is nothing to fix, so every message stays where it is</summary>
#
# ✗ **No.** There is nothing to fix, but the repair cannot tell. It looks results up by id,
# and the two calls have one id between them.
#
# </details>
#
# <details><summary><b>C</b> · It fabricates an interrupted result for call number two, because call number one consumed the real result</summary>
#
# ✗ **No.** That, at least, would be a mistake you could see. What actually happens is that the lookup
# still maps `c1` to the first result, so the second call receives it too.
#
# </details>

# %% id="id-reuse"
first_read = lab.call("read", {"path": "a.py"}, id="c1")
second_read = lab.call("read", {"path": "b.py"}, id="c1")   # c1 again, from the provider
record = [lab.user("Read a.py, then b.py.")]
for read, contents in ((first_read, "A = 1\n"), (second_read, "B = 2\n")):
    record += [lab.reply(read), lab.tool_result(read, contents)]
record.append(lab.user("Which is bigger?"))

view = harness.repair_tool_history(record)
print("the record:", lab.shape(record))
print("the view:  ", lab.shape(view))
print()
print("what the model is shown:")
print(lab.show(view))
print()
print("the strict model's verdict on the view:", lab.validate(view)[0])

# %% [markdown]
# The model now reads `A = 1` as the contents of `b.py`, and nothing signals trouble. The
# lab's strict model objects only because it also demands unique ids in a request; a real
# provider, having issued the duplicates itself, would let it through. Here, and
# only here in the lesson, the simplification yields a confidently wrong answer rather than a
# missing file, which is why Tau matches by occurrence.
#
# Two lesser gaps. Your harness never notices that a repair happened: Tau tallies its changes
# and exposes them for diagnostics (`src/tau_agent/tool_history.py:19-37`), whereas yours
# quietly returns a list, so a session that has been quietly fixed on every request for seven
# days looks perfectly healthy. Logging would fix that, but it is outside this course. And
# the rejection's wording differs on both sides: Tau's note quotes a real one, *No tool call
# found for function call output with call_id …* (`dev-notes/tool-history-recovery.md:23-25`),
# and the lab's phrasing was written for teaching. Our simplification: the lab's model checks
# the pairing itself and answers with the refusal as an ordinary message. No provider will
# tell you *why* a pair is broken, which is exactly why the invented result must be worded so
# carefully.
#
# One oddity, for the curious: Tau's harness declares a public
# `append_interrupted_tool_results()` that returns how many results it added
# (`src/tau_agent/harness.py:234-237`); nothing in `src/` calls it, and its one caller is a
# test (`tests/test_agent_harness.py:311`).

# %% [markdown]
# ## A further case
#
# Another provider rejects any request that contains two consecutive user messages. Your
# record has many: a steer and a follow-up arriving together, a prompt typed while another
# was still queued. Which list gets the fix? State your rule in one sentence that will also
# decide the next case of this kind.
#
# <details><summary>A hint</summary>
#
# One list's reader needs a request that is legal. The other list's reader needs an accurate
# history.
#
# </details>
#
# <details><summary>Our answer</summary>
#
# The view. The rule: what one provider demands belongs to the request and is worked out in
# `context_for_model`; what happened belongs to the record, which is only ever appended to.
# Two user messages side by side record what was typed; joining them adapts the transcript
# for a reader that cannot cope with them apart, and adapting is an adapter's job (lesson 16
# builds one). Most hosted APIs are happy with back-to-back user messages; a few chat
# templates demand strict alternation, and the merge exists for them alone. Should a later
# provider not mind at all, you change nothing, because the workaround never touched the
# record.
#
# Common replies, and their gaps:
#
# - *"Merge them in the record; the text is identical."* Identical text, distinct events: two
#   inputs typed at different moments, the second while a run was going. Lesson 11 persists the record to disk,
#   and a merged line can never be split again.
# - *"Stop two user messages from queuing up."* Then one provider's quirk has leaked into your
#   harness's API and removed something users are allowed to do. Fix it where the problem
#   is: in the request.
# - *"Slip a blank assistant turn in between."* Words nobody authored, in the model's voice,
#   just to satisfy a structural check. You have spent this whole lesson
#   learning why not.
#
# </details>

# %% [markdown]
# ## Wrapping up
#
# **You hit** a user who walked away mid-tool, a record that ended on a call nobody answered,
# and a session in which every later prompt was refused.
#
# **You built** `INTERRUPTED` and `repair_tool_history()`, pure and idempotent, and a
# `context_for_model` that runs it on every request.
#
# **The principle:** send only what a provider can accept, and never rewrite what happened
# to hide that it broke. **The record is not the view.**
#
# **Your harness now** (new in this lesson in bold):
#
# - `SYSTEM`, `user_message`, `text_of` (lesson 01)
# - `tool_calls`, `tool_specs`, `run_tool`, `make_read_tool`, `make_write_tool`,
#   `make_bash_tool` (lesson 02; `str_arg`, `int_arg` from lesson 04)
# - `error_message` (lesson 05)
# - `MAX_LINES`, `MAX_BYTES`, `fit_budget` (lesson 06)
# - `run_agent`, the loop of lessons 03, 05, 07 and 09
# - `context_for_model` (lesson 05), **now repairing every request**
# - **`INTERRUPTED`, `repair_tool_history`**
# - `Harness`, with `steer` and `follow_up` (lessons 08 and 09)
# - `JsonRenderer`, `FinalTextRenderer` (lesson 07)
#
# **Still open.** Everything your harness knows lives in one Python list, in one process.
# Halfway through writing two files, someone trips over the power cable. When the machine
# comes back, the files are on the disk and nothing says who wrote them. That is lesson 11.
#
# **Previous:** 09 · But I had something to say.
#
# **Next:** Checkpoint B · Transcript doctor II. Five harnesses, each nearly right; which idea
# of lessons 05 to 10 is each one missing?
