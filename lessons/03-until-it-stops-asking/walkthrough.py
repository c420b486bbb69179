# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson 03, "Until it stops asking": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The format is Jupytext's percent format
# (see lab/notebook/ipynb.py); the block above is its header, the notebook's metadata.
# tests/test_labs.py runs the committed notebook on a real kernel, on the finished harness and
# on the starter, and holds its text against the seed lesson's anatomy.

# %% [markdown]
# # 03 · Until it stops asking
#
# *The loop · ~45 min · 1 lab · builds on 02 · Prose is not protocol*
#
# The user asks the agent to run the tests and fix what fails. The tests run, the model finds
# the bug and asks to write the fix, and the run ends. The file is never written. (And the
# next thing the user types is refused, for lesson 02's reason: a call was left with no result.)
#
# This lesson builds on lesson 02, whose harness runs a tool the model asks for and answers the
# call with a `toolResult` under the call's id. New here? Start at lesson 01, or carry on: every
# lab is self-contained, and the harness you start from is lesson 02's, finished.
#
# By the end of it your harness can do the third thing on the course's list: **keep going
# until the model stops asking**. That is the loop every agent is built around, and most of
# this lesson is about its two edges: when exactly it stops, and what must be true of the
# record every time it goes round.
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
                            "inside the project, e.g. lessons/03-until-it-stops-asking/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import pick_harness, starter_harness

chosen = pick_harness(lesson=3)
harness = chosen.module
print(chosen)

# %% [markdown]
# The two lines above say which harness file the examples use, and why. Until your own
# `harness.py` keeps going until the model stops asking, it is the lesson's finished harness;
# once your gap is filled, run that cell again and the examples run on your code.
#
# **The notation**, `lab.shape`'s, as in every lesson: `U` is a user message, `A` an assistant
# reply, `A[c1]` a reply that asks for the tool call `c1`, `A[c2,c3]` one that asks for two,
# and `R(c1)` the result of call `c1`. `messages[3]` counts from 0.

# %% [markdown]
# ## The fix that never landed
#
# A small project: `calc.py` holds `add`, which subtracts, and `test_calc.py` checks that
# `add(2, 2)` is 4. Your harness has three tools: `read`, `write`, and `test`, which runs the
# tests. The user types *"Run the tests, then fix what fails."* The job has three steps, and
# the model can only take them one at a time, because it cannot know what to write until it
# has seen the tests fail: run the tests; write the fix; run the tests again. Then it can say
# it is done.
#
# The harness is lesson 02's, exactly as you finished it: it answers the calls of a reply,
# asks the model once more, and returns what it gets. What does the user end up with?
#
# <details><summary><b>A</b> · A fixed <code>calc.py</code> and "Fixed": the model asks for everything it needs in one go</summary>
#
# ✗ **No.** It cannot. What to write depends on what the tests say, and it has not seen them
# yet. A model that asked for a fix before reading the failure would be guessing.
#
# </details>
#
# <details><summary><b>B</b> · The tests run, the model asks to write the fix, and the run ends there: nothing is written, and the next prompt is refused</summary>
#
# ✓ **Right.** Lesson 02's harness answers one round. The model's second reply is a call, and
# nobody answers it: the write never happens, the record ends on a call with no result, and
# every later request carries that call to a provider that refuses it.
#
# </details>
#
# <details><summary><b>C</b> · The harness crashes on the second call, because it was not expecting one</summary>
#
# ✗ **No,** and that would almost be kinder. Nothing raises. `run_agent` returns normally,
# holding a reply that asks for `write`, and leaves it to the caller to notice.
#
# </details>
#
# The cell runs the job on the harness this lesson starts from, `starter_harness(lesson=3)`:
# lesson 02's, with today's gap still open, whatever your own file holds.

# %% id="failure"
BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
JOB = "Run the tests, then fix what fails."
NO_ARGUMENTS = {"type": "object", "properties": {}}


def project():
    """A fresh copy of the project, and the three tools over it."""
    ws = lab.Workspace({"calc.py": BUGGY, "test_calc.py": "assert add(2, 2) == 4\n"})

    def run_tests(arguments):
        if ws.read_text("calc.py") == FIXED:
            return "test_calc.py .  1 passed"
        return "test_calc.py F  1 failed: assert add(2, 2) == 4, got 0"

    test = {"name": "test", "description": "Run the project's tests.",
            "parameters": NO_ARGUMENTS, "execute": run_tests}
    return ws, [harness.make_read_tool(ws), harness.make_write_tool(ws), test]


def fixer(request):
    """The model, as a function of what it is shown: one step at a time, each decided by the
    newest result since the prompt. Any other prompt is answered in words."""
    said = [m for m in request.messages if m["role"] == "user"][-1]
    if said["content"] != JOB:
        return lab.say("Anything else?")
    since = request.messages[request.messages.index(said) + 1:]
    results = [m for m in since if m["role"] == "toolResult"]
    if not results:
        return lab.reply(lab.text("Running the tests first."), lab.call("test", {}))
    if results[-1]["tool_name"] == "test" and "failed" in results[-1]["content"]:
        return lab.reply(lab.text("add subtracts. Fixing calc.py."),
                         lab.call("write", {"path": "calc.py", "content": FIXED}))
    if results[-1]["tool_name"] == "write":
        return lab.reply(lab.text("Running them again."), lab.call("test", {}))
    return lab.say("Fixed: add adds now, and the tests pass.")


