# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson 07, "What is it doing?": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The format is Jupytext's percent format
# (see lab/notebook/ipynb.py); the block above is its header, the notebook's metadata.

# %% [markdown]
# # 07 · What is it doing?
#
# *Watching and steering a run · ~50 min · 1 lab · builds on 06 · The file that ate the context*
#
# The user starts a job of three long steps and watches the screen. Nothing appears. Ten
# minutes later everything appears at once, and by then it is too late to stop step 2.
#
# This lesson builds on lesson 06, whose harness runs a whole job, keeps every tool result
# within a budget, and returns what the run added. New here? Start at lesson 01, or carry
# on: every lab is self-contained, and the harness you start from is lesson 06's, finished.
#
# By the end your harness can do the seventh thing on the course's list: **report what it is
# doing, as events, to any frontend**. The loop becomes a generator of plain events; it keeps
# one ordering rule, *mutate, then announce*; and the things that show a run (a terminal, a
# JSON log, `> answer.txt`) become folds over those events, which the loop never learns about.
#
# **How to read it.** Run the cells from top to bottom. Each question lists its options folded
# shut: pick one in your head, then open them. The figures are drawn from transcripts a cell
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
                            "inside the project, e.g. lessons/07-what-is-it-doing/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import io

import lab
from lab.notebook.harnesses import pick_harness, starter_harness

chosen = pick_harness(lesson=7)
harness = chosen.module
print(chosen)

# %% [markdown]
# The two lines above say which harness file the examples use, and why. Until your own
# `harness.py` hands out its events as they happen, it is the lesson's finished harness; once
# your gaps are filled, run that cell again and the examples run on your code.
#
# **The notation**, as in every lesson: `U` a user message, `A` an assistant reply, `A[c1]` a
# reply that asks for call `c1`, `R(c1)` the result of `c1`, `(error)` a reply that failed.

# %% [markdown]
# ## Ten minutes of nothing
#
# A job of three steps: the model asks for steps 1 and 2 in one reply and step 3 in the
# next. Each step, in real life, takes minutes. The user has a screen that prints whatever
# the harness tells it. The harness is lesson 06's, with one change a teammate made so that a
# screen could be attached: `run_agent` is now a generator, and it says `agent_start` and
# `agent_end`. What does the user see while the job runs?
#
# <details><summary><b>A</b> · A line as each step starts and ends, because the loop is a generator now</summary>
#
# ✗ **No.** Being a generator says nothing about *when* it yields. This one runs the whole
# job before its first `yield`, so the screen's first line arrives after step 3.
#
# </details>
#
# <details><summary><b>B</b> · Nothing at all: a generator nobody iterates never runs</summary>
#
# ✗ **Half right.** Until somebody asks for the first event, nothing runs. The screen does
# ask, and then it waits for the whole job.
#
# </details>
#
# <details><summary><b>C</b> · Nothing until the job is over, then two lines at once</summary>
#
# ✓ **Right.** Lesson 06's loop is still in there, whole; the events are said about the run
# afterwards. Count, in the output, the steps that had run when the screen heard anything.
#
# </details>
#
# The cell runs the job on the harness this lesson starts from, `starter_harness(lesson=7)`,
# whatever your own file holds.

# %% id="failure"
STEP = {"type": "object", "properties": {"n": {"type": "integer", "description": "Which step."}},
        "required": ["n"]}


def three_steps(request):
    """The model: steps 1 and 2 together, then step 3, then words."""
    answered = sum(m["role"] == "toolResult" for m in request.messages)
    if answered == 0:
        return lab.reply(lab.text("Two steps first."),
                         lab.call("step", {"n": 1}), lab.call("step", {"n": 2}))
    if answered == 2:
        return lab.reply(lab.text("One more."), lab.call("step", {"n": 3}))
    return lab.say("Done: all three steps.")


def job(ran):
    """The step tool; each step that runs is noted in `ran`."""
    def step(arguments):
        ran.append(arguments["n"])
        return f"step {arguments['n']}: ok"

    return [{"name": "step", "description": "Do one step of the job.", "parameters": STEP,
             "execute": step}]


def watch(module):
    """Run the job on `module`, printing each event the way a screen would, with the steps
    that had really run when the screen got it. Returns (events, record, ran)."""
    ran, record, events = [], [], []
    for event in module.run_agent(lab.ScriptedModel([lab.forever(three_steps)]), module.SYSTEM,
                                  record, job(ran), "Do the job."):
        events.append(event)
        what = event.get("message") or event.get("call") or {}
        said = lab.shape([what]) if "role" in what else what.get("id", "")
        print(f"  screen: {event['type']:22} {said:10} the steps run by now: {ran}")
    return events, record, ran


yesterday = starter_harness(lesson=7)
events, record, ran = watch(yesterday)
print()
print("events the screen got:", len(events))
print("the record:           ", lab.shape(record))

# %% [markdown]
# Two lines, both after all three steps. Every step ran while the screen showed nothing, and
# a user who wanted to stop step 2 ("wait, not that folder") had no moment in which to do it:
# by the time the screen heard of the run, the run was over. Figure 7.1 puts the record
# beside what the screen had been told at its first event.

