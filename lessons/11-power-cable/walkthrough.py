# Lesson 11, "The power cable": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook`
# to write the notebook again (outputs stripped). tests/test_lesson11.py proves the committed
# notebook is what this makes and runs it on a real kernel, on the finished harness and on
# the starter.

# %% [markdown]
# # 11 · The power cable
#
# *Part three of watching and steering a run · roughly 60 minutes · one lab · after lesson 10*
#
# At the end of lesson 10 your harness could survive a user who walks away. It cannot survive
# a cleaner. Everything it knows (the prompt, the model's replies, which files the tools
# wrote) is a Python list in one process. The agent has written one file and is halfway
# through the second when somebody trips over the power cable. The files are on disk; the
# transcript that explains them is gone.
#
# This lesson moves the record onto the disk, one line a message, and asks what a crash can
# leave there: a message cut off half-way, a tool that ran with no result recorded, a model
# whose call ids repeat. You write the code that saves, loads, resumes and repairs, so that
# a harness brought back up answers its user as if the lights had never gone out, and tells
# them plainly what it cannot vouch for.
#
# **How to read it.** Run the cells from top to bottom. Questions list their options folded
# shut: pick one, then unfold. Figures are drawn live from the transcripts of the cells above.

# %% id="setup"
# Start here: find the project folder, make `lab` importable, and choose the harness.
import json
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {here} or above it: open this notebook from "
                            "inside the project, e.g. lessons/11-power-cable/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab

chosen = lab.with_repair(lab.pick_harness(lesson=11), lesson=11)
harness = chosen.module
print(chosen)

# %% [markdown]
# The cell names the harness file the examples use and says why. Until your `harness.py`
# saves, loads and repairs, that is the lesson's finished harness. (To work on lesson 11, run
# `lab-check --reset --lesson 11`: it puts the lesson's starter, which holds lesson 10 finished
# and this lesson's gaps, in your `harness.py`, and keeps your file beside it.)
#
# ## The job, and its file
#
# The model is asked to write two files, `a` and `b`, in one reply, and then to read `a` back.
# Like Kimi and Gemini, this model numbers its calls afresh in every reply, so the read is
# called `call_0` too. The harness is given a file on the lab's `Disk`, a stand-in for a real
# disk that can lose power at any byte you choose.

# %% id="job"
def make_job():
    """A workspace, the two tools over it, and a model that restarts its call ids."""
    ws = lab.Workspace({})
    path = {"type": "string", "description": "The file."}

    def write(arguments):
        ws.write_text(arguments["path"], arguments["content"])
        return f"Wrote {arguments['path']}."

    tools = [
        {"name": "write", "description": "Write a file.", "execute": write,
         "parameters": {"type": "object", "required": ["path", "content"], "properties": {
             "path": path, "content": {"type": "string", "description": "Its text."}}}},
        {"name": "read", "description": "Read a file.",
         "execute": lambda arguments: ws.read_text(arguments["path"]),
         "parameters": {"type": "object", "properties": {"path": path}, "required": ["path"]}},
    ]

    def answer(request):
        last = max(i for i, m in enumerate(request.messages) if m["role"] == "user")
        if request.messages[last]["content"] != "Write a and b, then check a.":
            return lab.say("I wrote a and b; a reads back as written.")
        results = sum(m["role"] == "toolResult" for m in request.messages[last:])
        if results == 0:
            return lab.reply(lab.text("Writing."),
                             lab.call("write", {"path": "a", "content": "café\n"}),
                             lab.call("write", {"path": "b", "content": "b\n"}))
        if results == 2:
            return lab.reply(lab.text("Checking."), lab.call("read", {"path": "a"}))
        return lab.say("Done.")

    return ws, tools, lambda: lab.ScriptedModel([lab.forever(answer)],
                                                ids=lab.restarting_ids("call_{k}"))


ws, tools, new_model = make_job()
disk = lab.Disk()
h = harness.Harness(new_model(), harness.SYSTEM, tools, file=disk.open("record.jsonl"))
events = await lab.drive(h.prompt("Write a and b, then check a."))

print(len(events), "events;", "the record:", lab.shape(h.messages))
for line in disk.read_text("record.jsonl").splitlines():
    print(line[:92] + ("…" if len(line) > 92 else ""))

