# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson 08, "Two writers, one list": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The format is Jupytext's percent format
# (see lab/notebook/ipynb.py); the block above is its header, the notebook's metadata.

# %% [markdown]
# # 08 · Two writers, one list
#
# *A screen and a background job share one harness. Neither knows the other is writing.*
#
# *Watching and steering a run · ~50 min · 1 lab · builds on 07 · What is it doing?*
#
# This lesson builds on lesson 07, whose loop hands out its work as events and appends every
# message before it announces it. New here? Start at lesson 01, or carry on: every lab is
# self-contained, and the harness you start from is lesson 07's, finished, with a `Harness`
# class around it whose two methods are yours to write.
#
# By the end your harness can do the eighth thing on the course's list: **own its transcript:
# one writer at a time**. That means three promises, and this lesson is about keeping all
# three on every path: a second prompt is refused while a run is going, at once, on the
# caller's line; a consumer that walks away ends the run and frees the harness; and a run that
# is closed, dropped or dies before it has done anything frees it too.
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
                            "inside the project, e.g. lessons/08-two-writers-one-list/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import pick_harness, starter_harness

chosen = pick_harness(lesson=8)
harness = chosen.module
print(chosen)

# %% [markdown]
# The two lines above say which harness file the examples use, and why. Until your own
# `harness.py` keeps one writer at a time, it is the lesson's finished harness; once your gap
# is filled, run that cell again and the examples run on your code.
#
# **The notation**, `lab.shape`'s, as in every lesson: `U` is a user message, `A` an assistant
# reply, `A[c1,c2]` a reply that asks for calls `c1` and `c2`, `R(c1)` the result of `c1`, and
# `A(error)` a failed reply. `messages[3]` counts from 0.

# %% [markdown]
# ## The watcher and the job
#
# The user's screen runs a job of three steps: the model asks for steps 1 and 2 in one reply,
# then step 3, then says "Done." Meanwhile a file watcher in the same program notices that the
# build has finished and, helpfully, asks the agent to summarise the build log. It prompts the
# same harness, because that is the agent. It does so while step 1 is running.
#
# The harness here is the one this lesson starts from: lesson 07's loop, with a `prompt` that
# starts a run for whoever asks. (The watcher runs inside step 1, which is the moment a thread
# of its own would have picked; our simplification, so that the lab needs no threads.) What
# does the record look like when both are done?
#
# <details><summary><b>A</b> · The job's messages, then the watcher's: the second run waits its turn</summary>
#
# ✗ **No.** Nothing makes it wait. `prompt` starts a run the moment it is called, and that run
# appends to the one list the job is appending to.
#
# </details>
#
# <details><summary><b>B</b> · Interleaved: the watcher's prompt lands between the job's calls and their results, and every request after that is refused</summary>
#
# ✓ **Right.** Two writers, one list. The watcher's request carries two calls with no results,
# so the provider refuses it; the job's results then land after somebody else's prompt, so
# every later request is refused too.
#
# </details>
#
# <details><summary><b>C</b> · The watcher's run replaces the job's: the newer prompt wins</summary>
#
# ✗ **No.** Nobody replaces anything. Both runs go on, each appending to the same list, and
# that is exactly the trouble.
#
# </details>

# %% id="failure"
STEP = {"type": "object", "properties": {"n": {"type": "integer", "description": "Which step."}},
        "required": ["n"]}
JOB, WATCHED = "Do the three steps.", "The build finished. Summarise its log."


def the_job(request):
    """Steps 1 and 2 in one reply, step 3 in the next, then words; any other prompt, words."""
    said = [m for m in request.messages if m["role"] == "user"][-1]
    if said["content"] != JOB:
        return lab.say(f"Noted: {said['content']}")
    since = request.messages[request.messages.index(said):]
    results = sum(m["role"] == "toolResult" for m in since)
    if results == 0:
        return lab.reply(lab.text("Two steps first."), lab.call("step", {"n": 1}),
                         lab.call("step", {"n": 2}))
    if results == 2:
        return lab.reply(lab.text("One more."), lab.call("step", {"n": 3}))
    return lab.say("Done.")


def program(module, watcher_at=1):
    """A harness of `module`'s, its job's step tool, and a file watcher that prompts the same
    harness while step `watcher_at` runs. Returns the harness, the model and what the watcher
    was told."""
    told = []

    def step(arguments):
        if arguments["n"] == watcher_at:
            try:
                events = list(h.prompt(WATCHED))
                told.append(f"ran a run of its own: {lab.counted(len(events), 'event')}")
            except RuntimeError as refusal:
                told.append(f"refused: {refusal}")
        return f"step {arguments['n']}: ok"

    model = lab.ScriptedModel([lab.forever(the_job)])
    tool = {"name": "step", "description": "Do one step.", "parameters": STEP, "execute": step}
    h = module.Harness(model, module.SYSTEM, [tool])
    return h, model, told


def outcome(message):
    return message.get("error_message") or module_text(message)


def module_text(message):
    return "".join(b["text"] for b in message["content"] if b["type"] == "text")


yesterday = starter_harness(lesson=8)
h, model, told = program(yesterday)
for event in h.prompt(JOB):
    pass
