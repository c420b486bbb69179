# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Lesson 06, "The file that ate the context": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The format is Jupytext's percent format
# (see lab/notebook/ipynb.py); the block above is its header, the notebook's metadata.

# %% [markdown]
# # 06 · The file that ate the context
#
# *One read of a 40 MB log, and every prompt after it is refused as too long.*
#
# *Watching and steering a run · ~45 min · 1 lab · builds on 05 · The runaway and the 503*
#
# This lesson builds on lesson 05, whose harness stops a runaway with `max_turns`, keeps a
# failed reply in the record and acts on none of it, and sends the view, `context_for_model`,
# instead of the record. New here? Start at lesson 01, or carry on: every lab is
# self-contained, and the harness you start from is lesson 05's, finished.
#
# By the end your harness can do the sixth thing on the course's list: **keep every tool
# result within a budget**. Run the cells from top to bottom; each question's options are
# folded shut, so pick one in your head before you open them.

# %% id="setup"
# Start here: find the project folder, let this notebook import `lab` from it, and choose the
# harness file the examples run on.
import json
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {here} or above it: open this notebook from "
                            "inside the project, e.g. lessons/06-the-file-that-ate-the-context/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import pick_harness, starter_harness

chosen = pick_harness(lesson=6)
harness = chosen.module
print(chosen)

# %% [markdown]
# The two lines above say which harness the examples use, and why. In your copy of the lesson
# it is your own `harness.py`, as it is now: until its gaps are filled, an example shows what
# your code does without a budget, and once it keeps its tool results within one, the
# examples show your fix (while `harness.py` does not import, they run on `starter.py`). In
# the course's own repository the lesson's finished harness stands in until yours is ready.
# The notation is `lab.shape`'s: `U` a user message, `A[c1]` a reply asking for call `c1`,
# `R(c1)` its result, `A(error)` a failed reply.

# %% [markdown]
# ## The log that ate the session
#
# Monday morning. The user asks the agent what `config.py` sets, and gets an answer. Then:
# *"Why did last night's build fail?"* The model reads `build.log`, which is 40 MB, because
# the build prints a line for every file it compiles. The answer never comes. The user types
# *"Never mind. Hello?"*, and that is refused too, and so is everything after it: the session
# is over, an hour into the working day.
#
# Every request is the view of the record, and the record now holds a 40 MB tool result.
# This lab's provider has a context window, as every real one does: it refuses a request over
# 800,000 bytes. (Our simplification: the window is counted in bytes. A provider counts
# tokens, roughly four bytes of English each, so 800,000 bytes is about a 200,000-token
# window.) What happens to the request after the read?
#
# <details><summary><b>A</b> · It is refused, and so is every later one: the 40 MB result is in every request from now on</summary>
#
# ✓ **Right.** The record only grows, and the view carries every result of it on every
# request. One read made every later request too long, whatever the user types next.
#
# </details>
#
# <details><summary><b>B</b> · It is refused once; the next prompt is fine, because the log was only needed for that question</summary>
#
# ✗ **No.** Nothing leaves the record, and lesson 05's view only leaves out an empty failed
# reply. Whether a result is still *needed* is not something the harness knows.
#
# </details>
#
# <details><summary><b>C</b> · It goes through: the provider keeps the start of the request and drops the rest</summary>
#
# ✗ **No.** Hosted providers refuse a request longer than the window with an error unless you
# ask them to forget: OpenAI's Responses API takes `truncation: "auto"`, which drops items
# from the middle of the conversation, and its default, `"disabled"`, answers with a 400.
# Either way the provider, not you, picks what the model loses, and none of them keeps "the
# start" for you.
#
# </details>
#
# The cell runs the session on the harness this lesson starts from, lesson 05's finished one,
# whatever your own file holds.

# %% id="failure"
WINDOW = 800_000  # bytes a request may be; about 200,000 tokens of English


def size_of(messages):
    """A request's size: its messages as JSON, in bytes of UTF-8."""
    return len(json.dumps(list(messages), ensure_ascii=False).encode())


class WindowedModel(lab.ScriptedModel):
    """A scripted model with a context window: a request over `window` bytes is refused with
    a 400, as a provider refuses one longer than its window. Every size is kept in `.sizes`."""

    def __init__(self, script, window=WINDOW):
        super().__init__(script)
        self.window, self.sizes = window, []

    def complete(self, system, messages, tools):
        size = size_of(messages)
        self.sizes.append(size)
        if size > self.window:
            return lab.fail(f"400 request_too_large: {lab.counted(size, 'byte', spec=',')}; "
                            f"the window is {self.window:,}")
        return super().complete(system, messages, tools)


def build_log(lines=1_000_000):
    """Last night's build log: a line a file compiled, then the two lines that matter."""
    body = "".join(f"[{k:06}] ok  compiled src/module_{k % 997:03}.py\n" for k in range(lines))
    return body + "FAILED tests/test_io.py::test_unicode_names\n1 failed, 812 passed\n"


