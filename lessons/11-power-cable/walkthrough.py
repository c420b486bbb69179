# Lesson 11, "The power cable": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). tests/test_lesson11.py proves the committed
# notebook is what this makes and runs it on a real kernel: on the finished harness, on the
# starter, on a correct harness that is not the finished one, and in the student's edition.
# Every cell uses only names the starter defines; a cell that needs a gap the reader has not
# filled says so in one line (empty_gaps, in the first cell) instead of raising.

# %% [markdown]
# # 11 · The power cable
#
# *Meeting the world · ~60 min · 1 lab · builds on 10 · The poisoned transcript*
#
# **Halfway through a job somebody trips over the power cable. The files are on the disk; the
# transcript that explains them was a Python list.**
#
# This lesson builds on lesson 10. New here? Start at lesson 01, or carry on: every lab is
# self-contained, and lesson 11's starter is lesson 10's finished harness with five new gaps.
#
# The user asks the agent to write two files, `a` and `b`, and to read `a` back. The model
# asks for both writes in one reply. `a` is written, `b` is being written, and the office
# goes dark. When the machine comes back the user types "What did you write?", and the agent
# has no idea what they are talking about: its whole memory of the session was in the process
# that died. `a` and `b` are on the disk, and nothing anywhere says who wrote them, or whether
# `b` was finished.
#
# **How to read it.** Run the cells from top to bottom. Each question lists its options folded
# shut: settle on one, then unfold them. Every figure is drawn live from a transcript a cell
# above just made.

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
from lab.notebook.harnesses import pick_harness, starter_harness, with_repair

chosen = with_repair(pick_harness(lesson=11), lesson=11)
harness = chosen.module
print(chosen)


def empty_gaps(*gaps):
    """"" when the chosen harness has filled every gap in `gaps`, else one line saying which
    of them an example needs first. A gap is empty while its own code raises the starter's
    NotImplementedError (one that names it), or, for persist, while record_message saves
    nothing; code that is written but wrong counts as written, and the example shows what it
    does."""
    probes = {"persist": ("record_message", lambda: saves(harness.record_message)),
              "load": ("load_record", lambda: harness.load_record("")),
              "repair": ("repair_history", lambda: harness.repair_history([])),
              "resume": ("Harness.resume", lambda: harness.Harness.resume(
                  lab.ScriptedModel([]), harness.SYSTEM, [], lab.Disk().open("probe")))}
    empty = []
    for gap in gaps:
        name, probe = probes[gap]
        try:
            probe()
        except NotImplementedError as unwritten:
            if name in str(unwritten):  # not a gap this one calls, still empty
                empty.append(gap)
        except Exception:  # written, if not right yet: the example shows what it does
            continue
    if not empty:
        return ""
    many = len(empty) > 1
    return (f"(this example needs the {' and '.join(empty)} gap{'s' * many} of your harness.py: "
            f"fill {'them' if many else 'it'}, then run the cells from the top again)")


def saves(record_message):
    """Raise the starter's NotImplementedError when record_message hands nothing to save."""
    saved = []
    record_message([], harness.user_message("hello"), saved.append)
    if not saved:
        raise NotImplementedError("record_message saves nothing yet")

# %% [markdown]
# The cell names the harness file the examples use and says why. Until your `harness.py`
# saves, loads, repairs and resumes, that is the lesson's finished harness in the course's
# own folder, and your own file in a student's copy of the lesson, where an example that needs
# a gap you have not filled says so in one line. To work on lesson 11, run
# `lab-check --reset --lesson 11`: it puts lesson 11's starter in your `harness.py` and keeps
# your file beside it.
#
# ## The lights go out
#
# **The notation**, as in lesson 10: `U` is a user message, `A` an assistant reply,
# `A[c1,c2]` one that asks for the calls `c1` and `c2`, `(error)` marks a reply that failed,
# and `R(c1)` is the result of `c1`. The job below is the one from the top of the page. This
# model numbers its calls afresh in every reply, so the two writes are `call_0` and `call_1`,
# and the read after them is `call_0` again. Our simplification, made on purpose: no
# provider's documentation promises that habit, but real ids are often short and
# predictable. Kimi K2's have the form `functions.<name>:<idx>` (MoonshotAI/Kimi-K2 at
# `c6157be`, `docs/tool_call_guidance.md:156-158`), and pi-mono's Gemini adapter makes up an
# id of its own when Gemini sends none, or one already used in the same reply (badlogic/pi-mono
# at `83378aa`, `packages/ai/src/providers/google-vertex.ts:188-192`).
#
# The cell runs the job on the **starter**, whatever the first cell chose: lesson 10's finished
# harness with this lesson's gaps still empty, so it keeps its record in memory only. Its
# `Harness` already accepts a `file`, and writes nothing to it: writing is this lesson's first
# gap. The power goes as the write of `b` starts.

# %% id="job"
PROMPT = "Write a and b, then check a."


def what_was_written(messages):
    """(paths whose write has a result, paths whose write was answered with an error)."""
    calls = {block["id"]: block for m in messages if m["role"] == "assistant"
             for block in m["content"] if block["type"] == "toolCall"}
    done, unsure = [], []
    for m in messages:
        if m["role"] == "toolResult" and m["tool_name"] == "write":
            path = calls.get(m["tool_call_id"], {}).get("arguments", {}).get("path", "?")
            (unsure if m["is_error"] else done).append(path)
    return done, unsure


def make_job():
    """A workspace, the two tools over it, and a maker of models that restart their ids."""
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
        if request.messages[last]["content"] != PROMPT:  # any later question: what it can see
            done, unsure = what_was_written(request.messages)
            if not done and not unsure:
                return lab.say("I have no record of writing anything.")
            said = f"I wrote {' and '.join(done) or 'nothing'}."
            if unsure:
                said += f" The write of {' and '.join(unsure)} was cut short: look before I redo it."
            return lab.say(said)
        results = sum(m["role"] == "toolResult" for m in request.messages[last:])
        if results == 0:
            return lab.reply(lab.text("Writing."),
                             lab.call("write", {"path": "a", "content": "café\n"}),
                             lab.call("write", {"path": "b", "content": "b\n"}))
        if results == 2:
            return lab.reply(lab.text("Checking."), lab.call("read", {"path": "a"}))
        return lab.say("Done: a reads back as written.")

    return ws, tools, lambda: lab.ScriptedModel([lab.forever(answer)],
                                                ids=lab.restarting_ids("call_{k}"))


starter = starter_harness(lesson=11)
ws, tools, new_model = make_job()
disk = lab.Disk()
first = starter.Harness(new_model(), starter.SYSTEM, tools, file=disk.open("record.jsonl"))
seen = await lab.drive(first.prompt(PROMPT), stop_after=8)
disk.power_off()                       # the cable: nothing more reaches the disk
print("the last event the screen got:", seen[-1]["type"], seen[-1]["call"]["arguments"]["path"])
print("files the tools wrote:        ", ws.writes)
print("the record, in memory:        ", lab.shape(first.messages))
print("the record, on the disk:      ", lab.counted(len(disk.read_text("record.jsonl")), "byte"))