print("the watcher:       ", told[0])
print("the record:        ", lab.shape(h.messages))
print("the watcher's ask: ", lab.shape(model.calls[1].messages), "->", outcome(model.replies[1]))
for text in ("Are you still there?", "Hello?"):
    for event in h.prompt(text):
        pass
    print(f"{text!r:22} -> {outcome(h.messages[-1])}")
two_writers = list(h.messages)

# %% [markdown]
# Read the record left to right. The job's reply asked for `c1` and `c2`; while `c1` ran, the
# watcher's prompt went in, and its request was refused for the two calls that had no results
# yet. Then `c1`'s and `c2`'s results landed, after someone else's prompt. From there the list
# is a record a strict provider will not take, and the user's *"Are you still there?"* is refused for a
# mistake neither of them can see. Lesson 10 will call this wreck a *late result*, and say
# which lesson closed it: this one.

# %% [markdown]
# ## Who owns the list?
#
# Two callers, each doing something reasonable, and one list. Where does the rule "one run at
# a time writes to the record" belong?
#
# <details><summary><b>A</b> · In <code>run_agent</code>: the loop should check whether another loop is writing</summary>
#
# ✗ **No.** The loop holds no state between runs, by design (lesson 07): it is handed the list
# and writes to it. It cannot know who else was handed the same list.
#
# </details>
#
# <details><summary><b>B</b> · In the callers: the screen and the watcher should agree to take turns</summary>
#
# ✗ **No.** Every caller would have to know every other, and the next one written will not. A
# rule that each caller must remember is a rule that one of them forgets.
#
# </details>
#
# <details><summary><b>C</b> · In one object that owns the list and starts every run on it: the <code>Harness</code></summary>
#
# ✓ **Right.** The list is private to the harness, every run goes through its `prompt`, and
# `prompt` can say no. The callers need to know only the harness.
#
# </details>

# %% id="owner"
h, model, told = program(harness)
for event in h.prompt(JOB):
    pass
print("the watcher:       ", told[0] if told else "(never asked)")
print("the record:        ", lab.shape(h.messages))
print("requests sent:     ", len(model.calls), " refused:",
      sum(bool(lab.validate(r.messages)) for r in model.calls))
one_writer = list(h.messages)

# %% [markdown]
# The same program on the harness the examples use: the watcher is told no, in a sentence,
# and the job's record is whole. (On the starter the watcher's run goes ahead.) The watcher
# can try again when the run is over; lesson 09 gives it a better option. Figure 8.1 sets the
# two records side by side.

# %% id="figure-8-1"
holds = lab.validate(one_writer) == []
lab.draw(("two writers: the starter's prompt", two_writers), ("one writer: this harness", one_writer),
         compare=True, title="Figure 8.1  One list, two writers, and one writer",
         caption=("On the left the watcher's prompt lands between the job's calls and their "
                  "results, and every request after it is refused. On the right the watcher is "
                  "refused at once and the job's record is whole." if holds else
                  "Both columns show two writers: this harness still lets the watcher in (the "
                  "gap in Harness). Fill it and run this cell again."))

# %% [markdown]
# ### Common answers, and what each one misses
#
# - *"Give each caller its own list."* Then there are two conversations, and the model in each
#   has never heard of the other's. The user has one agent; it needs one record.
# - *"Lock the list while appending."* Each append is then safe and the interleaving is exactly
#   the same: the trouble is not two appends at once but two runs at once.
# - *"Tell the watcher not to do that."* It is not the watcher's mistake. Any caller may ask at
#   any moment; the one that owns the list is the one that must answer.

# %% [markdown]
# ## Why a tuple?
#
# `Harness.messages` hands out `tuple(self._messages)`: a new tuple on every read. Why not the
# list itself, which is cheaper?
#
# <details><summary><b>A</b> · So that nobody outside can append to the record: what you get is a snapshot</summary>
#
# ✓ **Right.** The list is the harness's; readers get a copy they cannot write through, and
# which does not change under them when the next run appends. A caller who wants to write has
# one door, `prompt`.
#
# </details>
#
# <details><summary><b>B</b> · Tuples are faster to send to the model</summary>
#
# ✗ **No.** The view is built from the record for every request anyway (lesson 05's
# `context_for_model`), and the cost of one tuple is nothing beside a model call.
#
# </details>
#
# <details><summary><b>C</b> · So that the messages inside cannot be changed</summary>
#
# ✗ **No,** and worth knowing: the tuple is shallow. The dicts in it are the record's own, and a
# caller who edits one edits the record. The course's messages are plain dicts, and the rule
# that nothing edits a message is kept by every function that touches them.
#
# </details>

# %% id="tuple"
snapshot = h.messages
try:
    snapshot.append(lab.user("sneaked in"))
    print("appended to the snapshot:", lab.shape(snapshot))
except AttributeError as refusal:
    print("append to the snapshot:", type(refusal).__name__, "-", refusal)
for event in h.prompt("And now?"):
    pass
print("the snapshot after the next run:", lab.shape(snapshot))
print("the record after the next run:  ", lab.shape(h.messages))
print("two reads, one object?          ", h.messages is h.messages)