def outcome(message):
    """What the user ends up seeing for a reply: its error if it failed, else its words."""
    return message.get("error_message") or harness.text_of(message)


def session(module, prompts, quiet=False):
    """The prompts, one run each, on `module`'s run_agent; the record, model and workspace.
    Each prompt is printed with what the user was shown for it, unless `quiet`."""
    ws, tools = project()
    model, record = lab.ScriptedModel([lab.forever(fixer)]), []
    for prompt in prompts:
        added = module.run_agent(model, module.SYSTEM, record, tools, prompt)
        if not quiet:
            print(f"{prompt!r:40} -> {outcome(added[-1])}")
    return record, model, ws


yesterday = starter_harness(lesson=3)
record, model, ws = session(yesterday, [JOB, "Is it fixed?"])
print()
print("calc.py now: ", repr(ws.read_text("calc.py")))
print("writes:      ", ws.writes)
print("the record:  ", lab.shape(record))

# %% [markdown]
# The tests ran once and failed, which is what the model wanted to know. It then asked for
# the fix, *"add subtracts. Fixing calc.py."*, and lesson 02's `run_agent` returned that reply
# as if it were the answer. `calc.py` still subtracts, nothing was written, and the user's
# *"Is it fixed?"* came back as a 400 naming the call that was never answered:
# `toolCall c2 has no toolResult`, the strict provider's words (`lab.validate`; [general]
# hosted providers refuse a call with no result, each in its own wording).
#
# Read the first line again: what the user was shown for the job is *"add subtracts. Fixing
# calc.py."* That is a promise, not a result. Figure 3.1 draws the whole failure.

# %% id="figure-3-1"
first_run = record[:record.index(next(m for m in record if m["role"] == "user"
                                      and m["content"] == "Is it fixed?"))]
lab.draw(
    lab.Panel("1 · the record the first run left", first_run),
    lab.Panel("2 · the request for “Is it fixed?”", model.calls[-1].messages),
    lab.Panel("3 · what came back", record[-1:], check=False),
    arrows=True,
    title="Figure 3.1  One round, and a call nobody answered",
    caption="The first reply's call is answered and the model is asked again; its second "
            "reply asks for the fix, and the run ends there. Every later request carries that "
            "call without a result, and is refused.")

# %% [markdown]
# Lesson 02 said this out loud: one round was its simplification. The cure is not a second
# round, or a third. The model is the only one who knows how many steps the job has, and it
# tells you the one way it can: **a reply that asks for a tool is not finished**. So the loop
# keeps going until the model stops asking. The rest of the lesson is about what "stops
# asking" means exactly, and what has to be true every time the loop goes round.

# %% [markdown]
# ## When does the loop stop?
#
# The loop will ask the model, record its reply, and answer its calls, again and again. It
# needs one test, checked after every reply, that says *the run is over*. Which?
#
# <details><summary><b>A</b> · The reply has some text in it: the model has said something to the user</summary>
#
# ✗ **No.** Models talk while they work: *"Running the tests first."* came with a call. A loop
# that stops at the first words stops at the first reply, with its call unanswered, which is
# Figure 3.1 one step sooner. The next question is about exactly this.
#
# </details>
#
# <details><summary><b>B</b> · The reply has no tool call in it</summary>
#
# ✓ **Right.** A call is the model asking for something; a reply with none asks for nothing,
# so there is nothing to answer and nobody to ask. That reply is the last message of the run.
#
# </details>
#
# <details><summary><b>C</b> · After a fixed number of turns, say ten, which is more than any sensible job needs</summary>
#
# ✗ **No.** A count is a guess about the job. If the job needs eleven, the run ends on a call
# nobody answered; if it needs three, the count never mattered. Stopping a model that never
# stops asking is a real problem, with a different answer, and it is lesson 05's.
#
# </details>
#
# The cell asks each of the three rules about every reply of the job, in order: is the run
# over here?

# %% id="stop-rules"
ws, tools = project()
model = lab.ScriptedModel([lab.forever(fixer)])
shown = [harness.user_message(JOB)]
replies = []
while len(replies) < 4:  # the job's four replies, each answered as the finished loop would
    reply = model.complete(harness.SYSTEM, shown, harness.tool_specs(tools))
    replies.append(reply)
    shown += [reply] + [harness.run_tool(tools, c) for c in harness.tool_calls(reply)]

rules = {"A  it has text":        lambda r, n: bool(harness.text_of(r)),
         "B  it has no call":     lambda r, n: not harness.tool_calls(r),
         "C  it is reply 2":      lambda r, n: n == 2}
print(f"{'reply':8}{'shape':10}" + "".join(f"{label:22}" for label in rules))
for n, reply in enumerate(replies, 1):
    print(f"{n:<8}{lab.shape([reply]):10}"
          + "".join(f"{'stop' if rule(reply, n) else '-':22}" for rule in rules.values()))
print()
print("the job's own last reply:", repr(harness.text_of(replies[-1])))

# %% [markdown]
# Only rule B stops once, at the right reply, the fourth, which is the one that says the
# job is done. Rule A would stop at the very first reply; rule C at the second, with a fix
# asked for and never written, exactly where lesson 02's harness stopped. (This cell plays
# the loop by hand, so it shows the same table whatever your harness holds.)
#
# ### Common answers, and what each one misses
#
# - *"Stop when the model says it is done."* It does say so: by asking for nothing. Reading
#   its words for "done" is prose again, and lesson 02 was about why the harness reads
#   structure instead.
# - *"Stop when the user's question is answered."* The harness cannot know that; only the
#   model can, and it tells you in the one way the harness can read.
# - *"Stop when a tool fails."* A failed test is exactly what this job is for. What a failing
#   tool should do to the run is lesson 04's question, and the answer is: nothing, it is news.