back = disk.restart()                  # the machine comes back; the process does not
model = new_model()
again = starter.Harness(model, starter.SYSTEM, tools, file=back.open("record.jsonl"))
await lab.drive(again.prompt("What did you write?"))
print()
print("'What did you write?' ->", starter.text_of(again.messages[-1]))
print("the request it was sent:      ", lab.shape(model.calls[0].messages))

# %% [markdown]
# Both writes ran: the workspace has `a`, and `b` was being written when the lights went out.
# The record that said so lived in the process, and the process is gone; the file it could
# have been in holds zero bytes. The new process can only start again, so the model is sent
# one message, the question, and answers it honestly from nothing. The user now has two files
# on their disk that no transcript explains, one of them possibly half-written.
#
# Nothing in lesson 10 helps. Its repair makes a broken list valid; here there is no list.
#
# ## Record, persist, announce
#
# So the record has to be on the disk as it grows: one line of JSON a message, appended, the
# file format called *JSON Lines*. Lesson 7's rule was **mutate, then announce**: a message is
# appended to the record before its `message_end` goes out, so nobody is ever told about a
# message the record does not hold. Now there is a third step. Where does the write to the
# disk go?
#
# <details><summary><b>A</b> · Between the two: append it to the record, write its line to the disk, then announce it</summary>
#
# ✓ **Right.** Record, persist, announce. Whatever the power does, everything anybody was told
# about is on the disk. The other way round need not hold: a line can reach the disk and the
# power go before its announcement, and that is fine, because nobody was promised it.
#
# </details>
#
# <details><summary><b>B</b> · After the announcement: the harness listens to its own events and saves each message it hears</summary>
#
# ✗ **No.** Tidy, and one step late. Between the announcement and the write the screen shows
# a message the disk does not hold; cut the power there and the user has seen a message that
# is gone when the harness comes back.
#
# </details>
#
# <details><summary><b>C</b> · First of all: write the line, then append it to the record and announce it</summary>
#
# ✗ **Not quite.** Nothing announced is lost, but now the file runs ahead of the record: a
# write that fails half-way leaves the process holding less than it has just told the disk,
# and the disk is no longer a copy of anything. The record is the truth and the file its copy,
# one step behind it.
#
# </details>
#
# The cell below runs the job on the chosen harness and cuts the power after each of its 21
# events in turn. Each time it counts what had been announced and what the file holds.

# %% id="every-event"
def as_object(piece):
    """`piece` of text parsed, when it is one whole JSON object; None when it is anything else."""
    try:
        value = json.JSONDecoder().decode(piece)
    except ValueError:
        return None
    return value if type(value) is dict else None


def whole_messages(text):
    """The lines of `text` that are whole JSON objects, in order."""
    return [m for m in map(as_object, text.split("\n")) if m is not None]


if not (waiting := empty_gaps("persist")):
    for k in range(1, 22):
        ws, tools, new_model = make_job()
        cut = lab.Disk()
        run = harness.Harness(new_model(), harness.SYSTEM, tools, file=cut.open("record.jsonl"))
        heard = await lab.drive(run.prompt(PROMPT), stop_after=k)
        cut.power_off()
        announced = [e["message"] for e in heard if e["type"] == "message_end"]
        on_disk = whole_messages(cut.read_text("record.jsonl"))
        print(f"after event {k:2} ({heard[-1]['type']:20}) announced {len(announced)}, on disk "
              f"{len(on_disk)}, all announced on disk: {on_disk[:len(announced)] == announced}")
else:
    print(waiting)

# %% [markdown]
# Twenty-one cuts, and every message that had been announced was on the disk. Look at event 4:
# the reply asking for both writes is announced, and the cut after it finds that reply in the
# file. The loop writes each message inside `record_message`, the one function every message
# passes through, between the append and the event. A consumer that stops listening, a power
# cut, a `kill -9`: none of them can come between a message and its line.
#
# How does a line get *onto the disk*, rather than into a buffer? `save_message` writes a line
# in one `write` and then flushes the file. On a real file (`open_record`), flushing hands the
# bytes to the operating system, which outlives a killed process, and `os.fsync` then asks it
# to put them on the disk itself, which outlives a power cut. *Our simplification:* the lab's
# `Disk` stores a write the moment it is made, and a cut keeps exactly the bytes before it;
# a real disk can also lose a write the operating system had said was done, which is what
# `fsync` is for. Here the order of the steps is what you can watch go wrong.
#
# ### Common answers, and what each one misses
#
# - *"Save the whole record at the end of each run."* A run is where the power goes. A job
#   that dies in its ninth minute leaves the file as it was before the job began.
# - *"Write the file again from the record after every message."* Correct between writes,
#   and a cut *during* a rewrite leaves half a file where a whole one was. Appending risks only
#   the line being written.
# - *"Buffer the lines and flush every second."* A second is a long time at the end of a
#   cable. Every line a flush has not reached is a message the user may already have seen.

# %% [markdown]
# ## A cut in the middle of a line
#
# Power does not fail politely between events. `lab.Disk(power_fails_after=N)` keeps the
# first N bytes written to it and kills the write that wanted more. Cut at byte 500 and the
# harness dies half-way through the line of a tool result: the file ends in a line with no
# closing brace and no newline. What should loading that file do with its last line?
#
# <details><summary><b>A</b> · Drop it and the line before it too: the cut may have damaged both</summary>
#
# ✗ **No.** One write is one line, so only the line being written can be cut. The line before
# was written whole, and may well have been announced: dropping it loses a message somebody
# was told about.
#
# </details>
#
# <details><summary><b>B</b> · Set it aside as text, to be shown to the user, and load every whole line</summary>
#
# ✓ **Right.** A line is a message when it is a whole JSON object. Any other line was torn by
# a crash: `load_record` lists it in `set_aside`, word for word, and never loads it.
#
# </details>
#
# <details><summary><b>C</b> · Read what is there and keep the fields that survived</summary>
#
# ✗ **No.** Half a tool result is not a shorter tool result. Its content is cut off at a byte
# chosen by the power company, and the cut can fall where a different, shorter text would
# have ended. A torn line is never half-read.
#
# </details>

# %% id="cut-in-a-line"
if not (waiting := empty_gaps("persist", "load")):
    ws, tools, new_model = make_job()
    cut = lab.Disk(power_fails_after=500)
    crashed = harness.Harness(new_model(), harness.SYSTEM, tools, file=cut.open("record.jsonl"))
    try:
        await lab.drive(crashed.prompt(PROMPT))
        print("the job finished before byte 500 was written")
    except lab.PowerCut as power:
        print("PowerCut:", power)
    at_cut = cut.read_text("record.jsonl")
    print("the file ends:    ", repr(at_cut[-60:]))
    print("tools that ran:   ", ws.writes)
    loaded = harness.load_record(at_cut)
    print("loaded:           ", lab.shape(loaded.messages))
    print("set aside:        ", [line[:40] + "…" for line in loaded.set_aside])
else:
    print(waiting)