# %% [markdown]
# The snapshot cannot grow, and does not: the next run's messages went into the harness's own
# list, and the snapshot still shows the moment it was taken.

# %% [markdown]
# ## On the caller's line
#
# The refusal has to reach somebody. `prompt` could be a generator, with the check as its
# first line; or a plain function that checks and then returns the generator. A screen often
# makes the run in one place and hands it to a renderer that iterates it somewhere else. Which
# of the two tells the right caller?
#
# <details><summary><b>A</b> · The generator: it raises as soon as the run is iterated, which is soon enough</summary>
#
# ✗ **No.** A generator's body does not run until its first `next()`. The caller who asked is
# told nothing; the renderer, which did nothing wrong, gets the exception, maybe much later.
#
# </details>
#
# <details><summary><b>B</b> · The plain function: the check runs on the line that called <code>prompt</code>, and the generator is returned only when there is no refusal</summary>
#
# ✓ **Right.** What a caller does wrong raises at once, on its own line, with a message that
# says what to do. That is why the course's `prompt` is a `def` without a `yield`, and the
# generator is a second method.
#
# </details>
#
# <details><summary><b>C</b> · Neither: return an empty run, so no caller has to handle an exception</summary>
#
# ✗ **No.** The user's words would vanish without a sound. A refusal nobody hears is a lost
# prompt.
#
# </details>

# %% id="callers-line"
def later(h, text):
    """prompt written as a generator: its check runs only when somebody iterates it."""
    if h.is_running:
        raise RuntimeError("already running")
    yield from h.prompt(text)


h, model, told = program(harness, watcher_at=None)
run = h.prompt(JOB)
next(run)
for label, ask in (("prompt() itself", lambda: h.prompt("Hi.")),
                   ("prompt() as a generator", lambda: later(h, "Hi."))):
    try:
        made = ask()
        print(f"{label:24} the call returned {type(made).__name__}, no complaint")
        try:
            next(made)
        except RuntimeError as refusal:
            print(f"{'':24} ... and the first next() raised: {refusal}")
    except RuntimeError as refusal:
        print(f"{label:24} the call raised: {refusal}")
run.close()

# %% [markdown]
# With the harness the examples use, `prompt()` raises on the line that called it. The
# generator version returns something that looks like a run, and the complaint comes out of
# whoever iterates it. (On the starter neither complains.) The words of the message are this
# lab's to choose: "already running" says what happened; "wait for this run to end, or close
# it" says what the caller can do. Lesson 09 changes the second half.

# %% [markdown]
# ## What closing does
#
# The user closes the tab while the job runs. The screen stops iterating and calls
# `run.close()`. What happens inside the generator?
#
# <details><summary><b>A</b> · Nothing, until the garbage collector gets to it</summary>
#
# ✗ **No.** `close()` acts at once. (Garbage collection matters for a run nobody closes; that is
# two questions down.)
#
# </details>
#
# <details><summary><b>B</b> · The run finishes quietly, without handing out any more events</summary>
#
# ✗ **No.** Nothing after the paused `yield` runs except `finally` blocks. The next model call is
# never made, and the next tool never starts.
#
# </details>
#
# <details><summary><b>C</b> · <code>GeneratorExit</code> is raised at the <code>yield</code> where it is paused; every <code>finally</code> on the way out runs, and the generator is over</summary>
#
# ✓ **Right.** [general] That is Python's contract for generators. So the one place to put
# "the harness is free again" is a `finally` around the run: it runs when the run ends, when it
# is closed, and when it dies.
#
# </details>

# %% id="closing"
def tiny():
    try:
        yield "one"
        print("  (after the first yield: never printed once it is closed)")
        yield "two"
    finally:
        print("  finally ran")


small = tiny()
print("took:", next(small))
small.close()
print("closed; taking again gives:", next(small, "nothing, it is over"))
print()
for k in (3, 5, 9):
    h, model, told = program(harness, watcher_at=None)
    taken = await lab.drive(h.prompt(JOB), stop_after=k)
    left = lab.shape(h.messages)
    for event in h.prompt("Are you still there?"):
        pass
    print(f"walked away at event {k} ({taken[-1]['type']:20}) left {left:14} "
          f"is_running after: {h.is_running}")

# %% [markdown]
# The door: closed at any event, the run stops where it stood, the `finally` runs, and the
# harness takes the next prompt. (What the next prompt gets, after a walk-away that left a call
# without a result, is lesson 10's whole story.)

# %% [markdown]
# ## Closed before it started
#
# Here is a first try at this lesson's `Harness`, the draft: it sets the flag in `prompt()`
# and puts the `finally` in the generator it returns, unstarted. The screen asks for a run and, before taking a single event,
# the user cancels: `lab.drive(h.prompt(...), stop_after=0)`. What does the draft make of the
# next prompt?
#
# <details><summary><b>A</b> · It is refused, and so is every prompt after it: the flag was set on the caller's line and nothing will ever clear it</summary>
#
# ✓ **Right.** The harness is bricked by a run that did nothing at all. It is the same hole in
# two disguises: the run closed before its first event, and the run nobody iterated.
#
# </details>
#
# <details><summary><b>B</b> · It is taken: <code>close()</code> ran the <code>finally</code>, which cleared the flag</summary>
#
# ✗ **No.** A generator that never started is not inside its `try` yet. Closing it just marks it
# finished; there is no `finally` to run.
#
# </details>
#
# <details><summary><b>C</b> · <code>close()</code> raises, because the run had not started</summary>
#
# ✗ **No.** Closing an unstarted generator is allowed and quiet, which is why this bug hides.
#
# </details>