def engineer(request):
    """The model: reads what it is asked about. Told that a read was cut, it looks at the end
    of the log with tail instead. Anything else is answered in words."""
    said = [i for i, m in enumerate(request.messages) if m["role"] == "user"][-1]
    question = request.messages[said]["content"]
    results = [m for m in request.messages[said + 1:] if m["role"] == "toolResult"]
    if question.startswith("What does config.py") and not results:
        return lab.reply(lab.call("read", {"path": "config.py"}))
    if question.startswith("Why did") and not results:
        return lab.reply(lab.text("Reading the log."), lab.call("read", {"path": "build.log"}))
    if results and results[-1]["tool_name"] == "read" and "offset=" in results[-1]["content"][-120:]:
        return lab.reply(lab.text("It is long. The end, then."),
                         lab.call("bash", {"command": "tail -n 2 build.log"}))
    if results:
        return lab.say("It says: " + results[-1]["content"].rstrip("\n").replace("\n", " / ")[-80:])
    return lab.say("Hello. Still here.")


LOG = build_log()  # 40 MB: made once, shared by every session below
PROMPTS = ["What does config.py set?", "Why did last night's build fail?", "Never mind. Hello?"]


def monday(module, window=WINDOW):
    """The session on `module`'s harness: the record, and the model (whose .sizes are the
    request sizes)."""
    ws = lab.Workspace({"config.py": "PORT = 9090\n", "build.log": LOG})
    tools = [module.make_read_tool(ws), module.make_bash_tool(lab.Shell(ws))]
    model, record = WindowedModel([lab.forever(engineer)], window), []
    for prompt in PROMPTS:
        added = module.run_agent(model, module.SYSTEM, record, tools, prompt, max_turns=6)
        print(f"{prompt!r:36} -> {added[-1].get('error_message') or module.text_of(added[-1])}")
    return record, model


yesterday = starter_harness(lesson=6)
record, model = monday(yesterday)
print()
print("build.log:       ", lab.counted(len(LOG.encode()), "byte", spec=","))
print("request sizes:   ", ", ".join(f"{s:,}" for s in model.sizes))
print("the record:      ", lab.shape(record))

# %% [markdown]
# Five requests went out. The first three are a few hundred bytes each, growing by one
# message at a time. The fourth carries the read's result, every byte of the log, and is
# refused; the fifth, for *"Never mind. Hello?"*, carries it again, and so would every one
# after it. The record shows what
# happened, `R(c2)` sitting there for good. Figure 6.1 draws the last request beside the one
# before the read. (The figure cuts each message's text to fit the page; the sizes under the
# panels are measured.)

# %% id="figure-6-1"
def for_the_page(messages, most=60):
    """The messages with each text cut to `most` characters, and its full size said, so a
    figure can show a 40 MB message. For drawing only: nothing is sent from this."""
    out = []
    for m in messages:
        if isinstance(m.get("content"), str) and len(m["content"]) > most:
            size = lab.counted(len(m["content"].encode()), "byte", spec=",")
            m = dict(m, content=m["content"][:most] + f"… ({size})")
        out.append(m)
    return out


before_read = record[:record.index(next(m for m in record if m.get("content") == PROMPTS[1])) + 1]
after_read = record[:-1]
lab.draw(lab.Panel(f"the request for prompt 2: {lab.counted(size_of(before_read), 'byte', spec=',')}",
                   for_the_page(before_read)),
         lab.Panel(f"the request for prompt 3: {lab.counted(size_of(after_read), 'byte', spec=',')}",
                   for_the_page(after_read),
                   note="refused: over the 800,000-byte window"),
         title="Figure 6.1  One read, in every request after it",
         caption="The request is the view of the record, and the record keeps every result. "
                 "After one read of a 40 MB log every request carries the log, and every one "
                 "is longer than the window.")

# %% [markdown]
# ## Why budget at all?
#
# A teammate says the window is the provider's business: buy the model with the biggest one.
# Suppose the window were big enough. What does the read cost over the next ten prompts?
#
# <details><summary><b>A</b> · Once: the file was read once, so its bytes are paid for once</summary>
#
# ✗ **No.** The model keeps nothing between requests (lesson 01). The result is re-sent, and
# paid for, with every request after it, and a busy session sends dozens.
#
# </details>
#
# <details><summary><b>B</b> · Little after the first: providers cache the repeated start of a request</summary>
#
# ✗ **Only partly.** [general] Some providers bill a cached prefix at a discount, which makes
# the repeat cheaper, not free, and does nothing for the window.
#
# </details>
#
# <details><summary><b>C</b> · Once a request from then on: every later request sends it again</summary>
#
# ✓ **Right.** A result is paid for on every later request, and it also takes room in the
# window on every one. So every result has to be small enough to pay for many times, and the
# harness is the only place that can see a result before it enters the record.
#
# </details>

# %% id="the-bill"
for label, size in (("the whole log", len(LOG.encode())), ("one budget", harness.MAX_BYTES)):
    print(f"{label:14} {lab.counted(size, 'byte', spec='>12,')} a request;  ten more requests send "
          f"{lab.counted(10 * size, 'byte', spec='>13,')} of it")

