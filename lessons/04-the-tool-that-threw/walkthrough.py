# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson 04, "The tool that threw": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The format is Jupytext's percent format
# (see lab/notebook/ipynb.py); the block above is its header, the notebook's metadata.
# tests/test_labs.py runs the committed notebook on a real kernel, on the finished harness and
# on the starter, and holds its text against the seed lesson's anatomy.

# %% [markdown]
# # 04 · The tool that threw
#
# *The loop · ~45 min · 1 lab · builds on 03 · Until it stops asking*
#
# The model asks to read `confg.py`. There is no such file; there is a `config.py`, one
# letter away. Your harness does what Python does with a missing file: it raises. The run is
# over and the user sees a traceback. (And since the call never got its result, lesson 02's
# refusal follows every prompt they type after it.)
#
# This lesson builds on lesson 03, whose harness goes round, turn by turn, until the model
# stops asking for tools. New here? Start at lesson 01, or carry on: every lab is
# self-contained, and the harness you start from is lesson 03's, finished.
#
# By the end of it your harness can do the fourth thing on the course's list: **tell the
# model when a tool fails, and carry on.** A tool that raises, a tool nobody has, and an
# argument of the wrong kind all become results the model can read, and the run never dies
# on a tool.
#
# **How to read it.** Run the cells from top to bottom. Each question lists its options folded
# shut: pick one in your head, then open them. Every figure is drawn from a transcript a cell
# has just made, so if you change a cell, run its figure again.

# %% id="setup"
# Start here: find the project folder, let this notebook import `lab` from it, and choose the
# harness file the examples run on.
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {here} or above it: open this notebook from "
                            "inside the project, e.g. lessons/04-the-tool-that-threw/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import patched, pick_harness

chosen = pick_harness(lesson=4)
harness = chosen.module
print(chosen)


def attempt(function, *args):
    """function(*args), or, if it raises, a line that says what it raised: the examples
    show a crash as a fact, never as a traceback that stops the notebook."""
    try:
        return function(*args)
    except Exception as error:
        return f"raised {type(error).__name__}: {error}"


def outcome(message):
    """What the user sees for a reply: its error if it failed, else its words."""
    return message.get("error_message") or harness.text_of(message)


# %% [markdown]
# The two lines above say which harness file the examples use, and why. Until your own
# `harness.py` answers a failing tool call with a result, it is the lesson's finished
# harness; once your gaps are filled, run that cell again and the examples run on your code.
# `attempt` runs a function and, if it raises, prints what it raised instead of stopping.
#
# **The notation**, `lab.shape`'s: `U` is a user message, `A` an assistant reply, `A[c1]` a
# reply that asks for the call `c1`, `(error)` after an `A` a reply that failed, and `R(c1)`
# the result of `c1`. `lab.show` writes `[is_error]` after a result that reports a failure.

# %% [markdown]
# ## The file that was not there
#
# Lesson 03's harness, unchanged: its `run_tool` finds the tool, runs it, and wraps what it
# returned in a result. The user asks *"What port does config.py set?"*, and the model, on
# its first try, misspells the file: it asks to read `confg.py`. The read tool finds no such
# file and raises `FileNotFoundError`. What happens next?
#
# <details><summary><b>A</b> · The exception goes up through <code>run_agent</code>: the run dies, the record ends on a call with no result, and the next prompt is refused</summary>
#
# ✓ **Right.** `run_tool` does not catch it, and neither does the loop, so `run_agent` raises
# in the middle of a turn. The reply with the call was already appended to the record; its
# result never will be. Every request built from that record carries a call nobody answered.
#
# </details>
#
# <details><summary><b>B</b> · The model is told the file is not there, reads <code>config.py</code> instead, and answers</summary>
#
# ✗ **Not with lesson 03's harness.** That is what this lesson builds. Nothing in lesson 03
# tells the model anything when a tool raises: the exception is not a message, and it does
# not stop at the loop.
#
# </details>
#
# <details><summary><b>C</b> · The call is skipped, and the model answers from what it has</summary>
#
# ✗ **No.** Nothing skips anything; an exception does not step over one line and carry on.
# And a skipped call would still be a call with no result, which the provider refuses.
#
# </details>
#
# For this one cell, `patched` lends the harness lesson 03's `run_tool`, and gives yours
# back when the `with` block ends.

# %% id="the-crash"
def lesson_03_run_tool(tools, call):
    """Lesson 03's run_tool: the happy path, and nothing else."""
    tool = next(t for t in tools if t["name"] == call["name"])
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": tool["execute"](call["arguments"]), "is_error": False}


ws = lab.Workspace({"config.py": "PORT = 9090\n", "main.py": "def main():\n\treturn 1\n"})
tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
         harness.make_bash_tool(lab.Shell(ws))]
model = lab.ScriptedModel([
    lab.reply(lab.text("Reading it."), lab.call("read", {"path": "confg.py"})),
    lab.say("Hello! What can I do?"),
])
record = []
with patched(harness, run_tool=lesson_03_run_tool):
    print("'What port does config.py set?' ->",
          attempt(harness.run_agent, model, harness.SYSTEM, record, tools,
                  "What port does config.py set?"))
    crashed = list(record)
    print("the record after the crash:      ", lab.shape(record))
    harness.run_agent(model, harness.SYSTEM, record, tools, "Hello?")
    print("'Hello?'                         ->", outcome(record[-1]))
print()
print("the record:", lab.shape(record))

# %% [markdown]
# The first prompt never returned: `run_agent` raised the tool's own exception, with the
# tool's own message, which is rather a good message. Nobody read it except the person
# looking at the traceback. The record kept the reply that asked for `c1`, because lesson
# 03's loop appends each message as it arrives, and so the second prompt, an innocent
# "Hello?", was refused: `toolCall c1 has no toolResult`. [general] Hosted providers refuse a
# request in which a tool call has no result; the lab's scripted model checks that the same
# way (`lab.validate`) and answers with a failed reply, so you can watch it offline.
#
# One misspelt file name has ended the session. Figure 4.1 is the whole failure on one page.