# %% id="figure-7-1"
lab.draw(lab.Panel("1 · the record at the first event", record, check=False),
         lab.Panel("2 · what the screen had been told", [], check=False),
         title="Figure 7.1  A record full, a screen empty",
         caption="When the first event reaches the screen, the whole job is already on the "
                 "record. An event that arrives after everything it describes is a log, not "
                 "a report.")

# %% [markdown]
# The cure is not a faster screen. The loop must hand out each step **as it happens**, and
# pause there until the screen asks for the next one. A Python generator does exactly that:
# each `yield` gives an event to whoever is iterating, and the loop does not go on until they
# come back for more. Here is the same job on the harness the examples run on.

# %% id="live"
events, record, ran = watch(harness)
print()
print("events:    ", len(events))
print("the record:", lab.shape(record))

# %% [markdown]
# Twenty-one events, and the steps now run *between* them: step 1 runs after the screen has
# been told `tool_execution_start` for it, and before the `message_end` that carries its
# result. That is the whole protocol, in order:
#
# | event | when | carries |
# |---|---|---|
# | `agent_start` | first, once | nothing |
# | `turn_start` | a turn begins: one request to the model | nothing |
# | `message_end` | a message has been added to the record | `message` |
# | `tool_execution_start` | a call is about to run | `call` |
# | `tool_execution_end` | it has run | `call`, `result` |
# | `turn_end` | the turn's reply and all its results are in | `message`: the reply |
# | `agent_end` | last, once | `messages`: everything this run added |
#
# Figure 7.2 is that run as the screen lived it: one row for each event it was handed, what the
# event carried, and the record at the very moment the event arrived. The dashed bands are the
# steps, placed between the two events they ran between.

# %% id="figure-7-2"
from lab.notebook import timeline

ran, record, rows, announced, started, behind = [], [], [], 0, set(), 0
run = harness.run_agent(lab.ScriptedModel([lab.forever(three_steps)]), harness.SYSTEM, record,
                        job(ran), "Do the job.")
for k, event in enumerate(run, 1):
    for n in ran[sum(isinstance(row, timeline.Band) for row in rows):]:
        rows.append(timeline.Band(
            f"step {n} is run here: after its start was announced, before the event that carries "
            "its result" if n in started else f"step {n} is run here, before any event about it"))
    if event["type"] == "tool_execution_start":
        started.add(event["call"]["arguments"].get("n"))
    announced += event["type"] == "message_end"
    carried = event.get("message") or event.get("call") or {}
    if "role" in carried:
        carries = timeline.message_cell(carried)
    elif event["type"] == "agent_end":
        carries = timeline.Cell(lab.shape(event["messages"]))
    else:
        carries = timeline.Cell(carried.get("id", ""), "muted")
    ahead = len(record) - announced
    behind += ahead != 0
    rows.append([str(k), event["type"], carries,
                 timeline.Cell(lab.shape(record) or "(empty)", "bad" if ahead else "plain"),
                 timeline.Cell("the same" if not ahead else f"{lab.counted(ahead, 'message')} ahead"
                               if ahead > 0 else f"{lab.counted(-ahead, 'message')} behind",
                               "bad" if ahead else "good")])
timeline.table(["#", "the event handed out", "it carries", "the record at that moment",
                "record vs. announced"], rows,
               title="Figure 7.2  One run, event by event",
               caption=("Every message is on the record by the time its message_end arrives, "
                        "and never sooner; each step runs only after its tool_execution_start "
                        "has been handed out." if rows and not behind else
                        "Red: at that event the record and what the screen had been told "
                        "disagree. On the starter the whole job is on the record before the "
                        "first event, so the screen hears of a run that is already over. Fill "
                        "the run_agent gap of harness.py, then run this cell again."))

# %% [markdown]
# ## What should an event carry?
#
# A screen wants to show "step 1 is running". A log wants every detail. A script wants the
# answer. What should the loop hand out?
#
# <details><summary><b>A</b> · A plain dict: a `type`, and the message, call or result it is about</summary>
#
# ✓ **Right.** Facts, not pixels. Each frontend decides what a fact looks like, and a dict
# of plain data can go anywhere: to a screen, through `json.dumps`, down a socket.
#
# </details>
#
# <details><summary><b>B</b> · A line of text, ready to print: "Running step 1…"</summary>
#
# ✗ **No.** That is one frontend's decision made inside the loop. A JSON log would have to
# parse English back into facts, and a translation of the screen would need a new loop.
#
# </details>
#
# <details><summary><b>C</b> · The whole record, every time, so a frontend always has everything</summary>
#
# ✗ **No.** Every event would cost the whole conversation, and each frontend would have to
# work out what changed. The one place the run's messages come together is `agent_end`, and
# even that carries only what *this run* added.
#
# </details>
#
# The cell prints five of the events above: the dicts as they are, with messages written
# the course's way.