# %% [markdown]
# Both writes ran, and the result of the second was being saved when the power went: the tool
# did its work and the record cannot prove it. Three whole lines load, and the fourth, the
# torn one, is set aside. A *loaded* record is therefore one that can end on a call with no
# result (lesson 10's dangling call) even though the tool ran. Keep that in mind for the words
# the model is shown about it.
#
# ## A line whole but for its newline
#
# `save_message` writes the message and its newline in one `write`, and the cut can fall on
# the very last byte of it: the file ends with a whole JSON object and no newline. Is that last
# line a message, and what must happen before the next message is appended?
#
# <details><summary><b>A</b> · No: a line without its newline was cut short, so it is set aside like any torn line</summary>
#
# ✗ **No.** It is a whole message, exactly as it was recorded; only the separator is missing.
# Setting it aside throws away a complete message for the sake of one byte nobody needs.
#
# </details>
#
# <details><summary><b>B</b> · Yes, it is loaded, and nothing more is needed: it was not torn, so there is nothing to mend</summary>
#
# ✗ **No.** The next line is glued to it. The file then holds one line that is two messages,
# which is not a JSON object, and the next load sets it aside: both messages are lost.
#
# </details>
#
# <details><summary><b>C</b> · Yes, it is loaded; and the file must get its newline before anything else is appended</summary>
#
# ✓ **Right.** The newline only separates. But the next `save_message` appends at the end of
# the file, and without the newline it would write its message onto the end of this one.
#
# </details>

# %% id="newline"
last_line = json.dumps({"role": "user", "content": "And b, please."})
file_text = json.dumps({"role": "user", "content": "Write a."}) + "\n" + last_line  # no newline
next_line = json.dumps({"role": "user", "content": "Thanks."}) + "\n"
if not (waiting := empty_gaps("load")):
    for label, written in (("appended as it is:  ", file_text + next_line),
                           ("closed, then added: ", file_text + "\n" + next_line)):
        reread = harness.load_record(written)
        print(f"{label} loads {lab.counted(len(reread.messages), 'message')}, sets aside "
              f"{len(reread.set_aside)}")
else:
    print(waiting)

# %% [markdown]
# Glued, the file loses two messages at its next load; closed with one `"\n"`, it keeps all
# three. So `Harness.resume` closes the last line whenever the file does not end on a newline,
# torn or whole, and only then lets the harness append.
#
# ## Picking the record up
#
# The machine is back. `Harness.resume(model, system, tools, file)` reads the whole file,
# loads it, and makes a harness that carries on from it. The file holds a torn line. What does
# resume do to the file?
#
# <details><summary><b>A</b> · Only append: close the torn line with a newline, so it stays a line of its own, and carry on after it</summary>
#
# ✓ **Right.** The bytes that survived stay exactly where they fell. The torn line is set aside
# on every later load too, and the next message starts a line of its own.
#
# </details>
#
# <details><summary><b>B</b> · Write it again, clean: empty it and save the loaded messages back, so the torn line is gone</summary>
#
# ✗ **No.** The file now looks as if nothing happened: the one witness of the crash is
# destroyed, and a second cut during the rewrite leaves half of a record where there was a
# whole one. It is the one moment in the session when a crash would cost everything.
#
# </details>
#
# <details><summary><b>C</b> · Leave the file alone and start a new one, beginning with the loaded messages</summary>
#
# ✗ **Not quite.** Nothing is lost, but now two files both claim to be the session, every
# resume makes another, and the new one must itself be written whole before the old one can
# be trusted to be the past.
#
# </details>

# %% id="resume"
if not (waiting := empty_gaps("persist", "load", "repair", "resume")):
    back = cut.restart()
    model = new_model()
    resumed = harness.Harness.resume(model, harness.SYSTEM, tools, back.open("record.jsonl"))
    print("loaded:     ", lab.shape(resumed.messages))
    print("set aside:  ", [line[:40] + "…" for line in resumed.set_aside])
    print("interrupted:", [f"{c['name']} {c['arguments']['path']} ({c['id']})"
                           for c in resumed.interrupted])
    kept = cut.read_bytes("record.jsonl")
    print(f"the {lab.counted(len(kept), 'byte')} the cut left, unchanged:",
          back.read_bytes("record.jsonl")[:len(kept)] == kept)
    print()
    print(resumed.notice)
else:
    print(waiting)

# %% [markdown]
# Resume loaded three messages, set the torn line aside and appended one newline; the bytes
# the cut left are untouched. It also worked out which calls never got a result: the write
# of `b`. That call *ran*, and from the record it looks exactly like a write that never
# started, or one that stopped half-way. So the harness tells the user: the notice names the
# call, the tool and the file it would have changed.
#
# Whom is the notice for?
#
# <details><summary><b>A</b> · Nobody in particular: the model is told in the stand-in result, and that is enough</summary>
#
# ✗ **No.** The model is told that the call has no result. Only the user can walk over to
# the machine, open `b`, and see whether it holds half a file; and only the user knows
# whether a line the crash tore was something that matters to them.
#
# </details>
#
# <details><summary><b>B</b> · The user, in one line: "The session was restored after a crash."</summary>
#
# ✗ **No.** True and useless. The user needs to know *what* to look at: which write, which
# file, which line of the record is missing.
#
# </details>
#
# <details><summary><b>C</b> · The user: each call that did not finish, by the id the model is shown, its tool and its file, and each line set aside</summary>
#
# ✓ **Right.** Everything in it is something the program can see, and each item is something
# the user can go and look at before anything is repeated.
#
# </details>
#
# Then the user carries on.

# %% id="carry-on"
if not (waiting := empty_gaps("persist", "load", "repair", "resume")):
    await lab.drive(resumed.prompt("What did you write?"))
    print("'What did you write?' ->", harness.text_of(resumed.messages[-1]))
    print("the request:  ", lab.shape(model.calls[0].messages))
    print("provider:     ", lab.validate(model.calls[0].messages) or "accepted")
    after = back.read_text("record.jsonl")
    print("the file ends:", repr(after[len(at_cut) - 12:len(at_cut) + 30]), "…")
else:
    print(waiting)

# %% [markdown]
# The same question as at the top of the page, and this time an answer: `a` was written, and
# `b` was cut short and wants looking at. The request carried lesson 10's `INTERRUPTED` for
# the write of `b`, and the file shows the torn bytes, then the newline resume added, then the
# next message on a line of its own. Figure 11.1 puts the three lists side by side.

# %% id="figure-11-1"
if not (waiting := empty_gaps("persist", "load", "repair", "resume")):
    file_lines = [line if line in resumed.set_aside else json.loads(line)
                  for line in at_cut.split("\n") if line]
    display(lab.draw(
        lab.Panel("the file at the cut", tuple(file_lines), check=False,
                  note=f"{len(resumed.set_aside)} torn line, set aside"),
        lab.Panel("the record, resumed", loaded.messages, check=False),
        lab.Panel("the view sent next", model.calls[0].messages),
        title="Figure 11.1  A cut at byte 500, and what the harness makes of it", arrows=True,
        caption="Left, each line of the file: the last was cut off mid-write and is not a "
                "message. Middle, the messages resume loaded. Right, the request after the "
                "user's next prompt: call_0 with its recorded result, call_1 with INTERRUPTED."))