# %% id="figure-4-1"
lab.draw(
    lab.Panel("1 · the record, when run_agent raised", crashed),
    lab.Panel("2 · the request for “Hello?”", model.calls[1].messages),
    lab.Panel("3 · what came back", record[3:4], check=False,
              note="The model never read the question."),
    arrows=True,
    title="Figure 4.1  A tool raised, and the record kept the call",
    caption="The exception left run_agent between the call and its result, so the call "
            "stays unanswered in every request after it. Red badges mark what lab.validate "
            "objects to.")

# %% [markdown]
# Notice what did *not* go wrong. The model asked a sensible question, the tool gave an
# accurate answer (the file is not there), and the provider applied its rule. The failure is
# that the answer went to the wrong reader. A tool's failure is news for the model, which
# can do something about it: it asked for the file, and it can ask again. **One call in,
# exactly one result out**, from lesson 02, has to hold on every path, the unhappy ones too.

# %% [markdown]
# ## What the model is told
#
# So the call gets a result even when its tool raises. What goes in it? Three harnesses
# answer `c1` three ways.
#
# <details><summary><b>A</b> · Nothing: leave the failed call without a result, and let the model carry on</summary>
#
# ✗ **No.** That is Figure 4.1 again, deliberately this time: a call with no result, which
# the provider refuses. The model does not get to "carry on"; it does not get asked.
#
# </details>
#
# <details><summary><b>B</b> · A result with <code>is_error</code> true and the content <code>"Error"</code>, so the model knows something went wrong</summary>
#
# ✗ **Half right.** The request is accepted and the model knows the call failed. It does not
# know *why*: not that the file is missing, not which files there are. It can guess, ask the
# user, or give up; it cannot fix its own mistake.
#
# </details>
#
# <details><summary><b>C</b> · A result with <code>is_error</code> true whose content is the exception's message: <i>File not found: confg.py. Files here: config.py, main.py</i></summary>
#
# ✓ **Right.** The flag says "this is a failure, not an output"; the message says what
# failed, in the words the tool chose. A good tool chooses them for the model: the bad value,
# and what to do instead. Here that is the list of names that *are* there.
#
# </details>
#
# The model in the cell below is a stage prop, not a real model: it reads the newest result
# and, if that names a file it can use, asks for it. It is roughly what a real model does with
# a clear error, and exactly what it cannot do with a vague one.

# %% id="what-it-is-told"
asked = lab.call("read", {"path": "confg.py"}, id="c1")
before = [harness.user_message("What port does config.py set?"),
          lab.reply(lab.text("Reading it."), asked)]
told = "File not found: confg.py. Files here: config.py, main.py"
candidates = {
    "A  no result": [],
    "B  'Error'": [lab.tool_result(asked, "Error", is_error=True)],
    "C  the message": [lab.tool_result(asked, told, is_error=True)],
}


def stage_prop(request):
    """Reads the newest result: answers from a file it was given; asks for a file an
    error names, if it names one."""
    newest = request.messages[-1]
    if newest["role"] == "toolResult" and not newest["is_error"]:
        return lab.say(f"It says {newest['content'].strip()}.")
    if newest["role"] == "toolResult" and "Files here:" in newest["content"]:
        name = newest["content"].split("Files here:")[1].split(",")[0].strip()
        return lab.reply(lab.text(f"My mistake: {name}."), lab.call("read", {"path": name}))
    return lab.say("Something went wrong and I cannot tell what. Could you check the file?")


moves = {}
for label, results in candidates.items():
    model = lab.ScriptedModel([lab.forever(stage_prop)])
    answer = model.complete(harness.SYSTEM, before + results, [])
    moves[label] = (f"asks for {harness.tool_calls(answer)[0]['arguments']['path']}"
                    if harness.tool_calls(answer) else outcome(answer))
    print(f"{label:16} {lab.shape(before + results):12} -> {moves[label]}")
print()
mine = attempt(harness.run_tool, tools, asked)
print("your run_tool on c1:", lab.show([mine]) if isinstance(mine, dict) else mine)

# %% [markdown]
# A is refused. B is accepted and gets an apology. C is accepted and gets the right file.
# The last line is your `run_tool` on the same call: a result marked `[is_error]` holding the
# message once the gap in `run_tool` is filled; until then, the exception it raised.
#
# Figure 4.2 draws the three requests as the provider and the stage prop received them, with
# what came back for each underneath: a refusal, a shrug, and a second try at the right file.

# %% id="figure-4-2"
lab.draw(*[lab.Panel(label, before + results, note=f"what came back: {moves[label]}")
           for label, results in candidates.items()],
         title="Figure 4.2  One failure, told three ways",
         caption="No result is refused before the model reads a word. A bare 'Error' is taken "
                 "and leaves the model guessing; the tool's own message is taken and names "
                 "the file to ask for instead.")

# %% [markdown]
# Where the words come from matters. `run_tool` does not write error messages; it passes on
# the one the tool raised, `str(exc)`. The read tool the lesson gives you raises
# `FileNotFoundError` with the file it could not find and the names it could, because a
# message that names the bad value and the next step is one the model can act on.
#
# ### Common answers, and what each one misses
#
# - *"Send the traceback, so the model has everything."* Forty lines of your harness's
#   internals, which the model cannot fix and pays for on every later request. The last line,
#   the message, is the part meant for a reader.
# - *"Send a friendly sentence of our own: 'The tool could not complete your request.'"*
#   That is answer B in a nicer voice. The tool knew what went wrong; the harness threw it away.
# - *"Put the error in the content and leave `is_error` false; the words say it failed."* Then
#   nothing but the words tells a failure from a file that happens to say "File not found".
#   Lesson 07's frontends, and the model, read the flag.

# %% [markdown]
# ## Where the try goes
#
# Something has to catch the exception and turn it into a result. There are three places it
# could go.
#
# <details><summary><b>A</b> · In every tool: each <code>execute</code> catches its own errors and returns a string saying what happened</summary>
#
# ✗ **No.** Every tool author must remember, the one who forgets brings back Figure 4.1, and a
# tool that returns a string has no way to say "this is a failure", so `is_error` is lost.
# Tools should do the opposite: raise, with a good message.
#
# </details>
#
# <details><summary><b>B</b> · In <code>run_tool</code>, once, around finding and running the tool</summary>
#
# ✓ **Right.** `run_tool` is the one place every call passes through, and it is the function
# that promises one result per call. Tools just raise; `run_tool` is where a raise becomes a
# result with `is_error` set.
#
# </details>
#
# <details><summary><b>C</b> · Around the loop in <code>run_agent</code>: catch anything, end the run politely</summary>
#
# ✗ **No.** The run still ends, just without a traceback, and the record still ends on a call
# nobody answered. The catch is too far from the call to answer it: by the time the exception
# reaches the loop, nobody remembers which call it came from.
#
# </details>