# %% id="what-events-carry"
def first(kind, role=None):
    """The first event of `kind` (a message_end: of a message with `role`), or None."""
    return next((e for e in events if e["type"] == kind
                 and (role is None or e["message"]["role"] == role)), None)


for kind, role in (("agent_start", None), ("tool_execution_start", None),
                   ("message_end", "toolResult"), ("tool_execution_end", None),
                   ("agent_end", None)):
    event = first(kind, role)
    if event is None:
        print(f"(no {kind} event yet: fill the run_agent gap of harness.py first)")
    elif kind == "message_end":
        print("{'type': 'message_end', 'message':", lab.show([event["message"]]) + "}")
    else:
        print({key: value if key == "type" else lab.shape(value) if isinstance(value, list)
               else value.get("id", value) if key == "call" else value
               for key, value in event.items()})

# %% [markdown]
# `agent_start` carries nothing; `tool_execution_start` carries the call; its end carries the
# call and the result; `agent_end` carries the seven messages this run added, which is what
# lesson 06's `run_agent` used to return. Nothing draws anything.

# %% [markdown]
# ## Append, then announce
#
# Inside the loop, a message happens in two steps: it is appended to the record, and it is
# announced with `message_end`. A teammate writes them the other way round, "so the screen
# hears sooner". Between the two, the loop is paused at a `yield`, waiting for the consumer.
# What can a consumer that stops listening there leave behind?
#
# <details><summary><b>A</b> · Nothing: both orders do both steps, so the record ends up the same</summary>
#
# ✗ **No.** Both steps happen only if the consumer comes back for the next event. A consumer
# that closes the run at the announcement never lets the append happen.
#
# </details>
#
# <details><summary><b>B</b> · A message the screen was told about and the record does not hold; for a tool result, a tool that ran with no result</summary>
#
# ✓ **Right.** The screen said "step 1: ok"; the record says step 1 was asked for and never
# answered. The tool really ran, and nothing written down says so.
#
# </details>
#
# <details><summary><b>C</b> · The opposite: a message on the record that the screen never heard of</summary>
#
# ✗ **Not with a generator.** Appended first, a message and its `message_end` come in one
# step with no pause between them, so the consumer is handed the event before it can stop.
# The worst this order allows is a screen that was handed a message and died before drawing
# it, and then nothing is lost: the record has it.
#
# </details>
#
# `lab.drive(run, stop_after=k)` takes k events and then closes the run, as a consumer that
# walks away does. The cell walks away after every event in turn, on the teammate's loop and
# on yours, and counts the steps that ran with no result on the record.

# %% id="walk-away-each-event"
def announce_first(model, system, messages, tools, prompt):
    """The teammate's loop: each message is announced, then appended once the consumer asks
    for the next event. Otherwise it is the same protocol."""
    new = []

    def told_then_kept(message):
        yield dict(type="message_end", message=message)
        messages.extend([message])  # only once the consumer asks for the next event
        new.append(message)

    yield dict(type="agent_start")
    waiting, asked = [harness.user_message(prompt)], True
    while asked:
        yield dict(type="turn_start")
        for message in waiting:
            yield from told_then_kept(message)
        waiting = ()
        reply = model.complete(system, harness.context_for_model(messages),
                               harness.tool_specs(tools))
        yield from told_then_kept(reply)
        asked = harness.tool_calls(reply) if reply["stop_reason"] != "error" else []
        for call in asked:
            yield dict(type="tool_execution_start", call=call)
            outcome = harness.run_tool(tools, call)
            yield from told_then_kept(outcome)
            yield dict(type="tool_execution_end", call=call, result=outcome)
        yield dict(type="turn_end", message=reply)
    yield dict(type="agent_end", messages=new)


async def unrecorded_after_walking_away(run_agent, k):
    """Walk away after event k; which steps ran with no result on the record, and the record."""
    ran, record = [], []
    run = run_agent(lab.ScriptedModel([lab.forever(three_steps)]), harness.SYSTEM, record,
                    job(ran), "Do the job.")
    taken = (await lab.drive(run, stop_after=k))
    kept = {m["content"] for m in record if m["role"] == "toolResult"}
    return [n for n in ran if f"step {n}: ok" not in kept], record, taken


print("steps that ran and have no result on the record, by the walk-away:")
print("  walked away after             the teammate's loop    yours")
holes, unrecorded = {}, {}
for k in range(1, 22):
    theirs, their_record, taken = await unrecorded_after_walking_away(announce_first, k)
    ours, _, _ = await unrecorded_after_walking_away(harness.run_agent, k)
    holes[k], unrecorded[k] = their_record, theirs
    if theirs or ours:
        print(f"  event {k:2} {taken[-1]['type']:22} {theirs or '-'!s:22} {ours or '-'}")
print(f"walk-aways that leave a step unrecorded: the teammate's "
      f"{sum(bool(r) for r in unrecorded.values())} of 21")

# %% [markdown]
# Three walk-aways leave the teammate's record holding a step that ran and has no result:
# each right after the `message_end` of a result, before its append. Yours leaves none, at any
# of the twenty-one. Figure 7.3 sets the two records side by side after a walk-away at event
# 6: step 1's result was on the screen in both, and only one of them wrote it down. (Both
# still hold a call for step 2, which never ran: that hole is true, and lesson 10's.)