# %% [markdown]
# Forty megabytes, ten times, is 400 MB of input for one read. A budget of `MAX_BYTES` caps
# what one result adds to every later request, whatever the file is. That is the whole
# argument for the lab: **every result is re-sent on every later request, so each one gets a
# budget.**
#
# ### Common answers, and what each one misses
#
# - *"Tell the model in the system prompt not to read big files."* It cannot know a file is
#   big until it has read it. The harness can.
# - *"Drop old results from the view."* Then the model is answering from a file it can no
#   longer see, and a dropped result leaves a call without a result (lesson 10's whole
#   problem). Trimming the view safely is a section of lesson 16, The adapter: "Trimming a
#   long history".
# - *"Summarise the file with another model call."* A second bill to avoid the first, and the
#   summary decides for the model what mattered.

# %% [markdown]
# ## Lines, bytes, or both?
#
# The budget could be a number of lines, a number of bytes, or both, whichever comes first.
# Two files: `bundle.min.js`, one line of 3 MB, and `words.txt`, 200,000 lines of a word each.
# Which budget stops both?
#
# <details><summary><b>A</b> · Lines: 2,000 of them is plenty of any file</summary>
#
# ✗ **No.** A minified file is one line. A line budget lets all 3 MB of it through.
#
# </details>
#
# <details><summary><b>B</b> · Bytes: a byte is what the bill and the window count</summary>
#
# ✗ **Not alone.** 50,000 bytes of one-word lines is some 6,000 lines, more than a model can
# use at once; a line budget keeps a read to a screenful it can work from.
#
# </details>
#
# <details><summary><b>C</b> · Both, and whichever is reached first wins</summary>
#
# ✓ **Right.** Bytes bound the cost; lines bound what is sensible to look at. pi-mono uses
# these two numbers, 2,000 lines and 50 KB; ours are `MAX_LINES` and `MAX_BYTES`.
#
# </details>

# %% id="lines-or-bytes"
files = {"bundle.min.js": "var a=1;" * 375_000 + "\n", "words.txt": "word\n" * 200_000}
for name, text in files.items():
    lines = harness.lines_of(text)
    by_lines = harness.fit_budget(lines, harness.MAX_LINES, 10**12)
    by_bytes = harness.fit_budget(lines, 10**9, harness.MAX_BYTES)
    both = harness.fit_budget(lines, harness.MAX_LINES, harness.MAX_BYTES)
    print(f"{name:14} {lab.counted(len(lines), 'line', spec='>7,')}  kept by lines alone: {by_lines:>7,}  "
          f"by bytes alone: {by_bytes:>7,}  by both: {both:>7,}")

# %% [markdown]
# With the finished harness the line budget alone lets the whole bundle through (its one
# line), the byte budget alone lets in 10,000 short lines, and both together let in nothing of
# the bundle and 2,000 words. (On the starter every column says "everything": `fit_budget` is
# yours to write.) The bundle's one line is bigger than the whole budget; what to do with it is
# a question of its own, below.

# %% [markdown]
# ## Bytes or characters?
#
# A budget of 50,000. Of what? A file in French, `é` and `à` on every line.
#
# <details><summary><b>A</b> · Bytes of UTF-8: `len(line.encode())`, what goes over the wire</summary>
#
# ✓ **Right.** The request is JSON in UTF-8, and that is what the window and the bill are
# made of. Count what you send.
#
# </details>
#
# <details><summary><b>B</b> · Characters: `len(line)`, which is what Python counts</summary>
#
# ✗ **No.** What is sent is bytes of UTF-8, and `é` is two of them, `✓` three, an emoji four.
# A character budget lets a French file through at nearly twice its size.
#
# </details>
#
# <details><summary><b>C</b> · Words: `len(line.split())`, which is closer to how a model counts</summary>
#
# ✗ **No.** A model counts tokens, and no harness knows a tokenizer's count without running
# it; bytes are an upper bound you can compute exactly.
#
# </details>

# %% id="bytes"
for word in ("cafe", "café", "✓ passed", "🙂"):
    print(f"{word!r:12} characters: {len(word):2}   UTF-8 bytes: {len(word.encode()):2}")
lines = ["réussi\n"] * 10
print()
print("ten lines of 'réussi', 40-byte budget:", harness.fit_budget(lines, 100, 40), "fit")

# %% [markdown]
# `réussi\n` is seven characters and eight bytes: five lines fit in 40 bytes, not five and a
# bit. (On the starter, all ten "fit".)

# %% [markdown]
# ## Half a line, or none?
#
# The budget runs out in the middle of a line. Keep the part that fits, or stop at the end of
# the last whole line?
#
# <details><summary><b>A</b> · Keep the part that fits, to the very last byte: every byte of the budget is used</summary>
#
# ✗ **No.** Half a line looks like a whole one: `{"retries": 3, "timeout": 1` reads as a
# setting. And a cut by bytes can land inside a character, which is not UTF-8 at all.
#
# </details>
#
# <details><summary><b>B</b> · Stop at the last whole line: the line that does not fit waits for the next read</summary>
#
# ✓ **Right.** Half a line is worse than none. The model can ask for the line it did not get;
# it cannot tell that a line it did get was cut.
#
# </details>
#
# <details><summary><b>C</b> · Keep the part that fits and end it with "…", so the model can see the cut</summary>
#
# ✗ **Better, still no.** The mark is one more thing the model may not notice, and a read by
# offsets has no way to ask for "the rest of line 40".
#
# </details>

