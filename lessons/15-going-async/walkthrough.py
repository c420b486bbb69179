# Lesson 15, "Going async": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The suite proves the committed notebook is
# what this makes and runs it on a real kernel, on the finished harness and on the starter.
# Every cell uses only names the starter defines; a cell that needs a gap the reader has not
# filled says so in one line (empty_gaps, in the first cell) instead of raising.

# %% [markdown]
# # 15 · Going async
#
# *Meeting the world · ~60 min · 1 lab · builds on 14 · Who really spoke*
#
# **Two searches that could have run side by side ran one after the other. Then the user
# pressed Stop, and a tool went on running after the screen said it had stopped.**
#
# This lesson builds on lesson 14. New here? Start at lesson 01, or carry on: every lab is
# self-contained, and lesson 15's starter is lesson 14's finished harness with its loop made
# async and three new gaps.
#
# A user asks the agent where `parse_config` is used. The model answers with one reply that
# asks for two searches, one over `src/` and one over `tests/`: two calls it wrote together
# because neither needs the other. Your loop runs the first, waits for it to finish, then starts
# the second. On a big repository that is the difference between one wait and two. Later the
# same afternoon the user presses Stop in the middle of a long test run. The screen stops;
# the test run does not, and the record keeps a call that nobody ever answered.
#
# Since lesson 10 you have been told to read `async for` as `for` and `await f(x)` as `f(x)`.
# This lesson is where that stops being true.
#
# **How to read it.** Run the cells from top to bottom. Each question lists its options folded
# shut: settle on one, then unfold them. Every figure is drawn live from a transcript a cell
# above just made.

# %% id="setup"
# Start here: find the project folder, make `lab` importable, and choose the harness.
import asyncio
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {here} or above it: open this notebook from "
                            "inside the project, e.g. lessons/15-going-async/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import patched, pick_harness, starter_harness, with_repair

chosen = with_repair(pick_harness(lesson=15), lesson=15)
harness = chosen.module
print(chosen)

PROMPT = "Find every use of parse_config."


def job_model(*calls):
    """A model whose first reply asks for `calls` (step tools, by their arguments), and which
    answers every later request in words."""
    blocks = [lab.call("step", dict(arguments), id=arguments["id"]) for arguments in calls]
    return lab.ScriptedModel([lab.reply(lab.text("On it."), *blocks),
                              lab.forever(lambda request: lab.say("Done."))])


def empty_gaps(*gaps):
    """"" when the chosen harness does what each gap in `gaps` builds, else one line saying
    which of them an example needs first. Judged by behaviour: two tools that wait for each
    other meet (together); a run cancelled while a tool hangs leaves every call answered
    (stopped); a run closed mid-tools frees the harness at once (door)."""
    def together():
        lines = lab.run_job(harness, job_model({"id": "c1", "meet": "c2"},
                                               {"id": "c2", "meet": "c1"}), PROMPT)["lines"]
        return not any("gave up" in line for line in lines)

    def stopped():
        facts = lab.run_job(harness, job_model({"id": "c1", "hang": True}, {"id": "c2"}),
                            PROMPT, stop=["cancel", "c1"])
        return lab.validate(facts["ended"]["record"]) == [] and not facts["ended"]["going"]

    def door():
        facts = lab.run_job(harness, job_model({"id": "c1"}, {"id": "c2", "hang": True}),
                            PROMPT, stop=["close", 7])
        return not facts["ended"]["is_running"]

    probes = {"together": together, "stopped": stopped, "door": door}
    empty = []
    for gap in gaps:
        try:
            done = probes[gap]()
        except Exception:  # written, if not right yet: the example shows what it does
            done = True
        if not done:
            empty.append(gap)
    if not empty:
        return ""
    many = len(empty) > 1
    return (f"(this example needs the {' and '.join(empty)} gap{'s' * many} of your harness.py: "
            f"fill {'them' if many else 'it'}, then run the cells from the top again)")

# %% [markdown]
# The cell names the harness file the examples use and says why. Until your `harness.py` runs
# the tools of one reply together and stops them cleanly, that is the lesson's finished
# harness in the course's own folder, and your own file in a student's copy of the lesson,
# where an example that needs a gap you have not filled says so in one line. To work on lesson
# 15, run `lab-check --reset --lesson 15`: it puts lesson 15's starter in your `harness.py` and
# keeps your file beside it.
#
# ## Two tools, one after the other
#
# **The notation**, as in lessons 10 to 14: `U` is a user message, `A` an assistant reply,
# `A[c1,c2]` one that asks for calls `c1` and `c2`, `R(c1)` a result, `(error)` a reply that
# failed.
#
# **The tools of this lesson** come from the lab (`lab.step_tool`). Calling one hands back
# something to await, as an `async def` does, and awaiting it behaves like one: each time the
# event loop resumes it, it asks a `lab.Desk` what to do next (wait a turn, finish, fail), and
# the desk writes down, line by line, what happens to each tool. (When the lab grades your
# file, the desk sits in the grader's process and the awaited tools in yours, so the log is
# the grader's own account.) A tool's arguments say what it does. `"meet": "c2"` makes it wait
# until `c2` has started as well, which is how this lesson stands in for "two searches that
# could run side by side". It never looks at a clock. It waits a turn of the event loop at a
# time, a hundred turns at most, and if the other tool has not started by then, the desk
# writes "gave up" and the tool carries on. Run together, two such tools meet
# within a turn or two on any machine; run one after the other, they never can.
#
# The cell runs the two searches on the **starter**, whatever the first cell chose: lesson 14's
# loop, made async and nothing more.

# %% id="one-after-the-other"
starter = starter_harness(lesson=15)
two_searches = ({"id": "c1", "meet": "c2"}, {"id": "c2", "meet": "c1"})

facts = lab.run_job(starter, job_model(*two_searches), PROMPT)
print("what the tools lived through:")
for line in facts["lines"]:
    print("  ", line)