# %% [markdown]
# ## Words and calls in one reply
#
# The model's reply reads *"The tests fail in add; it subtracts. I will fix calc.py now."*,
# and carries a `write` call. Is the run over?
#
# <details><summary><b>A</b> · Yes: it has explained itself to the user, and the user can read it</summary>
#
# ✗ **No.** It has told the user what it is *about to do*. The call is the doing, and a run
# that ends here ends before it.
#
# </details>
#
# <details><summary><b>B</b> · No: its call is answered and the model asked again; the words stay in the record with it</summary>
#
# ✓ **Right.** Words and calls are blocks of the same reply, and the reply is kept whole.
# Whether the run goes on is decided by the calls alone.
#
# </details>
#
# <details><summary><b>C</b> · No, and the words are dropped: they are commentary, and the model only needs the call</summary>
#
# ✗ **No.** Nothing in the record is edited, ever. The words are the model's account of why
# it is writing the file, and the next request has to show it what it said.
#
# </details>

# %% id="words-and-calls"
with_words = lab.reply(lab.text("The tests fail in add; it subtracts. I will fix calc.py now."),
                       lab.call("write", {"path": "calc.py", "content": FIXED}, id="c2"))
print("text_of:    ", repr(harness.text_of(with_words)))
print("tool_calls: ", [(c["id"], c["name"]) for c in harness.tool_calls(with_words)])
print("stop_reason:", with_words["stop_reason"])

ws, tools = project()
model = lab.ScriptedModel([lab.reply(lab.call("test", {})),
                           lab.reply(*with_words["content"][:1],
                                     lab.call("write", {"path": "calc.py", "content": FIXED})),
                           lab.reply(lab.text("Checking."), lab.call("test", {})),
                           lab.forever(lambda request: lab.say("Fixed, and the tests pass."))])
record = []
harness.run_agent(model, harness.SYSTEM, record, tools, JOB)
print()
print("your harness:", lab.shape(record))
print("calc.py fixed:", ws.read_text("calc.py") == FIXED, " the run ends on:", repr(outcome(record[-1])))

# %% [markdown]
# Both are there, and the reply's own label agrees with its calls: `toolUse`, the model stopped
# because it is waiting for an answer. Then your harness, on a job whose second and third
# replies both talk and ask: with the finished loop the words stay in the record beside their
# calls, the calls are answered, and the run ends on the one reply that only talks. (On the
# starter the run ends on `A[c2]`, with the fix still unwritten.) So text is not the end and a
# call is not silence. A harness with a screen (lesson 07) shows the words the moment they
# arrive, and still goes on.

# %% [markdown]
# ## Three calls in one reply
#
# A new job: *"Look around, then tell me what this project is."* The model's first reply asks
# for three things at once: `read` of `calc.py`, `read` of `test_calc.py`, and `test`. They
# answer three separate questions, and the model wants all three answers before it says
# anything. In the record, after that reply, what comes next?
#
# <details><summary><b>A</b> · The results in whatever order the tools happen to finish</summary>
#
# ✗ **No.** Here they run one after another, so they finish in call order anyway; a harness
# that runs them side by side would finish them in any order, and still has to put the
# results in call order (pi-mono does exactly that, below).
#
# </details>
#
# <details><summary><b>B</b> · The first call's result only: the model will ask again for whatever it still wants</summary>
#
# ✗ **No.** It already asked. The two calls left without results are owed them now, and the
# next request, with two calls unanswered, is refused.
#
# </details>
#
# <details><summary><b>C</b> · Three results, one per call, in the order the calls were written: R(c1) R(c2) R(c3)</summary>
#
# ✓ **Right.** Every call, in call order, straight after the reply that asked, with nothing
# between them. The ids say which result answers which call; the order is the strict
# provider's rule, and the easiest one to keep.
#
# </details>

# %% id="three-calls"
def looker(request):
    """Three calls at once, then a summary of every result it was shown, in the order shown."""
    results = [m for m in request.messages if m["role"] == "toolResult"]
    if not results:
        return lab.reply(lab.text("Looking around."), lab.call("read", {"path": "calc.py"}),
                         lab.call("read", {"path": "test_calc.py"}), lab.call("test", {}))
    return lab.say("I was shown: " + ", ".join(f"{m['tool_call_id']} ({m['tool_name']})"
                                              for m in results))


ws, tools = project()
model = lab.ScriptedModel([lab.forever(looker)])
record = []
harness.run_agent(model, harness.SYSTEM, record, tools, "Look around, then tell me what this is.")
print("the record:   ", lab.shape(record))
print("request 2:    ", lab.shape(model.calls[1].messages) if len(model.calls) > 1 else "not sent")
print("the answer:   ", outcome(record[-1]))

# %% [markdown]
# Three calls, three results, in call order, and then one request, which shows the model all
# three. This much lesson 02's harness could already do, for one round; the loop keeps it true
# for every round. The question is *when* the next request is allowed to go.