# %% id="half-a-line"
text = '{"retries": 3, "timeout": 120, "host": "büild.internal"}\n'
print("first 28 bytes: ", text.encode()[:28].decode(errors="replace"))
print("first 42 bytes: ", text.encode()[:42].decode(errors="replace"))
print("whole lines in 40 bytes:", harness.fit_budget(harness.lines_of(text), 100, 40))

# %% [markdown]
# The first cut reads as a setting of `"timeout": 12`, not 120. The second cuts `ü` in half,
# and the decoder can only put `�` where it was. A budget that takes whole lines takes none of this
# one, and says so.

# %% [markdown]
# ## What is a line?
#
# Both the budget and the offsets count lines. Python has `str.splitlines`. Should the
# harness use it?
#
# <details><summary><b>A</b> · Yes: `str.splitlines` is the standard library's idea of a line</summary>
#
# ✗ **No.** `splitlines` breaks at a form feed, a lone `\r`, `\x1c`, `\x85` and U+2028 too.
# `wc -l`, `grep -n`, `sed -n` and editors count only `\n`, and the model uses those: an
# offset taken from `grep -n` would land on the wrong line.
#
# </details>
#
# <details><summary><b>B</b> · No: only `\n` ends a line, as for `wc -l` and `grep -n`</summary>
#
# ✓ **Right.** The read's line numbers have to be the numbers every other tool gives, so the
# model can move between them. `lines_of` splits at `\n` and nowhere else.
#
# </details>
#
# <details><summary><b>C</b> · It does not matter: files with form feeds in them are rare</summary>
#
# ✗ **No.** Old C sources and GNU files use form feeds between pages, and U+2028 turns up in
# JSON copied from the web. Rare is when the model is most confused.
#
# </details>
#
# The cell asks the real `wc -l` when your machine has one.

# %% id="what-is-a-line"
import shutil
import subprocess
import tempfile

sample = "page one\fpage two\nsaid: \u2028\"hi\"\nlast\n"
print("str.splitlines:", lab.counted(len(sample.splitlines()), "line"))
print("lines_of:      ", lab.counted(len(harness.lines_of(sample)), "line"))
if shutil.which("wc"):
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt", delete=False) as f:
        f.write(sample)
    newlines = subprocess.run(["wc", "-l", f.name], capture_output=True, text=True).stdout.split()[0]
    print("wc -l:         ", lab.counted(int(newlines), "line"))
    pathlib.Path(f.name).unlink()
else:
    print("wc -l:          (no wc on this machine; it says 3)")

# %% [markdown]
# Three lines for `wc -l` and for `lines_of`, five for `splitlines`. (On the starter,
# `lines_of` is still `splitlines`.)

# %% [markdown]
# ## Where to cut a file, and where to cut a command
#
# A read of a long file keeps its start, and says where to read on. `pytest` prints 4,000
# lines of progress and then `1 failed, 812 passed`. Which part of a command's output does the
# bash tool keep?
#
# <details><summary><b>A</b> · The start, as many whole lines as fit, like a read of a file: it is the same budget</summary>
#
# ✗ **No.** A command's verdict comes last: the summary, the error, the exit. The start of a
# test run is a list of dots.
#
# </details>
#
# <details><summary><b>B</b> · Both ends: the first lines and the last, half the budget each</summary>
#
# ✗ **Defensible, not ours.** mini-swe-agent does this (below), and for a command whose start says what
# it was doing that helps. It costs half the end, where the verdict is; ours keeps the end
# whole.
#
# </details>
#
# <details><summary><b>C</b> · The end: as many whole lines as fit, counted from the last, in their order</summary>
#
# ✓ **Right.** And a note where the cut is, at the top, saying how many lines were left out.
# A command cannot be read on from an offset, so the model is told to narrow the command.
#
# </details>

# %% id="head-or-tail"
run = "".join(f"tests/test_{k:04}.py .\n" for k in range(4000)) + "FAILED tests/test_io.py\n1 failed, 812 passed\n"
ws = lab.Workspace({"pytest.out": run})
as_a_file = harness.make_read_tool(ws, max_lines=3)["execute"]({"path": "pytest.out"})
as_a_command = harness.make_bash_tool(lab.Shell(ws), max_lines=3)["execute"]({"command": "cat pytest.out"})
def peek(text, most=6):
    """`text` as it is when it has at most `most` lines; else its first ones and a count."""
    lines = text.split("\n")
    if len(lines) <= most + 1:
        return text
    return "\n".join(lines[:most]) + f"\n… ({lab.counted(len(lines), 'line', spec=',')} in all)"


print("kept from the start:\n" + peek(as_a_file))
print()
print("kept from the end:\n" + peek(as_a_command))

# %% [markdown]
# Figure 6.2 sets the two results side by side as the model receives them.

# %% id="figure-6-2"
asked = lab.call("bash", {"command": "pytest"}, id="c1")
lab.draw(lab.Panel("kept from the start", [lab.user("Run the tests."), lab.reply(asked),
                                          lab.tool_result(asked, as_a_file)]),
         lab.Panel("kept from the end", [lab.user("Run the tests."), lab.reply(asked),
                                        lab.tool_result(asked, as_a_command)]),
         title="Figure 6.2  The same budget, cut at the two ends",
         caption="Three lines of a 4,002-line test run. Kept from the start, the model sees "
                 "dots; kept from the end, it sees what failed.")