print()
print("the record:", lab.shape(facts["record"]))

# %% [markdown]
# Read the first lines. `c1` started, waited its hundred turns for `c2`, gave up, and
# finished; only then did `c2` start, and it found `c1` long since started. The record is
# perfect: every call has its result, in call order. Nothing failed. The job simply took the
# time of both searches instead of the time of the longer one.
#
# Lesson 07's loop had `result = run_tool(tools, call)` inside a `for`. The starter's has
# `result = await run_tool(tools, call)`. Why did `c2` not start while `c1` was waiting?
#
# <details><summary><b>A</b> · Because asyncio runs one thing at a time, so two tools can never overlap</summary>
#
# ✗ **Half true, and the wrong half.** One thread runs one piece of Python at a time, and
# nothing here is about threads. But whenever a coroutine awaits something that is not ready
# (the step tool's `await asyncio.sleep(0)`), the event loop runs something else. `c1` waited a
# hundred times; there was nothing else for the loop to run.
#
# </details>
#
# <details><summary><b>B</b> · Because `await` means "wait here until it is done": the loop never asked for c2 until c1 had finished</summary>
#
# ✓ **Right.** `await run_tool(...)` runs the call to its end before the line after it runs.
# The loop is the only thing that could have started `c2`, and the loop was waiting. Nothing is
# concurrent until something hands the event loop a second piece of work.
#
# </details>
#
# <details><summary><b>C</b> · Because the tools are plain functions and block the loop</summary>
#
# ✗ **Not these.** The step tool awaits like an `async def`, and while it waits, the loop is
# free. A plain function (lesson 02's tools are plain) does block the loop while it runs, and
# the further case comes back to that; here nothing was blocked, and nothing else had been
# asked to run.
#
# </details>

# %% [markdown]
# ## What async changes for a frontend
#
# Your loop is now an `async def` with `yield` in it: an **asynchronous generator**. A frontend
# reads it with `async for event in run` instead of `for event in run`, inside a coroutine, and
# closes it with `await run.aclose()` instead of `run.close()`. The events are lesson 07's, one
# dict at a time, in the same order. What else changes for the code that reads them?
#
# <details><summary><b>A</b> · Nothing: `async for` is `for` with a keyword in front, as lesson 10 said</summary>
#
# ✗ **It was a fair reading until now.** While the loop awaited nothing that could wait, there
# was no difference to see. The difference is in the gaps between events: at every `await`
# inside the loop, other tasks get to run, and that is what this lesson needs, and what makes a
# run stoppable in the middle of a tool.
#
# </details>
#
# <details><summary><b>B</b> · Between two events, other work can run: the run can be cancelled at any await inside it, and a run that is not closed is finished later, by the event loop, not at once</summary>
#
# ✓ **Right.** Both halves are this lesson. The first gives you tools that run together and a
# Stop button that can reach them. The second is the trap: a plain generator that a frontend
# drops is closed the moment it is dropped, and lesson 08's `finally` runs there and then. An
# async generator cannot run its `finally` without an event loop, so a dropped one is handed
# to the loop to close later, when it gets round to it.
#
# </details>
#
# <details><summary><b>C</b> · The events arrive in a different order, since tools finish when they finish</summary>
#
# ✗ **Only if you let them.** The order of events is the loop's decision, not the tools'. This
# lesson keeps lesson 07's protocol as it was, and the cell after the next question shows it.
#
# </details>

# %% [markdown]
# ## Starting every call first
#
# To run the two searches together, the loop has to start `c2` before it waits for `c1`. In
# asyncio, "start it and carry on" is a **task**: `asyncio.ensure_future(run_tool(tools,
# call))` schedules the call and hands back a handle you can wait on, ask about, and cancel.
# *[general]* A task only runs when the code that made it awaits something; making it does not
# run it.
#
# The model asked for `c1` and `c2` in one reply. Which way of running them do you build on?
#
# <details><summary><b>A</b> · `results = await asyncio.gather(*(run_tool(tools, c) for c in calls))`, then record them in order</summary>
#
# ✗ **Close, and it fails later in the lesson.** The tools run together and `gather` hands the
# results back in call order. But nothing can be recorded until the slowest tool is done, and
# the wait cannot be told to stop: when the user presses Stop while one tool hangs, `gather`
# is still waiting for it.
#
# </details>
#
# <details><summary><b>B</b> · A task for every call, all started first; then wait for each task in call order, and record its result as it comes</summary>
#
# ✓ **Right.** Every tool is running before the loop waits for any of them. The loop then waits
# for `c1`, records it and announces it, waits for `c2` (which may be long done), and so on.
# Each wait is one place where the loop can also listen for something else: the Stop button.
#
# </details>
#
# <details><summary><b>C</b> · A task for every call, and record each result as soon as its task finishes (`asyncio.as_completed`)</summary>
#
# ✗ **Fast, and the record says something else.** The results land in the order the tools
# happened to finish, which changes from run to run. The next question is about that order.
#
# </details>

# %% [markdown]
# ## Results in call order
#
# The cell after the question runs a job where `c1` waits for `c2` to *finish* (`"after":
# "c2"`): `c2` is the quick one. Which result is recorded first?
#
# <details><summary><b>A</b> · c2's: it was ready first, and holding it back only delays the model</summary>
#
# ✗ **Nothing is delayed.** The next request cannot go out before every result of the batch is
# in, so recording `c2` first gains nothing. And lesson 10's rule is about adjacency and order:
# every result follows its call's reply, in the order the calls were written; the strict
# provider checks it.
#
# </details>
#
# <details><summary><b>B</b> · c1's, then c2's: the order the model wrote the calls, whichever finished first</summary>
#
# ✓ **Right.** The record, the `message_end` events and the next request all keep the model's
# order. A record that depends on which tool was quicker is a record that is different every
# time you run the same session, and a prompt cache that misses for no reason (lesson 13).
#
# </details>
#
# <details><summary><b>C</b> · It does not matter: each result carries its call's id</summary>
#
# ✗ **It matters to the strict provider**, and to anyone who reads the record and expects it to
# say the same thing twice. The id says which call a result answers; it does not make any order
# acceptable.
#
# </details>