# %% [markdown]
# ## After each result, or after the batch?
#
# A teammate suggests a refinement: ask the model again after *each* result. If `calc.py`
# already shows the bug, the model might not need the other two. Why wait? What does the
# provider make of the request sent after the first result?
#
# <details><summary><b>A</b> · It refuses it, naming the second call, which has no result yet</summary>
#
# ✓ **Right.** Every call of the reply must be answered before anything else is sent. The
# model asked for three things; it gets three answers, and then it may change its mind.
#
# </details>
#
# <details><summary><b>B</b> · It takes it: the record is valid so far, and the other two results will follow</summary>
#
# ✗ **No.** A request is the whole record as it stands, and as it stands, two calls have no
# result. The provider does not know that more are coming, and would not care.
#
# </details>
#
# <details><summary><b>C</b> · It takes it, and the model's new reply replaces the two calls it no longer needs</summary>
#
# ✗ **No.** Nothing replaces a call. Even a provider that let the request through would leave
# two calls in the record that nothing ever answers, which is the wreck lesson 10 repairs.
#
# </details>

# %% id="each-or-batch"
asked = [lab.call("read", {"path": "calc.py"}, id="c1"),
         lab.call("read", {"path": "test_calc.py"}, id="c2"), lab.call("test", {}, id="c3")]
opening = [harness.user_message("Look around, then tell me what this is."),
           lab.reply(lab.text("Looking around."), *asked)]
outputs = [BUGGY, "assert add(2, 2) == 4\n", "test_calc.py F  1 failed"]
answers = [lab.tool_result(c, out) for c, out in zip(asked, outputs)]
asked_after = {"after result 1": opening + answers[:1], "after result 2": opening + answers[:2],
               "after the batch": opening + answers}
for label, request in asked_after.items():
    problems = lab.validate(request)
    print(f"{label:16} {lab.shape(request):32} "
          f"{'accepted' if not problems else 'refused: ' + problems[0]}")

# %% [markdown]
# Two refusals, and the one request that gets through is the one the batch sends anyway.
# Asking after each result buys nothing: with this lab's provider, and every strict one, the
# early requests are refused, each of them a request paid for. Figure 3.2 sets the first
# refused request beside the one that is accepted.

# %% id="figure-3-2"
lab.draw(("asked after the first result", asked_after["after result 1"]),
         ("asked after the batch", asked_after["after the batch"]),
         compare=True,
         title="Figure 3.2  When the next request may go",
         caption="The same reply of three calls. On the left the model is asked again after one "
                 "result and two calls are still unanswered; on the right every call has its "
                 "result, in call order, before anything else is sent.")

# %% [markdown]
# ### Common answers, and what each one misses
#
# - *"Send the rest of the results with the next request."* They are the next request's
#   problem only if the model is asked now, and it must not be.
# - *"Run only the first call; the model will ask again."* That turns a reply of three calls
#   into three turns and three bills, and leaves two calls unanswered in between.
# - *"Ask after each result, but drop the unanswered calls from the request."* That is
#   editing what the model said to make the provider quiet, and lesson 10 spends a whole lesson
#   on why the request and the record may differ only in ways that are true.

# %% [markdown]
# ## What is a turn?
#
# The loop goes round; each time round is a *turn*. The word matters, because lesson 05
# counts turns and lesson 07 announces them. Which of these is one turn?
#
# <details><summary><b>A</b> · One request, the reply to it, and a result for every call in that reply</summary>
#
# ✓ **Right.** A turn starts when the harness asks and ends when every call of the reply is
# answered, so a record between two turns is always one a provider accepts. The last turn of a
# run is the one whose reply asks for nothing, so it has no results.
#
# </details>
#
# <details><summary><b>B</b> · A user prompt and everything up to the model's final words</summary>
#
# ✗ **No,** that is a *run*: one call of `run_agent`. The opening job was one run of four
# turns.
#
# </details>
#
# <details><summary><b>C</b> · One message: each reply and each result is a turn of its own</summary>
#
# ✗ **No.** A result is not a step the model takes; it is the answer to one. Counting it as a
# turn would let a turn end between a call and its result, the one place a request may not be
# sent from.
#
# </details>

# %% id="turns"
record, model, ws = session(harness, [JOB])
starts = [i for i, m in enumerate(record) if m["role"] == "assistant"]
print()
for turn, (begin, end) in enumerate(zip(starts, starts[1:] + [len(record)]), 1):
    request = model.calls[turn - 1].messages if turn <= len(model.calls) else []
    print(f"turn {turn}: request of {lab.counted(len(request), 'message'):>11} -> "
          f"{lab.shape(record[begin:end])}")
print()
print("requests sent:", len(model.calls), "  calc.py fixed:", ws.read_text("calc.py") == FIXED)

# %% [markdown]
# On the finished harness, the opening job is four turns: three that ask and are answered,
# and one that asks for nothing. Each request is the one before it plus one turn: the reply
# and its result. On the starter you will see two turns and a fix that never landed. Figure
# 3.3 draws the record of lesson 02's harness beside this one's.

# %% id="figure-3-3"
before, _, _ = session(yesterday, [JOB], quiet=True)
after, _, _ = session(harness, [JOB], quiet=True)
loops = not lab.validate(after) and not harness.tool_calls(after[-1])
lab.draw(("lesson 02's run_agent: one round", before), ("this harness", after), compare=True,
         title="Figure 3.3  The same job, one round and until it stops asking",
         caption=("On the left the run ends on the reply that asks for the fix, a call nobody "
                  "answered. On the right every reply that asks is answered and the model asked "
                  "again, until a reply asks for nothing: four turns, and a record that ends on "
                  "the model's own words." if loops else
                  "Both columns end on the reply that asks for the fix: this harness is still "
                  "lesson 02's one round (the gap in run_agent). Fill it and run this cell again "
                  "to see the right-hand column go on until the model stops asking."))