# %% id="where-the-try-goes"
def polite_run_agent(model, system, messages, tools, prompt):
    """Lesson 03's loop, with its whole body in a try: any exception ends the run quietly."""
    try:
        return harness.run_agent(model, system, messages, tools, prompt)
    except Exception as error:
        return [{"role": "assistant", "content": [{"type": "text", "text": f"Sorry: {error}"}],
                 "stop_reason": "stop"}]


def job():
    return lab.ScriptedModel([
        lab.reply(lab.text("Reading it."), lab.call("read", {"path": "confg.py"})),
        lab.forever(lambda request: lab.say("Hello again.")
                    if request.messages[-1]["role"] == "user" else stage_prop(request)),
    ])


for label, loop, run_tool in (("the try around the loop", polite_run_agent, lesson_03_run_tool),
                              ("the try in your run_tool", harness.run_agent, harness.run_tool)):
    model, record = job(), []
    with patched(harness, run_tool=run_tool):
        said = attempt(loop, model, harness.SYSTEM, record, tools, "What port does config.py set?")
        if isinstance(said, list):
            print(f"{label}:")
            print("   the first answer:", outcome(said[-1]))
            attempt(harness.run_agent, model, harness.SYSTEM, record, tools, "Hello?")
            print("   'Hello?' got:    ", outcome(record[-1]))
        else:
            print(f"{label}:")
            print("   the run died:    ", said)
    print("   the record:      ", lab.shape(record))

# %% [markdown]
# The polite loop said sorry, and its record is Figure 4.1's: a call with no result, and a
# refusal for "Hello?". (Its apology is not even in the record: the loop that caught the
# exception had lost track of the list.) The try in `run_tool` gave `c1` its result, the model
# read `config.py` on the next turn, and "Hello?" was answered. With the starter, that second
# harness dies as in Figure 4.1: the gap in `run_tool`.

# %% [markdown]
# ## A tool nobody has
#
# The model asks for `search`. Your harness has `read`, `write` and `bash`. Models do this:
# they remember tools from their training, or from an earlier session with different tools,
# or they get the case wrong (`Read`). What should `run_tool` do?
#
# <details><summary><b>A</b> · Raise: a call to a tool that does not exist is a bug, and bugs should be loud</summary>
#
# ✗ **No, not here.** It is a mistake, but it is the model's, not the caller's, and it arrives
# as data. Raising punishes the user for it (the run dies) and teaches the model nothing.
#
# </details>
#
# <details><summary><b>B</b> · Answer it: a result with <code>is_error</code> true saying <i>Tool search not found</i></summary>
#
# ✓ **Right.** Same channel as any other failure. The model sees its mistake in words and
# picks a tool it has; the tools it may use are in every request, beside the error.
#
# </details>
#
# <details><summary><b>C</b> · Leave it out: run the calls that name real tools and drop the rest from the reply</summary>
#
# ✗ **No.** That edits what the model said, and a call still has no result if it stays; if
# it goes, the record says the model never asked. Lesson 10 calls that rewriting history.
#
# </details>

# %% id="nobody-has-it"
for name in ("search", "Read", "read"):
    call = lab.call(name, {"path": "config.py"}, id="c1")
    answered = attempt(harness.run_tool, tools, call)
    print(f"{name:7} -> {lab.show([answered]) if isinstance(answered, dict) else answered}")

# %% [markdown]
# With the starter, `search` raises `StopIteration`, the error `next()` gives when nothing
# matches, which says nothing about tools at all. With the gap filled it is a result:
# `Tool search not found`, `[is_error]`. `Read` is not `read`: a name is matched exactly, and
# the model is told so rather than guessed for. Only the last call runs a tool.
#
# ### Common answers, and what each one misses
#
# - *"Find the closest name and run that."* Then `delete_file` runs when the model asked for
#   `delete_files`, and nobody decided that. Name the mistake; let the model choose.
# - *"Check the names before running any call of the reply."* Checking is fine; refusing the
#   whole reply for one bad name throws away the calls that were right, and still owes every
#   call a result.
# - *"Put the try around `execute` only; a missing tool is a different problem."* It is a
#   different problem with the same answer, and a lookup outside the try raises before the
#   try is reached.

# %% [markdown]
# ## One failure in a batch
#
# One reply, three calls: read `config.py`, `deploy` (which fails: the disk is full), and write
# `NOTES.md`. The second call fails. What happens to the third?
#
# <details><summary><b>A</b> · It is not run: after a failure, the rest of the batch is cancelled</summary>
#
# ✗ **No.** The third call still needs a result, and now it has none: the next request is
# refused. And the model did not make the note conditional; if it had wanted that, it would
# have asked one call at a time.
#
# </details>
#
# <details><summary><b>B</b> · Everything is undone: the read is forgotten and the note not written, so the model can start clean</summary>
#
# ✗ **No.** There is nothing to undo a read with, and a harness that pretends to roll back
# tools it cannot roll back tells the model something false. What happened, happened.
#
# </details>
#
# <details><summary><b>C</b> · It runs as asked, and every call gets one result, in call order, the failed one marked <code>is_error</code></summary>
#
# ✓ **Right.** A failure is one result among three. The loop does not even need to know:
# lesson 03's `for` over the calls stays as it is, because `run_tool` never raises.
#
# </details>

# %% id="the-batch"
def deploy(arguments):
    raise OSError("No space left on device: /srv/releases")


batch_tools = tools + [{"name": "deploy", "description": "Deploy the project.",
                        "parameters": {"type": "object", "properties": {}}, "execute": deploy}]
model = lab.ScriptedModel([
    lab.reply(lab.text("Three steps."), lab.call("read", {"path": "config.py"}),
              lab.call("deploy", {}), lab.call("write", {"path": "NOTES.md", "content": "tried\n"})),
    lab.forever(lambda request: lab.say("The deploy failed: the disk is full. I noted it.")),
])
batch = []
said = attempt(harness.run_agent, model, harness.SYSTEM, batch, batch_tools, "Read, deploy, note.")
print("the record:       ", lab.shape(batch))
print("results:          ", [(m["tool_call_id"], "is_error" if m["is_error"] else "ok")
                             for m in batch if m["role"] == "toolResult"])