# %% id="call-order"
if not (waiting := empty_gaps("together")):
    facts = lab.run_job(harness, job_model({"id": "c1", "after": "c2"}, {"id": "c2"}), PROMPT)
    print("finished, in order:", [line.split()[-1] for line in facts["lines"]
                                  if line.startswith("finish")])
    print("the record:        ", lab.shape(facts["record"]))
    print()
    print("the events a frontend sees:")
    for event in facts["events"]:
        about = event.get("call") or (lab.shape([event["message"]]) if "message" in event else "")
        print(f"   {event['type']:22} {about}")
else:
    print(waiting)

# %% [markdown]
# `c2` finished first and `c1` was recorded first. The events are lesson 07's, in lesson 07's
# order: a `tool_execution_start` for every call of the reply, then, call by call, the result's
# `message_end` and the call's `tool_execution_end`, then `turn_end`. The only thing a frontend
# can notice is that both starts come before either end, which was always allowed. Lesson 09's
# steering is asked for where it always was, once every call of the batch has its result.
#
# Figure 15.1 puts the two runs side by side.

# %% id="figure-15-1"
def gave_up(run):
    """How many tools of `run` gave up waiting, as its lines say."""
    return lab.counted(sum("gave up" in line for line in run["lines"]), "tool")


if not (waiting := empty_gaps("together")):
    apart = lab.run_job(starter, job_model(*two_searches), PROMPT)
    together = lab.run_job(harness, job_model(*two_searches), PROMPT)
    display(lab.draw(
        lab.Panel("one after the other (the starter)", apart["record"],
                  note=f"{gave_up(apart)} gave up waiting"),
        lab.Panel("together (lesson 15)", together["record"],
                  note=f"{gave_up(together)} gave up"),
        title="Figure 15.1  The same reply, run one after the other and together",
        caption="The two records are the same messages in the same order: running the tools "
                "together changes when they run, never what the record says or in which "
                "order."))
else:
    print(waiting)

# %% [markdown]
# ### Common answers, and what each one misses
#
# - *"Use threads: `asyncio.to_thread(tool, arguments)` for every call."* A thread runs a
#   plain function alongside the loop, and nothing can stop it halfway: the further case is
#   about that. Our tools that wait are `async def`, and they run in the loop.
# - *"Run the tools together only when the model says they are independent."* It did say so:
#   it wrote them in one reply. A call that needs another call's result comes in the next
#   reply, after the model has read it.
# - *"Record as they finish, then sort the record by call order."* The record is append-only
#   (lesson 11): a message written to the file cannot be moved afterwards.
#
# ## The user presses Stop
#
# Now the afternoon's second half. A teammate took option B of the question before last and
# stopped there: a task for every call, the results recorded in call order, and nothing else.
# The model asks for two long jobs at once, `c1` (the test run) and `c2` (a type check). The
# user presses Stop while both are going, and the frontend does what frontends do: it cancels
# the task that is reading the run. `lab.run_job(..., stop=["cancel", "c2"])` does exactly
# that, the moment `c2` starts.

# %% id="teammate"
async def teammates_run_tools(tools, calls, record, abort=None):
    """Tasks for every call, results in call order, and nothing for a run that is stopped."""
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
    tasks = [asyncio.ensure_future(harness.run_tool(tools, call)) for call in calls]
    for k, call in enumerate(calls):
        result = await tasks[k]
        yield record(result)
        yield {"type": "tool_execution_end", "call": call, "result": result}

two_long_jobs = ({"id": "c1", "hang": True}, {"id": "c2", "hang": True})
with patched(harness, run_tools=teammates_run_tools):
    facts = lab.run_job(harness, job_model(*two_long_jobs), PROMPT, stop=["cancel", "c2"],
                        then=["Never mind. Hello?"])
print("what the caller saw:        ", facts["ended"]["raised"])
print("tools still going just then:", facts["ended"]["going"])
print("the record just then:       ", lab.shape(facts["ended"]["record"]))
print()
print("what the tools lived through:")
for line in facts["lines"]:
    print("  ", line)

# %% [markdown]
# The caller got its `CancelledError` and the screen stopped. At that moment `c2` was still
# going, and the record held a reply whose two calls had no results. Read the log: `c1` was
# cancelled and tidied up; `c2` started, and after that there is no line about it at all.
# Nobody told it anything. It went on waiting after the run it belonged to was over, and was
# stopped only when the cell's whole event loop shut down (`asyncio.run` cancels whatever is
# left when it finishes), after the log was taken. In a program that runs for hours, an
# editor or a server, nothing shuts down, and the type check, or a test run that writes
# files, runs to its end after the user said stop. The prompt after it was answered only because lesson 10's repair made up two results
# in the view; the record itself says nothing about what became of either call.
#
# `c1` was cancelled with the run. Why was `c2` not?
#
# <details><summary><b>A</b> · Bad luck: cancelling a task cancels everything it started, and c2 had not quite started</summary>
#
# ✗ **The log contradicts it**: `c2` started before the cancellation arrived, and ran long
# after. A task made with `ensure_future` belongs to the event loop, not to the code that made
# it, and *[general]* asyncio cancels what you cancel, and nothing else.
#
# </details>
#
# <details><summary><b>B</b> · The cancellation arrived at the run's `await` on c1's task, which passed it on to c1; nothing was awaiting c2, so nothing told it</summary>
#
# ✓ **Right.** `Task.cancel()` arranges for a `CancelledError` to be thrown into the coroutine
# where it is waiting, and a task cancelled while it awaits another task cancels that one too,
# which is what happened to `c1`. The exception then went up through the run and out; `c2`'s
# task was never mentioned on the way.
#
# </details>
#
# <details><summary><b>C</b> · It will be, when the garbage collector gets to it</summary>
#
# ✗ **No.** The event loop holds a reference to every task it is running, and a running task
# is not garbage. It runs until it finishes, or until the event loop itself is shut down.
#
# </details>