# %% id="never-started"
class Draft(harness.Harness):
    """A first try at this lesson's Harness: the flag set on the caller's line, the finally inside a
    generator that nobody has started."""

    def prompt(self, text):
        if self.is_running:  # the spec's refusal, on the caller's line: this part is right
            raise RuntimeError("already running; wait for this run to end, or close it")  # spec
        self._running = True  # on the caller's line, as it should be
        return self._draft_events(text)

    def _draft_events(self, text):
        try:
            yield from harness.run_agent(self._model, self._system, self._messages,
                                         self._tools, text, max_turns=self._max_turns)
        finally:
            self._running = False  # in a generator that may never start


for label, make in (("the draft", Draft), ("the harness the examples use", harness.Harness)):
    h = make(lab.ScriptedModel([lab.forever(the_job)]), harness.SYSTEM, [])
    await lab.drive(h.prompt("Hello?"), stop_after=0)
    try:
        for event in h.prompt("Are you still there?"):
            pass
        said = outcome(h.messages[-1])
    except RuntimeError as refusal:
        said = f"refused: {refusal}"
    print(f"{label:30} is_running after close: {h.is_running!s:5}  next prompt: {said}")

# %% [markdown]
# (On the starter the second line shows no refusal for another reason: its harness never holds
# anything.) So the `finally` has to be armed before anybody else holds the run.

# %% [markdown]
# ## Arming the door
#
# How do you make a run that is closed or dropped before its first event free the harness?
#
# <details><summary><b>A</b> · Set the flag at the run's first step, inside the generator, instead of in <code>prompt()</code></summary>
#
# ✗ **No.** Then between `prompt()` and the first event the harness looks idle, and a second
# prompt in that moment gets a run of its own: two writers again, and the refusal could not be
# on the caller's line any more.
#
# </details>
#
# <details><summary><b>B</b> · In <code>prompt()</code>, clear the flag when the last run looks as if it never started</summary>
#
# ✗ **Not as put.** "Looks as if" is a guess unless you ask the run itself, and then you no
# longer need a flag (one of the common answers below does exactly that).
#
# </details>
#
# <details><summary><b>C</b> · Start the run inside <code>prompt()</code>: step it once, to a bare <code>yield</code> just inside its <code>try</code>, and hand it over from there</summary>
#
# ✓ **Right.** From the moment the caller holds the run, it is inside its `try`, so closing it,
# dropping it, finishing it and its dying all run the `finally`. The bare `yield` hands out
# nothing the consumer sees: the first event the consumer takes is still `agent_start`.
#
# </details>
#
# The cell above settles it: the harness the examples use takes the next prompt after a run
# closed at event 0. This is the decision the lesson makes for the course, and lessons 09 and
# 10 keep it.
#
# ### Common answers, and what each one misses
#
# - *"Put a `__del__` on the harness."* The harness is not what goes away; the run is.
# - *"Ask the run itself, no flag."* Keep a weak reference to the run and call it running while
#   it still has a frame (`gi_frame`): finished, closed and dead generators have none, and a
#   dropped one is gone. Correct, and it leans on a detail of CPython's generators that most
#   readers have never met; the flag and the armed `finally` say the same thing in plain words.
# - *"Return an object of your own with a `close()`."* Also correct, if it also frees the
#   harness at the end, on an exception and when dropped: four paths to write by hand where a
#   generator's `finally` gives you all four.

# %% [markdown]
# ## A run nobody iterates
#
# A screen builds the run, then an exception elsewhere means it is never iterated, and the last
# reference to it goes. Nobody calls `close()`. What happens?
#
# <details><summary><b>A</b> · Python closes the generator when it is collected, so its <code>finally</code> runs, provided the run had started</summary>
#
# ✓ **Right.** [general] A generator that is collected while paused inside a `try` is closed first.
# In CPython that happens the moment the last reference goes; other Pythons do it later, at a
# collection. Our simplification: the lab relies on CPython's promptness.
#
# </details>
#
# <details><summary><b>B</b> · The harness stays held until the program ends</summary>
#
# ✗ **Not with an armed door.** That is what the draft does, for the same reason as before.
#
# </details>
#
# <details><summary><b>C</b> · Python warns that a generator was never used, and does nothing else</summary>
#
# ✗ **No.** That warning is for coroutines never awaited. A generator is simply closed.
#
# </details>

# %% id="dropped"
h = harness.Harness(lab.ScriptedModel([lab.forever(the_job)]), harness.SYSTEM, [])
h.prompt("Hello?")                     # made, never iterated, never stored
print("is_running, once the run is gone:", h.is_running)
try:
    for event in h.prompt("Are you still there?"):
        pass
    print("the next prompt:", outcome(h.messages[-1]))