print("writes:           ", ws.writes)
print("the run:          ", "returned" if isinstance(said, list) else said)

# %% [markdown]
# Three calls, three results, and the write happened after the failure. (On the starter the
# run raises at `deploy` and the write never runs.) Figure 4.3 sets the record lesson 03 leaves
# beside yours.

# %% id="figure-4-3"
model = lab.ScriptedModel([
    lab.reply(lab.text("Three steps."), lab.call("read", {"path": "config.py"}),
              lab.call("deploy", {}), lab.call("write", {"path": "NOTES.md", "content": "tried\n"}))])
died = []
with patched(harness, run_tool=lesson_03_run_tool):
    attempt(harness.run_agent, model, harness.SYSTEM, died, batch_tools, "Read, deploy, note.")
lab.draw(("lesson 03: the tool raised", died), ("your harness", batch), compare=True,
         title="Figure 4.3  The same batch, two harnesses",
         caption="Lesson 03's run stops at the failing call and leaves two calls unanswered; "
                 + ("yours answers all three, one of them with the failure, and the model "
                    "writes the last word." if isinstance(said, list) else
                    "yours stops at the same call, until the gap in run_tool is filled."))

# %% [markdown]
# ## Try again?
#
# `deploy` failed. Should the harness try it again before telling the model, say up to three
# times?
#
# <details><summary><b>A</b> · Yes, three times, quietly: most failures are passing trouble</summary>
#
# ✗ **No.** The harness cannot tell a passing failure from a lasting one (a missing file is
# missing on the third try too), and it does not know whether the tool is safe to repeat. A
# tool that did half its work before failing does that half again.
#
# </details>
#
# <details><summary><b>B</b> · Only for errors that look passing: timeouts and connection resets</summary>
#
# ✗ **Not in `run_tool`.** A tool that knows its own failure is safe to retry may retry
# inside itself. `run_tool` runs every tool, and knows none of them well enough to decide.
#
# </details>
#
# <details><summary><b>C</b> · No: report the failure once and let the model decide what to do next</summary>
#
# ✓ **Right,** for a tool's failure. The model knows what it was trying to do and can try
# again, try something else or ask the user; it is asked again at once anyway, because the
# loop goes on. Lesson 05 is about the other kind, the provider's own failure, where the
# harness is the only one who can act.
#
# </details>

# %% id="retry"
def appending_deploy(log):
    """A deploy that writes a line to the release log, then fails on upload."""
    def execute(arguments):
        log.append("release 42 started")
        raise ConnectionError("upload reset by peer")
    return {"name": "deploy", "description": "Deploy.", "parameters": {"type": "object",
            "properties": {}}, "execute": execute}


def retried(tools, call, times=3):
    """A run_tool that tries a failing call again, up to `times` in all."""
    for _ in range(times):
        result = harness.run_tool(tools, call)
        if not result.get("is_error"):
            break
    return result


for label, runner in (("retried three times", retried), ("reported once", harness.run_tool)):
    log = []
    result = attempt(runner, [appending_deploy(log)], lab.call("deploy", {}, id="c1"))
    print(f"{label:20} release log: {log}")
    print(f"{'':20} the model is told: {result['content'] if isinstance(result, dict) else result}")

# %% [markdown]
# Three retries, three "release 42 started" lines in a log somebody will read later, and the
# same failure at the end. Reported once, the log says what happened, and the model, told
# that an upload was reset, can decide to try again, knowing it is a repeat. (With the
# starter both lines show the exception itself: its `run_tool` raises at the first failure,
# so there is no result to retry on and none to tell.)

# %% [markdown]
# ## End the run?
#
# A failure has been reported. Should the run go on?
#
# <details><summary><b>A</b> · No: a tool failed, so the job has failed; end the run and let the user look</summary>
#
# ✗ **No.** The model's next move is often the fix (the right file name, another way to
# deploy), and ending the run throws it away. The user asked for a job, not for the first
# obstacle.
#
# </details>
#
# <details><summary><b>B</b> · Yes: the failure is in the request, and the model is asked again, as after any result</summary>
#
# ✓ **Right.** The loop treats an error result like any other result: the model reads it and
# answers. It may try again, try something else, or stop and explain; that is its call.
#
# </details>
#
# <details><summary><b>C</b> · Yes, but only up to three failures in a row; then stop</summary>
#
# ✗ **Not today,** though it is a reasonable policy, and mini-swe-agent has one like it for
# replies it cannot parse (see "Compared with production harnesses"). What it guards against
# is a model going round in circles, which is a runaway, and lesson 05 stops runaways with a
# limit on turns, whatever the results said.
#
# </details>

# %% id="carry-on"
def second_way(request):
    results = [m for m in request.messages if m["role"] == "toolResult"]
    if results and results[-1]["is_error"] and len(results) == 1:
        return lab.reply(lab.text("The disk is full. Clearing old releases first."),
                         lab.call("bash", {"command": "echo cleared /srv/releases"}))
    return lab.say(f"Done: {results[-1]['content'].strip()}" if results else "Deploying.")


model = lab.ScriptedModel([lab.reply(lab.text("Deploying."), lab.call("deploy", {})),
                           lab.forever(second_way)])
record = []
said = attempt(harness.run_agent, model, harness.SYSTEM, record, batch_tools, "Deploy it.")
print("the record:    ", lab.shape(record))
print("model requests:", len(model.calls))
print("the user reads:", outcome(record[-1]) if isinstance(said, list) else said)

# %% [markdown]
# Three requests: the one that asked for `deploy`, the one that carried its failure (and got
# a different plan), and the one that carried the plan's result. Nothing in the loop knew a
# failure had happened.