# %% [markdown]
# ## CancelledError is not an Exception
#
# So the tools' part of the run needs a way out that stops what it started. Your first
# thought may be lesson 04's: a `try` around the waiting, and the cleanup in the
# `except Exception` block, where a failing tool's exception was turned into a result. Does the
# cleanup run when the run is cancelled?
#
# <details><summary><b>A</b> · Yes: a cancellation is an exception like any other</summary>
#
# ✗ **It is an exception, and not an `Exception`.** Run the cell after the question.
#
# </details>
#
# <details><summary><b>B</b> · No: `asyncio.CancelledError` is a `BaseException`, like `KeyboardInterrupt`, so `except Exception` lets it through</summary>
#
# ✓ **Right**, and it is lesson 04's lesson again from the other side. `run_tool`'s `except
# Exception` is the width of a tool's *failure*: a stop is not a failure, and `run_tool` must not
# turn it into an `is_error` result, or the Stop button would become a message to the model.
# The same width is wrong for cleanup. *[general]* `CancelledError` has been a subclass of
# `BaseException` since Python 3.8, and Python's documentation says that in almost all
# situations it must be re-raised (docs.python.org, library/asyncio-exceptions).
#
# </details>
#
# <details><summary><b>C</b> · Only when the tool itself raises</summary>
#
# ✗ **The tool raising is lesson 04's case, already handled inside `run_tool`.** Here the tool is
# fine; it is the run that is being stopped.
#
# </details>

# %% id="base-exception"
print("CancelledError is an Exception:    ", issubclass(asyncio.CancelledError, Exception))
print("CancelledError is a BaseException: ", issubclass(asyncio.CancelledError, BaseException))
print("KeyboardInterrupt is an Exception: ", issubclass(KeyboardInterrupt, Exception))

# %% [markdown]
# The place for cleanup that must run however a block is left is a `finally`: it runs on a
# return, on an exception of any kind, on a cancellation, and on `aclose()`, which throws
# `GeneratorExit` (another `BaseException`) in at the `yield` where the generator stood.
#
# And the cancellation itself: once the cleanup has run, what happens to it?
#
# <details><summary><b>A</b> · Catch it: the record is repaired, so the run can carry on as if the tools' part had ended</summary>
#
# ✗ **That swallows the Stop button.** Whoever cancelled the run (the frontend, a timeout,
# the kernel's interrupt) waits for the cancellation to arrive and never hears it; the run goes
# on to its next request as if nothing had been asked.
#
# </details>
#
# <details><summary><b>B</b> · Let it go on, once the `finally` has run: it goes up through the loop and the harness to whoever cancelled</summary>
#
# ✓ **Right.** A `finally` does exactly that: it runs, and then the exception carries on. Every
# layer tidies its own part on the way: `run_tools` its tasks, the harness its door.
#
# </details>
#
# <details><summary><b>C</b> · Turn it into a failed reply (lesson 05), so the frontend sees a normal end</summary>
#
# ✗ **That is the Stop button's job, not the cancellation's.** A cancellation means "stop now,
# whatever you were doing", from code that may not even know what a reply is. The user's
# stop, which does end in a failed reply, is the `abort` below.
#
# </details>

# %% [markdown]
# ## What the record says about a stopped call
#
# The `finally` cancels the tasks that are still running. Cancelling only *asks*: the
# `CancelledError` lands in the tool at its next `await`, and a tool may need a moment to tidy
# up (a process to kill and wait for; the step tool takes three turns). So the `finally` waits
# for them: `await asyncio.gather(*tasks, return_exceptions=True)`. Then every call of the
# reply that has no result in the record gets one, recorded (and saved), not announced: the
# consumer may not be listening any more.
#
# In the job of the next cell, `c1` and `c3` finish at once and `c2` hangs; the run is
# cancelled when `c2` starts, before `c3`'s result could be recorded. What does the record say
# for `c3`?
#
# <details><summary><b>A</b> · INTERRUPTED, lesson 10's text, as for every call without a recorded result</summary>
#
# ✗ **That tells the model a lie of the careful kind.** INTERRUPTED says "no result was
# recorded. It may not have run, or may have run partly". `c3` ran to its end, and its result
# is sitting in its task.
#
# </details>
#
# <details><summary><b>B</b> · Its own result, which its task holds; INTERRUPTED only for c2, whose tool did not finish</summary>
#
# ✓ **Right.** A task that finished keeps its result even when it is cancelled afterwards
# (cancelling a finished task does nothing). The record says what is known: `c3`'s real result,
# and for `c2` lesson 10's sentence, word for word, because that is all anybody knows about it.
#
# </details>
#
# <details><summary><b>C</b> · Nothing: lesson 10's repair fills the hole in the view, which is where it matters</summary>
#
# ✗ **The view would then tell the model that `c3` was interrupted**, and the record would have
# thrown away a result that exists. Lesson 10's repair is for the holes nobody could fill; this
# one the harness can fill, because it is still standing when the run stops.
#
# </details>

# %% id="stopped"
if not (waiting := empty_gaps("together", "stopped")):
    job = ({"id": "c1"}, {"id": "c2", "hang": True}, {"id": "c3"})
    facts = lab.run_job(harness, job_model(*job), PROMPT, stop=["cancel", "c2"],
                        then=["Never mind. Hello?"])
    print("what the caller saw:        ", facts["ended"]["raised"])
    print("tools still going just then:", facts["ended"]["going"])
    print("the record just then:       ", lab.shape(facts["ended"]["record"]))
    for message in facts["ended"]["record"]:
        if message["role"] == "toolResult":
            print(f"   {message['tool_call_id']}: {message['content'][:60]}")
    print("the next prompt:            ", facts["answers"][0])