except RuntimeError as refusal:
    print("the next prompt was refused:", refusal)

# %% [markdown]
# ## A tool in the middle
#
# The consumer walks away at `tool_execution_start` for step 1. Does step 1 run?
#
# <details><summary><b>A</b> · Yes: it was announced, so it is under way and finishes in the background</summary>
#
# ✗ **No.** There is no background. The run is one generator; while it is paused at a `yield`
# nothing of it runs.
#
# </details>
#
# <details><summary><b>B</b> · No: the loop yields <code>tool_execution_start</code> before it calls the tool, and a closed generator never gets past that <code>yield</code></summary>
#
# ✓ **Right.** A consumer can only walk away at a `yield`, so a tool is either not started or
# finished and recorded (lesson 07: mutate, then announce). What can stop a tool halfway is
# something inside it: Ctrl-C, a crash, a kill. Then it may have run partly, and nothing was
# recorded for it.
#
# </details>
#
# <details><summary><b>C</b> · Half of it: it is stopped where it stood</summary>
#
# ✗ **Not by a consumer.** Closing acts only at a `yield`. The half-run tool is real, though, and
# the last part of the cell shows how you get one.
#
# </details>

# %% id="tool-mid-run"
def workshop():
    """A harness whose step tool writes a file per step, and a workspace to see what ran."""
    ws = lab.Workspace({})

    def step(arguments):
        ws.write_text(f"step{arguments['n']}.txt", "done\n")
        if arguments["n"] == 1 and interrupt:
            raise KeyboardInterrupt  # Ctrl-C, pressed while step 1 is still working
        ws.write_text(f"step{arguments['n']}.log", "logged\n")
        return f"step {arguments['n']}: ok"

    tool = {"name": "step", "description": "Do one step.", "parameters": STEP, "execute": step}
    return harness.Harness(lab.ScriptedModel([lab.forever(the_job)]), harness.SYSTEM, [tool]), ws


cases = []
interrupt = False
for k in (5, 6):
    h, ws = workshop()
    taken = await lab.drive(h.prompt(JOB), stop_after=k)
    cases.append((f"walked away at event {k}", list(h.messages)))
    print(f"walked away after {taken[-1]['type']:20} wrote: {sorted(p for p, _ in ws.writes)!s:32} "
          f"record: {lab.shape(h.messages)}")
interrupt = True
h, ws = workshop()
try:
    for event in h.prompt(JOB):
        pass
except KeyboardInterrupt:
    print("the consumer got: KeyboardInterrupt")
cases.append(("Ctrl-C inside step 1", list(h.messages)))
print(f"{'Ctrl-C inside step 1':38} wrote: {sorted(p for p, _ in ws.writes)!s:32} "
      f"record: {lab.shape(h.messages)}")
print("is_running after the Ctrl-C:", h.is_running)

# %% [markdown]
# At event 5 no step ran; at event 6 step 1 had finished, both its files are written, and its
# result is on the record. Ctrl-C inside step 1 is the other kind: `step1.txt` is written,
# `step1.log` is not, the tool ran partly, and the record ends on the call with no result.
# `run_tool` turns an `Exception` into a result, but Ctrl-C is not an `Exception`, so it goes
# through the loop to the consumer, and the `finally` frees the harness on its way. That record
# is true and not sendable; lesson 10 finds the words for it. Figure 8.2 draws the three.

# %% id="figure-8-2"
lab.draw(*cases, title="Figure 8.2  Where a walk-away can leave a tool",
         caption="A consumer can only leave at a yield: before the tool starts, or after its "
                 "result is recorded. An interrupt inside the tool leaves one that ran partly "
                 "and a call with no result.")

# %% [markdown]
# ## Two harnesses, one list
#
# The watcher's author has a new idea: give the watcher a harness of its own, built on the
# screen's history, `Harness(model, SYSTEM, tools, messages=history)`, with the same `history`
# list for both. What now?
#
# <details><summary><b>A</b> · Each has its own copy, so there are two records that grow apart, and neither run sees the other</summary>
#
# ✓ **Right.** One writer per list holds, and there are now two conversations. Sharing a session
# means sharing the harness, not its starting list.
#
# </details>
#
# <details><summary><b>B</b> · Both write into <code>history</code>, and the interleaving is back</summary>
#
# ✗ **No.** Each harness copies the list it is given into one of its own.
#
# </details>
#
# <details><summary><b>C</b> · The second harness refuses, because the list is in use</summary>
#
# ✗ **No.** A list cannot be "in use"; only a harness can be running.
#
# </details>

# %% id="two-harnesses"
history = [lab.user("Hello."), lab.say("Hello. What shall we do?")]
screen = harness.Harness(lab.ScriptedModel([lab.forever(the_job)]), harness.SYSTEM, [], messages=history)
watcher = harness.Harness(lab.ScriptedModel([lab.forever(the_job)]), harness.SYSTEM, [], messages=history)
for h, text in ((screen, "Tidy up."), (watcher, WATCHED)):
    for event in h.prompt(text):
        pass
print("history:        ", lab.shape(history))
print("the screen's:   ", lab.shape(screen.messages), [m["content"] for m in screen.messages][-2])
print("the watcher's:  ", lab.shape(watcher.messages), [m["content"] for m in watcher.messages][-2])