# %% [markdown]
# ## The label on the reply
#
# Every reply carries a `stop_reason`: `"toolUse"` when the model stopped to wait for tool
# results, `"stop"` when it finished. So there are two ways to write the loop's test: look at
# the label, or look for calls in the content. They agree on every reply this lab's builders
# make. Real providers' replies do not always agree: pi-mono's adapters for Gemini and for
# OpenAI's Responses API both meet a finished reply that holds calls and is reported as a
# plain stop, and relabel it (below). Your loop gets a reply
# labelled `"stop"` with a `read` call in it. What should it do?
#
# <details><summary><b>A</b> · Stop: the provider says the model stopped, and the provider should know</summary>
#
# ✗ **No.** The label is a summary somebody else wrote about the content. The call is the
# content. Stopping leaves a call nobody answered, and the next prompt is refused for it.
#
# </details>
#
# <details><summary><b>B</b> · Refuse it as malformed: raise, and let whoever called <code>run_agent</code> sort it out</summary>
#
# ✗ **No.** It is not malformed, merely labelled loosely, and real providers do it every day. A
# harness that crashes on a common reply is a harness nobody can use.
#
# </details>
#
# <details><summary><b>C</b> · Answer the call and go on: the calls decide, the label is a hint</summary>
#
# ✓ **Right.** A call is owed a result whatever the label says, and a reply with no call is
# the end whatever the label says. Lesson 05 adds the one exception worth making: a reply
# labelled `"error"` failed, and nothing in a failed reply is acted on.
#
# </details>

# %% id="labels"
def labelled(label, *blocks):
    """A reply as a provider might send it: `blocks`, with whatever stop_reason it chose."""
    return dict(lab.reply(*blocks), stop_reason=label)


mislabelled = [labelled("stop", lab.text("Checking one thing."), lab.call("read", {"path": "calc.py"})),
               labelled("toolUse", lab.text("All checked: add subtracts."))]
model = lab.ScriptedModel([lab.reply(lab.call("test", {})), *mislabelled,
                           lab.forever(lambda request: lab.say("(a request nobody should send)"))])
ws, tools = project()
record = []
harness.run_agent(model, harness.SYSTEM, record, tools, "Why do the tests fail?")
for reply in [m for m in record if m["role"] == "assistant"]:
    print(f"{lab.shape([reply]):8} labelled {reply['stop_reason']!r:10} "
          f"{lab.counted(len(harness.tool_calls(reply)), 'call')}  {harness.text_of(reply)!r}")
print()
print("the record:   ", lab.shape(record))
print("requests sent:", len(model.calls), "(the job needs 3)")
print("last request refused:", bool(lab.validate(model.calls[-1].messages)))

# %% [markdown]
# On the finished harness: three requests, the mislabelled call answered, and the run ended on
# the reply labelled `"toolUse"` that asks for nothing. A loop that trusted the label would
# have stopped at reply 2, with `c2` unanswered; then, on a reply like the third, it would have
# asked again for no reason. This is the one place in the lesson where the simplest rule and
# the label disagree, and the rule wins. [general] Providers do not agree on their labels, and
# the content is the only part of a reply whose meaning every provider shares.

# %% [markdown]
# ## What run_agent returns
#
# `run_agent(model, system, messages, tools, prompt)` appends to `messages`, the record, as it
# goes. A run of the opening job adds eight messages. What should it return?
#
# <details><summary><b>A</b> · The final reply's text, which is what the user wanted</summary>
#
# ✗ **Not in this course.** A screen wants the words, and `text_of` on the last message gives
# them; a caller that wants to know what happened, which tools ran, or whether it failed, needs
# the messages. Return data, and let the caller decide what to print.
#
# </details>
#
# <details><summary><b>B</b> · The messages this run added, in order, from the prompt to the final reply</summary>
#
# ✓ **Right.** Whoever keeps the record can add them to it, or count them, or show them, and
# the list is the same one the record gained. pi-mono's loop returns the same thing: its new
# messages.
#
# </details>
#
# <details><summary><b>C</b> · The whole record, so the caller has everything in one place</summary>
#
# ✗ **No.** The caller already has the record: it passed it in. Handing it back invites it to
# be added to itself, and a session of two prompts then holds the first one twice.
#
# </details>

# %% id="returns"
ws, tools = project()
model = lab.ScriptedModel([lab.forever(fixer)])
record = [harness.user_message("Hello."), lab.say("Hello. What shall we do?")]
added = harness.run_agent(model, harness.SYSTEM, record, tools, JOB)
print("the record before:", "U A")
print("returned:         ", lab.shape(added))
print("the record after: ", lab.shape(record))
print("returned == what the record gained:", added == record[2:])

# %% [markdown]
# The return value is exactly the tail the record gained, and not a message of the
# conversation before it. (The graded tests keep the record on their side and add what each
# run returns, so a `run_agent` that returned the whole record would show its history twice.)