# %% [markdown]
# ## An argument of the wrong kind
#
# The read tool's schema says `path` is a string. A model sends `{"path": 5}`: it has been
# numbering the files in its head. The schema asked; nothing made the model obey. What should
# the read tool do with a number where a path goes?
#
# <details><summary><b>A</b> · Refuse it, naming the argument: <i>path must be a string</i></summary>
#
# ✓ **Right.** The tool reads its arguments through `str_arg(arguments, "path")`, which hands
# back a string or raises `ValueError` naming the argument, and `run_tool` turns that into a
# result like any other. The model reads which argument it got wrong, and sends it again.
#
# </details>
#
# <details><summary><b>B</b> · Turn it into the string <code>"5"</code> and carry on: be generous in what you accept</summary>
#
# ✗ **No.** Then the model is told *File not found: 5*, about a file name it never wrote, or,
# worse, a file called `5` is read or written. pi-mono's validator coerces types like this
# (see "Compared with production harnesses"); for a number that was meant as a number, that is
# kind, and for a path it hides the mistake.
#
# </details>
#
# <details><summary><b>C</b> · Nothing special: pass it to the workspace and let whatever happens happen</summary>
#
# ✗ **No.** Whatever happens is decided by code the tool author never looked at. Here the lab's
# workspace happens to say something sensible; `os.path.join("src", 5)` says *join() argument
# must be str*, and `open(5)` opens file descriptor 5, which is somebody else's file.
#
# </details>

# %% id="wrong-kind"
for value in ("config.py", 5, ["config.py"], None):
    print(f"str_arg({{'path': {value!r}}}, 'path') -> {attempt(harness.str_arg, {'path': value}, 'path')!r}")
print()
for value in (40, None, "40", True, 2.5):
    print(f"int_arg({{'limit': {value!r}}}, 'limit', 2000) -> "
          f"{attempt(harness.int_arg, {'limit': value}, 'limit', 2000)!r}")

# %% [markdown]
# With the gaps in `str_arg` and `int_arg` filled, a string comes back as it is and
# everything else raises, naming the argument; `None` (the model sent `null`, or nothing)
# gives `int_arg`'s default. With the starter, `5` and `["config.py"]` go through into the
# tool. Look at `True`: Python counts it as the integer 1 (`isinstance(True, int)` is true),
# so a check that only asks "is it an int?" lets it through, and a model that wrote `true`
# for `limit` gets one line of a file. The lesson's tools have no whole-number argument yet;
# lesson 06's `read` takes `offset` and `limit`, and reads them through `int_arg`.

# %% [markdown]
# ## An argument that is missing
#
# The schema says `path` is required. The model sends `{}`. Lesson 03's read tool looked up
# `arguments["path"]` and raised `KeyError`. `run_tool` now passes the exception's message on
# to the model. What message is that?
#
# <details><summary><b>A</b> · <i>'path'</i>: the key, in quotes</summary>
#
# ✓ **Right, and that is the trouble.** `str(KeyError("path"))` is `'path'`, and nothing else.
# The model is told one word, and has to guess whether it means the path is missing, wrong,
# or forbidden.
#
# </details>
#
# <details><summary><b>B</b> · <i>KeyError: 'path'</i>, which says it all</summary>
#
# ✗ **No.** `str(exc)` does not include the type's name; the traceback does. And even with it,
# "KeyError" is the name of a Python dict's complaint, not a sentence about a tool's argument.
#
# </details>
#
# <details><summary><b>C</b> · <i>path must be a string</i>, once the tool reads it through <code>str_arg</code></summary>
#
# ✓ **Right, and that is the fix.** Missing and of the wrong kind are the same mistake from
# the tool's side: there is no string called `path`. One check, one clear message.
#
# </details>

# %% id="missing"
print("str(KeyError('path')):", repr(str(KeyError("path"))))
for arguments in ({}, {"file": "config.py"}):
    answered = attempt(harness.run_tool, tools, lab.call("read", arguments, id="c1"))
    print(f"read({arguments}) ->", lab.show([answered]) if isinstance(answered, dict) else answered)

# %% [markdown]
# Two of the three options are "right", because the question was what the model is told, and
# the honest answer has two halves: today's message, and the one worth sending. The second
# call is a model that named the argument `file`; it is told the same thing, which is what it
# needs to know.
#
# ### Common answers, and what each one misses
#
# - *"Validate every call against the tool's JSON schema before running it."* A fine thing to
#   do, and pi-mono does it; it is a dependency and a page of error formatting, and the
#   tool must still not trust its arguments if the validator is ever off (pi-mono's is, in a
#   browser extension). `str_arg` is the check the tool cannot do without.
# - *"Give the argument a default: a missing path means the current folder."* Then a model
#   that forgot the argument gets an answer to a question it did not ask, and never learns.
# - *"Raise `TypeError` instead of `ValueError`."* Either reads fine to the model, which sees
#   the message, not the class; `run_tool` catches both. Pick one and say it in the docstring.

# %% [markdown]
# ## A command that fails
#
# The model runs `cat missing.py` through `bash`. The command prints an error and exits with
# code 1. Is that a tool that failed?
#
# <details><summary><b>A</b> · No: the tool did its job; the output and the exit code come back as an ordinary result</summary>
#
# ✓ **Right.** `is_error` means *the tool could not do its job*: no such tool, a bad argument,
# a crash. A command that exits 1 is a job done, with news in it, and the bash tool the lesson
# gives you appends the exit code to the output so the news is not lost.
#
# </details>
#
# <details><summary><b>B</b> · Yes: a non-zero exit is a failure, so the result should have <code>is_error</code> true</summary>
#
# ✗ **Not in this course.** The command ran, which is what the tool was for; its exit code is
# part of what it reports. A model that runs the tests wants the failing output as much as
# the passing one.
#
# </details>
#
# <details><summary><b>C</b> · It depends on the command: <code>grep</code> exiting 1 is fine, <code>pytest</code> exiting 1 is not</summary>
#
# ✗ **No.** The harness would need a table of what every exit code of every program means. The
# model knows what it ran and why; give it the code and let it read it.
#
# </details>

# %% id="exit-code"
for command in ("cat config.py", "cat missing.py", "pytest", "false"):
    answered = attempt(harness.run_tool, tools, lab.call("bash", {"command": command}, id="c1"))
    print(f"{command:16} -> {lab.show([answered], clip=None) if isinstance(answered, dict) else answered}")

# %% [markdown]
# Four commands, four ordinary results: none is marked `[is_error]`, and the last three end
# with their exit code. (The lab's shell has no `pytest`: it exits 127, "command not found",
# the way a real shell does.) Our simplification: production harnesses disagree here, and
# pi-mono marks a non-zero exit as an error (see "Compared with production harnesses"). Both
# choices tell the model the code; the difference is what the flag means.