else:
    print(waiting)

# %% [markdown]
# ## Ids that repeat
#
# Look at the ids in the job's record: `call_0`, `call_1`, then `call_0` again. That is this
# provider's habit, not a fault: ids are the provider's to choose, short ones like Kimi K2's
# `functions.read:0` are common, and a record resumed from a file keeps whatever the provider
# sent. What does lesson 10's repair
# make of it?
#
# <details><summary><b>A</b> · Nothing goes wrong: ids only have to be unique within one reply</summary>
#
# ✗ **No.** They have to be unique within the *request*, which holds every reply. Anthropic
# and OpenAI's Responses API both refuse a second use of an id.
#
# </details>
#
# <details><summary><b>B</b> · It is refused, and worse: lesson 10's pairing shows the second call_0 the first call's result</summary>
#
# ✓ **Right.** Lesson 10 looked results up by id, and its compared-with-Tau section warned
# about exactly this: the read of `a` is answered with "Wrote a.", the result of a write.
#
# </details>
#
# <details><summary><b>C</b> · It is accepted, because every call has a result right after it</summary>
#
# ✗ **No.** The pairing looks right and the ids make it ambiguous; the strict provider says
# so, and a lenient one would let the model read the wrong result.
#
# </details>

# %% id="lesson-10-view"
ws, tools, new_model = make_job()
model = new_model()
h = starter.Harness(model, starter.SYSTEM, tools)      # the starter: lesson 10's view
await lab.drive(h.prompt(PROMPT))
print("record:  ", lab.shape(h.messages))
print("refused: ", h.messages[-1].get("error_message"))
print()
print("what the read of a was shown:")
print(lab.show(starter.context_for_model(h.messages)[5:6]))

# %% [markdown]
# `repair_history` renames a repeat, in the view only; the record keeps the ids the model
# sent. Which name should the second `call_0` get?
#
# <details><summary><b>A</b> · <code>call_0_1</code>: the id with the smallest suffix <code>_k</code> that no earlier call uses, its result renamed with it</summary>
#
# ✓ **Right.** The first call keeps its id and each later one takes the smallest free `k`,
# counting only calls that came *before* it. Nothing later can change an earlier name.
#
# </details>
#
# <details><summary><b>B</b> · A fresh random id, so it can never clash with anything</summary>
#
# ✗ **No.** A random name differs on every request, so the same history is different bytes
# every time it is sent, and a provider's prompt cache, which matches a request from its first
# byte, never hits.
#
# </details>
#
# <details><summary><b>C</b> · The newest <code>call_0</code> keeps its name, because it is the one the model just used, and the older ones are renamed</summary>
#
# ✗ **No.** Valid, and every new call renames the ones before it: the start of the history
# changes from one request to the next, and the cache misses every time.
#
# </details>

# %% id="figure-11-2"
if not (waiting := empty_gaps("repair")):
    ws, tools, new_model = make_job()
    h = harness.Harness(new_model(), harness.SYSTEM, tools)
    await lab.drive(h.prompt(PROMPT))
    view = harness.context_for_model(h.messages)
    record = list(h.messages)
    print("record:", lab.shape(record))
    print("view:  ", lab.shape(view))
    shorter = harness.repair_history(record[:4]).messages
    print("the repair of the first 4 messages starts the repair of all 7, byte for byte:",
          json.dumps(harness.repair_history(record).messages[:len(shorter)]) == json.dumps(shorter))
    display(lab.draw(("the record (ids as the model sent them)", record),
                     ("the view (ids made unique)", view), compare=True,
                     title="Figure 11.2  Ids before and after renaming",
                     caption="The second reply's call_0 becomes call_0_1 in the view, and its "
                             "result with it. The record is untouched: it is what the model "
                             "said."))
else:
    print(waiting)

# %% [markdown]
# Figure 11.2 lines the two up. The record and the view now differ in the one place the
# provider cares about, and the record still says what the model said. The last printed line is the property that keeps a
# prompt cache warm, and it is why the rule only ever looks backwards: *prefix-stable*, the
# repair of a longer history begins with the same bytes as the repair of a shorter one.
#
# ### Common answers, and what each one misses
#
# - *"Rename the ids in the record as they arrive."* Then the record no longer says what the
#   model sent, and a result the provider streams back under its own id no longer matches.
# - *"One counter for all the renames."* Unique, stable, and not the rule: with `call_0` and
#   `call_1` both repeating, the second rename gets `call_1_2` where `call_1_1` was free.
# - *"Let the provider rename them."* The provider that restarts its ids is not the one that
#   refuses them: a resumed record may be sent to another provider entirely.

# %% [markdown]
# ## Spans
#
# A resumed record holds more than lesson 10's five wrecks, and the production library this
# lesson's repair comes from cuts it into **spans**. A *span* runs from an assistant message
# that asks for calls up to the next assistant message (or the end). Inside it sit the calls'
# results and anything else that was recorded before the model spoke again: a steer typed
# while the tools ran, say. A result belongs to the span it was recorded in.
#
# A result for `c1` was recorded, but after the *next* assistant message: the model had already
# said "Still working." before it arrived. What goes into the request?
#
# <details><summary><b>A</b> · Move it back to its call, as lesson 10 moved a late result</summary>
#
# ✗ **No.** Lesson 10's late result sat behind a user message; this one sits behind the
# model's own next reply, which was written without it. And when ids repeat, "its call" is a
# guess: the `call_0` of an earlier span would take the result of a later `call_0`.
#
# </details>
#
# <details><summary><b>B</b> · Keep it where it is: it is a real result</summary>
#
# ✗ **No.** A result that does not follow its call is refused, and it would answer a call
# that, as far as the request says, nobody made in that turn.
#
# </details>
#
# <details><summary><b>C</b> · Leave it out of the view, and give c1 a stand-in, as a call with no result in its span</summary>
#
# ✓ **Right.** Pairing only inside a span is what makes the pairing unambiguous, and a
# provider wants a result in the turn right after its call anyway.
#
# </details>

# %% id="spans"
if not (waiting := empty_gaps("repair")):
    write_a = lab.call("write", {"path": "a"}, id="c1")
    outside = [lab.user("Write a."), lab.reply(write_a), lab.say("Still working."),
               lab.tool_result(write_a, "Wrote a."), lab.user("Well?")]
    read_a, write_b = lab.call("read", {"path": "a"}, id="c1"), lab.call("write", {"path": "b"}, id="c2")
    steered = [lab.user("Read a, write b."), lab.reply(read_a, write_b), lab.user("Use spaces."),
               lab.tool_result(write_b, "Wrote b."), lab.tool_result(read_a, "alpha"),
               lab.say("Done.")]
    for name, history in (("a result outside its span", outside),
                          ("a steer among the results", steered)):
        print(f"{name}:")
        view = harness.repair_history(history).messages
        print("   history:", lab.shape(history))
        print("   view:   ", lab.shape(view))
        print("   c1 is answered with:", repr(next(m["content"] for m in view
                                                  if m["role"] == "toolResult")[:44]) + "…")