# %% [markdown]
# ## The system prompt, every time
#
# The opening job is four requests. Lesson 01 settled that the system prompt is sent with
# every request and never stored. Is a turn of a run any different? Does the third request
# need it, when the first already had it?
#
# <details><summary><b>A</b> · Yes, and the whole record with it: every request is the system prompt, the record as it stands, and the tools</summary>
#
# ✓ **Right.** A turn is one more request of exactly the same kind. The record has grown by a
# reply and its results; nothing else changes.
#
# </details>
#
# <details><summary><b>B</b> · No: within one run the model remembers its instructions from the first request</summary>
#
# ✗ **No.** The model keeps nothing between requests, within a run or across runs. Every
# request is all it knows, so a request without the system prompt is a model without its
# instructions.
#
# </details>
#
# <details><summary><b>C</b> · Yes, so store it as the record's first message, and it is sent automatically</summary>
#
# ✗ **No.** Lesson 01 met that harness: the prompt is then in the record, and a harness that
# also passes `system` sends it twice. mini-swe-agent does store it as a message
# (`src/minisweagent/agents/default.py:92-94`), and that works because it never passes it
# separately.
#
# </details>

# %% id="every-request"
record, model, ws = session(harness, [JOB])
print()
for number, request in enumerate(model.calls, 1):
    print(f"request {number}: system {request.system!r:32} messages {lab.shape(request.messages)}")
print("a system message in the record:", any(m["role"] == "system" for m in record))

# %% [markdown]
# Every request, the same system prompt, and the record growing by one turn at a time. The
# cost of that is real: every request re-sends everything before it, which is why lesson 06
# gives every tool result a budget.

# %% [markdown]
# ## Compared with production harnesses
#
# **pi-mono** (badlogic/pi-mono, read at commit `83378aa`), whose message shapes this course
# borrows, has the same loop, and it reads much like yours will.
#
# - The loop is `runLoop` (`packages/agent/src/agent-loop.ts:155-241`): an inner `while`
#   that goes on "while (hasMoreToolCalls || pendingMessages.length > 0)" (line 173), inside
#   an outer one for follow-up messages (lines 167-168, 228-234), which is lesson 09's.
# - The test is the calls, read off the content: `hasMoreToolCalls = toolCalls.length > 0`
#   after filtering for `toolCall` blocks (lines 201-203). The label is consulted only to
#   stop on `"error"` or `"aborted"` (lines 195-199), which is lesson 05's rule.
# - Every result of a turn is pushed onto the context before the next request
#   (lines 205-215). Run one at a time, each call gets a result even when the user interrupts:
#   the calls after the interruption are answered with an error result, "Skipped due to queued
#   user message.", not left bare (lines 397-406, and 665-682 for the result). Every call,
#   every time; lesson 09 meets that choice again.
# - The system prompt goes into every request's context, built afresh each turn
#   (lines 263-268). `runAgentLoop` starts its list of new messages with the prompts and
#   returns it (lines 103 and 117), as your `run_agent` returns what it added, prompt first.
#   One difference: it works on a copy of the caller's messages (line 106), where yours
#   appends to the record it is handed; lesson 08 makes one object own that list.
# - The labels really do disagree. Gemini's adapter sets the label to `toolUse` whenever the
#   content holds a call, whatever the provider said (`packages/ai/src/providers/google.ts:202-206`),
#   and the Responses adapter does the same for a `"stop"` that came with calls
#   (`packages/ai/src/providers/openai-responses-shared.ts:463-466`). pi-mono fixes the label
#   in the adapters and then does not rely on it anyway.
#
# **mini-swe-agent** (SWE-agent/mini-swe-agent, read at commit `a83fcae`) chose the other
# ending. Its `run` calls `step` in a `while True` and breaks only when the last message has
# role `"exit"` (`src/minisweagent/agents/default.py:96-123`). A reply with no tool call is
# not the end but a mistake: "Every response MUST include at least one tool call"
# (`src/minisweagent/models/utils/actions_toolcall.py:40-48`), sent back to the model as a
# format error. The model ends the job by running one agreed command, which the environment
# turns into `Submitted` (`src/minisweagent/environments/local.py:46-54`). That suits a
# benchmark, where there is no user to talk to; a chat harness stops when the model hands the
# turn back, by asking for nothing. It also counts its model calls against a `step_limit` in
# `query` (`default.py:132-139`): the runaway guard this lesson does not have yet.
#
# **Where ours is weaker, and why that is acceptable here.**
#
# - No limit. A model that never stops asking keeps your loop going for ever. pi-mono's
#   `runLoop` has no turn limit either (nothing in `agent-loop.ts` counts turns);
#   mini-swe-agent has its `step_limit`. Lesson 05 adds `max_turns`, and the
#   way it stops is worth a lesson of its own.
# - No failure. A reply labelled `"error"` with no calls ends your run by accident, because it
#   has no calls; one with a half-built call in it would be run. Lesson 05 makes the rule
#   explicit, as pi-mono's lines 195-199 do.
# - One tool at a time, and nobody watching. pi-mono can run a batch's tools side by side,
#   starting them all and then collecting the results in call order (`agent-loop.ts:413-475`,
#   the collecting at 457-475), and announces every step as an event; lessons 07 and 15 get
#   there.