else:
    print(waiting)

# %% [markdown]
# Nothing is still going when the caller hears of the cancellation, `c2` has been told and has
# tidied up, and the record is one a provider takes without lesson 10's help. Figure 15.2 sets
# the teammate's record beside yours.

# %% id="figure-15-2"
if not (waiting := empty_gaps("together", "stopped")):
    with patched(harness, run_tools=teammates_run_tools):
        theirs = lab.run_job(harness, job_model(*two_long_jobs), PROMPT, stop=["cancel", "c2"])
    yours = lab.run_job(harness, job_model(*two_long_jobs), PROMPT, stop=["cancel", "c2"])
    display(lab.draw(
        lab.Panel("the teammate's record", theirs["ended"]["record"], check=False,
                  note=f"still going: {', '.join(theirs['ended']['going']) or 'nothing'}"),
        lab.Panel("yours", yours["ended"]["record"],
                  note=f"still going: {', '.join(yours['ended']['going']) or 'nothing'}"),
        title="Figure 15.2  Cancelled while two long tools run: what is left behind",
        caption="Both runs were cancelled at the same moment. The teammate's left c2 running "
                "and two calls with no result; yours stopped both, waited for them to tidy "
                "up, and wrote lesson 10's sentence for each."))
else:
    print(waiting)

# %% [markdown]
# ### Common answers, and what each one misses
#
# - *"Cancel the tasks, and do not wait: they are cancelled."* A cancelled task has been asked;
#   it has not stopped. The caller hears "stopped" while the tool is still tidying up, and a
#   task that has not finished cancelling has no result and is not yet `cancelled()`.
# - *"Put the cleanup in `except asyncio.CancelledError` and re-raise."* It runs on a
#   cancellation, and not on `aclose()` (a `GeneratorExit`), not on a bug in the middle. A
#   `finally` runs on all of them.
# - *"Record INTERRUPTED for every call the run did not announce."* The record is for what
#   happened; a finished tool's result is part of it, announced or not.
#
# ## An abort that tools can hear
#
# The Stop button is the user's, and the frontend that cancels its own task is one way to press
# it. The harness gives another: `h.abort()`. It sets an `asyncio.Event` the run was given, and
# the loop, while it waits for a tool's task, waits for that event too (`asyncio.wait([task,
# stop], return_when=FIRST_COMPLETED)`). When the abort comes first, the `finally` you just wrote
# stops and records everything, and the loop does not send its next request: the turn after
# the tools ends with a failed reply (lesson 05's shape), `ABORTED`, and the run ends with
# `agent_end`, every start paired with its end, as lesson 07 promised.
#
# How does a tool that is halfway through hear an abort?
#
# <details><summary><b>A</b> · It checks a flag now and then, and stops when it sees it</summary>
#
# ✗ **That is how a tool hears it where nothing can be interrupted** (pi-mono's tools are handed
# an `AbortSignal`, below). In asyncio the flag comes for free, at every `await`, whether the
# tool's author thought of it or not.
#
# </details>
#
# <details><summary><b>B</b> · Its task is cancelled: a CancelledError lands at the await it is waiting on, and its `finally` (or `except CancelledError`) tidies up</summary>
#
# ✓ **Right.** The abort becomes a cancellation of each running task. A tool that awaits a
# subprocess catches it, kills the process, waits for it, and lets the error go on; the loop
# waits for all that before it writes anything down.
#
# </details>
#
# <details><summary><b>C</b> · It does not: the abort waits for the tools to finish, then stops before the next request</summary>
#
# ✗ **That is a Stop button that stops nothing the user can see.** The test run goes on to its
# end, which is what the user pressed Stop to prevent.
#
# </details>

# %% id="abort"
if not (waiting := empty_gaps("together", "stopped")):
    test_run_and_lint = ({"id": "c1", "hang": True}, {"id": "c2"})
    facts = lab.run_job(harness, job_model(*test_run_and_lint), PROMPT, stop=["abort", "c1"],
                        then=["Never mind. Hello?"])
    print("what the caller saw: ", facts["ended"]["raised"] or "no exception: the run ended")
    print("the record:          ", lab.shape(facts["ended"]["record"]))
    print("its last reply:      ", facts["ended"]["record"][-1].get("error_message"))
    print("the last events:     ", [event["type"] for event in facts["events"]][-3:])
    print("the next prompt:     ", facts["answers"][0])
    print("what the tools lived through:", "; ".join(facts["lines"]))
else:
    print(waiting)

# %% [markdown]
# No exception reached the caller this time: an abort is the user's decision, and the harness
# writes it down as data, the way lesson 05 wrote down a stop. `c1` heard a `CancelledError`
# and tidied up, `c2` kept the result it had finished with, only one request was ever sent,
# and the run ended on `agent_end` with every start paired.
#
# ## The door, async
#
# One piece is left, and it is lesson 08's: the door. `Harness.prompt` hands out the run and
# marks the harness as running; the run's `finally` frees it, however the run ends. A plain
# generator could be given its first step inside `prompt`, so even a run dropped before its
# first event ran that `finally`. An async generator cannot be stepped without an event loop,
# so `prompt` now notes the run (weakly) instead, and a run closed or dropped before its first
# step counts as over.
#
# The cell reads a run as a hasty frontend does: `async for`, and a `break` at the first
# `tool_execution_start`, with no `aclose()`. It does this twice: on the starter, whose `_run`
# passes the events on and frees the harness after the last one, and on the harness the first
# cell chose. When does the run's `finally` run?
#
# <details><summary><b>A</b> · At once, at the `break`, as it did for lesson 08's plain generator</summary>
#
# ✗ **For a plain generator, yes**: dropped, it is closed on the spot, and its `finally` runs
# there. An async generator's `finally` may need to await (yours does: it waits for the tools),
# and nothing can await inside a `break`.
#
# </details>
#
# <details><summary><b>B</b> · Later: the event loop finishes a dropped async generator when it gets round to it, and until then the harness is running; with no `finally`, never</summary>
#
# ✓ **Right.** asyncio hooks into the garbage collection of async generators and schedules
# their `aclose()` as a task of its own. *[general]* Python's documentation recommends closing an
# async generator explicitly, with `aclose()` or `contextlib.aclosing()`, rather than relying on
# that hook (docs.python.org, library/contextlib, `aclosing`). A harness cannot make its
# frontends careful, so it makes sure the late close does the whole job.
#
# </details>
#
# <details><summary><b>C</b> · Never: async generators do not run `finally`</summary>
#
# ✗ **They do**, when they are closed or run to their end. The starter's `_run` has no `finally`
# to run, which is a different problem, and the cell shows it.
#
# </details>