# %% id="figure-7-3"
walked = 6
_, ours_left, _ = await unrecorded_after_walking_away(harness.run_agent, walked)
lab.draw(lab.Panel("1 · announce, then append", holes[walked], check=False,
                   note="step 1 ran; the screen showed its result"),
         lab.Panel("2 · append, then announce", ours_left, check=False,
                   note="the same moment: the result is on the record"),
         title="Figure 7.3  Walked away at the sixth event, two ways",
         caption="The consumer stopped right after it was handed step 1's result. Announced "
                 "first, the result never reaches the record; appended first, it is there "
                 "before anybody hears of it.")

# %% [markdown]
# That is the rule this lesson gives its name to: **mutate, then announce**. Whatever an event
# says has happened has already happened to the record when the event is handed out. A
# consumer may stop listening at any event, and the record is then a true account of
# everything it was told, and of nothing it was not. Lesson 10 leans on it: it makes up a
# result for a call the record left unanswered, and it can say "no result was recorded"
# honestly only because a tool that finished always has its result recorded.

# %% [markdown]
# ## What a walk-away leaves running
#
# The user closes the tab right after the screen showed `tool_execution_start` for step 2.
# Does step 2 run?
#
# <details><summary><b>A</b> · Yes: the start was announced, so the loop is committed to it</summary>
#
# ✗ **No.** Announcing is a `yield`; the loop is paused there. Closing the run raises
# `GeneratorExit` at that `yield`, and the line that would run the tool is never reached.
#
# </details>
#
# <details><summary><b>B</b> · It depends on how fast the tool is</summary>
#
# ✗ **No.** There is no race here: one thread, and the tool runs only inside a `next()`. (A
# harness that runs its tools concurrently does have that race; ours runs one at a time.)
#
# </details>
#
# <details><summary><b>C</b> · No: the loop is paused at the announcement, and closing it there ends it</summary>
#
# ✓ **Right.** A generator does nothing between events that the consumer did not ask for.
# That is why the start is announced *before* the tool runs: the screen can show a spinner,
# and the user can still say no.
#
# </details>

# %% id="walk-away-at-a-start"
starts = [i + 1 for i, e in enumerate(events) if e["type"] == "tool_execution_start"]
for k in starts:
    missing, record, taken = await unrecorded_after_walking_away(harness.run_agent, k)
    print(f"walked away at event {k} ({taken[-1]['type']} for "
          f"{taken[-1]['call']['id']}): the record is {lab.shape(record)}")

# %% [markdown]
# Each walk-away at a start leaves a call that has no result because its tool never ran:
# the truth, and lesson 10's problem. None leaves a tool that ran unrecorded.

# %% [markdown]
# ## Should the loop print?
#
# The quickest screen is a `print` inside the loop, beside each `yield`. Why not?
#
# <details><summary><b>A</b> · Because then every user of the loop gets that screen, including `> answer.txt` and a program reading JSON</summary>
#
# ✓ **Right.** A print in the loop is a frontend welded to it. The JSON log would be
# interleaved with prose, and the answer file would hold the whole run.
#
# </details>
#
# <details><summary><b>B</b> · Because printing is slow</summary>
#
# ✗ **No.** A line costs microseconds; a model call costs seconds.
#
# </details>
#
# <details><summary><b>C</b> · Because a generator cannot print</summary>
#
# ✗ **No,** it can print whatever it likes. The question is who should decide what is shown.
#
# </details>

# %% [markdown]
# ## One run, two frontends
#
# A **frontend is a fold over events**: `render(event)` for each one as it arrives, then
# `finish()`, which says whether the run ended well, so the program can choose its exit code.
# Your harness has two. `JsonRenderer` writes each event as a line of JSON, for another
# program. `FinalTextRenderer` writes nothing during the run and only the answer at the end,
# for `python agent.py "..." > answer.txt`. Which should a script that wants the answer use?
#
# <details><summary><b>A</b> · JsonRenderer: it has everything, and the script can pick out the answer</summary>
#
# ✗ **It can, with work.** It would have to understand the whole protocol to find the last
# reply. That is a fine choice for a program that wants to watch, not for one that wants the
# answer.
#
# </details>
#
# <details><summary><b>B</b> · FinalTextRenderer: the file gets the answer's words and nothing else</summary>
#
# ✓ **Right.** Same events, a different fold. Neither frontend changes a line of the loop.
#
# </details>
#
# <details><summary><b>C</b> · Neither: the script should call the model itself</summary>
#
# ✗ **No.** Then it has no tools, no loop and no record: it would be rebuilding lessons 01 to
# 06 to avoid a frontend.
#
# </details>
#
# Each frontend is handed a stream to write to (`None`, the default, is the screen). The cell
# runs the job once and folds the same events through both.