# %% [markdown]
# ## Build: keep going until it stops asking
#
# **The spec.** `run_agent(model, system, messages, tools, prompt)` appends the prompt to
# `messages` (the record), then goes round, one turn at a time: it sends the model `system`,
# the record as it stands and `tool_specs(tools)`; appends the reply; and if the reply holds
# no call, returns the messages this run added, from the prompt to that reply. Otherwise it
# answers every call of the reply with `run_tool`, in the order the calls were written,
# appending each result, and only then goes round again. The calls decide, not the
# `stop_reason`; and there is no fixed number of turns.
#
# **One gap, in region 3 (the loop), about eight lines in all:** the body of `run_agent`, below the
# two lines that record the prompt. The starter is lesson 02's one round: the reply's calls
# answered, the model asked once more, and the run over, whatever that answer holds.
#
# **Ten graded tests** (one grades code the lesson gives you, for no points; one is hidden
# until you submit):
#
# - the opening job, "Run the tests, then fix what fails": four turns, `calc.py` written with
#   the fix, every request accepted, and the next prompt answered; <!-- test: test_a_job_that_needs_three_turns_is_seen_through -->
# - the run ends at the first reply that asks for nothing: one request a turn and one more,
#   and the model's words are the last message; <!-- test: test_the_run_ends_at_the_first_reply_that_asks_for_nothing -->
# - a reply with words and calls is not the last: its calls are answered, and the model asked
#   again; <!-- test: test_a_reply_with_words_and_calls_is_not_the_last -->
# - three calls in one reply, in an order that differs every grading, are all answered in call
#   order, each tool run after that reply's request and before the next; <!-- test: test_three_calls_in_one_reply_are_all_answered_in_call_order_first -->
# - the calls decide, not the `stop_reason`: a call in a reply labelled `"stop"` is answered,
#   and a reply labelled `"toolUse"` with no call ends the run; <!-- test: test_the_calls_decide_not_the_stop_reason -->
# - a job of four to eight turns is seen through, every turn's tools run between its request
#   and the next; <!-- test: test_a_job_of_any_number_of_turns_is_seen_through -->
# - `run_agent` returns the messages this run added, on a record that already holds a
#   conversation; <!-- test: test_run_agent_returns_the_messages_this_run_added -->
# - every request carries the system prompt it was given (a different one every grading) and
#   the whole record as it stood, and the record holds no system message; <!-- test: test_every_request_carries_the_system_prompt_and_the_whole_record -->
# - (given) one round of calls is answered as in lesson 02; <!-- test: test_one_round_of_calls_is_answered_as_in_lesson_02 -->
# - (hidden) for jobs made up by hypothesis, with up to six turns of up to four calls, words or
#   none, and any labels: every call answered in call order before the next request, as many
#   turns as there are replies with calls, and the run over at the first reply with none. <!-- test: test_any_job_is_answered_turn_by_turn_until_a_reply_asks_for_nothing -->
#
# <details><summary>A hint for the gap in run_agent</summary>
#
# The starter does one turn by hand and then one more request. Which part of it would you
# repeat, and what would you look at, after each reply, to know whether to repeat it again?
#
# </details>
#
# <details><summary>An outline of the gap in run_agent</summary>
#
# A loop with no count. In it: send the request (the same three things as the starter sends),
# append the reply, and read its calls. If there are none, return the messages from the
# prompt on, which the two lines above the gap have already measured for you. If there are
# some, answer each of them, in order, appending each result, and let the loop go round. Do
# not look at `stop_reason`, and do not ask the model anything between the results.
#
# </details>
#
# To grade your file, from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 03
# ```
#
# The report ends with the next thing to do; `lab-check --hint` gives up to three hints for
# the first failing test, and `lab-check --watch` grades again every time you save. When
# every test passes, run this notebook's first cell again: it will choose your `harness.py`.

# %% [markdown]
# ## After it passes: a job of six turns
#
# A longer job on your own harness: four files, each naming the next, so the model can only
# read them one a turn; then two notes written at once, in one reply; then the words. No tests here; read the table. Only a loop that goes on until a reply asks
# for nothing, and answers a whole batch before it asks again, gets every turn answered and a
# record the provider accepts from end to end.

# %% id="six-turns"
chain = {"a.txt": "next: b.txt\n", "b.txt": "one\nnext: c.txt\n",
         "c.txt": "one\ntwo\nnext: d.txt\n", "d.txt": "the end\n"}
long_ws = lab.Workspace(dict(chain))
long_tools = [harness.make_read_tool(long_ws), harness.make_write_tool(long_ws)]


def follower(request):
    """Reads a.txt and follows each file's "next:" line; at the end of the chain, writes two
    notes in one reply; then reports. Each step is decided by the newest result."""
    said = [i for i, m in enumerate(request.messages) if m["role"] == "user"][-1]
    results = [m for m in request.messages[said + 1:] if m["role"] == "toolResult"]
    if not results:
        return lab.reply(lab.call("read", {"path": "a.txt"}))
    newest = results[-1]
    if newest["tool_name"] == "read" and "next: " in newest["content"]:
        return lab.reply(lab.call("read", {"path": newest["content"].split("next: ")[1].strip()}))
    if newest["tool_name"] == "read":
        return lab.reply(lab.text("End of the chain. Two notes."),
                         lab.call("write", {"path": "NOTES.md", "content": "four files\n"}),
                         lab.call("write", {"path": "END.md", "content": newest["content"]}))
    return lab.say("Four files, chained; two notes written.")


model = lab.ScriptedModel([lab.forever(follower)])
record = []
harness.run_agent(model, harness.SYSTEM, record, long_tools, "Follow the chain from a.txt.")
turn_starts = [i for i, m in enumerate(record) if m["role"] == "assistant"]
for turn, (begin, end) in enumerate(zip(turn_starts, turn_starts[1:] + [len(record)]), 1):
    asked = ", ".join(f"{c['name']} {c['arguments']['path']}" for c in harness.tool_calls(record[begin]))
    print(f"turn {turn}: {lab.shape(record[begin:end]):20} "
          f"{'asked for ' + asked if asked else 'asked for nothing: ' + repr(outcome(record[begin]))}")