# %% [markdown]
# Seven messages, seven lines. Each line is a whole JSON object and ends with a newline, and
# nothing in the file is ever written twice: the harness only appends. `save_message` writes
# a line in one `write` and flushes it (a real file also gets `os.fsync`), so when it returns,
# the line is on the disk.
#
# ## Record, persist, announce
#
# Lesson 7's rule was *mutate, then announce*: a message is appended to the record before its
# `message_end` event goes out. Now there is a third step. Where does the write to disk go?
#
# <details><summary><b>A</b> · After the announcement: the harness saves what it hears on its own event stream</summary>
#
# ✗ **No.** Between the announcement and the write, the consumer knows about a message the
# disk does not hold. Cut the power in that gap and a message the user saw is gone when the
# harness comes back. (`wrong/persist_after_announcing.py` does exactly this.)
#
# </details>
#
# <details><summary><b>B</b> · Between the two: append to the record, write the line, then announce</summary>
#
# ✓ **Right.** Whatever the power does, anything announced is already on disk. The
# converse need not hold: a line can reach the disk and the power go before its announcement,
# and that is fine, because nobody was promised it.
#
# </details>
#
# <details><summary><b>C</b> · Before the record: write the line first, then append and announce</summary>
#
# ✗ **Not quite.** Nothing is lost, but the file now runs ahead of the record in memory,
# and a write that fails half-way leaves the process holding less than it just told the
# disk. The record is the truth; the file is its copy, kept one step behind.
#
# </details>
#
# The cell below cuts the power after every one of the 21 events and counts, each time, what
# was announced and what the file holds.

# %% id="every-event"
def whole_messages(text):
    """The lines of `text` that are whole JSON objects."""
    found = []
    for line in text.split("\n"):
        try:
            found.append(json.loads(line))
        except ValueError:
            continue
    return found


for k in range(1, 22):
    ws, tools, new_model = make_job()
    cut = lab.Disk()
    run = harness.Harness(new_model(), harness.SYSTEM, tools, file=cut.open("record.jsonl"))
    heard = await lab.drive(run.prompt("Write a and b, then check a."), stop_after=k)
    cut.power_off()
    announced = [e["message"] for e in heard if e["type"] == "message_end"]
    on_disk = whole_messages(cut.read_text("record.jsonl"))
    print(f"after event {k:2} ({heard[-1]['type']:21}) announced {len(announced)}, "
          f"on disk {len(on_disk)}, all announced on disk: {on_disk[:len(announced)] == announced}")

# %% [markdown]
# ## A cut in the middle of a line
#
# Power does not fail politely between events. `Disk(power_fails_after=N)` keeps the first N
# bytes and kills the write that wanted more. Cut at byte 500 and the harness dies half-way
# through writing a tool result. What should loading that file do with its last line?
#
# <details><summary><b>A</b> · Drop it, and the line before it too, to be safe</summary>
#
# ✗ **No.** The line before was written whole, and may already have been announced. Only the
# line being written when the power went can be cut; throwing away a good one loses a
# message for nothing.
#
# </details>
#
# <details><summary><b>B</b> · Parse what is there and keep the fields that survived</summary>
#
# ✗ **No.** Half a tool result is not a smaller tool result: its content is cut, and it might
# even end where a shorter, different text would. A torn line is never half-read.
#
# </details>
#
# <details><summary><b>C</b> · Set it aside, keep its text to show the user, and load every whole line</summary>
#
# ✓ **Right.** A line is a message when it is a whole JSON object. Anything else is torn:
# `load_record` lists it in `set_aside`, and the harness says so when it resumes.
#
# </details>

# %% id="cut-in-a-line"
ws, tools, new_model = make_job()
cut = lab.Disk(power_fails_after=500)
crashed = harness.Harness(new_model(), harness.SYSTEM, tools, file=cut.open("record.jsonl"))
try:
    await lab.drive(crashed.prompt("Write a and b, then check a."))
except lab.PowerCut as power:
    print("PowerCut:", power)

at_cut = cut.read_text("record.jsonl")
print("the file ends:", repr(at_cut[-60:]))
print("files written before the cut:", ws.writes)

# %% [markdown]
# Both writes ran (the workspace shows them), and the result of the second was being saved
# when the lights went out. The tool did its work; the record cannot prove it. Now the machine
# comes back up: `disk.restart()` keeps the bytes that survived, and `Harness.resume` picks
# the record up from the file.

# %% id="resume"
back = cut.restart()
model = new_model()
resumed = harness.Harness.resume(model, harness.SYSTEM, tools, back.open("record.jsonl"))
loaded = resumed.messages
print("loaded:     ", lab.shape(loaded))
print("set aside:  ", [line[:50] for line in resumed.set_aside])
print("interrupted:", [f"{c['name']} {c['arguments']['path']} ({c['id']})" for c in resumed.interrupted])
print()
print(resumed.notice)