# %% [markdown]
# ## Ctrl-C in the middle of a tool
#
# `run_tool` catches the exception a tool raises. The user, watching a slow command, presses
# Ctrl-C, and Python raises `KeyboardInterrupt` inside the tool. Which `except` should
# `run_tool` have?
#
# <details><summary><b>A</b> · A bare <code>except:</code>, so that nothing can ever escape and the run never dies</summary>
#
# ✗ **No.** Then Ctrl-C becomes a tool result, the model is asked what to do about it, and the
# user has to find another way to stop the program. "The run never dies on a tool" is not
# "the run can never be stopped".
#
# </details>
#
# <details><summary><b>B</b> · <code>except (OSError, ValueError, KeyError)</code>: the errors tools actually raise</summary>
#
# ✗ **No.** That list is the errors *your* tools raise today. The next tool, or a library deep
# inside one, raises `RuntimeError` or `ConnectionError`, and the run dies as in lesson 03.
#
# </details>
#
# <details><summary><b>C</b> · <code>except Exception</code>: a tool's failures, and nothing else</summary>
#
# ✓ **Right.** `KeyboardInterrupt` and `SystemExit` are not `Exception`s; they are
# `BaseException`s, kept apart precisely so that a catch-all for errors lets them through. The
# user pressed Ctrl-C to stop the program, not to send the model a message.
#
# </details>

# %% id="ctrl-c"
def slow(arguments):
    raise KeyboardInterrupt  # what Python raises when the user presses Ctrl-C


for failure in (KeyboardInterrupt, SystemExit, OSError, RuntimeError):
    print(f"{failure.__name__:18} is an Exception: {issubclass(failure, Exception)}")
print()
try:
    answered = harness.run_tool([{"name": "slow", "description": "Wait.",
                                  "parameters": {"type": "object", "properties": {}},
                                  "execute": slow}], lab.call("slow", {}, id="c1"))
    print("run_tool caught Ctrl-C and made it a result:", lab.show([answered]))
except KeyboardInterrupt:
    print("KeyboardInterrupt went through run_tool: the user can still stop the program.")

# %% [markdown]
# It went through, on the starter (which catches nothing) and on a correct harness (which
# catches `Exception`) alike. What to do about a run that *is* stopped half-way, with a call
# left unanswered, is a real question, and lesson 10 answers it.
#
# That is the whole rule, and it has two halves. **Two error channels:** what the model or a
# tool does wrong becomes data in the transcript, an `is_error` result the model reads; what
# the *caller* does wrong, or the user's decision to stop, raises, at once, where a person will
# see it.

# %% [markdown]
# ## Compared with production harnesses
#
# **pi-mono** (badlogic/pi-mono, read at commit `83378aa`) turns every one of this lesson's
# failures into an error result, in the agent loop, `packages/agent/src/agent-loop.ts`.
#
# - A tool nobody has is answered before anything runs: the lookup by name, then an immediate
#   outcome built with `Tool ${toolCall.name} not found` and `isError: true` (lines 512-519),
#   the very words your `run_tool` uses.
# - The arguments are checked against the tool's schema, inside a try, and a failed check is
#   an error result too (lines 521-553). The checker is in `packages/ai/src/utils/validation.ts`:
#   it compiles the schema with AJV, validates a clone of the arguments, and on failure throws
#   a message listing each bad field and the arguments it received (lines 53-88).
# - The tool runs in a second try, and whatever it throws becomes the content of a result with
#   `isError: true`: the error's `message`, or the thrown value as a string (lines 556-591).
#   That is `str(exc)`, in TypeScript.
#
# **mini-swe-agent** (SWE-agent/mini-swe-agent, read at commit `a83fcae`) makes the same split
# in two places. Its local environment runs a command inside a try, and an exception (a
# timeout, say) becomes an output with return code -1 and "An error occurred while executing
# the command: …" for the model to read (`src/minisweagent/environments/local.py:24-43`); a
# command that merely exits non-zero comes back with its `returncode`, as ordinary output. Its
# agent loop catches a reply it cannot parse (`FormatError`), adds the messages that tell the
# model what was wrong, and goes on, unless that has happened `max_consecutive_format_errors`
# times in a row, three by default, when it ends the run
# (`src/minisweagent/agents/default.py:32`, `96-114`). Anything else is written into the
# trajectory as an `exit` message and raised again (`default.py:74-86`, `117-119`): the
# caller's channel.
#
# **Where ours is weaker, and why that is acceptable here.**
#
# - No schema validation. pi-mono checks every argument against the schema before the tool
#   runs; your tools check only what they read, through `str_arg` and `int_arg`. Two small
#   functions teach the rule; a validator is a dependency.
# - pi-mono's validator coerces: its AJV is made with `coerceTypes: true` (`validation.ts:22`),
#   so `5` where a string goes becomes `"5"` and `"10"` where a number goes becomes `10`. Yours
#   refuses both. That is stricter than production, on purpose: a model told *path must be a
#   string* learns something, and a model whose `5` was read as a file name does not.
# - pi-mono's bash tool treats a non-zero exit as a failure: it appends "Command exited with
#   code N" and rejects (`packages/coding-agent/src/core/tools/bash.ts:285-287`), so the result
#   has `isError: true`. Yours reports the code in an ordinary result, as mini-swe-agent does.
#   Either way the model is told the code; ours keeps `is_error` for a tool that could not do
#   its job.
# - No limit on failures. mini-swe-agent stops after three unparseable replies in a row; your
#   loop will let a model fail forever. Lesson 05 puts a limit on the turns instead, which
#   stops that and every other runaway.