# %% [markdown]
# ## What the note says
#
# A read stops at line 2,000 of 1,000,002. What must its last line tell the model?
#
# <details><summary><b>A</b> · "[truncated]", where the cut is, so the model knows the file goes on</summary>
#
# ✗ **No.** True, and no help: the model does not know how much is left or how to get it.
#
# </details>
#
# <details><summary><b>B</b> · The lines it got, of how many, and the first line not shown, as the offset to read on from</summary>
#
# ✓ **Right.** `[Lines 1-2000 of 1000002. Read on with offset=2001.]` Every number is one the
# model can act on: to read on, or, seeing 1,000,002, to stop reading and use `grep` or `tail`.
#
# </details>
#
# <details><summary><b>C</b> · The lines it got, of how many, and the last line shown, as the offset to read on from</summary>
#
# ✗ **No.** Then every read on starts with a line it already has, and with a budget of one
# line it never moves at all.
#
# </details>

# %% id="read-on"
import re

read = harness.make_read_tool(lab.Workspace({"notes.txt": "".join(f"note {k}\n" for k in range(1, 8))}),
                              max_lines=3)
offset, seen = 1, []
while offset and len(seen) < 10:
    got = read["execute"]({"path": "notes.txt", "offset": offset})
    seen.append(got)
    print(f"offset={offset}: {got!r}")
    named = re.findall(r"offset=(\d+)", got.rsplit("\n", 1)[-1])
    offset = int(named[-1]) if named and int(named[-1]) > offset else None
print()
print("reads:", len(seen), " every line once:", "".join(s.split("[")[0] for s in seen).count("note"))

# %% [markdown]
# Three reads, each ending on the offset of the next, and the last with no note at all: no
# note means the read reached the end. Figure 6.3 is the same reading on, done by a model.

# %% id="figure-6-3"
def reader(request):
    """Reads notes.txt, then on from the offset each result's last line names, then answers."""
    results = [m for m in request.messages if m["role"] == "toolResult"]
    if not results:
        return lab.reply(lab.call("read", {"path": "notes.txt"}))
    named = re.findall(r"offset=(\d+)", results[-1]["content"].rsplit("\n", 1)[-1])
    if named and len(results) < 10:
        return lab.reply(lab.call("read", {"path": "notes.txt", "offset": int(named[-1])}))
    return lab.say(f"Read it in {lab.counted(len(results), 'call')}.")


model = lab.ScriptedModel([lab.forever(reader)])
record = []
harness.run_agent(model, harness.SYSTEM, record, [read], "How many notes are there?")
lab.draw(lab.Panel("the record", record),
         title="Figure 6.3  A cut read, and the model reading on",
         caption="Each cut read ends with one line naming the offset to ask for next; the "
                 "model asks for it, and the read that reaches the end has no note.")

# %% [markdown]
# ## Does the note count against the budget?
#
# The budget is 50,000 bytes; the lines that fit come to 49,990, and the note is 45. Is that a
# result of 50,035 bytes, over the budget?
#
# <details><summary><b>A</b> · No: the budget is for the file's text, which can be any size; the note is one short line on top</summary>
#
# ✓ **Right,** as long as the tool's docstring says so, and that matters most. A docstring
# that said a result "may hold at most this much" and then added the note after would break
# its promise: a 10-byte budget would give an 85-byte result. The rule is fine; only such a
# promise would be wrong. The note never grows with the file.
#
# </details>
#
# <details><summary><b>B</b> · Yes, and it must not be: take lines off until the lines and the note fit in the budget</summary>
#
# ✗ **Not here.** It can be done, and it costs a loop and a rule for a budget smaller than the
# note, to save 45 bytes in 50,000. What the budget protects, the bill and the window, cannot
# tell 50,035 from 50,000.
#
# </details>
#
# <details><summary><b>C</b> · No: the note is sent as a second message of its own, after the result</summary>
#
# ✗ **No.** One call, one result (lesson 02). A second message is either a second result,
# which a provider refuses, or a user message the user never typed.
#
# </details>

# %% id="note-counts"
small = harness.make_read_tool(lab.Workspace({"a.txt": "alpha\nbeta\ngamma\n"}), max_bytes=11)
got = small["execute"]({"path": "a.txt"})
cut_at = got.rfind("\n[") + 1 if "\n[" in got else len(got)
text, note = got[:cut_at], got[cut_at:]
print(repr(got))
print(f"the file's text: {lab.counted(len(text.encode()), 'byte')} (budget 11)   "
      f"the note: {lab.counted(len(note.encode()), 'byte')}")
try:
    harness.make_read_tool(lab.Workspace({}), max_lines=0)
except ValueError as error:
    print("a budget of no lines:", error)

# %% [markdown]
# The text keeps the budget; the note rides on top. And a budget of no lines or no bytes is
# refused when the tool is *made*, naming the number: it is the caller's mistake, not the
# file's, so it raises on the caller's line. (A tool that accepted `max_lines=0` would go on
# to tell the model that line 1 was over the *byte* budget.)
#
# ### Common answers, and what each one misses
#
# - *"Make the note part of the budget, so the promise is exact."* Then a budget smaller than
#   the note can say nothing at all, and needs a rule of its own.
# - *"Leave the note out when the budget is tiny."* A cut result with no note is read as the
#   whole file. The note is the one line that must never be cut.
# - *"Put the note first."* For a file the cut is at the end, so the note goes there: a note
#   stands where the text was taken out. For a command, that is the top.