print()
print("requests:", len(model.calls), "  refused:", sum(bool(lab.validate(r.messages)) for r in model.calls))
print("notes written:", [path for path, _ in long_ws.writes])

# %% [markdown]
# Every turn is a request and its answers; the last is the one that asks for nothing. Nothing
# in your loop knew the job was long: it simply did not stop while the model was asking.

# %% [markdown]
# ## In your own words
#
# A colleague wants to write the loop as `for turn in range(10)`, "so it can never run away".
# In two sentences, what do you tell them?
#
# <details><summary>A hint</summary>
#
# What happens to the record on the eleventh turn of a job that needed eleven, and who gets to
# know it happened?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# A count is a guess about how long the job is, and when the guess is short the run ends
# silently on a call nobody answered, which is the opening failure with a bigger number. The
# loop's end is the model's to decide, by asking for nothing; stopping a model that never
# does is a separate guard that has to say what it did, in the record, and that is lesson 05.
#
# Common answers, and what each one misses:
#
# - *"Ten is plenty."* Until it is not; and then the user gets a promise instead of a result,
#   with nothing in the record to say why.
# - *"Make it a hundred."* The number was never the problem. A hundred still ends mid-job
#   without a word, and a real runaway burns ninety-nine requests before it.
# - *"Stop when the model repeats itself."* That is a guess about the model's mind. The
#   harness can only read structure: a call, or none.
#
# </details>

# %% [markdown]
# ## A further case
#
# Some harnesses give the model a tool called `ask_user`, which shows the user a question and
# returns what they type. The model, halfway through the job, asks for `ask_user` with *"Fix it
# in calc.py, or in the tests?"*. Another time, it just writes the same question in words, with
# no call. Does the loop stop in either case? Write the rule in one sentence that settles both,
# and the next case like them.
#
# <details><summary>A hint</summary>
#
# Who answers each of the two questions, and how does the answer get back into the record?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# The rule: **a call is owed a result before anything else is sent, whoever produces that
# result; a reply with no call hands the turn back to the user.** The `ask_user` call is a
# call like any other: the loop runs the tool, the tool waits for the human, and the answer
# goes back as a result under the call's id, so the run goes on. The question in words is a
# reply with no call, so the run ends, and the user's answer arrives as their next prompt. The
# next case like them: a tool that waits an hour for a build is still a call, and the loop
# waits with it.
#
# </details>

# %% id="further-case"
def asker(request):
    """Asks the user through a tool once, then acts on the answer it was given."""
    results = [m for m in request.messages if m["role"] == "toolResult"]
    if not results:
        return lab.reply(lab.call("ask_user", {"question": "Fix it in calc.py, or in the tests?"}))
    return lab.say(f"You said {results[-1]['content']!r}, so calc.py it is.")


ask_user = {"name": "ask_user", "description": "Ask the user a question; returns their answer.",
            "parameters": {"type": "object",
                           "properties": {"question": {"type": "string", "description": "It."}},
                           "required": ["question"]},
            "execute": lambda arguments: "calc.py, please"}   # the human, played by a line
for label, script in (("asked with a call", [lab.forever(asker)]),
                      ("asked in words", [lab.say("Fix it in calc.py, or in the tests?")])):
    model, record = lab.ScriptedModel(script), []
    harness.run_agent(model, harness.SYSTEM, record, [ask_user], "Fix the bug.")
    print(f"{label:18} the run: {lab.shape(record):22} ends on: {outcome(record[-1])!r}")

# %% [markdown]
# ### Your harness can
#
# 1. Hold a conversation: it knows what was said, and who said it.
# 2. Run a tool the model asks for and show it the result.
# 3. **New:** Keep going until the model stops asking.

# %% [markdown]
# ## Wrapping up
#
# **You hit** a job that needed a second turn: the tests ran, the model asked to write the
# fix, and lesson 02's harness returned instead, leaving the file unwritten and a call nobody
# answered that every later request was refused for.
#
# **You built** the loop in `run_agent`: a turn is one request, its reply and a result for every
# call in it, in call order; turns go on until a reply asks for nothing; the calls decide, not
# the `stop_reason`; every request carries the system prompt and the whole record; the run
# returns what it added.
#
# **The principle:** the model is finished when it stops asking, and not a moment before;
# every call it makes is answered before it is asked anything else.
#
# **Your harness now** (new in this lesson in bold):
#
# - `SYSTEM`, `user_message`, `text_of` (lesson 01)
# - `tool_calls`, `tool_specs`, `run_tool`, `make_read_tool`, `make_write_tool`,
#   `make_bash_tool` (lesson 02)
# - `run_agent`: **now a loop, turn by turn, until a reply asks for nothing**
#
# **Still open.** The user asks the agent to read `config.yaml`. There is no such file. The
# `read` tool raises `FileNotFoundError`, the exception goes straight up through your loop, and
# the run dies with a traceback: no result for the call, nothing the model could have acted on
# ("try `config.yml`"), and a record that ends on a call nobody answered, again. And a model
# that never stops asking keeps your loop going for ever, which is lesson 05's.
#
# **Previous:** 02 · Prose is not protocol.
#
# **Next:** 04 · The tool that threw.