# %% id="two-frontends"
def fold(frontend_class, events):
    """Feed `events` to a new frontend that writes to a buffer; (what it wrote, its verdict)."""
    out = io.StringIO()
    frontend = frontend_class(out)
    for event in events:
        frontend.render(event)
    verdict = frontend.finish()
    return out.getvalue(), verdict


ran = []
events = (await lab.drive(harness.run_agent(
    lab.ScriptedModel([lab.forever(three_steps)]), harness.SYSTEM, [], job(ran), "Do the job.")))
json_lines, json_ok = fold(harness.JsonRenderer, events)
text, text_ok = fold(harness.FinalTextRenderer, events)
print(f"JsonRenderer:      {lab.counted(len(json_lines.splitlines()), 'line')}, finish() -> {json_ok}")
print("   first line:    ", json_lines.splitlines()[0])
print(f"FinalTextRenderer: {text!r}, finish() -> {text_ok}")

# %% [markdown]
# ## How does a frontend know the run failed?
#
# The provider fails on the second request: the run ends on a reply with `stop_reason`
# "error". How should `FinalTextRenderer` know?
#
# <details><summary><b>A</b> · The loop raises an exception, and the frontend catches it</summary>
#
# ✗ **No.** Lesson 05 made a failure data: a reply in the record, announced like any other.
# An exception would skip `turn_end` and `agent_end`, and every other frontend would have to
# catch it too.
#
# </details>
#
# <details><summary><b>B</b> · From the events: the last reply of the run failed</summary>
#
# ✓ **Right.** The frontend reads it off what it was told, writes `Error: <the reason>` and
# returns False, so the shell's `&&` stops there.
#
# </details>
#
# <details><summary><b>C</b> · It cannot; it just prints the last words it saw</summary>
#
# ✗ **No.** A failed reply has no words. It would write an empty line and call it an answer.
#
# </details>

# %% id="a-failed-run"
def outage(request):
    if not any(m["role"] == "toolResult" for m in request.messages):
        return lab.reply(lab.text("Two steps first."), lab.call("step", {"n": 1}))
    return lab.fail("503 overloaded")


failed_events = (await lab.drive(harness.run_agent(
    lab.ScriptedModel([lab.forever(outage)]), harness.SYSTEM, [], job([]), "Do the job.")))
text, ok = fold(harness.FinalTextRenderer, failed_events)
print(f"FinalTextRenderer wrote {text!r} and finish() returned {ok}")
print("the events ended:", [e["type"] for e in failed_events[-3:]])

# %% [markdown]
# ## The run that never ended
#
# The user closes the tab right after the model's first reply, *"Two steps first."*, which
# asks for two tools. The frontend's `finish()` is called anyway (it is in the program's
# `finally`). The starter's `FinalTextRenderer`, a first try, keeps the newest reply it has
# been shown and calls that the answer. What does it write, and what does it return?
#
# <details><summary><b>A</b> · "Error: …" and False: nothing came back from the model</summary>
#
# ✗ **No.** Something did come back: a reply, with words in it. The draft only knows that.
#
# </details>
#
# <details><summary><b>B</b> · An empty line and False</summary>
#
# ✗ **No.** The draft has no reason to say False: the reply did not fail.
#
# </details>
#
# <details><summary><b>C</b> · "Two steps first." and True: the words of a reply that was not the answer, called a success</summary>
#
# ✓ **Right, and it is the draft's bug.** `answer.txt` now holds a plan, not an answer, and
# the exit code says all went well. A run walked away from is not a run that ended.
#
# </details>
#
# The cell hands the first four events to the draft (the starter's class) and to the
# harness the examples run on.

# %% id="walked-away-frontend"
draft = starter_harness(lesson=7).FinalTextRenderer
for name, frontend_class in (("the draft", draft), ("the examples' harness", harness.FinalTextRenderer)):
    text, ok = fold(frontend_class, events[:4])
    print(f"{name:22} wrote {text!r:58} finish() -> {ok}")

# %% [markdown]
# The rule this course takes: **a run ended well only if it reached `agent_end`, and its last
# reply did not fail.** `agent_end` is the one event a run that ends always sends, and that a
# walked-away or dead run never does; it carries the run's messages, so the answer is the
# last assistant message among them. Without it there is no answer, whatever words were said
# on the way, and `finish()` writes one line, `Error: …`, and returns False. `JsonRenderer`
# keeps the same rule for its verdict; it writes nothing more at the end, because a program
# reading its lines can see for itself that no `agent_end` came.

# %% [markdown]
# ## Starts and ends, on every way out
#
# A run can end three ways: the model answers, a reply fails, or `max_turns` stops it. A
# frontend shows a spinner from `tool_execution_start` to its end and a turn counter from
# `turn_start` to `turn_end`. Which ways out must close every pair?
#
# <details><summary><b>A</b> · All three: each turn closes with turn_end, and agent_end is the one way out of the loop</summary>
#
# ✓ **Right.** Lesson 05's failure and `max_turns` are replies on the record like any
# other, so the turn they are in ends normally, and the loop leaves by the bottom, where
# `agent_end` is. A walk-away is different: the consumer chose to stop hearing.
#
# </details>
#
# <details><summary><b>B</b> · The model's answer; a failure is an emergency, and the frontend can clean up</summary>
#
# ✗ **No.** Then every frontend needs its own guess at what an unclosed pair means, and the
# failure is exactly when the user is watching hardest.
#
# </details>
#
# <details><summary><b>C</b> · None of them need to: a frontend should count nothing</summary>
#
# ✗ **No.** Screens do count: a spinner is a start waiting for its end.
#
# </details>