# %% id="left-open"
hang = ({"id": "c1", "hang": True},)
for label, module in (("the starter", starter), ("the chosen harness", harness)):
    facts = lab.run_job(module, job_model(*hang), PROMPT, stop=["break", "tool_execution_start"])
    print(f"{label}:")
    print("   running just after the break:          ", facts["ended"]["is_running"])
    print("   running once the event loop has caught up:", facts["ended"]["running_later"])
    print("   the record by then:                    ", lab.shape(facts["record"]))

# %% [markdown]
# The starter stays running for good: the `break` left the run open, the event loop closed it
# later, and closing it threw `GeneratorExit` in at the `yield`, straight past the line that
# would have freed the harness. Every `prompt()` after that is refused: "already running". A
# harness with the door written is running just after the `break`, which is honest (its run is
# not over), and free as soon as the event loop has closed the run; by then its tools have been
# stopped and every call answered.
#
# Last question. `_run` reads the loop with `async for`, because an async generator has no
# `yield from`. Its `finally` frees the harness. Why does it also `await run.aclose()` on the
# loop, first?
#
# <details><summary><b>A</b> · It need not: once `_run` is closed, the loop it was reading is garbage, and it will be closed too</summary>
#
# ✗ **Closed later, by the same hook, as a separate task.** Until then its tools are running, and
# the harness says it is free. A new run could start and write to the record while the old
# run's `finally` has still to write its INTERRUPTED results into the same record: two writers,
# which is what lesson 08 built the door to prevent.
#
# </details>
#
# <details><summary><b>B</b> · So that the loop's `finally`, and with it the tools' cleanup and the record's last results, has run before the harness says it is free</summary>
#
# ✓ **Right.** `yield from` used to close the inner generator along with the outer one (lesson
# 08 called `run.close()` for the same reason). Without it, the harness has to do it by hand,
# and in order: close the loop, then open the door.
#
# </details>
#
# <details><summary><b>C</b> · To stop the model from being asked again</summary>
#
# ✗ **It would not be asked again anyway**: nobody is reading the loop's events, so it never
# gets past the `yield` it stood at. What is at stake is what it already started.
#
# </details>

# %% [markdown]
# ## Compared with pi-mono
#
# pi-mono (`badlogic/pi-mono`) runs the tool calls of one reply together by default, and stops
# them with an abort signal. We read it at commit `83378aa`
# (`83378aad7e74a0e2bb8f37c007a9685fb4609d8a`), the commit lessons 11 and 13 read.
#
# - **Together, recorded in order.** `ToolExecutionMode` is `"sequential"` or `"parallel"`, and
#   its comment says that in parallel mode the final results are still emitted in the order of
#   the assistant's message (`packages/agent/src/types.ts:28-35`); parallel is the default
#   (`packages/agent/src/agent.ts:169`). `executeToolCallsParallel` announces each call and
#   prepares it one at a time (`packages/agent/src/agent-loop.ts:425-455`), then starts every
#   execution without waiting (`:457-460`) and awaits them in call order, finishing each result
#   as it comes (`:462-475`). That is your `run_tools`, line for line in spirit.
# - **The abort is a signal.** `Agent.abort()` calls `abort()` on an `AbortController` made
#   afresh for each run (`packages/agent/src/agent.ts:373-375, 515`), whose signal is handed to
#   every tool's `execute` (`agent-loop.ts:556-575`). A JavaScript promise cannot be cancelled
#   from outside, so a tool hears the abort only if it listens: the bash tool adds a listener
#   that kills the whole process tree (`packages/coding-agent/src/core/tools/bash.ts:103-117`),
#   and its promise settles only when the process has closed, rejecting with "aborted"
#   (`bash.ts:119-125`). A run that ended on the abort is recorded with stop reason `"aborted"`
#   (`agent.ts:588`).
# - **Steering.** pi-mono checks for steering after preparing each call, and on a steer it skips
#   every call not yet started, answering each with "Skipped due to queued user message."
#   (`agent-loop.ts:441-452, 665-682`). Lesson 09's rule is gentler: the batch finishes, then the
#   user speaks.
#
# **Where yours is weaker.** A plain (not `async`) tool blocks your event loop while it runs, and
# nothing can stop it halfway; pi-mono's tools are all asynchronous. The lab's model is plain as
# well, so the abort is heard only while tools run, never during a request; and lesson 12's
# `Retrying` waits with `time.sleep`, which would stop every task in the process for the length
# of the wait (`asyncio.sleep` is the async way). *Our simplifications*, each harmless in a lab
# whose model and waits are instant.
#
# **Where yours is stronger.** asyncio's cancellation reaches every `await`, so a tool written
# with no thought of Stop is still stopped at its next `await`; in pi-mono a tool that ignores
# its signal runs on, and its call waits for it. And your record says what became of each call
# the moment a run is stopped.