else:
    print(waiting)

# %% [markdown]
# In the first history the late result is left out and `c1` gets a stand-in. In the second,
# the two results move to just after their calls, in call order, and the steer keeps its
# place in the span, after them. Figure 11.3 draws the second.

# %% id="figure-11-3"
if not (waiting := empty_gaps("repair")):
    display(lab.draw(("the history", steered), ("the view", harness.repair_history(steered).messages),
                     compare=True, title="Figure 11.3  One span, put in order",
                     caption="The span runs from the reply with c1 and c2 to the next reply. Its "
                             "results move to just after the calls, in call order, and the steer "
                             "follows them."))
else:
    print(waiting)

# %% [markdown]
# ## Which words for a call that never answered?
#
# Lesson 10's `INTERRUPTED` says the tool may have run partly, and tells the model to check
# before repeating it. That is the honest thing to say about a write. The power went during
# the *read* of `a`. What should its stand-in say?
#
# <details><summary><b>A</b> · Lesson 10's INTERRUPTED, like every other call: one careful sentence for all</summary>
#
# ✗ **No.** Careful, and wrong in its advice: a read changes nothing however far it got, so
# there is nothing to check, and a model told to check before re-reading a file only hesitates.
#
# </details>
#
# <details><summary><b>B</b> · INTERRUPTED_READ_ONLY, for a tool the harness knows only reads: nothing was changed; run it again if its result is still needed</summary>
#
# ✓ **Right.** `repair_history` takes `is_read_only`, a function of the tool's name; the
# harness passes its own (which says `read` only reads). Without it every tool gets the careful
# words, because a harness that does not know has to assume the worst.
#
# </details>
#
# <details><summary><b>C</b> · Nothing to say: resume runs the read again, and puts its real result in</summary>
#
# ✗ **No.** The harness would be calling tools that no model asked for in this request, on
# files that may have changed since, and writing a result into the record that belongs to a
# moment that has passed.
#
# </details>

# %% id="wording"
if not (waiting := empty_gaps("repair")):
    reading, writing = lab.call("read", {"path": "a"}, id="c1"), lab.call("write", {"path": "b"}, id="c2")
    cut_short = [lab.user("Read a, write b."), lab.reply(reading, writing)]
    for m in harness.repair_history(cut_short, harness.is_read_only).messages[2:]:
        print(f"{m['tool_name']:6} {m['content']}")
else:
    print(waiting)

# %% [markdown]
# ## Empty ids, and a placeholder
#
# Some servers send calls with no id at all. Which name does such a call get?
#
# <details><summary><b>A</b> · A random one, made up each time the view is built</summary>
#
# ✗ **No.** For the reason the second `call_0` did not get one: the bytes of the request would
# change on every send.
#
# </details>
#
# <details><summary><b>B</b> · <code>call_{m}_{c}</code>: m the message's index in the history handed to the repair, c the call's index among that message's calls</summary>
#
# ✓ **Right.** A name that says where the call is: message 3 of the history, its first call.
# Anybody holding the history can find it by counting, and nothing after it can change it.
#
# </details>
#
# <details><summary><b>C</b> · <code>call_{m}_{c}</code>, counting where the message lands in the view, and where the call sits among all the message's blocks</summary>
#
# ✗ **No.** Also stable, and it names a place only this repair knows: the view's positions move
# whenever something before them is dropped, and a reply that says something first puts its
# first call at block 1. Count in the history, and among the calls.
#
# </details>
#
# Some harnesses also save an empty assistant message before the tools run, a placeholder
# for the reply to come. A crash can leave one behind, between the calls and their results.
# What should the repair make of it?
#
# <details><summary><b>A</b> · Drop it, as if it had never been written: no calls and nothing but whitespace is no reply</summary>
#
# ✓ **Right.** It ends no span and orphans nothing. The record keeps it; the view never saw it.
#
# </details>
#
# <details><summary><b>B</b> · Keep it: it is an assistant message like any other</summary>
#
# ✗ **No.** It would end the span of the calls before it, so their results, recorded after
# it, would be left out, and the model would be told that tools which finished were
# interrupted, then shown an empty turn.
#
# </details>
#
# <details><summary><b>C</b> · Fill it in: give it a text such as "(no reply)" so it is not empty</summary>
#
# ✗ **No.** Words nobody wrote, in the model's voice, and the span is still cut in two.
#
# </details>

# %% id="empty-and-placeholder"
if not (waiting := empty_gaps("repair")):
    nameless = lab.call("read", {"path": "a"}, id="")
    history = [lab.user("Read a."), lab.reply(lab.text("Reading."), nameless),
               lab.reply(lab.text("  ")), lab.tool_result(nameless, "café\n"),
               lab.say("It says café.")]
    repaired = harness.repair_history(history)
    print("history:", lab.shape(history))
    print("view:   ", lab.shape(repaired.messages))
    print("valid:  ", lab.validate(repaired.messages) == [])
else:
    print(waiting)

# %% [markdown]
# The call in message 1 becomes `call_1_0` (its reply's first *call*, though its second
# block), its result is renamed with it, and the placeholder is gone from the view.
#
# ## A result with no call: the course's choice, and the library's
#
# A result whose call is not in its span cannot be sent as a result. The production library
# whose rules you are building turns it into a user message that quotes the output, so that
# the model keeps the information. Lesson 10 left such a result out. Which does this course
# do? (Figure 11.4, below, draws both.)
#
# <details><summary><b>A</b> · Turn it into a user note that quotes the output, as the production library does</summary>
#
# ✗ **Not here.** The model keeps the output, and the user role is the user's voice: a note
# written by the harness in it is a claim nobody typed, about a call the request does not
# show, and the model will answer it as if the user had asked. (Lesson 14 is about who
# really spoke.) The library makes the other trade, knowingly; this course does not copy it.
#
# </details>
#
# <details><summary><b>B</b> · Invent the call it answers, from the tool name the result carries</summary>
#
# ✗ **No.** Lesson 10's card 2: the arguments are lost, and an invented call is a sentence
# in the model's mouth that it never said.
#
# </details>
#
# <details><summary><b>C</b> · Leave it out, as lesson 10 did: the record keeps it, the view does not show it</summary>
#
# ✓ **Right, for this course.** Nothing is said that nobody said. The model loses one output,
# and can ask for it again.
#
# </details>

# %% id="figure-11-4"
if not (waiting := empty_gaps("repair")):
    ghost = lab.call("bash", {"command": "pytest"}, id="c7")
    stray = [lab.user("How did the tests go?"), lab.tool_result(ghost, "3 passed"),
             lab.say("I have no test run to go on.")]

    def as_user_note(messages):
        """The library's choice, for comparison: each orphan result becomes a user message."""
        return [lab.user(f"(output of an earlier {m['tool_name']} call {m['tool_call_id']}: "
                         f"{m['content']})") if m["role"] == "toolResult" else m for m in messages]

    display(lab.draw(("left out (this course)", harness.repair_history(stray).messages),
                     ("a user note (the library)", as_user_note(stray)),
                     title="Figure 11.4  A result with no call, two ways",
                     caption="Both requests are valid. The right one has the user say something "
                             "they never said."))