# %% id="pairs"
def runaway(request):
    done = sum(m["role"] == "toolResult" for m in request.messages)
    return lab.reply(lab.text("One more."), lab.call("step", {"n": done + 1}))


for story, model, options in (("answered", three_steps, {}), ("failed", outage, {}),
                              ("max_turns=2", runaway, {"max_turns": 2})):
    got = (await lab.drive(harness.run_agent(
        lab.ScriptedModel([lab.forever(model)]), harness.SYSTEM, [], job([]), "Do the job.",
        **options)))
    count = {kind: sum(e["type"] == kind for e in got) for kind in
             ("turn_start", "turn_end", "tool_execution_start", "tool_execution_end")}
    print(f"{story:12} first {got[0]['type']}, last {got[-1]['type']}; turns "
          f"{count['turn_start']}/{count['turn_end']}, tools "
          f"{count['tool_execution_start']}/{count['tool_execution_end']}")

# %% [markdown]
# ## Common answers, and what each one misses
#
# - **"Collect the events in a list and return it with the messages."** Every event is right
#   and every one is late: that is the opening's ten minutes of nothing.
# - **"Yield first, append after: the screen should hear as soon as possible."** The screen
#   hears a microsecond sooner, and a walk-away at that event leaves a tool that ran with no
#   result. Figure 7.3.
# - **"Run the tool, then announce the start and end together."** The spinner appears when
#   the work is over, and the user can no longer stop a step by closing the run.
# - **"The last words seen are the answer."** Only of a run that reached `agent_end`.

# %% [markdown]
# ## Compared with pi-mono
#
# pi-mono (badlogic/pi-mono, read at commit `83378aa`) has the same events, named the same
# way, and this course's protocol follows it: `agent_start`, `turn_start`, `message_start` and
# `message_end`, `tool_execution_start` and `_end`, `turn_end`, `agent_end` carrying the new
# messages (`packages/agent/src/agent-loop.ts:109-114`, `:175-217`, `:240`).
#
# - Its loop does not yield; it *pushes*. Every event goes through `await emit(...)`, a sink
#   the caller passes in (`agent-loop.ts:95-102`), so a consumer cannot stop the loop by no
#   longer asking; pi-mono stops a run with an abort signal instead.
# - The assistant's reply follows your rule: it is pushed onto the context and only then
#   announced (`agent-loop.ts:330-338`).
# - Tool results do not. Each tool's outcome is announced with `tool_execution_end`, then as
#   a message (`agent-loop.ts:636-663`), and the results of the whole batch are pushed onto the
#   context after all the tools have run (`agent-loop.ts:207-214`). Queued user messages are
#   likewise announced and then pushed (`agent-loop.ts:182-186`).
# - That is safe there for a reason your loop lacks: its context is a copy the loop owns
#   (`agent-loop.ts:103-107`), and the record is kept by the one listener that builds it from
#   the events. The `Agent` class appends each `message_end`'s message to its state
#   (`packages/agent/src/agent.ts:468-471`) and only after that passes the event on to its
#   own subscribers (`agent.ts:499`): your rule again, one layer up. It also reads a failed
#   run off `turn_end`'s message (`agent.ts:487-490`), as your frontend reads it off the
#   last reply.
#
# **Where ours is weaker.** We have one `message_end` and no `message_start` or streamed
# updates: a reply arrives whole, so there is nothing to show while it is being written. Our
# events carry whole messages and no timestamps. Our simplification: the harness's own list
# is the record, so the order of append and announce is ours to get right; when lesson 11
# writes the record to disk, the same rule becomes "saved, then announced".