# %% [markdown]
# ## When a run dies
#
# The model's connection drops in the middle of a request, and `complete` raises. What is
# `is_running` afterwards?
#
# <details><summary><b>A</b> · True: the run never finished</summary>
#
# ✗ **No.** It will never finish, either. A harness that stays held by a dead run refuses the
# user for good.
#
# </details>
#
# <details><summary><b>B</b> · False: the exception passes through the <code>finally</code> on its way to the consumer</summary>
#
# ✓ **Right.** The consumer gets the exception, which is news for it, and the harness is free.
#
# </details>
#
# <details><summary><b>C</b> · False, and the loop recorded a failed reply for it</summary>
#
# ✗ **No.** Lesson 05 records a failed reply when the model *returns* one. An exception is not a
# reply; our loop lets it go to whoever is iterating.
#
# </details>

# %% id="failed-run"
def dropped(request):
    raise ConnectionError("connection reset by peer")


h = harness.Harness(lab.ScriptedModel([lab.forever(dropped)]), harness.SYSTEM, [])
try:
    await lab.drive(h.prompt("Hello?"))
except Exception as error:
    print("the consumer got:", type(error).__name__, "-", error)
print("is_running:", h.is_running, "  the record:", lab.shape(h.messages))

# %% [markdown]
# That is every way a run can end, met one question at a time. Figure 8.3 puts them in one
# table, for three harnesses: the starter's (lesson 07's way to start a run), the draft from
# "Closed before it started", and the harness the examples use. Each cell is a live run: the
# situation is played on a fresh harness, and then a second `prompt()` is tried.

# %% id="figure-8-3"
from lab.notebook import timeline


async def situation(make, story):
    """Play `story` on a fresh harness made by `make`; what a second prompt() then meets."""
    model = dropped if story == "its model raised" else the_job
    tool = {"name": "step", "description": "Do one step.", "parameters": STEP,
            "execute": lambda arguments: f"step {arguments['n']}: ok"}
    h = make(lab.ScriptedModel([lab.forever(model)]), harness.SYSTEM, [tool])
    if story == "made, dropped, never iterated":
        run = h.prompt(JOB)
        held = h.is_running
        del run  # the last reference goes, and nobody ever took an event
    else:
        run = h.prompt(JOB)
        held = h.is_running
        if story == "a second prompt, three events in":
            for _ in range(3):
                next(run)
        else:
            stop = {"finished": None, "walked away after event 5": 5,
                    "closed before its first event": 0, "its model raised": None}[story]
            try:
                await lab.drive(run, stop_after=stop)
            except ConnectionError:
                pass
    try:
        h.prompt("Are you still there?").close()
        let_in = True
    except RuntimeError:
        let_in = False
    if story == "a second prompt, three events in":
        run.close()
        return timeline.Cell("let in: two writers", "bad") if let_in else \
            timeline.Cell("refused, on the caller's line", "good")
    if not held:
        return timeline.Cell("free, but it never held", "muted")
    return timeline.Cell("free: the next prompt is taken", "good") if let_in else \
        timeline.Cell("held for good: refused", "bad")


STORIES = ("a second prompt, three events in", "finished", "walked away after event 5",
           "closed before its first event", "made, dropped, never iterated", "its model raised")
makers = (yesterday.Harness, Draft, harness.Harness)
rows = []
for story in STORIES:
    rows.append([story])
    for make in makers:
        rows[-1].append(await situation(make, story))
timeline.table(["what happened to the run", "the starter", "the draft", "the examples' harness"],
               rows, title="Figure 8.3  One writer, and a door that opens on every way out",
               caption="Green is the promise kept. The starter never holds the harness, so it "
                       "never refuses a second writer; the draft holds it and refuses, but two "
                       "ways out leave it held for good; " + (
                           "the armed door keeps both halves." if all(
                               row[3].tone == "good" for row in rows) else
                           "the last column does not keep both yet: fill the gap in Harness, "
                           "then run this cell again."))

# %% [markdown]
# ## Compared with production harnesses
#
# **pi-mono** (badlogic/pi-mono, read at commit `83378aa`), in `packages/agent/src/agent.ts`:
#
# - `prompt` refuses while a run streams, with a message that says what to do instead:
#   *"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or
#   wait for completion."* (lines 394-399). `continue` has its own refusal (lines 430-433).
# - The flag is set in `_runLoop` (line 516) and cleared in a `finally` (lines 596-597), the
#   same door as yours. `prompt` reaches line 516 with no `await` in between, so two prompts in
#   one tick cannot both get through.
# - The transcript is replaced, not appended to: `appendMessage` builds a new array every time
#   (lines 301-303), so an array somebody read earlier never grows, like your tuple.
#
# **Where ours is weaker, and why that is acceptable here.**
#
# - pi-mono's `prompt` is `async`, so its refusal is a rejected promise that the caller meets
#   at its `await`; ours raises on the very line. Yours is stricter, which a synchronous harness
#   can afford.
# - `get state()` hands out the live state object (lines 256-258), so a caller could still
#   reach into its messages; your tuple shuts that door, though the dicts inside are shared.
# - pi-mono stops a run with `abort()` (lines 373-375), a signal the running tool can hear, so a
#   tool can stop halfway on purpose. Yours can only walk away between events, and a tool is
#   stopped halfway only by an interrupt from inside. Lesson 15 takes the harness async.
# - The flag is a plain attribute, with no lock. [general] A harness prompted from two threads
#   needs a lock around the check and the set; ours runs in one thread, our simplification.