else:
    print(waiting)

# %% [markdown]
# ## The rules of `repair_history`
#
# These are the rules of `repairHistory`, the history repair of a production TypeScript agent
# library (its reference documentation places it at `core/src/context.ts:232`; we read the
# documentation, not the code, so no commit can be named), with the one change the course makes, rule 3. Its contract in
# one sentence: *every call has exactly one result, right after it, under an id no other call
# uses.* The history is read span by span, and:
#
# 1. **Spans.** A span's results move to just after its calls, in call order; the rest of the
#    span (a steer) keeps its order after them. A result pairs only with a call of its own span.
#    When two calls of one span share an id, each call takes the first result with that id
#    that no earlier call of the span has taken: they pair in the order they were recorded
#    (the second call, renamed by rule 4, takes the second result, renamed with it).
# 2. **A call with no result in its span** gets a stand-in under its id: `INTERRUPTED_READ_ONLY`
#    when `is_read_only(tool name)` says the tool only reads, else `INTERRUPTED`. Those calls
#    come back in `.interrupted`, under the ids the request carries.
# 3. **A result whose call is not in its span** is left out, and so is a second result for a
#    call (the first recorded stays). *The course's change:* the library makes it a user note.
# 4. **A repeated id** becomes `{id}_{k}`, the smallest `k` from 1 that no earlier call uses,
#    each id counting for itself, call and result together.
# 5. **An empty id** becomes `call_{m}_{c}`: `m` the message's index in the history handed
#    over, `c` the call's index among that message's calls.
# 6. **An assistant message with no calls and nothing but whitespace** is dropped, as if it had
#    never been there: it ends no span. Empty content is such a placeholder: `content: []`, or
#    text blocks that hold nothing or only whitespace, whatever its `stop_reason` (a failed
#    reply with no words and no calls is dropped too).
#
# And three properties, each of which a hidden test tries on histories it makes up: **pure**
# (the list and its messages are never changed; a message that needs no change may come back
# as the very object or as an equal copy, either is fine), **prefix-stable** (a span's output
# and every id depend only on what came before it, so the same history always gives the same
# bytes), and **idempotent** (repairing a repaired history changes nothing).

# %% [markdown]
# ## Compared with pi-mono
#
# pi-mono's coding agent keeps its sessions as JSON Lines too, and its provider layer repairs
# what it sends. We read both at commit `83378aa` (`83378aad7e74a0e2bb8f37c007a9685fb4609d8a`).
#
# - **Appending a line.** `_persist` writes each entry as `JSON.stringify(entry)` and a newline
#   with one `appendFileSync` (`packages/coding-agent/src/core/session-manager.ts:792-809`):
#   your `save_message`, without the `fsync`, so its lines outlive a killed process and may
#   not outlive a power cut. It also holds every entry back until the session has its first
#   assistant message (lines 795-799), so a prompt typed just before a crash is not on disk:
#   a choice that keeps empty sessions out of the folder, paid for with that prompt.
# - **Loading.** `loadEntriesFromFile` splits the file on newlines and parses each line, with
#   `// Skip malformed lines` where yours sets aside (lines 431-447). The torn line disappears
#   and nobody is told. And as far as we read, nothing closes a torn last line before the next
#   append (lines 802-808 write straight on), so the first message after a crash joins the
#   torn bytes and is skipped at the next load with them: the case your resume's newline is for.
# - **Rewriting.** When a file has no valid header, `setSessionFile` starts a new session and
#   writes the file again from scratch (lines 692-706, `_rewriteFile` at 766-770); a migration
#   to a newer format rewrites it too (711-713). Yours never rewrites a byte.
# - **Repairing what is sent.** Every provider runs `transformMessages` on its request
#   (`packages/ai/src/providers/anthropic.ts:689`), so, like your view, it repairs on every
#   request and never in the record. It answers a call left without a result with
#   `"No result provided"` and `isError: true` (`packages/ai/src/providers/transform-messages.ts:98-124`,
#   and 147-164 when a user message arrives first): fewer words than yours, and none of them
#   tells the model whether to repeat a write. It drops an errored or aborted reply whole,
#   calls and text alike (126-134), where lesson 10 keeps a failed reply that got words out.
# - **Ids.** Its id map (13-14, 23-29, 76-82) translates an id into one another provider
#   accepts, keyed by the original id; two calls with the same id get one name. Nothing
#   renames a repeat, and results are not moved into call order.
#
# **Where yours is weaker.** pi-mono's file has a header with a session id and a format
# version, so it can find, migrate and branch sessions; yours is one file with no name for
# itself. Its appends do not wait for the disk; yours pays an `fsync` per message, which on a
# real disk is the slowest thing in the loop. Your `is_read_only` is a list of names written
# by hand. And your resume reads the whole file into memory. For a lesson about what a crash
# leaves behind those are fair trades; a harness with a thousand sessions would make others.