# %% [markdown]
# ## Your turn
#
# Open `harness.py` at the project root. Two places are marked `# --- your code ---`, about
# forty lines in all.
#
# 1. **`run_agent`, in region 3 (about twenty-five lines).** Make it a generator of the
#    protocol's events, handed out as each step happens: `agent_start`; for each turn
#    `turn_start`, a `message_end` for each message added (the prompt, the reply, each
#    result), `tool_execution_start` and `tool_execution_end` around each tool, `turn_end`
#    carrying the reply; `agent_end` last, carrying the run's new messages. The prompt's
#    `message_end` belongs to the first turn: right after its `turn_start`, before the
#    request is made (never between `agent_start` and `turn_start`). Append each
#    message to `messages` **before** its `message_end` is handed out. A failed reply and
#    `max_turns` end the run the way lesson 05's loop did, with every pair closed.
# 2. **`FinalTextRenderer`, in region 4 (about fifteen lines).** `FinalTextRenderer(out=None)`
#    writes with `print(..., file=self.out)`. Nothing while the run goes on; at `finish()`,
#    for a run that reached `agent_end`, the last reply's words and True, or `Error: <its
#    error_message>` and False if it failed; for a run that did not, one line starting
#    `Error:` and False.
#
# **Ten graded tests**, each in one line. The first six drive your `run_agent` on a job of
# three steps:
#
# - the events come out in the protocol's order, `agent_start` to `agent_end`; <!-- test: test_a_job_hands_out_the_protocol_in_order -->
# - at every event, the record holds exactly the messages announced so far; <!-- test: test_each_message_is_on_the_record_before_its_message_end -->
# - walked away after each of the 21 events in turn, every step that ran has its result on
#   the record; <!-- test: test_walking_away_after_any_event_leaves_every_finished_tool_recorded -->
# - no tool runs before its `tool_execution_start` is handed out; <!-- test: test_no_tool_runs_before_its_start_is_handed_out -->
# - starts and ends pair up on every way out: the answer, a failed reply and `max_turns`; <!-- test: test_starts_and_ends_pair_up_on_every_exit -->
# - `agent_end` carries the run's new messages and none of the history; <!-- test: test_agent_end_carries_exactly_the_runs_new_messages -->
# - (hidden) for jobs hypothesis makes up, stopped after any event, the record holds exactly
#   what the screen was told; <!-- test: test_any_job_stopped_anywhere_leaves_the_record_the_screen_was_told -->
# - `FinalTextRenderer` never calls a run walked away from a success, whichever event it
#   stopped after; <!-- test: test_a_run_walked_away_from_is_never_called_a_success -->
# - (hidden) for runs hypothesis makes up, finished or walked away from, `FinalTextRenderer` writes
#   nothing during the run and gives the verdict it earned: the answer and True, or one line
#   `Error: …` and False; <!-- test: test_any_run_gets_the_verdict_it_earned -->
# - (given) `JsonRenderer` writes one line of JSON an event, and knows a run walked away from.
#   <!-- test: test_json_renderer_writes_a_line_per_event_and_knows_a_walked_away_run -->
#
# <details><summary>A hint for the loop</summary>
#
# List, in order, every moment of a turn at which something happens: a message added, a tool
# about to run, a tool done, the turn over. At which of them is a consumer allowed to be told,
# and what must already be true of the record when it is?
#
# </details>
#
# <details><summary>An outline of the loop</summary>
#
# Keep lesson 06's loop and its two ways out, and put a `yield` at each place something
# happens: before the first turn, at the top of each turn, after each append, before and
# after each tool, at the bottom of each turn, and after the loop. A small helper that
# appends a message and returns its `message_end` keeps the order right everywhere. Let the
# loop end by its condition rather than a `return`, so the line after it always runs.
#
# </details>
#
# <details><summary>A hint for the frontend</summary>
#
# Which event does every run that ends send, and a walked-away or dead run never does? What
# should `finish()` say when it has not seen that event, whatever words went past before it?
#
# </details>
#
# <details><summary>An outline of the frontend</summary>
#
# Remember `agent_end`'s messages when they come; before that, remember nothing. At
# `finish()`, no `agent_end` means no answer. Otherwise find the last assistant message among
# them, and judge it as the draft did.
#
# </details>
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 07
# ```

# %% [markdown]
# ## Walk away, anywhere
#
# The job again, walked away from after every event, on the harness the examples run on: at
# each, the record beside what the screen was told, and what `FinalTextRenderer` makes of the
# events so far. Nothing passes or fails; once your lab passes, re-run the first cell and this
# runs on your code.

# %% id="after-the-pass"
agree, verdicts = 0, {}
for k in range(1, len(events) + 1):
    ran, record = [], []
    taken = (await lab.drive(harness.run_agent(
        lab.ScriptedModel([lab.forever(three_steps)]), harness.SYSTEM, record, job(ran),
        "Do the job."), stop_after=k))
    told = [e["message"] for e in taken if e["type"] == "message_end"]
    agree += record == told
    text, ok = fold(harness.FinalTextRenderer, taken)
    verdicts.setdefault((ok, text.split(":")[0].strip()), []).append(k)
print(f"record == what the screen was told: at {agree} of {len(events)} walk-aways")
for (ok, said), ks in verdicts.items():
    print(f"finish() -> {ok!s:5} writing {said!r:28} after events {ks[0]}..{ks[-1]}")

# %% [markdown]
# ### Your harness, so far
#
# 1. Holds a conversation, and knows who said what.
# 2. Runs the tools the model asks for and shows it the results.
# 3. Keeps going until the model stops asking.
# 4. Tells the model when a tool fails, and carries on.
# 5. Stops a runaway, and survives a provider failure.
# 6. Keeps every tool result within a budget.
# 7. **New:** reports what it is doing, as events, to any frontend.