# %% [markdown]
# `resume` reads the whole file, loads it, and appends a single newline so that the torn bytes
# become a line of their own: the next message starts clean and is never glued onto them. The
# file is not rewritten. The notice is for the user: the write of `b` is in doubt. It ran,
# but its result never reached the disk, and from the record that looks exactly like a write
# that never started, or one that stopped half-way. So the user is told to look before
# repeating it.
#
# Then the user carries on.

# %% id="carry-on"
await lab.drive(resumed.prompt("What did you write?"))
print("answer:     ", harness.text_of(resumed.messages[-1]))
print("request:    ", lab.shape(model.calls[0].messages))
print("provider ok:", lab.validate(model.calls[0].messages) == [])
print("file ends:  ", repr(back.read_text("record.jsonl")[len(at_cut) - 20:len(at_cut) + 30]))

# %% [markdown]
# Three views of the same moment: the file the crash left, the record the harness loaded from
# it, and the view it sent the model on the next prompt, where each call without a result is
# answered with lesson 10's `INTERRUPTED`.

# %% id="figure-11-1"
file_lines = [line if line in resumed.set_aside else json.loads(line)
              for line in at_cut.split("\n") if line]
lab.draw(lab.Panel("the file at the cut", tuple(file_lines), check=False,
                   note=f"{len(resumed.set_aside)} torn line, set aside"),
         lab.Panel("the record, resumed", loaded, check=False),
         lab.Panel("the view sent next", model.calls[0].messages),
         title="A power cut at byte 500, and what the harness makes of it", arrows=True,
         caption="Left, each line of the file; the last was cut off mid-write and is no message. "
                 "Middle, the messages resume loaded. Right, the request after the user's next "
                 "prompt: call_0 with its recorded result, call_1 with INTERRUPTED.")

# %% [markdown]
# ## Ids that repeat
#
# Look at the ids in the record of the job: `call_0`, `call_1`, then `call_0` again. That is
# this provider's habit, not a fault, and lesson 10's repair sends it straight back, with the
# same id on two calls. What does the provider say?

# %% id="lesson-10-view"
ws, tools, new_model = make_job()
model = new_model()
h = harness.Harness(model, harness.SYSTEM, tools)


def lesson_10_view(messages):
    """Lesson 10's view: drop empty failures, pair calls and results by id."""
    kept = [m for m in messages if not harness.is_empty_failure(m)]
    firsts = {}
    for m in kept:
        if m["role"] == "toolResult":
            firsts.setdefault(m["tool_call_id"], m)
    view = []
    for m in kept:
        if m["role"] != "toolResult":
            view.append(m)
            view += [firsts.get(c["id"], harness.interrupted_result(c))
                     for c in harness.tool_calls(m)] if m["role"] == "assistant" else []
    return view


with lab.patched(harness, context_for_model=lesson_10_view):
    await lab.drive(h.prompt("Write a and b, then check a."))
print("record: ", lab.shape(h.messages))
print("refused:", h.messages[-1].get("error_message"))

# %% [markdown]
# Two calls named `call_0` in one request is a 400 from Anthropic and from OpenAI's Responses
# API, and lesson 10's pairing shows the second `call_0` the *first* one's result, which is a
# lie as well. `repair_history` renames a repeat to `{id}_{k}` with the smallest free `k`,
# call and result together, in the view only. The record keeps the ids the model sent.

# %% id="figure-11-2"
ws, tools, new_model = make_job()
h = harness.Harness(new_model(), harness.SYSTEM, tools)
await lab.drive(h.prompt("Write a and b, then check a."))
view = harness.context_for_model(h.messages)
print("record:", lab.shape(h.messages))
print("view:  ", lab.shape(view))
lab.draw(("the record (ids as the model sent them)", h.messages), ("the view (ids made unique)", view),
         compare=True, title="Ids before and after de-duplication",
         caption="The second reply's call_0 becomes call_0_1 in the view, and its result with it. "
                 "The record is untouched: it is what the model said.")

# %% [markdown]
# Which `k`? A rule that looks only backwards. The first call keeps its id, and a later one
# takes the smallest suffix that no *earlier* call uses. A rule that also looked forwards (the
# newest `call_0` keeping the plain name, say) would rename old calls every time a new one
# arrives. Both give valid requests; only one keeps the prompt cache warm, because a
# provider's cache matches the request from its first byte.