# %% [markdown]
# ## The build
#
# **The spec.** Every message the loop records is appended to the record's file, one line of
# JSON ending in a newline, before its `message_end` is handed out. `load_record(text)` loads
# every line that is a whole JSON object, in order, and sets aside every other line, as text.
# `repair_history(messages, is_read_only=None)` follows the six rules above and returns
# `Repaired(messages, interrupted)`. `context_for_model` sends `repaired_view(messages).messages`,
# which is the repair with the harness's own `is_read_only`. `Harness.resume` reads the file,
# loads it, closes a last line that does not end in a newline, and returns a harness over the
# loaded record with `.set_aside`, `.interrupted` and `.notice` filled in.
#
# **The gaps**, in the order `lab-check` names them; each gap's tests need only that gap and
# the ones before it. Five gaps, about forty-five lines in all.
#
# 1. **persist**: in `record_message` (region 3), two lines. `save_message` (region 5) is
#    given: one line of JSON, one write, one flush.
# 2. **load**: what `load_record` (region 5) does with one line of the file, about ten lines;
#    the loop over the lines around it is given.
# 3. **repair**: `repair_history` (region 4), about twenty-five lines; the biggest. Its
#    helpers are given below it: `spans`, `is_placeholder`, `unique_id`, `renamed_calls` and
#    `interrupted_result`.
# 4. **view**: the body of `context_for_model` (the top of region 4), one line.
# 5. **resume**: the top of `Harness.resume` (region 6), about seven lines: read, load, close a
#    torn last line, make the harness. The lines after it, which fill in what resume found, and
#    `resume_notice`, after the class, are given.
#
# **The tests.** Thirty-one, one line each; four of the five marked *hidden*, which are not in
# your copy's `tests.py`, grade the same rules on histories hypothesis makes up, and the fifth,
# for no points, grades code the lesson gives you.
#
# *persist*
#
# - the power cut after each of the job's 21 events: every announced message is on the disk. <!-- test: test_every_announced_message_is_already_on_disk_whatever_event_the_power_goes_after -->
# - the finished job's file: one JSON line a message, in record order. <!-- test: test_the_file_holds_one_json_line_per_message_in_record_order -->
#
# *load*
#
# - five files (whole; torn; whole but for its newline; a torn line an earlier resume closed, then more; empty). <!-- test: test_a_torn_line_is_set_aside_and_every_whole_line_is_loaded -->
# - the job's file cut after every one of its bytes. <!-- test: test_a_file_cut_at_any_byte_loads_its_whole_lines_and_sets_the_torn_one_aside -->
#
# *repair*
#
# - results moved to their calls, the steer after them (rule 1). <!-- test: test_results_move_to_just_after_their_calls_and_the_rest_of_the_span_follows -->
# - a result recorded after the next reply, not moved back (rule 1). <!-- test: test_a_result_pairs_only_within_its_own_span -->
# - the stand-in's words with and without `is_read_only` (rule 2). <!-- test: test_missing_result_is_worded_by_whether_the_tool_only_reads -->
# - orphans and second results left out, no call invented (rule 3). <!-- test: test_orphan_and_second_results_are_left_out_and_no_call_is_invented -->
# - a repeated id, with a name already taken (rule 4). <!-- test: test_repeated_id_becomes_id_k_with_the_smallest_free_k -->
# - two ids repeating, each with its own `k` (rule 4). <!-- test: test_each_repeated_id_takes_its_own_smallest_free_k -->
# - an empty id (rule 5). <!-- test: test_empty_id_becomes_call_message_call -->
# - an empty id after a dropped orphan and placeholder, in a reply that speaks first (rule 5). <!-- test: test_an_empty_id_is_numbered_by_its_place_in_the_history_and_among_its_calls -->
# - a placeholder between calls and results (rule 6). <!-- test: test_whitespace_placeholder_is_dropped_and_orphans_nothing -->
# - a valid history comes back unchanged. <!-- test: test_valid_history_comes_back_unchanged -->
# - *hidden:* idempotent and pure. <!-- test: test_repair_of_any_history_is_idempotent_and_pure -->
# - *hidden:* prefix-stable, byte for byte. <!-- test: test_repair_is_prefix_stable_byte_for_byte -->
# - *hidden:* every message that is not a result kept. <!-- test: test_repair_keeps_every_message_that_is_not_a_result -->
#
# *view*
#
# - the lesson-5 drop, then the repair, the record untouched. <!-- test: test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone -->
# - a read cut short, sent with the read-only words. <!-- test: test_the_view_words_a_read_cut_short_as_only_reading -->
# - providers whose ids restart or are empty, answered every time. <!-- test: test_a_provider_that_restarts_or_leaves_out_ids_is_answered_every_time -->
# - *hidden:* the view of any history accepted, the record untouched. <!-- test: test_view_of_any_history_is_accepted_and_leaves_the_record_alone -->
#
# *resume*
#
# - a cut after every event, resumed and answering two prompts: nothing announced lost, nothing torn loaded, no finished tool called interrupted. <!-- test: test_power_cut_after_any_event_leaves_a_session_that_resumes_and_loses_nothing -->
# - the same for a cut inside every write. <!-- test: test_power_cut_inside_any_write_leaves_a_session_that_resumes_and_loses_nothing -->
# - the notice for one unfinished write. <!-- test: test_resume_tells_the_user_which_calls_did_not_finish -->
# - the notice for two. <!-- test: test_resume_lists_every_call_that_did_not_finish_not_only_the_last -->
# - the notice for a read renamed `call_0_1`. <!-- test: test_resume_names_an_unfinished_call_by_the_id_the_model_is_shown -->
# - the notice with a torn line set aside. <!-- test: test_resume_notice_quotes_each_line_it_set_aside -->
# - a last line that lost only its newline, resumed and loaded again. <!-- test: test_resume_closes_a_last_line_that_lost_only_its_newline -->
# - resume only appends, and a second load agrees. <!-- test: test_resume_only_appends_to_the_file_and_a_second_load_agrees -->
# - a real process killed with SIGKILL, resumed by a fresh one. <!-- test: test_a_process_killed_mid_run_resumes_from_its_real_file -->
#
# *given*
#
# - *hidden:* a caller that appends to what `messages` handed it leaves the record as it was: lesson 08's snapshot. <!-- test: test_appending_to_what_messages_hands_out_leaves_the_record_alone -->
#
# <details><summary>Stuck on persist? A question</summary>
#
# Every message the loop records passes through one function before anybody hears of it.
# Which one, and at which line of it is the message in the record but not yet announced?
#
# </details>
#
# <details><summary>An outline for persist</summary>
#
# In that function, between the append and the event, hand the message to `save` when there
# is one. The given `save_message` is what `save` is: it turns the message into one line of
# JSON, adds the newline, writes the whole line in a single write, and flushes the file.
#
# </details>
#
# <details><summary>Stuck on load? A question</summary>
#
# What makes a line a message? Not where it sits in the file, and not whether a newline
# follows it.
#
# </details>
#
# <details><summary>An outline for load</summary>
#
# The given loop splits the text on newlines and returns both lists in `Loaded`. For each
# piece: skip it when it is empty; try to parse it as JSON. A piece that parses to an object
# is a message; anything else (a parse error, or JSON that is not an object) goes to
# `set_aside` as it is.
#
# </details>
#
# <details><summary>Stuck on repair? A question</summary>
#
# If you walk the history once and cut it at each assistant message that is not a
# placeholder, what does each piece hold, and which of the six rules can you then apply to one
# piece without looking at the others?
#
# </details>
#
# <details><summary>An outline for repair</summary>
#
# The given `spans` cuts the history (the messages before the first assistant message are a
# piece of their own). Keep a set of the ids handed out so far. For each span: name each call
# with `unique_id` (an empty id gets its place first), and put the assistant message in,
# through `renamed_calls` only if a name changed. Then, for each call in order, take the first
# result in the span with the call's original id, renamed if the call was, or
# `interrupted_result` when there is none (and note the call in `interrupted`). Then the span's
# other messages, in order. Results that were not taken are never put in.
#
# </details>
#
# <details><summary>Stuck on view? A question</summary>
#
# Which given function already applies lesson 5's drop and passes the harness's idea of which
# tools only read?
#
# </details>
#
# <details><summary>An outline for view</summary>
#
# Return the messages of what that function gives for the record. Nothing else changes.
#
# </details>
#
# <details><summary>Stuck on resume? A question</summary>
#
# A file opened for appending starts at its end. What must happen before you can read it, and
# what must be true of its last byte before anything is appended?
#
# </details>
#
# <details><summary>An outline for resume</summary>
#
# Go to the start of the file and read all of it; load it into `loaded`. If the text is not
# empty and does not end with a newline, write one and flush. Make `harness`, a harness over
# the loaded messages with the same file. The given lines after yours fill in `set_aside`
# from the load, `interrupted` from the repaired view of the loaded messages, and `notice`
# from the given `resume_notice`.
#
# </details>
#
# To grade your file, from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 11
# ```
#
# The report names the first gap to fill; `lab-check --hint` gives the hints for its first
# failing test, and `lab-check --watch` grades again each time you save.