# %% [markdown]
# ## In your own words
#
# Two questions; answer each in a sentence or two before you open ours.
#
# 1. Your loop appends a message and only then hands out its `message_end`. What does that
#    promise a consumer that stops listening, and what does it not promise?
# 2. `FinalTextRenderer` and `JsonRenderer` are both folds over the same events, and the loop
#    knows neither. Why is it the frontend, and not the loop, that decides whether a run ended
#    well?
#
# <details><summary>A hint</summary>
#
# For the first, look at Figure 7.3 and at the walk-aways at a `tool_execution_start`: which
# of them leave a call with no result, and is that record false? For the second: who, besides
# the screen, reads the loop's events, and do they all want the same verdict on the same run?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# 1. It promises that the record holds everything the consumer was told: whatever event a
#    consumer stops at, no tool that finished is left without its result, and nothing was
#    announced that the record does not hold. It does not promise that the consumer showed what
#    it was handed, or that the record is complete: a call whose start was announced and whose
#    tool never ran stays on the record unanswered. That record is true, and sending it is
#    lesson 10's problem.
# 2. Because "ended well" depends on who is asking. A script behind `> answer.txt` needs the
#    answer and an exit code; a log needs every event and a verdict it can check for itself; a
#    screen may want neither. The loop's job is to say what happened, in order, and to end every
#    run it finishes with `agent_end`; each frontend reads that and judges for its own reader.
#    Put the verdict in the loop and every frontend inherits one reader's idea of success.
#
# Common answers, and what each one misses:
#
# - *"It promises the record is complete."* It is honest, not complete: a call whose tool
#   never ran stays unanswered, which is the truth about that run.
# - *"It makes walk-aways impossible."* A consumer can always stop; the rule only makes
#   stopping safe.
# - *"The loop should raise when a run fails, so every frontend notices."* Lesson 05 made a
#   failure a reply on the record; an exception would skip `turn_end` and `agent_end`, and
#   every frontend would have to catch it to close its pairs.
#
# </details>

# %% [markdown]
# ## A further case
#
# Your events go to a browser over a websocket, and the connection drops after the browser
# received `message_end` for step 2's result. The harness notices only when its next send
# fails. Which rule decides whether the record must hold step 2's result, and does it? Write
# the rule in one sentence, so that it also settles the next case like it.
#
# <details><summary>A hint</summary>
#
# The websocket is just another consumer that stops listening. At the moment the browser was
# handed step 2's result, where was that result already?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# The rule: **nothing may be announced to anybody that the record does not already hold**;
# mutate, then announce, wherever "announce" happens. The result was appended before the event
# was sent, so the record has it, and a reconnecting browser can be sent whatever it missed,
# from the record, which is the one list that is never behind. The same rule settles the next
# case like it: when lesson 11 writes the record to disk, a message is saved before it is
# announced, so a crash never leaves the screen having shown something the disk does not know.
# [general] It is the same order a database uses for its log: written, then acknowledged.
#
# Common answers, and what each one misses:
#
# - *"Keep a copy of every event sent, and replay it to the browser."* A second list that can
#   disagree with the first; the record already is that copy, and it is the one the model is
#   sent.
# - *"Stop the run when the browser goes away."* A reasonable policy for a screen, and a
#   different question: it decides what runs next, not what the record must hold about what
#   already ran.
# - *"Send the event first, so the browser is never behind."* Then a drop between the send and
#   the append leaves a result the user saw and the record lost: the teammate's loop of
#   Figure 7.3.
#
# </details>

# %% [markdown]
# ### Your harness can
#
# 1. Hold a conversation: it knows what was said, and who said it.
# 2. Run a tool the model asks for and show it the result.
# 3. Keep going until the model stops asking.
# 4. Tell the model when a tool fails, and carry on.
# 5. Stop a runaway, and survive a provider failure.
# 6. Keep every tool result within a budget.
# 7. **New:** Report what it is doing, as events, to any frontend.

# %% [markdown]
# ## Wrapping up
#
# **You hit:** a user who watched ten minutes of nothing, and a first-try frontend that
# called a run walked away from a success.
#
# **You built:** `run_agent` as a generator of events that records each message before it
# announces it and closes every pair on every way out; and `FinalTextRenderer`, which judges a
# run only once it has reached `agent_end`.
#
# **The principle:** mutate, then announce; and a frontend is a fold over events that the
# loop never learns about.
#
# **Your harness now** (new in this lesson in bold):
#
# - `SYSTEM`, `user_message`, `text_of` (lesson 01)
# - `tool_calls`, `tool_specs`, `run_tool`, `make_read_tool`, `make_write_tool`, `make_bash_tool` (lesson 02)
# - `str_arg`, `int_arg` (lesson 04); `error_message`, `context_for_model` (lesson 05)
# - `MAX_LINES`, `MAX_BYTES`, `fit_budget` (lesson 06)
# - `run_agent`: **now a generator of events, mutate then announce**
# - **`JsonRenderer`, `FinalTextRenderer`**
#
# **Still open.** Your frontend is one consumer. The user opens a second window on the same
# session and types a new prompt while the first run is still going: two runs, one list, and
# their messages interleave. Lesson 08.
#
# **Previous:** 06 · The file that ate the context.
#
# **Next:** 08 · Two writers, one list.