# %% [markdown]
# ## An offset past the end, and a line bigger than the budget
#
# Two edges. The model asks for `offset=900` of a 12-line file. And line 2 of `data.json` is
# 3 MB on its own: no budget holds it whole. What does each read return?
#
# <details><summary><b>A</b> · Past the end: an empty result, as for an empty part of a file. The huge line: its first 50,000 bytes, all the budget holds</summary>
#
# ✗ **No** to both. An empty result reads as "this part of the file is empty"; and the cut
# line is half a line, a half that parses as something else.
#
# </details>
#
# <details><summary><b>B</b> · Raise in both cases, naming the file's length or the line's size: the model asked for the impossible</summary>
#
# ✗ **Half right.** Raising is right for the first, and `run_tool` (lesson 04) turns it into an
# is_error result. The second is not impossible; it is a line this read cannot show.
#
# </details>
#
# <details><summary><b>C</b> · Past the end: an is_error result with the file's length. The huge line: a note of its size, the budget and the offset after it</summary>
#
# ✓ **Right.** Both are news the model can act on: a wrong offset, with the number to use;
# and a line it cannot have, with how to go past it. Every read either shows a line or names
# an offset further on, so reading on as told always reaches the end.
#
# </details>

# %% id="edges"
wide = "{" + ", ".join(f'"k{k}": {k}' for k in range(3000)) + "}\n"
ws = lab.Workspace({"data.json": "[\n" + wide + "]\n", "small.txt": "".join(f"{k}\n" for k in range(12))})
tools = [harness.make_read_tool(ws, max_bytes=1000)]
for arguments in ({"path": "small.txt", "offset": 900}, {"path": "data.json", "offset": 2},
                  {"path": "data.json", "offset": 3}):
    result = harness.run_tool(tools, {"id": "c1", "name": "read", "arguments": arguments})
    print(f"{json.dumps(arguments):38} {'is_error ' if result['is_error'] else ''}{result['content'][:150]!r}")

# %% [markdown]
# The offset past the end comes back as an error naming the length; line 2 is named, with its
# size, and skipped; line 3 reads as usual. (On the starter, line 2 comes back whole.)
#
# ### Common answers, and what each one misses
#
# - *"Show the huge line anyway, it was asked for."* That is the 40 MB log again, one line long.
# - *"Cut the line and say it was cut."* Then the model reasons from the half it has.
#   pi-mono's answer is better than ours: it names a shell command that prints a slice of
#   the line. Our lab's shell has no such command, which is our simplification.

# %% [markdown]
# ## Compared with pi-mono and mini-swe-agent: where production code does it
#
# **pi-mono** (badlogic/pi-mono, read at commit `83378aa`), `packages/coding-agent/src/core/tools/`:
#
# - `truncate.ts:4-12`: two limits, "whichever is hit first wins", 2,000 lines and 50 KB, and
#   "Never returns partial lines (except bash tail truncation edge case)". Sizes are
#   `Buffer.byteLength(..., "utf-8")` (line 71): bytes, as ours.
# - Lines are `content.split("\n")` (`truncate.ts:72`, `read.ts:132`): only `\n` ends a line.
# - `truncateHead` gives up on a first line over the byte limit, returning nothing
#   (`truncate.ts:92-108`); the read tool then tells the model how to get a slice of it with
#   `sed` and `head -c` (`read.ts:160-164`).
# - The note is added after the cut, outside the budget: `[Showing lines X-Y of Z. Use
#   offset=N to continue.]` (`read.ts:165-176`), and for a `limit` short of the end, how many
#   lines remain (`read.ts:178-184`). An offset past the end throws (`read.ts:139-142`).
# - `truncateTail` keeps the end for bash and, where the last line alone is over the limit,
#   keeps the end *of that line* (`truncate.ts:192-201`), the one place it cuts mid-line.
#   The bash tool saves the whole output to a temporary file and names it in the note
#   (`bash.ts:271-282`), so the model can `read` the rest with offsets.
#
# **mini-swe-agent** (SWE-agent/mini-swe-agent, read at commit `a83fcae`) does it in the
# prompt template: an output of 10,000 characters or more is replaced by its first and last
# 5,000, a count of the characters left out, and a warning to use `head`, `tail` or a
# narrower `grep` (`src/minisweagent/config/default.yaml:119-140`). Characters, not bytes, and
# cut mid-line; both ends kept. It also stops the worst output at its source: the environment
# sets `PIP_PROGRESS_BAR: 'off'` and `TQDM_DISABLE: '1'` (`default.yaml:107-112`).
#
# **Where ours is weaker, and why that is acceptable here.** Our bash tool keeps no copy of
# what it cut, so the rest of a long output is gone; pi-mono's temp file is the better design,
# and needs a disk this lab's shell does not have. A line over the budget is simply out of
# reach in the lab. And our window counts bytes, not tokens: bytes are exact and an upper
# bound, which is what a budget needs.