# %% [markdown]
# ## Build: a result on every path
#
# **The spec.** `run_tool(tools, call)` returns exactly one `toolResult` for the call, under the
# call's id and name, and never raises an `Exception`: a tool that raises is answered with
# `is_error` true and the exception's message as the content; a name no tool has is answered
# with `is_error` true and the content `Tool <name> not found`; a tool that works is answered
# as in lesson 03, with `is_error` false. `str_arg(arguments, name)` returns the argument when
# it is a `str` and otherwise raises `ValueError("<name> must be a string")`, whether it is
# missing, `null` or of another kind. `int_arg(arguments, name, default)` returns `default`
# when the argument is missing or `null`, the argument when it is an `int` (and not a `bool`),
# and otherwise raises `ValueError("<name> must be an integer")`. The tools the lesson gives
# you already read their arguments through `str_arg`, and the read tool already says which
# files exist when one is missing; the loop is lesson 03's, unchanged.
#
# **Two gaps, marked in three places, all in region 2 (tools), about nineteen lines in all,**
# named in the order to fill them:
#
# 1. **`run_tool`**, the body of `run_tool` (the gap "run_tool"), about nine lines. The starter
#    is lesson 03's: find the tool, run it, wrap what it returned. Keep that, and make every
#    other path end in a result too.
# 2. **`str_arg`** and **`int_arg`**, the bodies of the two functions at the top of region 2
#    (together the gap "arguments"), about three lines and five. Their starters trust the
#    model.
#
# **Fifteen graded tests** (two grade code the lesson gives you, for no points; two are hidden
# until you submit):
#
# - the opening session: the model asks for `confg.py`, is told it is not there and which
#   files are, reads `config.py` (its port new every grading) and answers; "Thanks." after it
#   is answered too; <!-- test: test_a_file_that_is_not_there_is_an_error_the_model_can_act_on -->
# - a call whose tool raises is answered with `is_error` true; <!-- test: test_a_failed_call_is_marked_is_error -->
# - the content of that result holds the exception's message (new every grading); <!-- test: test_the_model_is_told_what_went_wrong -->
# - a tool that raises an exception nobody listed (a `RuntimeError`) is caught, and the run
#   goes on; <!-- test: test_any_exception_a_tool_raises_is_caught -->
# - a call to a tool nobody has is answered `Tool <name> not found`, with `is_error` true, and
#   the run goes on; <!-- test: test_a_tool_nobody_has_is_answered_with_an_error -->
# - one failure in a batch of three, in an order that changes every grading: every call gets
#   its result, in call order, and the write after the failure is done; <!-- test: test_one_failure_in_a_batch_leaves_a_result_for_every_call -->
# - after a failure the model is asked again, and the call it makes next is run; <!-- test: test_the_model_is_asked_again_after_a_failure -->
# - a missing argument is named: *path must be a string* (or `content`, or `command`); <!-- test: test_a_missing_argument_is_named_in_the_error -->
# - `str_arg` returns a string and refuses a number, a list and `null`, naming the argument; <!-- test: test_str_arg_refuses_a_value_that_is_not_a_string -->
# - `int_arg` gives its default for a missing or `null` argument, the value for an integer,
#   and refuses a word; <!-- test: test_int_arg_gives_the_default_only_when_the_argument_is_left_out -->
# - `int_arg` refuses `true`, a string of digits and a float; <!-- test: test_int_arg_refuses_true_and_strings_of_digits -->
# - (given) a command that exits non-zero is an ordinary result that says its exit code; <!-- test: test_a_command_that_exits_non_zero_is_not_a_tool_error -->
# - (given) a tool that works is answered with exactly what it returned; <!-- test: test_a_tool_that_works_is_answered_as_in_lesson_03 -->
# - (hidden) for calls made up by hypothesis (tools that work, fail, or do not exist;
#   arguments missing or of any kind), `run_tool` returns exactly one result, with `is_error`
#   true exactly when the call could not be done; <!-- test: test_run_tool_answers_any_call_with_exactly_one_result -->
# - (hidden) for batches of up to four such calls, every call is answered in call order,
#   every request is accepted, and the run ends on the model's words. <!-- test: test_any_batch_with_failures_is_answered_one_result_per_call -->
#
# <details><summary>A hint for the gap in run_tool</summary>
#
# List the ways a call can go: the tool works, the tool raises, no tool has that name. Which
# of them does the starter answer, and which line is the first one that can raise?
#
# </details>
#
# <details><summary>An outline of the gap in run_tool</summary>
#
# Look the tool up in a way that gives "nothing" instead of raising when no name matches. Then,
# inside one `try`: if there was no tool, raise an error whose message is the "not found"
# sentence; otherwise run it on the call's arguments and note that it worked. In the `except`
# for `Exception` (not narrower, not broader), keep the exception's message and note that it
# failed. After the `try`, build the one result every path returns, with the flag you noted.
#
# </details>
#
# <details><summary>A hint for the gaps in str_arg and int_arg</summary>
#
# What does `arguments.get(name)` give for a missing argument, and for one the model sent as
# `null`? Which Python value passes an `isinstance(..., int)` check without being a number
# anybody wrote?
#
# </details>
#
# <details><summary>An outline of the gaps in str_arg and int_arg</summary>
#
# `str_arg`: fetch the value without risking a `KeyError`; if it is not a `str`, raise the
# `ValueError` the docstring names; otherwise return it. `int_arg`: fetch it the same way;
# nothing there means the default; a `bool`, or anything that is not an `int`, means the
# `ValueError`; otherwise return it. Neither converts anything.
#
# </details>
#
# To grade your file, from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 04
# ```
#
# The report ends with the next thing to do; `lab-check --hint` gives up to three hints for the
# first failing test, and `lab-check --watch` grades again every time you save. When every test
# passes, run this notebook's first cell again: it will choose your `harness.py`.

# %% [markdown]
# ## After it passes: a bad afternoon, survived
#
# Everything this lesson is about, in one job, on your own harness: a typo, a tool nobody has,
# a number where a path goes, a missing argument and a tool that crashes, all in the first
# reply, and then the model fixing each one. No tests here; read what it prints. Only a harness
# whose `run_tool` answers every call, and whose tools name what was wrong, gets through it with
# every request accepted and the right answer at the end.

# %% id="bad-afternoon"
def fixer(request):
    """First asks for five things that fail; then, for each error it was shown, the fix."""
    results = [m for m in request.messages if m["role"] == "toolResult"]
    if not results:
        return lab.reply(lab.text("Five at once."),
                         lab.call("read", {"path": "confg.py"}), lab.call("search", {"q": "PORT"}),
                         lab.call("read", {"path": 5}), lab.call("write", {"path": "NOTES.md"}),
                         lab.call("deploy", {}))
    if len(results) == 5:
        return lab.reply(lab.text("Fixing each."), lab.call("read", {"path": "config.py"}),
                         lab.call("write", {"path": "NOTES.md", "content": "port 9090\n"}))
    return lab.say(f"{results[-2]['content'].strip()}; noted.")