# %% id="prefix-stable"
record = list(h.messages)
short, longer = harness.repair_history(record[:4]).messages, harness.repair_history(record).messages
print("shorter history repaired:", lab.shape(short))
print("longer history repaired: ", lab.shape(longer))
print("same bytes at the start: ", json.dumps(longer[:len(short)]) == json.dumps(short))

# %% [markdown]
# ## Empty ids and placeholders
#
# Some servers send calls with no id at all. `repair_history` names such a call after where
# it sits: `call_{m}_{c}`, the message's index and the call's index in it. It never invents a
# random name, because a random name would differ on every request and the cache would miss.
# And some harnesses save an empty assistant message before the tools run (a placeholder for
# the reply to come). One left behind by a crash would end the span of the calls before it and
# orphan their results; it is dropped as if it had never been written.

# %% id="empty-and-placeholder"
nameless = lab.call("read", {"path": "a"}, id="")
history = [lab.user("Read a."), lab.reply(nameless), lab.reply(lab.text("  ")),
           lab.tool_result(nameless, "café\n"), lab.say("It says café.")]
repaired = harness.repair_history(history)
print("history:", lab.shape(history))
print("view:   ", lab.shape(repaired.messages))
print("valid:  ", lab.validate(repaired.messages) == [])

# %% [markdown]
# ## Which words for a call that never answered?
#
# Lesson 10's `INTERRUPTED` says the tool may have run partly. That is the honest thing to say
# about a write. A read, though, changes nothing however far it got, and telling the model to
# check before repeating a read only makes it timid. `repair_history` takes `is_read_only`,
# and for a tool it says only reads, the stand-in is `INTERRUPTED_READ_ONLY`: nothing was
# changed, run it again if you still need it. Without `is_read_only`, every tool gets the
# careful words.

# %% id="wording"
reading, writing = lab.call("read", {"path": "a"}, id="c1"), lab.call("write", {"path": "b"}, id="c2")
cut_short = [lab.user("Read a, write b."), lab.reply(reading, writing)]
for m in harness.repair_history(cut_short, harness.is_read_only).messages[2:]:
    print(f"{m['tool_name']:6} {m['content']}")

# %% [markdown]
# ## A result with no call: the course's choice, and another
#
# A result whose call is not in its span (its call was lost, or it arrived after the model had
# already moved on) cannot be shown as a result: a provider wants a result in the turn right
# after its call. There are two honest-looking ways out.
#
# * **Leave it out** (this course, since lesson 10). The record keeps it; the view does not
#   show it. Nothing is said that nobody said.
# * **Turn it into a user message** that quotes the output (the production library that
#   lesson 11's rules come from does this). The model keeps the information.
#
# The course keeps its own rule, for one reason: the user role is the user's voice. A note
# written by the harness in that voice is a claim nobody typed, about a call nobody can see,
# and the model will answer it as if the user had asked. A harness that wants the output kept
# can re-run the tool it came from; it should not put words in the user's mouth to do it.

# %% id="figure-11-3"
ghost = lab.call("bash", {"command": "pytest"}, id="c7")
stray = [lab.user("How did the tests go?"), lab.tool_result(ghost, "3 passed"),
         lab.say("I have no test run to go on.")]


def as_user_note(messages):
    """The other choice, for comparison: each orphan result becomes a user message."""
    return [lab.user(f"(output of an earlier {m['tool_name']} call {m['tool_call_id']}: "
                     f"{m['content']})") if m["role"] == "toolResult" else m for m in messages]


lab.draw(("left out (this course)", harness.repair_history(stray).messages),
         ("a user note (another choice)", as_user_note(stray)),
         title="An orphan result, two ways",
         caption="Both requests are valid. The right one has the user say something they never "
                 "said.")

# %% [markdown]
# ## What you build
#
# In your `harness.py` (lesson 11's starter, put there by `lab-check --reset --lesson 11`),
# five gaps:
#
# 1. `record_message`: persist the message with `save(message)` before announcing it, and
#    `save_message(file, message)`: one line of JSON, flushed.
# 2. `load_record(text)`: every whole line a message; every torn one set aside.
# 3. `Harness.resume(...)` and `resume_notice(...)`: read, load, close a torn line with a
#    newline (append, never rewrite), and say what did not finish.
# 4. `repair_history(messages, is_read_only=None)`: the six rules above, pure, idempotent,
#    prefix-stable.
# 5. `context_for_model`: send `repaired_view(messages).messages`.
#
# Then run `lab-check --harness harness.py --lesson 11`. It cuts the power after every event
# and at every byte of the job above, resumes your harness, and checks that nothing announced
# was lost, nothing torn was loaded, the next two prompts are answered, and the model is never
# told that a finished tool was interrupted.