# %% [markdown]
# ## Build: keep every tool result within a budget
#
# **The spec.** `lines_of(text)` splits at `"\n"` only, each line keeping its newline.
# `fit_budget(lines, max_lines, max_bytes)` returns how many of `lines`, from the first, fit:
# at most `max_lines` lines and `max_bytes` bytes of UTF-8, whole lines only, none after the
# first that does not fit. The read tool shows as many whole lines as fit from `offset`, and
# when any line of the file is left after them ends with one line in square brackets naming
# `offset=N`, N the first line not shown; a line alone over the byte budget is not shown, and
# its note names its size, the budget and the offset after it. The bash tool keeps the end:
# as many whole lines as fit, counted from the last, in their own order, after one first line
# in square brackets saying how many were left out, or, when even the last line is over the
# byte budget, that line's size and the budget.
#
# **Four gaps in region 2, about thirty lines in all:** `lines_of` (two lines) and `fit_budget`
# (six), then the cut in the read tool's `execute` (twelve), then the cut in the bash tool's
# (nine). The starters have no budget at all: every line fits, and every file comes back
# whole, which is the opening failure.
#
# **Fourteen graded tests** (one grades code the lesson gives you, for no points; three are
# hidden until you submit):
#
# - the budget counts bytes of UTF-8, not characters (a word with `é` or `✓`, every grading a
#   different one); <!-- test: test_a_budget_counts_bytes_of_utf8_not_characters -->
# - only whole lines fit, and none after the first that does not, a line that fills the budget
#   exactly included; <!-- test: test_only_whole_lines_fit_and_none_after_the_first_that_does_not -->
# - the line budget and the byte budget both hold; <!-- test: test_the_line_budget_and_the_byte_budget_both_hold -->
# - only `\n` ends a line: a form feed, `\r`, U+2028 and others are part of their line; <!-- test: test_only_a_newline_ends_a_line_as_for_wc -->
# - the opening log: no request over the window, and the model, told the read was cut, finds
#   the verdict at the end; <!-- test: test_the_opening_log_is_read_within_the_window -->
# - a cut read names `offset=N` for the first line not shown, from offset 1 and from the middle; <!-- test: test_a_cut_read_says_the_offset_of_the_first_line_not_shown -->
# - a line alone over the budget is not cut, but named and skipped; <!-- test: test_a_line_alone_over_the_budget_is_not_cut_but_named_and_skipped -->
# - a read that fits comes back exactly as the file is, with no note, and a `limit` short of
#   the end still names where to read on; <!-- test: test_a_read_that_fits_comes_back_whole_with_no_note -->
# - a long output keeps its end, in order, after a note; <!-- test: test_a_long_output_keeps_its_end_where_the_verdict_is -->
# - an output whose last line alone is over the budget says why; <!-- test: test_an_output_whose_last_line_alone_is_over_the_budget_says_why -->
# - (given) a budget of no lines or no bytes is refused when the tool is made; <!-- test: test_a_budget_of_nothing_is_refused_when_the_tool_is_made -->
# - (hidden) for any lines and budgets, `fit_budget` agrees with a count by hand; <!-- test: test_any_lines_fit_the_budget_as_counted_by_hand -->
# - (hidden) for any file, reading on as the notes tell reads it once, in order; <!-- test: test_reading_on_as_told_reads_any_file_once_in_order -->
# - (hidden) for any output, the bash tool keeps the longest end that fits, in order. <!-- test: test_any_output_keeps_the_longest_end_that_fits_in_order -->
#
# <details><summary>A hint for the budget</summary>
#
# Walk the lines keeping a running total of bytes. At which moment do you know a line does
# not fit, and what do you return then: the lines before it, or including it?
#
# </details>
#
# <details><summary>An outline of the budget</summary>
#
# `lines_of`: split at the newline, give each piece but the last its newline back, and keep
# the last piece only if it is not empty. `fit_budget`: a total that starts at nothing; for
# each line in turn, with its position, add its size in bytes; if the position has reached the
# line budget or the total is over the byte budget, the answer is the position; after the
# loop, every line fitted.
#
# </details>
#
# <details><summary>A hint for the read</summary>
#
# `wanted` is what was asked for. How many of its lines does the budget allow, which line of
# the *file* is the last one shown, and is there any line of the file after it?
#
# </details>
#
# <details><summary>An outline of the read</summary>
#
# Ask `fit_budget` how many of `wanted` fit. If there were lines and none fit, return only a
# note naming the line, its size in bytes, the byte budget, and the offset one past it (or
# that it is the last line). Otherwise join that many lines; the last one shown is the offset
# plus that count, less one; if the file has more lines than that, add one bracketed line
# naming the offset one past it.
#
# </details>
#
# <details><summary>A hint for the bash tool</summary>
#
# `fit_budget` counts from the first line of whatever it is given. How do you make it count
# from the last, and how do you get the lines back in their own order afterwards?
#
# </details>
#
# <details><summary>An outline of the bash tool</summary>
#
# Give `fit_budget` the lines reversed; the number it returns is how many to keep from the
# end. Take that many from the end of the lines as they were, joined. If none were kept and
# there was output, the text is one bracketed line with the last line's size and the budget;
# if some were cut, put one bracketed line first saying how many. The exit code line below
# the gap stays as it is.
#
# </details>
#
# To grade your file, from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 06
# ```
#
# `lab-check --hint` gives hints for the first failing test, and `lab-check --watch` grades
# again every time you save.