# %% [markdown]
# ## The build
#
# **The spec.** `run_tools(tools, calls, record, abort=None)` is the loop's part for the calls
# of one reply: an async generator that yields `tool_execution_start` for every call (given),
# then starts every call as a task and, call by call in order, waits for its task or the abort,
# whichever comes first, and on the task yields `record(result)` (the `message_end` that
# records and saves it) and `tool_execution_end`. However it is left (every result in, an
# abort, `aclose()`, a cancellation), its `finally` cancels every task still running, waits for
# all of them, and records, for each call without a recorded result, its task's own result when
# the tool finished, or `interrupted_result(call)` (lesson 10's INTERRUPTED, word for word) when
# it did not, or never started. `Harness._run` passes the loop's events on with `async for`
# and, in a `finally`, closes the loop with `await run.aclose()` and then frees the harness.
# Everything else (the async loop, `run_tool`, `settled`, `prompt`, `abort`, `ABORTED`) is
# given.
#
# **The gaps**, in the order `lab-check` names them; each gap's tests need only that gap and
# the ones before it. Three gaps, about twenty lines in all.
#
# 1. **together**: the upper gap of `run_tools` (region 3), about eight lines.
# 2. **stopped**: the lower gap of `run_tools`, in its `finally`, about six lines.
# 3. **door**: the body of `Harness._run` after the loop is made (region 9), six lines.
#
# **The tests.** Thirteen, one line each; the two marked *hidden* are not in your copy's
# `tests.py`. Every tool in them is the lab's step tool, and nothing is timed.
#
# *together*
#
# - two calls that each wait for the other to have started both meet, and are recorded in order. <!-- test: test_two_tools_of_one_reply_run_at_the_same_time -->
# - c1 waits for c2 to finish: c2 finishes first, and the record, the events and the next request still have c1 first. <!-- test: test_results_are_recorded_in_call_order_whichever_tool_finishes_first -->
# - the whole event list of a two-call job run together is lesson 07's, and agent_end carries the record's messages. <!-- test: test_the_events_keep_lesson_7s_protocol_with_tools_running_together -->
# - a plain tool, a failing tool and a missing tool, run with two that meet, each get one result in call order. <!-- test: test_a_plain_tool_a_failing_tool_and_a_missing_tool_each_get_one_result -->
# - a steer typed while the tools run lands after both results, and the tools still met. <!-- test: test_a_steer_typed_while_the_tools_run_lands_after_every_result -->
# - abort while c1 hangs: c1 is cancelled and tidied up, c2 keeps its result, no second request, a failed reply and agent_end, the next prompt answered. <!-- test: test_abort_stops_the_running_tools_and_ends_the_run_with_a_failed_reply -->
# - *hidden:* for every order in which three tools can finish, the record is in call order. <!-- test: test_any_finishing_order_is_recorded_in_call_order -->
#
# *stopped*
#
# - the run's task cancelled while c1 hangs: nothing still going when the caller hears it, INTERRUPTED for c1, the CancelledError reaches the caller, the next prompt answered. <!-- test: test_a_cancelled_run_leaves_no_tool_running_and_every_call_with_a_result -->
# - cancelled or aborted while c2 hangs: c1 and c3 keep their own results, c2 gets INTERRUPTED. <!-- test: test_a_tool_that_finished_keeps_its_own_result_when_the_run_is_stopped -->
# - closed at the first tool_execution_start: both calls INTERRUPTED, neither tool started. <!-- test: test_a_run_closed_before_its_tools_start_records_every_call_as_interrupted -->
# - *hidden:* a three-call job closed after every possible number of events: nothing going, INTERRUPTED only for unfinished calls, two more prompts answered. <!-- test: test_a_job_closed_after_any_number_of_events_leaves_a_valid_record_and_no_tool_running -->
#
# *door*
#
# - closed mid-tools: free and nothing going once aclose returns; closed or dropped before the first step: free; a second prompt refused. <!-- test: test_closing_the_run_frees_the_harness_and_stops_its_tools_before_aclose_returns -->
# - a frontend that breaks without closing: running just after, free once the event loop has closed the run, every call answered. <!-- test: test_a_run_left_open_by_its_frontend_is_finished_by_the_event_loop -->
#
# <details><summary>Stuck on together? A question</summary>
#
# What has to exist for every call before the loop waits for the first result, and what else
# must each wait be willing to stop for?
#
# </details>
#
# <details><summary>An outline for together</summary>
#
# Add one task per call to `tasks` (`asyncio.ensure_future(run_tool(tools, call))`). Then walk
# the calls and their tasks together, in order: wait with `asyncio.wait` for the task and
# `stop`, returning at the first done; if the task is not done, the abort came first, so leave
# the walk. Otherwise count it in `recorded`, then yield the recording of its result and the
# `tool_execution_end`.
#
# </details>
#
# <details><summary>Stuck on stopped? A question</summary>
#
# Cancelling a task only asks it to stop. What must you do before you can tell which tasks
# finished, and what do you write for a call that has no task at all?
#
# </details>
#
# <details><summary>An outline for stopped</summary>
#
# Cancel every task (a finished one keeps its result), then wait for all of them with
# `asyncio.gather(..., return_exceptions=True)`. Then walk the calls from `recorded` on, beside
# their tasks (`itertools.zip_longest`: there may be fewer tasks than calls): a task that was
# not cancelled holds its result; a cancelled task, or none, gets `interrupted_result(call)`.
# Record each with `record(...)`, and yield nothing.
#
# </details>
#
# <details><summary>Stuck on door? A question</summary>
#
# Which two things must happen however the run is left, and in which order, so that nothing
# the run started is still going when the harness says it is free?
#
# </details>
#
# <details><summary>An outline for door</summary>
#
# A `try` around an `async for` over `run` that yields each event; in its `finally`, first
# `await run.aclose()`, then set `self._running` to False.
#
# </details>
#
# To grade your file, from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 15
# ```
#
# The report names the first gap to fill; `lab-check --hint` gives the hints for its first
# failing test, and `lab-check --watch` grades again each time you save.

# %% [markdown]
# ## Stop, three ways
#
# Once the lab passes, re-run the first cell and then this one: it runs on your harness. One
# job, three tools (`c1` quick, `c2` a test run that hangs, `c3` quick), stopped three ways at
# the moment `c2` starts: the frontend closes the run, the frontend's task is cancelled, the
# user aborts. Only a harness that stops its tools and writes down what became of each call
# shows the same record every time.