# %% [markdown]
# ## Build: one writer at a time
#
# **The spec.** `Harness(model, system, tools, messages=(), max_turns=None)` keeps a list of its
# own; `.messages` is a tuple snapshot and `.is_running` reads the flag (both given).
# `prompt(text)` is a plain function: while a run is going it raises
# `RuntimeError("already running; wait for this run to end, or close it")` on the caller's line;
# otherwise it marks the harness running and returns the run, run_agent's events over the
# harness's own list, already started, so that its `finally` is armed before the caller holds
# it. However the run ends (finished, closed at any event or before the first, dropped, or dead
# of an exception), the harness is free again, and the consumer's first event is still
# `agent_start`.
#
# **One gap, in region 4 (the harness), about sixteen lines in all:** the methods `prompt` and
# `_run`. The starter's `prompt` is lesson 07's way to start a run, as a method: it returns
# run_agent's generator for whoever asks, at any time.
#
# **Twelve graded tests** (four grade code the lesson gives you, for no points; two are hidden
# until you submit):
#
# - a second prompt while the job runs (after a number of events that differs every grading) is
#   refused with RuntimeError on the call itself, and the job's record is whole; <!-- test: test_a_second_prompt_while_one_runs_is_refused_on_the_callers_line -->
# - the refusal begins "already running;" and says to wait for the run to end or close it; <!-- test: test_the_refusal_says_what_to_do -->
# - a run holds the harness from the moment `prompt()` returns, before any event: a second
#   prompt is refused, and the run, taken, starts at `agent_start` with all 21 events; <!-- test: test_a_run_holds_the_harness_from_the_moment_prompt_returns -->
# - `is_running` is True after `prompt()` and after every event, and False after the end; <!-- test: test_is_running_is_true_from_prompt_until_the_run_has_ended -->
# - walking away after any event in turn, all 21 of them, frees the harness, and the next
#   prompt is answered; <!-- test: test_walking_away_after_any_event_frees_the_harness -->
# - a run closed before its first event frees it too, and leaves nothing in the record; <!-- test: test_a_run_closed_before_its_first_event_frees_the_harness -->
# - a run whose model raises frees it: the exception reaches the consumer, the next prompt is
#   answered; <!-- test: test_a_run_that_fails_frees_the_harness -->
# - (given) walking away at `tool_execution_start` leaves a tool that never ran; <!-- test: test_a_tool_left_at_its_start_never_runs -->
# - (given) walking away after a result was announced leaves it recorded, and the next tool
#   never starts; <!-- test: test_a_tool_whose_result_was_announced_stays_recorded -->
# - (given) walking away after each of the 21 events in turn, through your `Harness`, leaves a
#   record holding exactly the messages the screen was told about, and a result for every step
#   that ran: lesson 07's ordering, kept by the door; <!-- test: test_walking_away_after_any_event_leaves_the_record_the_screen_was_told -->
# - (given, hidden) a caller that appends a message to what `messages` handed it leaves the
#   harness's record as it was: a snapshot, not the list itself; <!-- test: test_appending_to_what_messages_hands_out_leaves_the_record_alone -->
# - (hidden) schedules of prompts, events taken and walk-aways by two callers, made up by
#   hypothesis: a prompt is refused exactly while another run is going, `is_running` agrees,
#   and each run's messages sit together in the record. <!-- test: test_any_schedule_keeps_one_writer -->
#
# <details><summary>A hint for the gap in the Harness</summary>
#
# Two callers, one flag. On which line must the flag be looked at, and set, so that no caller
# can slip in between? And what must be true of the run, at the moment `prompt` hands it over,
# for every way it can end to reach the line that clears the flag?
#
# </details>
#
# <details><summary>An outline of the gap in the Harness</summary>
#
# `prompt`: no `yield` in it. Refuse if the flag is up, with the message of the spec; put the
# flag up; make the run by calling `_run`; step it once; return it. `_run`: a generator. Make
# run_agent's generator over the harness's list and settings; then a `try` whose body first
# yields once, bare (that is where `prompt` leaves it), and then hands on every event of
# run_agent's; its `finally` closes run_agent's generator and puts the flag down.
#
# </details>
#
# To grade your file, from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 08
# ```

# %% [markdown]
# ## After it passes: a screen, a watcher, and a user who keeps leaving
#
# On your own harness: the user starts the job and walks away after a different number of
# events each time, and each time the watcher tries to get in and the user comes back. Only a
# harness that refuses the watcher and frees itself at every walk-away, even at event 0, shows
# every line reading "watcher refused" and ending in "free". (After a walk-away that left a
# call without a result, the user's next prompt is refused by the provider: that is lesson
# 10's problem, not this one's.)