# %% [markdown]
# ## Pull the plug anywhere
#
# Once the lab passes, re-run the first cell and then this one: it runs on your harness. It
# cuts the power at every byte of the job's file, brings the machine back up, resumes, and asks
# "What did you write?". Nothing here passes or fails; read the counts.

# %% id="every-byte"
if not (waiting := empty_gaps("persist", "load", "repair", "resume")):
    ws, tools, new_model = make_job()
    whole = lab.Disk()
    await lab.drive(harness.Harness(new_model(), harness.SYSTEM, tools,
                                    file=whole.open("record.jsonl")).prompt(PROMPT))
    size = len(whole.read_bytes("record.jsonl"))
    counts = {"answered": 0, "refused": 0, "lines set aside": 0, "calls said not to finish": 0,
              "... of them finished": 0}
    for n in range(size + 1):
        ws, tools, new_model = make_job()
        cut = lab.Disk(power_fails_after=n)
        h = harness.Harness(new_model(), harness.SYSTEM, tools, file=cut.open("record.jsonl"))
        heard = []
        try:
            for event in h.prompt(PROMPT):
                heard.append(event)
        except lab.PowerCut:  # the power went at byte n: the process stops here
            pass
        finished = {e["call"]["arguments"]["path"] + e["call"]["name"] for e in heard
                    if e["type"] == "tool_execution_end"}
        resumed = harness.Harness.resume(new_model(), harness.SYSTEM, tools,
                                         cut.restart().open("record.jsonl"))
        await lab.drive(resumed.prompt("What did you write?"))
        failed = resumed.messages[-1].get("stop_reason") == "error"
        counts["refused" if failed else "answered"] += 1
        counts["lines set aside"] += len(resumed.set_aside)
        told = {c["arguments"]["path"] + c["name"] for c in resumed.interrupted}
        counts["calls said not to finish"] += len(told)
        counts["... of them finished"] += len(told & finished)
    print(f"{size + 1} power cuts, one at each byte of a {size}-byte file:")
    for label, count in counts.items():
        print(f"   {label:26} {count}")
else:
    print(waiting)

# %% [markdown]
# One crash at every byte of the file, and every resumed session answered. Read the
# last line: of all the calls the resumed harness said did not finish, none had announced its
# end before the cut. A call can still be in doubt when its tool ran and its result did not
# reach the disk; that is the case the notice is for, and it is the only one.
#
# ## In your own words
#
# Your resume never rewrites the file, even to remove a line it knows is broken. In a sentence
# or two: why not?
#
# <details><summary>A hint</summary>
#
# What is the only moment in a session at which a crash could cost more than the line being
# written? And who, after the crash, might want to read the torn line?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# Because appending can only ever risk the line being written, and a rewrite risks the whole
# file, at exactly the moment after a crash when the machine is least to be trusted. And the
# torn bytes are the one witness of what the crash interrupted: set aside and shown, they are
# evidence; deleted, they are a session that looks as if nothing happened.
#
# Common answers, and what each one misses:
#
# - *"Rewriting is slower."* For a small file it is quick. Speed is not the reason; the
#   window in which a crash destroys everything is.
# - *"The torn line might be needed by the model."* The model never sees it: it is not a
#   message. Its reader is the user, and it reaches the user through the notice.
# - *"It would change the line numbers."* Nothing refers to a line by its number. What would
#   change is that the file stops being a record of what happened.
#
# </details>

# %% [markdown]
# ## A further case
#
# A new provider streams its replies token by token, and a teammate wants the record on the
# disk to keep up: write the reply's line as it grows, so a crash mid-reply keeps the words
# that had arrived. Would you, and what is the rule, in one sentence, that also settles the
# next case like it (a tool that prints its progress as it runs)?
#
# <details><summary>A hint</summary>
#
# What does a line in the file promise its reader, and when does the harness first know what
# the whole of that message is?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# No. The rule: *a line is written for a message when the harness records it, whole, and
# never changed afterwards*. A reply is recorded when it ends, or fails (lesson 5), and a
# failed reply that got words out is recorded with those words, so nothing the user saw is
# lost. A line rewritten as tokens arrive is a line that must be rewritten, which an
# append-only file cannot do; a line per token is a file in which no line is a message.
# Progress output is the same: the screen can show it as it comes; the record gets the
# tool's result when the tool returns.
#
# Common answers, and what each one misses:
#
# - *"Append each token as its own line."* The loader would need to glue lines back into
#   messages, and a cut would leave a reply with half its words and no sign that it was cut.
# - *"Keep a second file for partial replies."* Two files that must agree, and a crash
#   between their writes is a disagreement.
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
# 11. **New:** Keep its record on disk, and survive a power cut at any byte.

# %% [markdown]
# ## Wrapping up
#
# **You hit** a power cut halfway through a job: two files on the disk, and a harness that
# came back knowing nothing about them.
#
# **You built** the record on disk, one JSON line a message, saved before it is announced;
# a loader that sets a torn line aside; `repair_history`, lesson 10's repair grown into the
# production library's six rules (spans, stand-ins worded by what a tool does, renamed and
# named ids, placeholders); and `Harness.resume`, which only appends and tells the user what
# it cannot vouch for.
#
# **The principle:** write down what you announce before you announce it, only ever add to
# it, and compute everything else from it when you read it.
#
# **Your harness now**
#
# 1. Converses, and tracks who said what.
# 2. Runs the tools the model requests and hands back their results.
# 3. Loops until the model stops requesting tools.
# 4. Reports tool failures to the model and continues.
# 5. Halts runaway runs, and survives provider failures.
# 6. Caps every tool result at a budget.
# 7. Emits its progress as events that any frontend can consume.
# 8. Owns its transcript, letting one writer in at a time.
# 9. Accepts user input mid-run, at safe points.
# 10. Keeps every request valid, even after a run is cut off.
# 11. **New:** keeps its record on disk, and survives a power cut at any byte.
#
# The names in it, lesson 11's in bold (and *changed* where lesson 11 rewrote one): `run_tool`,
# `run_agent`, **`record_message`**, *`context_for_model`*, **`repaired_view`**,
# `is_empty_failure`, **`is_read_only`**, `INTERRUPTED`, **`INTERRUPTED_READ_ONLY`**,
# **`Repaired`**, **`repair_history`** (in place of lesson 10's `repair_tool_history`),
# **`open_record`**, **`RecordFile`**, **`Loaded`**, **`save_message`**, **`load_record`**,
# *`Harness`* (with **`resume`**), **`resume_notice`**, `JsonRenderer`, `FinalTextRenderer`.
#
# **Still open.** The provider refuses a request, and your harness must decide what to do
# about it: wait and retry, trim the history, or give up. A teammate's harness decides by
# reading the refusal's text, and the day the provider rewords it, every refusal looks like
# the wrong one. Lesson 12.
#
# **Previous:** Checkpoint B · Transcript doctor II.
#
# **Next:** 12 · The wrong refusal.