# %% [markdown]
# ## After it passes: Monday again
#
# The opening session, on your harness. No tests here: read the sizes. Only a harness whose
# read keeps its budget and says where it stopped gets the model to the verdict, and keeps
# every request after it small.

# %% id="after-it-passes"
record, model = monday(harness)
print()
print("request sizes:", ", ".join(f"{s:,}" for s in model.sizes))
print("largest:      ", f"{lab.counted(max(model.sizes), 'byte', spec=',')} of an {WINDOW:,}-byte window")
print("the record:   ", lab.shape(record))

# %% [markdown]
# On a correct harness, the read returns 50,000 bytes and a note naming 1,000,002 lines; the
# model takes the hint, asks for the last two lines with `tail`, and answers. The session goes
# on: *"Never mind. Hello?"* is answered, its request a few kilobytes over the budget. The log
# is still 40 MB; what the record holds of it is one budget.

# %% [markdown]
# ## In your own words
#
# Your colleague says: "The budget just hides part of the file from the model. Wouldn't it be
# more honest to send everything?" In two sentences, what do you say?
#
# <details><summary>Our answer</summary>
#
# Sending everything is not an option the provider offers: past the window every request is
# refused, and below it every byte is paid for again on every later request. The budget does
# not hide anything, because the note says exactly what was left out and how to get it; the
# model decides what to read next, with the numbers to decide by.
#
# Common answers, and what each one misses:
#
# - *"It saves money."* It does, and that is half of it: it also keeps the session alive.
# - *"The model can handle it."* The window is not the model's decision.
# - *"Users should not ask about big files."* The user asked about a build; the file was the
#   model's choice, and only the harness saw how big it was.
#
# </details>

# %% [markdown]
# ## A further case
#
# A new tool, `fetch(url)`, returns a web page: 2 MB of HTML on one line, since the page is
# minified. Which of this lesson's rules apply to it, and what does it return? Write the rule
# in one sentence that also settles the next tool like it.
#
# <details><summary>Our answer</summary>
#
# The rule: **every tool result goes through a budget before it enters the record, and the
# result says what was left out and how to get it.** A one-line page is a line alone over the
# budget: the whole-lines rule gives nothing, so a fetch tool has to make lines first (turn
# the HTML into text, one paragraph a line) and then keep the start, as a file does, with a
# note naming how to ask for more. The next tool like it, a database query, keeps its first
# rows and says how many there were.
#
# </details>

# %% id="further-case"
page = "<html><body>" + "<p>Release notes, item.</p>" * 60_000 + "</body></html>"
as_lines = harness.lines_of(page)
paragraphs = harness.lines_of(page.replace("</p>", "</p>\n"))
print("the page as it came:   ", f"{lab.counted(len(as_lines), 'line')},",
      f"{lab.counted(len(page.encode()), 'byte', spec=',')};",
      lab.counted(harness.fit_budget(as_lines, harness.MAX_LINES, harness.MAX_BYTES), "line"), "fit")
print("one paragraph a line:  ", f"{lab.counted(len(paragraphs), 'line', spec=',')};",
      lab.counted(harness.fit_budget(paragraphs, harness.MAX_LINES, harness.MAX_BYTES), "line"), "fit")

# %% [markdown]
# ### Your harness can
#
# 1. Hold a conversation: it knows what was said, and who said it.
# 2. Run a tool the model asks for and show it the result.
# 3. Keep going until the model stops asking.
# 4. Tell the model when a tool fails, and carry on.
# 5. Stop a runaway, and survive a provider failure.
# 6. **New:** Keep every tool result within a budget.

# %% [markdown]
# ## Wrapping up
#
# **You hit** one read of a 40 MB log that went out again with every request after it, until
# the provider refused each one as longer than its window and the session was over.
#
# **You built** `lines_of` and `fit_budget`, and a read and a bash tool that keep them: whole
# lines, bytes of UTF-8, the start of a file with the offset to read on, the end of a
# command's output with a note where it was cut, and a line too big for any read named and
# skipped.
#
# **The principle:** every result is re-sent on every later request, so every result gets a
# budget, and says what it left out.
#
# **Your harness now** (new in this lesson in bold):
#
# - `SYSTEM`, `user_message`, `text_of`, `tool_calls`, `error_message` (lessons 01 to 05)
# - `str_arg`, `int_arg`, `tool_specs`, `run_tool` (lessons 02 and 04)
# - **`MAX_LINES`, `MAX_BYTES`, `lines_of`, `fit_budget`, `check_budget`**
# - **`make_read_tool` (offset, limit, a budget at a time)**, `make_write_tool`,
#   **`make_bash_tool` (the end kept)**
# - `run_agent`, `context_for_model` (lesson 05)
#
# **Still open.** The user asks for the tests to be fixed. The screen shows nothing for four
# minutes: the model reads, writes, runs the tests, reads again, and `run_agent` returns only
# when it is all over. Was it stuck? Did it run the tests? Nobody watching can tell until the
# end, and a frontend cannot show what the loop never tells it. Lesson 07.
#
# **Previous:** Checkpoint A · Transcript doctor I.
#
# **Next:** 07 · What is it doing?