model = lab.ScriptedModel([lab.forever(fixer)])
record = []
said = attempt(harness.run_agent, model, harness.SYSTEM, record, batch_tools, "Check the port.")
print("the record:      ", lab.shape(record))
print("requests refused:", sum(bool(lab.validate(r.messages)) for r in model.calls), "of",
      len(model.calls))
print("what each failure told the model:")
for message in record:
    if message["role"] == "toolResult" and message["is_error"]:
        print("  ", lab.show([message], clip=72))
print("the answer:      ", outcome(record[-1]) if isinstance(said, list) else said)

# %% [markdown]
# Five failures in one reply, five results the model could read, each naming what was wrong:
# the file and the files there are, the tool, the argument, the disk. Two calls to fix them,
# and an answer. Nothing in the loop changed since lesson 03; one function learned to answer
# every call.

# %% [markdown]
# ## In your own words
#
# A teammate reviewing your `run_tool` says: "Catching every exception hides bugs. If a tool
# raises, that is a bug in the tool, and I want to see the traceback." In two or three
# sentences, what do you tell them?
#
# <details><summary>A hint</summary>
#
# Who made the mistake when `confg.py` was not found? Who is in a position to fix it, and
# when?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# Most tool failures are not bugs in the tool: they are the model's mistakes (a wrong name, a
# missing file, a bad argument) reported by a tool doing its job, and the model is the one who
# can fix them, on its next turn, if it is told. So the failure goes to the model as data, in
# a result marked `is_error`, and the run goes on; what stays loud is the caller's mistakes
# and the user's Ctrl-C, which `except Exception` does not swallow. And nothing is hidden: the
# message is in the record, for anyone to read.
#
# Common answers, and what each one misses:
#
# - *"Because the user should never see a traceback."* True, and a `try` around the loop would
#   achieve that while still killing the session. The point is the unanswered call.
# - *"Log the traceback as well."* Good practice, and separate: a log is for the developer,
#   the result is for the model. Do both if you like; the result is the one the run needs.
# - *"Only catch the exceptions we expect."* Then the unexpected one is exactly the one that
#   ends the session.
#
# </details>

# %% [markdown]
# ## A further case
#
# A model's reply is cut off mid-call, and the call's `arguments` arrive not as a dict but as
# the string `'{"path": "conf'`, half a JSON object. Is that a failure for the model to hear
# about, or for the harness to raise? Write the rule in one sentence that also settles the next
# case like it.
#
# <details><summary>A hint</summary>
#
# Who wrote those arguments? And what happens instead if `run_tool` is handed no list of tools
# at all, by code you wrote?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# The rule: **anything the model wrote, however broken, is answered in the transcript; anything
# the calling code got wrong raises.** Half an object is the model's, so it gets a result
# marked `is_error`. Yours says something like *'str' object has no attribute 'get'*, which is
# true and not kind: our simplification. A production harness parses the arguments itself and
# says *the arguments are not valid JSON*. The next case: `run_tool(None, call)` is a caller's
# mistake, and a correct `run_tool` raises it at once, before any tool is looked at, because
# the lookup sits outside the `try`. Lesson 05 meets the provider's version of the
# cut-off reply, a reply that fails mid-stream, and stores it with `stop_reason` "error".
#
# Common answers, and what each one misses:
#
# - *"Raise: arguments that are not even a dict are a bug."* A bug in what the model wrote, on
#   this turn; the model can write them again if it is told, and the run dies if it is not.
# - *"Repair the JSON: close the quote and the brace, and run the read."* Then the model is
#   answered about `conf`, a file it never finished naming, and told nothing was wrong.
# - *"Catch everything in `run_tool`, the caller's mistakes too, so nothing ever raises."* Then
#   `run_tool(None, call)` sends the model a message about your harness's own bug, which the
#   model cannot fix and you never see.
#
# </details>

# %% id="further-case"
cut_off = {"type": "toolCall", "id": "c1", "name": "read", "arguments": '{"path": "conf'}
answered = attempt(harness.run_tool, tools, cut_off)
print("the model's half-written call ->",
      lab.show([answered]) if isinstance(answered, dict) else answered)
print("a caller's run_tool(None, ...) ->", attempt(harness.run_tool, None,
                                                   lab.call("read", {"path": "config.py"})))

# %% [markdown]
# ### Your harness can
#
# 1. Hold a conversation: it knows what was said, and who said it.
# 2. Run a tool the model asks for and show it the result.
# 3. Keep going until the model stops asking.
# 4. **New:** Tell the model when a tool fails, and carry on.

# %% [markdown]
# ## Wrapping up
#
# **You hit** a tool that raised: one misspelt file name, an exception out through
# `run_agent`, a record ending on a call with no result, and every later prompt refused.
#
# **You built** a `run_tool` that answers every call with exactly one result, marked
# `is_error` when the call could not be done, and `str_arg` and `int_arg`, through which the
# tools read their arguments and refuse the wrong kind by name.
#
# **The principle:** two error channels. What the model or a tool does wrong becomes data in
# the transcript, a result the model can act on; what the caller does wrong, or the user's
# Ctrl-C, raises.
#
# **Your harness now** (new in this lesson in bold):
#
# - `SYSTEM`, `user_message`, `text_of` (lesson 01)
# - `tool_calls`, `tool_specs`, `make_read_tool`, `make_write_tool`, `make_bash_tool` (lesson
#   02); **the read tool now names the files that are there when one is not, and all three
#   read their arguments through `str_arg`**
# - **`str_arg`**, **`int_arg`**: an argument of the right kind, or a clear refusal
# - **`run_tool`**: one call in, exactly one result out, on every path; it never raises
# - `run_agent`: lesson 03's loop, unchanged
#
# **Still open.** A model that cannot find a file keeps looking: it reads, gets an error, reads
# again with another guess, and another, and your loop, which never dies on a tool, never
# stops either. Then, at turn forty, the provider itself answers 503, and there is no reply at
# all to store. The tools are safe now; the model and the provider are not.
#
# **Previous:** 03 · Until it stops asking.
#
# **Next:** 05 · The runaway and the 503.