# %% id="three-ways"
if not (waiting := empty_gaps("together", "stopped", "door")):
    job = ({"id": "c1"}, {"id": "c2", "hang": True}, {"id": "c3"})
    for label, stop in (("closed", ["close", 6]), ("cancelled", ["cancel", "c2"]),
                        ("aborted", ["abort", "c2"])):
        facts = lab.run_job(harness, job_model(*job), PROMPT, stop=stop,
                            then=["Never mind. Hello?"])
        results = {m["tool_call_id"]: m["content"][:18] for m in facts["ended"]["record"]
                   if m["role"] == "toolResult"}
        print(f"{label:10} {lab.shape(facts['ended']['record']):32} still going: "
              f"{facts['ended']['going'] or 'nothing'}; next prompt: {facts['answers'][0]}")
        print(f"{'':10} {results}")
else:
    print(waiting)

# %% [markdown]
# Closed at the sixth event, before any tool had started: every call is INTERRUPTED and no
# tool ran. Cancelled or aborted while `c2` ran: `c1` and `c3` keep their own results, `c2`
# gets lesson 10's sentence, the abort adds its failed reply, and in every case nothing is
# still going and the next prompt is answered.
#
# ## In your own words
#
# Your `run_tools` waits for the tasks it has just cancelled before it writes anything down. In
# a sentence or two: why not write the record first and let the tools finish tidying up in
# their own time?
#
# <details><summary>A hint</summary>
#
# Which of the results you are about to write depends on what the tasks do in the next few turns?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# Because until a cancelled task has finished, nobody knows what it did: it may still finish
# its work and return, or stop halfway. The record can only say what is known, so it waits
# until each task is done, then writes its own result or INTERRUPTED. Waiting also means the
# harness never says a run is over while a tool of it is still changing files.
#
# Common answers, and what each one misses:
#
# - *"Writing first is faster."* By a few turns of the loop, in exchange for writing down
#   something that may be false a moment later.
# - *"The tools are cancelled, so they did nothing."* A cancelled tool did everything it did
#   before its next `await`; that is why the sentence says "may have run partly".
#
# </details>
#
# ## A further case
#
# A teammate wraps a plain tool, a CPU-heavy formatter, in `asyncio.to_thread` so that it runs
# beside the others instead of blocking the loop. The user presses Stop while it runs. Your
# `finally` cancels its task and waits. What does the record say, and what did the formatter
# do? Write the rule you would apply, in one sentence, so that it also settles the next case
# like it.
#
# <details><summary>A hint</summary>
#
# What in a thread can a `CancelledError` be thrown into?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# *[general]* Cancelling the task stops the *waiting* for the thread, not the thread: the
# formatter runs on to its end, and your `finally` records INTERRUPTED while it is still
# rewriting files. The rule: *a Stop is only as strong as the tool's way of hearing it; a tool
# that cannot be interrupted must either be given a way to be told (a flag it checks, a process
# it can kill) or be treated as running until it returns, and the record must never claim more
# than that.* For the formatter: run it as a subprocess the tool can kill, or let the `finally`
# wait for the thread, knowing the wait may be long. The same rule settles a tool that calls a
# remote API: cancelling your side does not undo a request the server has already taken.
#
# Common answers, and what each one misses:
#
# - *"`to_thread` makes it async, so cancelling works."* It makes the *waiting* awaitable; the
#   work is in a thread, and Python has no way to stop a thread from outside.
# - *"Record what the formatter returns whenever it returns."* By then the run is over and the
#   record has moved on; a late result would land after other messages, which lesson 10's
#   repair has to move back, and which the model never asked about.
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
# 7. Report what it is doing, as events, to any frontend.
# 8. Own its transcript: one writer at a time.
# 9. Take your input mid-run, at a safe point.
# 10. Send a valid transcript even after an interruption.
# 11. Keep its record on disk, and survive a power cut at any byte.
# 12. Classify a refusal by what it is, not by its text.
# 13. Fit a long conversation into the model's window, and keep all of it on the record.
# 14. Send each message in the role of whoever really wrote it.
# 15. **New:** Run the tools of one reply together, and stop them cleanly.

# %% [markdown]
# ## Wrapping up
#
# **You hit** two searches run one after the other, a Stop that left a tool running and two
# calls with no result, and a harness that stayed "running" for good after a frontend
# walked away.
#
# **You built** `run_tools`: every call of a reply started as a task, the results recorded in
# call order, an abort heard at every wait, and a `finally` that stops what is still running,
# waits for it, and writes down what became of each call; and the async door, `Harness._run`,
# which closes the loop before it frees the harness.
#
# **The principle:** a run that is stopped stops everything it started, waits for it, and
# leaves a record that says what became of every call, before it lets go.
#
# **Your harness now**
#
# The names in it, lesson 15's in bold (and *changed* where lesson 15 rewrote one): *`run_tool`*
# (async), **`settled`**, *`run_agent`* (an async generator, with `abort`), **`run_tools`**,
# **`ABORTED`**, `record_message`, `context_for_model`, `repaired_view`, `interrupted_result`,
# `INTERRUPTED`, `classify`, `Retrying`, *`Harness`* (with **`abort`**, an async `prompt` and
# *`_run`*), `JsonRenderer`, `FinalTextRenderer`.
#
# **Still open.** Every request your harness sends is the lab's own kind of list: dicts with a
# `role`, `toolCall` blocks, `toolResult` messages. No provider reads that. Anthropic wants
# `tool_use` blocks and every result of a batch in one user turn; OpenAI wants `tool_calls` on the
# assistant message and a `tool` message for each result. The record should never learn either.
# Lesson 16 builds the adapter.
#
# **Previous:** 14 · Who really spoke.
#
# **Next:** 16 · The adapter.