# %% id="after-it-passes"
for k in (0, 2, 5, 9, 14):
    h, model, told = program(harness, watcher_at=None)
    run = h.prompt(JOB)
    try:
        h.prompt(WATCHED)
        watcher_told = "let in"
    except RuntimeError:
        watcher_told = "refused"
    await lab.drive(run, stop_after=k)
    free = not h.is_running
    for event in h.prompt("I'm back."):
        pass
    print(f"left at event {k:2}: watcher {watcher_told:8} record {lab.shape(h.messages):26} "
          f"{'free' if free else 'STILL HELD'}")

# %% [markdown]
# ## In your own words
#
# A teammate says the `finally` in `_run` is overkill: "runs always finish". In two sentences,
# what do you tell them?
#
# <details><summary>A hint</summary>
#
# List every way a run can stop. Which of them reach the line after the loop?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# A run stops in four ways: it finishes, its consumer walks away, nobody ever iterates it, or
# it dies of an exception, and only the first reaches the line after the loop. The harness's
# promise ("free once the run is over") has to hold on all four, and a `finally` that is armed
# before the run is handed over is the one place Python runs on every one of them.
#
# Common answers, and what each one misses:
#
# - *"Just clear the flag at `agent_end`."* The walk-away never gets there, nor does the run
#   that died.
# - *"Catch `GeneratorExit`."* That covers closing and misses the exception and the run that
#   never started.
# - *"Let the user restart the program."* That is the bricked session, with extra steps.
#
# </details>

# %% [markdown]
# ## A further case
#
# Your harness grows a second way in: `retry()`, which runs the last prompt again. It writes to
# the same list. Does it need its own check, and where? Write the rule in one sentence, so that
# it also settles the next way in somebody adds.
#
# <details><summary>A hint</summary>
#
# What does `retry` have in common with `prompt`, from the list's point of view?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# The rule: **every way of starting a run goes through one function that refuses on the
# caller's line, sets the flag, and hands out a run whose door is already armed.** So `retry`
# calls that function rather than run_agent; the next way in (a scheduled job, a "continue")
# does the same, and none of them can forget the check, because none of them has one of its
# own. pi-mono's `continue` has its own copy of the check, which is the kind of thing that
# drifts.
#
# Common answers, and what each one misses:
#
# - *"Give `retry` its own `if self.is_running: raise`."* Correct today; the next way in is
#   written by someone who copies `retry` without the check, or with last year's message.
# - *"`retry` can call `run_agent` directly on `self._messages`; it is inside the class."* Then
#   it has no door: the flag is never raised for it, so a `prompt()` during a retry is let in,
#   and a retry during a run is a second writer again.
# - *"Refuse `retry` altogether while anything is queued or running."* The refusal is right
#   while a run is going; the rest is a policy about queues, which is lesson 09's to decide.
#
# </details>

# %% id="further-case"
class WithRetry(harness.Harness):
    def retry(self):
        """The last prompt again, through prompt(): the one way in."""
        last = [m["content"] for m in self.messages if m["role"] == "user"][-1]
        return self.prompt(last)


h = WithRetry(lab.ScriptedModel([lab.forever(the_job)]), harness.SYSTEM, [])
for event in h.prompt("Hello?"):
    pass
run = h.retry()
try:
    h.retry()
    print("a second retry while the first runs: let in")
except RuntimeError as refusal:
    print("a second retry while the first runs:", refusal)
run.close()
print("after closing the first:", "free" if not h.is_running else "held")

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
# 8. **New:** Own its transcript: one writer at a time.

# %% [markdown]
# ## Wrapping up
#
# **You hit** a screen and a file watcher prompting one harness at once: the watcher's prompt
# landed between the job's calls and their results, and every request after it was refused.
#
# **You built** the `Harness` that owns the record: `messages` as a snapshot nobody outside can
# append to, `is_running`, and `prompt`, which refuses a second run on the caller's line and
# hands out a run whose `finally` is armed before anyone holds it, so that finishing, walking
# away, never starting, being dropped and dying all leave the harness free.
#
# **The principle:** one list, one owner, one writer at a time, and a door that opens on every
# way out.
#
# **Your harness now** (new in this lesson in bold):
#
# - `SYSTEM`, `user_message`, `text_of` (lesson 01)
# - `tool_calls`, `tool_specs`, `run_tool`, `make_read_tool`, `make_write_tool`,
#   `make_bash_tool` (lesson 02; `str_arg`, `int_arg` from lesson 04)
# - `run_agent` (lessons 03, 05 and 07), `error_message`, `context_for_model` (lesson 05)
# - `MAX_LINES`, `MAX_BYTES`, `fit_budget` (lesson 06)
# - `JsonRenderer`, `FinalTextRenderer` (lesson 07)
# - **`Harness`: `messages`, `is_running`, `prompt`, and the door in `_run`**
#
# **Still open.** The job is on step 2 when the user remembers: "use spaces, not tabs". Your
# harness tells them, correctly, that it is already running, and offers two choices: wait for
# the job to end with tabs, or close it and lose it. Neither is what they wanted. Lesson 09.
#
# **Previous:** 07 · What is it doing?.
#
# **Next:** 09 · But I had something to say.
