# Lesson 13, "The conversation that outgrew its window": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). The suite proves the committed notebook is
# what this makes and runs it on a real kernel, on the finished harness and on the starter.
# Every cell uses only names the starter defines; a cell that needs a gap the reader has not
# filled says so in one line (empty_gaps, in the first cell) instead of raising.

# %% [markdown]
# # 13 · The conversation that outgrew its window
#
# *Meeting the world · ~55 min · 1 lab · builds on 12 · The wrong refusal*
#
# **The session was going well for an hour. Then every prompt came back "too long", and the
# only thing wrong with the conversation was that there was a lot of it.**
#
# This lesson builds on lesson 12. New here? Start at lesson 01, or carry on: every lab is
# self-contained, and lesson 13's starter is lesson 12's finished harness with three new gaps.
#
# A user is going through a folder of notes with the agent, one file a prompt: "Read
# notes1.txt", "Read notes2.txt", and so on. Each prompt is a small turn: the question, a call
# to `read`, the file, one line of answer. Every request carries every turn before it, and the
# model has a **context window**: the most it will take in one request. At the fifth file the
# provider answers 400, `context_length_exceeded`. So does the next prompt, and the one after
# it. Nothing is broken; the record is exactly right. It is just longer than the
# window, and it only ever grows.
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
                            "inside the project, e.g. lessons/13-outgrew-its-window/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook.harnesses import patched, pick_harness, starter_harness, with_repair

chosen = with_repair(pick_harness(lesson=13), lesson=13)
harness = chosen.module
print(chosen)


def empty_gaps(*gaps):
    """"" when the chosen harness has filled every gap in `gaps`, else one line saying which
    of them an example needs first. The cut and compact gaps are empty while their code raises
    the starter's NotImplementedError; the view gap, while a summary in the record is sent as
    it is stored instead of as summary_message makes it."""
    def view_filled():
        entry = harness.summary_entry("so far", 0)
        first = (harness.context_for_model([entry]) or [{}])[0]
        return str(first.get("content", "")).startswith(harness.SUMMARY_HEADER)

    probes = {"cut": lambda: harness.safe_cuts([]),
              "compact": lambda: harness.Harness(lab.ScriptedModel([]), harness.SYSTEM, [],
                                                 window=1)._summarise(harness.SYSTEM, 0)}
    empty = []
    for gap in gaps:
        if gap == "view":
            if not view_filled():
                empty.append(gap)
            continue
        try:
            probes[gap]()
        except NotImplementedError:
            empty.append(gap)
        except Exception:  # written, if not right yet: the example shows what it does
            continue
    if not empty:
        return ""
    many = len(empty) > 1
    return (f"(this example needs the {' and '.join(empty)} gap{'s' * many} of your harness.py: "
            f"fill {'them' if many else 'it'}, then run the cells from the top again)")

# %% [markdown]
# The cell names the harness file the examples use and says why. Until your `harness.py` cuts,
# views and compacts, that is the lesson's finished harness in the course's own folder, and
# your own file in a student's copy of the lesson, where an example that needs a gap you have
# not filled says so in one line. To work on lesson 13, run `lab-check --reset --lesson 13`:
# it puts lesson 13's starter in your `harness.py` and keeps your file beside it.
#
# ## The window fills up
#
# **The notation**, as in lessons 10 to 12: `U` is a user message, `A` an assistant reply,
# `A[c1]` one that asks for call `c1`, `R(c1)` its result, `(error)` a reply that failed. New
# today: `S`, a summary the harness wrote, kept in the record.
#
# **Tokens.** The lab has no tokenizer, so it counts the way pi-mono's compaction estimates:
# one token for every four bytes of a message written as compact JSON, rounded up
# (`lab.tokens(message)`); a request is its system prompt, its messages and its tools added up
# (`lab.request_tokens`). `lab.ScriptedModel(script, window=600)` is a model with a window of
# 600 of those tokens. Sent more, it refuses the way OpenAI refuses, with a 400 whose code is
# `context_length_exceeded`, and lesson 12's classifier calls that `too_long`. *Our
# simplification:* the harness counts with the very counter the provider uses; a real harness
# estimates, and its estimate and the provider's tokenizer disagree at the edges.
#
# The cell runs ten reads on the **starter**, whatever the first cell chose: lesson 12's
# finished harness, which sends the whole record every time.

# %% id="outgrown"
WINDOW = 600
FILES = {f"notes{k}.txt": f"Line one of notes {k}.\nLine two says the number {k * 7}.\n"
         for k in range(1, 41)}


def make_session(harness_module):
    """The read tool over a fresh workspace, and a maker of models with a WINDOW-token window.
    The model reads the file a prompt names, then says its last line; asked to summarise (the
    harness's SUMMARISE is the last message), it answers with a numbered one-line summary."""
    ws = lab.Workspace(dict(FILES))
    tools = [{"name": "read", "description": "Read a file.",
              "execute": lambda arguments: ws.read_text(arguments["path"]),
              "parameters": {"type": "object", "required": ["path"],
                             "properties": {"path": {"type": "string",
                                                     "description": "The file."}}}}]
    summaries = []

    def answer(request):
        last = request.messages[-1]
        if last["role"] == "user" and last["content"] == getattr(harness_module, "SUMMARISE", None):
            summaries.append(len(request.messages))
            return lab.say(f"Summary {len(summaries)}: the user is reading the notes files one "
                           f"by one ({lab.counted(len(request.messages) - 1, 'message')} shown).")
        said = [m["content"] for m in request.messages if m["role"] == "user"][-1]
        path = said.split()[-1] if said.startswith("Read ") else None
        start = max(i for i, m in enumerate(request.messages) if m["role"] == "user")
        results = [m for m in request.messages[start:] if m["role"] == "toolResult"]
        if path and not results:
            return lab.reply(lab.text(f"Reading {path}."), lab.call("read", {"path": path}))
        if path:
            return lab.say(f"{path} says: {results[-1]['content'].splitlines()[-1]}")
        return lab.say("Noted.")

    return tools, lambda: lab.ScriptedModel([lab.forever(answer)], window=WINDOW)


def ask(h, prompts):
    """Put each of `prompts` to the harness `h` in turn, letting each run finish."""
    for words in prompts:
        for _ in h.prompt(words):
            pass


def outcome(h):
    """What the newest prompt got: the answer, or the failure's words, cut short."""
    last = h.messages[-1]
    if last.get("stop_reason") == "error":
        return "FAILED " + str(last.get("error_message"))[:70] + "…"
    return starter.text_of(last)


starter = starter_harness(lesson=13)
tools, new_model = make_session(starter)
model = new_model()
h = starter.Harness(model, starter.SYSTEM, tools)
for k in range(1, 12):
    ask(h, [f"Read notes{k}.txt"])
    size = lab.request_tokens(model.calls[-1].system, model.calls[-1].messages, model.calls[-1].tools)
    print(f"{f'Read notes{k}.txt':17} {lab.counted(size, 'token', spec='4')} sent  -> {outcome(h)}")
print()
print("the failure, as recorded:", h.messages[-1].get("failure"))
print("the record:", lab.counted(len(h.messages), "message") + ",",
      lab.counted(sum(map(lab.tokens, h.messages)), "token"))

# %% [markdown]
# Read the token counts down the middle. Each of the first prompts sends some 120 tokens more
# than the one before, and at the fifth file the request is over the window: refused, 400,
# kind `too_long`, as lesson 12 classifies it. The prompts after it are refused too, and they will
# be for good: the record they are built from is the same record plus a few messages, and a
# record never gets shorter.
#
# Is there anything in that record a provider could object to? No. Lesson 10's repair has
# nothing to do: every call has its result. Lesson 12's policy has nothing to do either: it
# sees `too_long`, which it hands to a `shrink` this harness does not have, and it gives up, as
# it should, because sending the same request again changes nothing.
#
# Hold on to the last line. The record is longer than the window and it is right to be: it is
# what happened. Whatever we do, it stays.
#
# The prompt after the first refusal: what does it get?
#
# <details><summary><b>A</b> · An answer: lesson 5's view leaves the failed reply out, so the request is what it was</summary>
#
# ✗ **No.** The failed reply is left out, and the new prompt is put in: the request is the
# one that was refused, plus one message. It was over the window before; it is further over
# now.
#
# </details>
#
# <details><summary><b>B</b> · A refusal, and so does every prompt after it</summary>
#
# ✓ **Right.** Each request is the whole record, and the record only grows. One long
# afternoon, and the session is over.
#
# </details>
#
# <details><summary><b>C</b> · A refusal now, and an answer later, once the provider's window has room again</summary>
#
# ✗ **No.** That is a rate limit, which empties with time (lesson 12's `rate_limited`). A
# context window is a limit on one request's size: the same request is too long tomorrow.
#
# </details>
#
# ## Four quick fixes, and what each one breaks
#
# Everyone who meets this failure has a quick fix ready. Four come up again and again. Each
# makes the request shorter, and each breaks something the earlier lessons built.
#
# The first: send only the newest messages, the last six, say. The model mostly needs the
# recent ones anyway. What goes wrong?
#
# <details><summary><b>A</b> · Nothing: the older messages are history, and the model works from the recent ones</summary>
#
# ✗ **No.** Look at where the count lands. A turn here is four messages, so most counts land
# in the middle of a turn, and one in four lands exactly between a call and its result.
#
# </details>
#
# <details><summary><b>B</b> · Sometimes the request is refused: the count can land between a call and its result</summary>
#
# ✓ **Right.** Lesson 10's complaint, made by your own harness: a result whose call was cut
# off. Whether it happens depends on how long the turns are, which is why it passes every
# test on Monday.
#
# </details>
#
# <details><summary><b>C</b> · It is always refused, because a request must start with a user message</summary>
#
# ✗ **Not quite.** The lab's provider takes a request that starts with the model's reply (some
# providers do not), and for some counts the cut falls cleanly before a user message. That is
# what makes this fix dangerous: it works often enough to ship.
#
# </details>

# %% id="fixed-count"
first_failure = next(i for i, m in enumerate(h.messages) if m.get("stop_reason") == "error")
record = list(h.messages)[:first_failure]  # the record as it stood when the window was outgrown
for n in range(3, 9):
    tail = record[-n:]
    problems = lab.validate(tail)
    print(f"the last {n}: {lab.shape(tail):46} {problems[0] if problems else 'accepted'}")

# %% [markdown]
# Five is refused: the kept part opens with the result of `c4`, whose call was cut off. Six
# happens to work on this record; on a record whose turns are five messages long, or with a
# steer typed among the results, six is the count that splits. You could patch the count
# ("round it to a turn"), and the next record would split again. The rule has to be about
# calls and results, not about counting.
#
# The second fix keeps every turn, and makes them shorter: ask the model for a summary of the
# whole conversation, and send only that. What does the model get?
#
# <details><summary><b>A</b> · Everything it needs, in a fraction of the tokens</summary>
#
# ✗ **No.** It gets a paraphrase of everything, including the newest prompt, and no prompt. The
# request ends on the summary; there is nothing in it to answer but the summary itself.
#
# </details>
#
# <details><summary><b>B</b> · A summary and nothing to answer: the newest prompt is inside it, in somebody else's words</summary>
#
# ✓ **Right.** "The user asked about notes11" is not "Read notes11.txt". The newest turns,
# the ones the model is in the middle of, have to go out word for word; only the older turns
# can be replaced.
#
# </details>
#
# <details><summary><b>C</b> · A refusal: a summary is not a message a provider takes</summary>
#
# ✗ **No.** It is a message like any other, in a role the provider knows; which role is a
# question of its own, a little further down.
#
# </details>
#
# The third fix makes the shortening permanent: once the summary is written, put it into
# `h.messages` in place of the older messages, so that every later request is short without
# any further work. What is lost?
#
# <details><summary><b>A</b> · Nothing: the summary says what the older messages said</summary>
#
# ✗ **No.** A summary says what the model thought mattered, once. The file the user asked
# about at two o'clock, the exact error text, the arguments of the call that wrote `b`: gone
# from the only list that was supposed to keep them.
#
# </details>
#
# <details><summary><b>B</b> · What happened: the record stops being the record, and the file on disk and the list in memory disagree</summary>
#
# ✓ **Right.** Lesson 11's file is appended to, never rewritten, so after a crash the resumed
# harness loads the long record again and the "permanent" fix is gone; and while the process
# lives, the record it holds says the user never typed what they typed.
#
# </details>
#
# <details><summary><b>C</b> · Only tokens: the next request is smaller, and that was the point</summary>
#
# ✗ **No.** The request is smaller either way. The question is what the list you keep still
# knows.
#
# </details>

# %% id="three-fixes"
summary_text = "Summary: the user asked for notes1 to notes5 one by one, and I read each."
everything = [lab.user(summary_text)]
print("summarise everything, the request:   ", lab.shape(everything))
print("   it ends on:                        ", lab.show(everything[-1:], clip=60))
print("   the newest prompt, word for word:  ", record[-1]["content"] in json.dumps(everything))
print()
rewritten = [harness.summary_entry(summary_text, 0)] + record[-4:]
print("rewrite the record, the record now:  ", lab.shape(rewritten))
print("   prompts it still holds:            ", sum(m["role"] == "user" for m in rewritten),
      "of", sum(m["role"] == "user" for m in record))
print("   'what did notes3 say?' is in it:   ", "number 21" in json.dumps(rewritten))

# %% [markdown]
# Two more ways to lose something: a request with no question in it, and a record that no
# longer knows what notes3 said. The fourth fix is about the summary itself, and it is the
# subtle one.
#
# The summary has to be sent in a message, and a message has a role. What should that role
# be?
#
# <details><summary><b>A</b> · user, as it is: the provider takes it, and it reads naturally as context</summary>
#
# ✗ **No.** A user message is a claim that the user typed it. The model will take the summary
# as the user's account of the conversation, and answer accordingly: "as you said, you asked
# me to read notes3"... The user never said any of it. (Lesson 14 is about who really spoke.)
#
# </details>
#
# <details><summary><b>B</b> · assistant: the model wrote the summary, so it is the model's message</summary>
#
# ✗ **No.** The model wrote it for the harness, not to the user. Sent as a reply, it is
# something the model said in the conversation, first, before the user said anything; and
# some providers refuse a request that does not start with a user message.
#
# </details>
#
# <details><summary><b>C</b> · user, because the provider has no other role for it, and marked, first thing, as the harness's and not the user's</summary>
#
# ✓ **Right, for now.** A provider's messages have two voices, the user's and the model's;
# the harness's own words have to travel in one of them. So they travel in the user's, and
# the first line of the message says whose they are: `SUMMARY_HEADER`. Lesson 14 takes the
# role-is-a-claim question further.
#
# </details>

# %% id="marked"
entry = harness.summary_entry("The user is reading the notes files one by one.", 8)
print("in the record:  ", lab.show([entry], clip=None))
print("as it is sent:  ")
print(harness.summary_message(entry)["content"])

# %% [markdown]
# `summary_entry` and `summary_message` are given to you. The record keeps the summary under a
# role of its own, `"summary"`, which no provider sees: it is the harness's note of what it
# sent in place of the older turns. `first_kept` is the index in the record of the first
# message the summary does not stand for. `summary_message` is how it travels: in the user's
# role, opened by the harness's own header.
#
# ### Common answers, and what each one misses
#
# - *"Drop the oldest turns and say nothing."* The request fits, and the model no longer
#   knows what the task was, or that anything came before. A summary is what is left when
#   the words have to go.
# - *"Truncate each old tool result instead."* It helps for a while (lesson 6 keeps each
#   result within a budget), and a long enough session outgrows any budget: the number of
#   turns has no limit.
# - *"Ask for a bigger model."* Windows are large now, and a session that runs all day is
#   larger. The fix has to work at every size.
#
# ## Compaction as a view
#
# Put the four lessons together and the shape of the answer is forced. The record keeps every
# message (lessons 10 and 11). The request is a view built from it for each send (lesson 10).
# So when the view would be over the window, it is the **view** that changes: the older turns
# are replaced, *in the view*, by one summary the harness asked the model to write; the system
# prompt and the newest turns go out word for word. That is **compaction**, and this lesson's
# three gaps are its three parts: where to cut, how to build the view of a compacted record,
# and when and how to compact.
#
# Where does the summary live? The view is rebuilt on every request.
#
# <details><summary><b>A</b> · Nowhere: the view asks for a fresh summary every time it is over the window</summary>
#
# ✗ **No.** A model call before every request, a different summary each time (models do not
# repeat themselves word for word), and so a different request every time: the summary costs
# more than the turns it replaced.
#
# </details>
#
# <details><summary><b>B</b> · In the record, as an entry of the harness's own with its first_kept; the view reads the newest one</summary>
#
# ✓ **Right.** The summary is something that happened: the harness asked for it, and got it.
# Appended to the record (and to lesson 11's file), it costs one model call, once; every view
# after it is built from it, the same way each time, and a resumed harness finds it there.
#
# </details>
#
# <details><summary><b>C</b> · In the record, in place of the messages it stands for</summary>
#
# ✗ **No.** That is the third quick fix again: the record would no longer say what happened.
#
# </details>
#
# So the view of a compacted record is: the newest summary, as `summary_message` sends it,
# then the record from that summary's `first_kept` on, with lesson 12's view applied
# (`view_of`, given: lesson 5's drop and lesson 11's repair) and the summaries left out. A
# record with no summary is viewed exactly as before. That is the **view** gap.

# %% id="view"
if not (waiting := empty_gaps("view")):
    turns = []
    for k in range(1, 4):
        call = lab.call("read", {"path": f"notes{k}.txt"}, id=f"c{k}")
        turns += [lab.user(f"Read notes{k}.txt"), lab.reply(call),
                  lab.tool_result(call, FILES[f"notes{k}.txt"]), lab.say(f"Done {k}.")]
    compacted = turns[:8] + [harness.summary_entry("Summary 1: notes1 read.", 4)] + turns[8:]
    print("the record:", lab.shape(compacted))
    print("the view:  ", lab.shape(harness.context_for_model(compacted)))
    print("the record, after building the view:", lab.shape(compacted))
else:
    print(waiting)

# %% [markdown]
# The record has thirteen entries; the view sends the summary, as a user message, and the
# eight messages from `first_kept` on. Nothing was removed from anything: the record is the
# same afterwards, and the first four messages are still in it for anyone who asks.
#
# ## Where a record may be cut
#
# The cut is where the kept part begins. The first quick fix showed the one thing it must
# never do: part a call from its result. Which places are safe?
#
# <details><summary><b>A</b> · Before any message that is not a tool result: a result must follow its call, so never start with one</summary>
#
# ✗ **No.** A user can type while the tools run (lesson 9), and lesson 11's repair keeps such
# a steer in its span, with the results after it. Cut at the steer and the kept part opens
# with a user message followed by results whose calls are in the summary.
#
# </details>
#
# <details><summary><b>B</b> · At an assistant message that opens a span, and at a user message with no tool result between it and the next such assistant message</summary>
#
# ✓ **Right.** Lesson 11's spans, used once more. A span's results belong to its assistant
# message, so a cut at the assistant message keeps them together; a cut at a user message is
# safe when no result of an earlier call comes after it. Tool results, summaries and
# placeholders (lesson 11's rule 6) are never a place to cut.
#
# </details>
#
# <details><summary><b>C</b> · Only before a user message: a turn starts with what the user typed</summary>
#
# ✗ **No.** Safe, and not enough. An agent that works through a long job makes dozens of
# calls after one prompt; with no user message among them, the only cut is before the job,
# and the job alone can outgrow the window.
#
# </details>

# %% id="cuts"
c1 = lab.call("read", {"path": "notes1.txt"}, id="c1")
c2 = lab.call("read", {"path": "notes2.txt"}, id="c2")
steered = [lab.user("Read notes1 and notes2."), lab.reply(c1, c2), lab.user("Quickly, please."),
           lab.tool_result(c1, "one"), lab.tool_result(c2, "two"), lab.say("Both read."),
           lab.user("Thanks.")]
if not (waiting := empty_gaps("cut")):
    safe = harness.safe_cuts(steered)
    for i, m in enumerate(steered):
        print(f"{i}  {lab.shape([m]):10} {'safe' if i in safe else '-'}")
else:
    print(waiting)

# %% [markdown]
# Index 2, the steer, is not safe: two results follow it that answer `c1` and `c2`. Index 1,
# the reply that asked for them, is. Index 6 is: after it, nothing.
#
# **How much to keep.** Of the safe cuts, which one? The earlier the cut, the more is sent word
# for word and the less has to be summarised. `choose_cut(messages, keep)` takes the earliest
# safe cut whose kept part (its `view_of`) counts at most `keep` tokens, never before the
# newest summary's `first_kept` (what a summary stands for is not sent again), and `None` when
# even the newest turn is over `keep`. What should `keep` be?
#
# <details><summary><b>A</b> · All the room the window leaves: keep as much as fits</summary>
#
# ✗ **No.** Then there is no room left for the summary, and the compacted view is over the
# window again at once; and if it were not, the next prompt would be, and the request's start
# would move on every single prompt.
#
# </details>
#
# <details><summary><b>B</b> · Half of the room: the newest turns get half, the summary and the turns still to come the rest</summary>
#
# ✓ **Right.** The room is the window less the system prompt and the tools. Half of it goes to
# the newest turns, word for word; the summary takes a little of the other half, and the rest
# is space to grow into before the next compaction.
#
# </details>
#
# <details><summary><b>C</b> · Just the newest turn: the summary can carry everything else</summary>
#
# ✗ **Not quite.** It works, and the model loses the exact words of every turn but one,
# including the result it read a minute ago: it is working from a paraphrase of its own
# afternoon.
#
# </details>

# %% id="keep"
if not (waiting := empty_gaps("cut", "view", "compact")):
    original = harness.choose_cut
    ways = {"all of the room": lambda messages, keep: original(messages, 2 * keep),
            "half of the room": original,
            "the newest turn": lambda messages, keep: (harness.safe_cuts(messages) or [None])[-1]}
    for name, rule in ways.items():
        with patched(harness, choose_cut=rule):
            tools, new_model = make_session(harness)
            model = new_model()
            h = harness.Harness(model, harness.SYSTEM, tools, window=WINDOW)
            ask(h, [f"Read notes{k}.txt" for k in range(1, 21)])
        failed = sum(m.get("stop_reason") == "error" for m in h.messages)
        summaries = sum(m["role"] == "summary" for m in h.messages)
        print(f"keep {name:17} twenty reads: {lab.counted(summaries, 'summary', 'summaries', spec='2')}, "
              f"{lab.counted(failed, 'failed reply', 'failed replies', spec='2')}, "
              f"{lab.counted(len(model.calls), 'request', spec='3')}")
else:
    print(waiting)

# %% [markdown]
# Keeping all of the room fails: the summary has nowhere to go, and most prompts get a failed
# reply. Keeping the newest turn alone summarises least often, since it leaves the most room
# to grow into, and every request after a compaction has one turn in the words it happened in
# and the rest in the model's paraphrase. Half is the course's trade between the two;
# production harnesses pick a fixed number of tokens for the same job (pi-mono keeps 20,000 by
# default), and the reasoning is the same.
#
# ## Asking for the summary
#
# Who writes the summary, and how? The model, since only it can read the turns and say what
# mattered in them. The **compact** gap sends that request itself, with `_summarise`: through
# `run_agent`, the same loop every other request goes through, with no tools, on a list of
# its own holding what the older part was being sent as (the newest summary, if there is one,
# and `view_of` the record from its `first_kept` to the cut), and `SUMMARISE` as the prompt.
# Why through the loop, rather than by calling `model.complete` directly?
#
# <details><summary><b>A</b> · It does not matter: it is one call either way</summary>
#
# ✗ **No.** The loop is where the view is built (lesson 5's drop, lesson 11's repair), where a
# failed reply is recorded as data and not acted on (lesson 5), and where lesson 12's retries
# happen, since the harness hands it the retrying model. A summary asked for around all that
# is a request nobody checked.
#
# </details>
#
# <details><summary><b>B</b> · Because everything a request needs is already in the loop: the view, the repair, the failure handling and the retries</summary>
#
# ✓ **Right.** And one thing more: the summary request starts with the same system prompt and
# the same turns the last request sent, so its start is a prefix a provider's cache has just
# seen.
#
# </details>
#
# <details><summary><b>C</b> · So that the summary request is recorded in the session's record, like every other request</summary>
#
# ✗ **No.** It runs on a list of its own, precisely so that the instruction and the model's
# reply to it do not become turns of the conversation. What the record gets is the result:
# one summary entry.
#
# </details>
#
# Then `_send`, the harness's one door to the model, puts it together. A request that fits
# (or a harness with no window) is sent as it is, through lesson 12's `Retrying`. One that
# does not is compacted first: cut with half the room, summarise the part before the cut,
# record the summary (saved to the file, like any message), build the view again from the
# record, and send that. Figure 13.1 is the whole thing on one page.

# %% id="figure-13-1"
if not (waiting := empty_gaps("cut", "view", "compact")):
    tools, new_model = make_session(harness)
    model = new_model()
    disk = lab.Disk()
    h = harness.Harness(model, harness.SYSTEM, tools, window=WINDOW,
                        file=disk.open("record.jsonl"))
    ask(h, [f"Read notes{k}.txt" for k in range(1, 12)])
    compacted_record = list(h.messages)
    last_sent = model.calls[-1]
    print("the record:     ", lab.shape(compacted_record))
    print("the last request:", lab.shape(last_sent.messages))
    print("its size:        ", lab.counted(lab.request_tokens(last_sent.system, last_sent.messages,
                                                  last_sent.tools), "token"), "of", WINDOW)
    print("answers:         ", sum(m.get("stop_reason") == "stop" for m in compacted_record),
          "of 11 prompts; failed replies:",
          sum(m.get("stop_reason") == "error" for m in compacted_record))
    display(lab.draw(
        lab.Panel("the record", compacted_record, check=False,
                  note=f"{lab.counted(len(compacted_record), 'entry', 'entries')}, every message kept"),
        lab.Panel("the last request", last_sent.messages,
                  note="the marked summary, then the newest turns"),
        title="Figure 13.1  Eleven reads in a window of 600 tokens", arrows=True,
        caption="Left, the record: every message of the session, and each summary the "
                "harness wrote where it wrote it. Right, the last request: the newest summary "
                "in the user's role, marked as the harness's, then the record from its cut on, "
                "word for word."))
else:
    print(waiting)

# %% [markdown]
# Every prompt answered, and no request over the window. The record holds every message the
# starter's record held, with four summaries among them. The request ends the way the
# conversation does, on the newest prompt and its read, word for word.
#
# ### Common answers, and what each one misses
#
# - *"Compact when the provider refuses."* It works, and every compaction costs a refused
#   request first. With a counter of your own you know the size before you send: compact
#   before, and keep lesson 12's refusal for the day your count and the provider's disagree.
# - *"Summarise in a separate, cheaper model."* Possible, and a reasonable production choice;
#   it still has to go through the same checks, and its summary still belongs in the record.
# - *"Keep the summary out of the file: it can always be made again."* Made again, it comes
#   out different, and the resumed session's requests start differently from the crashed
#   one's. That is the next question.
#
# ## The start of the request
#
# Look at two requests in a row from the session above, neither of them the one after a
# compaction. How should the earlier one relate to the later one?
#
# <details><summary><b>A</b> · Any way at all: each request is built afresh, and the model reads all of it anyway</summary>
#
# ✗ **No.** [general] Providers cache the work of reading a request's start: a request that
# begins with exactly the tokens of an earlier one is read from the cache for that part,
# faster and much cheaper (OpenAI's prompt caching guide, developers.openai.com/api/docs/guides/
# prompt-caching: caching "reuses work when requests share the same prompt prefix"). Any change
# at the start, a byte, pays for everything again.
#
# </details>
#
# <details><summary><b>B</b> · The earlier is the start of the later, byte for byte: same system prompt, same summary, same kept turns, then the new ones</summary>
#
# ✓ **Right.** Between two compactions, the request only grows at its end. The start moves
# once per compaction, and never otherwise: that is why the cut is stored in the record, and
# why lesson 11 made the repair prefix-stable.
#
# </details>
#
# <details><summary><b>C</b> · The later should be shorter: a good harness compacts a little on every request</summary>
#
# ✗ **No.** A little compaction on every request is a new start on every request: the cache
# never hits, and every request pays for a summary.
#
# </details>

# %% id="prefix"
if not (waiting := empty_gaps("cut", "view", "compact")):
    sent = [r for r in model.calls if r.tools]  # the session's requests, not the summary requests
    moved = 0
    for before, after in zip(sent, sent[1:]):
        n = len(before.messages)
        same_start = json.dumps(after.messages[:n]) == json.dumps(before.messages)
        moved += not same_start
    print(f"{lab.counted(len(sent), 'request')}; the start moved {lab.counted(moved, 'time')}; "
          "summaries written:",
          sum(m["role"] == "summary" for m in compacted_record))
else:
    print(waiting)

# %% [markdown]
# The start moved exactly as many times as there are summaries: once at each compaction, and
# nowhere else.
#
# ## When the newest turn alone does not fit
#
# The user pastes a whole log into one prompt, three thousand characters, some seven hundred
# tokens. The window is 600. What should the harness do?
#
# <details><summary><b>A</b> · Send it: the provider will say whether it fits, and lesson 12 knows what to do with the answer</summary>
#
# ✗ **No.** The harness already knows the answer, and the provider will charge for finding it
# out; lesson 12's policy would then hand the refusal to a compaction that cannot help.
# Never send a request you know is over the window.
#
# </details>
#
# <details><summary><b>B</b> · Cut the message down to what fits, and send that</summary>
#
# ✗ **No.** Half a log is not a shorter log (lesson 11 said it of half a line), and the user
# would get an answer about something they did not send, with nothing to say so.
#
# </details>
#
# <details><summary><b>C</b> · A failed reply made by the harness: nothing is sent, the reason is written into the record, the kind is too_long</summary>
#
# ✓ **Right.** Lesson 5's failed reply, with lesson 12's structured kind: `does_not_fit`
# (given) makes it, with no status, because no provider was asked. The user sees why, the
# record keeps the message, and the next prompt compacts the long one away.
#
# </details>

# %% id="too-long"
if not (waiting := empty_gaps("cut", "view", "compact")):
    tools, new_model = make_session(harness)
    model = new_model()
    h = harness.Harness(model, harness.SYSTEM, tools, window=WINDOW)
    for words in ("Read notes1.txt", "Here is my whole log: " + "x" * 3000, "Read notes2.txt",
                  "Read notes3.txt"):
        ask(h, [words])
        last = h.messages[-1]
        said = last.get("error_message") or harness.text_of(last)
        print(f"{words[:24]!r:27} -> {said[:88]}")
    print()
    print("the failure:         ", next((m.get("failure") for m in h.messages if m.get("failure")), None))
    print("requests over the window:", sum(lab.request_tokens(r.system, r.messages, r.tools)
                                            > WINDOW for r in model.calls))
    print("the record:          ", lab.shape(h.messages))
else:
    print(waiting)

# %% [markdown]
# The long prompt gets a clear failure, made by the harness; not one request over the window
# goes out; and the reads after it are answered. Look at how: the next request was over the
# window (the log is still in the record), so it was compacted, and the summary request left
# the log out of what it showed the model, since the log alone is over the window. `_summarise`
# does that: when the part to summarise does not fit, it starts it a safe cut later, and later,
# down to the newest summary alone. The log is in the record, and in no request.
#
# ## A record that was resumed
#
# Lesson 11's harness picks a record up from its file after a crash. The file holds the
# summaries too. What does the resumed harness send?
#
# <details><summary><b>A</b> · The whole record, until the window is outgrown again and it compacts afresh</summary>
#
# ✗ **No.** The whole record was outgrown before the crash; it still is. A harness that
# kept its summaries anywhere but the record would have to make them again, and a summary
# made again comes out different.
#
# </details>
#
# <details><summary><b>B</b> · Exactly what the harness that did not crash would have sent: the view of the same record</summary>
#
# ✓ **Right.** The view is a function of the record, and the record, summaries and all, is
# what the file holds. Same record, same view, same bytes.
#
# </details>
#
# <details><summary><b>C</b> · Nothing until it has checked every summary against the messages it stands for</summary>
#
# ✗ **No.** A summary is not a claim the harness can check; it is the model's words, recorded
# as what the harness sent. It was true to the record when it was written, and the record has
# only grown since.
#
# </details>

# %% id="resumed"
if not (waiting := empty_gaps("cut", "view", "compact")):
    back = disk.restart()
    model = new_model()
    resumed = harness.Harness.resume(model, harness.SYSTEM, tools, back.open("record.jsonl"),
                                     window=WINDOW)
    print("loaded:            ", lab.shape(resumed.messages))
    print("the same record:   ", list(resumed.messages) == compacted_record)
    view_before = harness.context_for_model(compacted_record)
    view_after = harness.context_for_model(list(resumed.messages))
    print("the same view:     ", json.dumps(view_before) == json.dumps(view_after))
    ask(resumed, ["Read notes12.txt"])
    print("'Read notes12.txt' ->", harness.text_of(resumed.messages[-1]))
    print("summary requests:  ", sum(not r.tools for r in model.calls))
else:
    print(waiting)

# %% [markdown]
# The file gives back the very record, summaries included, and so the very view: no summary
# is asked for again, and the next prompt goes out on the start the crashed harness was using.
# Figure 13.2 lines up the record and the view of it.

# %% id="figure-13-2"
if not (waiting := empty_gaps("cut", "view", "compact")):
    display(lab.draw(("the record (resumed)", list(resumed.messages)[-14:]),
                     ("the view sent next", model.calls[-1].messages), compare=True,
                     title="Figure 13.2  The record keeps everything; the view is what shrinks",
                     caption="The record's last fourteen entries, and the request that answered "
                             "'Read notes12.txt'. The summaries stay in the record and never go "
                             "out as they are; the newest one goes out marked, in the user's "
                             "role, and every message after its cut goes out unchanged."))
else:
    print(waiting)

# %% [markdown]
# ## Compared with pi-mono
#
# pi-mono's coding agent compacts long sessions, and keeps the result in its session file. We
# read it at commit `83378aa` (`83378aad7e74a0e2bb8f37c007a9685fb4609d8a`), as lesson 11 did.
#
# - **Counting.** `estimateTokens` counts characters over four, rounded up, message by message,
#   looking only at the text (`packages/coding-agent/src/core/compaction/compaction.ts:225-283`);
#   where a reply reported its real usage, that number is used instead, and only the messages
#   after it are estimated (179-207). The lab's counter is the same rule applied to the whole
#   JSON of a message.
# - **When.** Compaction runs when the context is over the window less a reserve
#   (`shouldCompact`, 212-215; `reserveTokens` 16384 and `keepRecentTokens` 20000 by default,
#   114-118), checked after a run ends and before a prompt is sent
#   (`packages/coding-agent/src/core/agent-session.ts:498-509`, 947-950), and again when a
#   provider refuses a request as too long: the refusal is taken out of the agent's messages
#   (it stays in the session file), the session is compacted, and the request is tried once
#   more (1768-1790). Yours checks before every request, tool turns included, and never sends
#   one it knows is too long. pi-mono's check between runs lets one long run outgrow the
#   window mid-way, and then the provider's refusal is what triggers compaction.
# - **Where to cut.** `findValidCutPoints` allows a cut at a user or assistant message and
#   "never at tool results" (compaction.ts:285-327), and `findCutPoint` walks back from the
#   newest message until `keepRecentTokens` is reached (360-438): your rule, except that a user
#   message followed by a late result is a cut point there and not here.
# - **A turn too big to keep.** When the cut falls inside a turn, pi-mono summarises that
#   turn's start separately and glues the two summaries together (`isSplitTurn`, 428-437 and
#   727-759). Yours refuses to cut a turn smaller than a span, and a turn alone over half the
#   room is a failed reply: simpler, and a limit a production harness cannot afford.
# - **Asking for the summary.** `generateSummary` writes the turns out as text inside one
#   user message, under a system prompt of its own that says "Do NOT continue the
#   conversation" (compaction.ts:537-565; `utils.ts:168-170`), and calls the provider
#   directly, not through the agent loop. That guards well against a model that answers the
#   conversation instead of summarising it, which your request, the turns as they were sent
#   plus an instruction, leaves to the instruction; and it gives up the shared prefix yours
#   keeps. Its instructions ask for a fixed layout (goal, constraints, progress, next steps) and
#   a second compaction updates the previous summary rather than summarising it (444-514).
# - **Keeping it.** The session file gets a `compaction` entry with the summary and the id of
#   the first entry kept, appended like any other (`session-manager.ts:864-885`), and the
#   context is rebuilt from it: the summary, then the kept entries, then what came after
#   (`buildSessionContext`, 364-406). That is your record and your view, entry for entry.
# - **In whose voice.** The summary is sent as a user message that opens "The conversation
#   history before this point was compacted into the following summary" (`messages.ts:11-17`,
#   `convertToLlm` at 176-183): marked, as yours is, and in the user's role, as yours is. Your
#   header goes one step further and says whose words they are not.
#
# **Where yours is weaker.** It cannot split a turn; it counts with the provider's own
# counter, which no real harness has; and it trusts one instruction to stop the model from
# carrying on the conversation when it is asked for a summary. For a lesson about what the
# record and the view each owe, those are fair trades.

# %% [markdown]
# ## The build
#
# **The spec.** `safe_cuts(messages)` lists every index at which the record may be cut: an
# assistant message that opens a span (not a placeholder), or a user message with no tool
# result between it and the next such assistant message; never a tool result, a summary or a
# placeholder. `choose_cut(messages, keep)` is the earliest safe cut, not before the newest
# summary's `first_kept`, whose `view_of` counts at most `keep` tokens, message by message, with
# `lab.tokens`; `None` when there is none. `context_for_model(messages)` sends the newest
# summary as `summary_message` makes it, then `view_of` the record from its `first_kept`, or
# lesson 12's view when there is no summary. `Harness._send(system, view, tools)` is given its
# first lines, which send a view that fits through `self._retrying` and work out `room`, the
# window less the system prompt and the tools; yours compacts a view that does not fit: the
# cut keeps half of the room, `_summarise` asks for the summary
# through `run_agent`, the summary is recorded and saved with `record_message`, and the view is
# built again; whatever cannot be made to fit gets `does_not_fit`. `_summarise(system, cut)`
# sends the newest summary and `view_of` the record from its `first_kept` to the cut, with
# `SUMMARISE`, no tools and `max_turns=1`, starting a safe cut later while that is over the
# window, and returns the reply.
#
# **The gaps**, in the order `lab-check` names them; each gap's tests need only that gap and
# the ones before it. Three gaps, about forty-three lines in all.
#
# 1. **cut**: the bodies of `safe_cuts` and `choose_cut` (region 5), about sixteen lines.
# 2. **view**: the body of `context_for_model` (region 4), four lines.
# 3. **compact**: the rest of `Harness._send`, from a view over the window on, and
#    `Harness._summarise` (region 9), about twenty-five lines.
#
# **The tests.** Seventeen, one line each; the two marked *hidden* are not in your copy's
# `tests.py` and grade the cut on records hypothesis makes up.
#
# *cut*
#
# - five records and their safe cuts: two healthy turns, a steer among results, a result recorded after the next reply, a placeholder, a summary in the record. <!-- test: test_a_cut_is_never_made_between_a_call_and_its_results -->
# - every edge: an empty record, a stray result first, a dangling call last, an empty failure last, a stray result last, a lone user message. <!-- test: test_every_edge_of_a_record_empty_and_damaged_at_either_end -->
# - the longest newest part that fits, for six budgets. <!-- test: test_the_cut_keeps_the_longest_newest_part_that_fits -->
# - `None` when even the newest turn is over the budget. <!-- test: test_no_cut_when_even_the_newest_turn_does_not_fit -->
# - never before the newest summary's `first_kept`, and the record left untouched. <!-- test: test_a_cut_never_goes_back_before_the_newest_summary -->
# - *hidden:* the safe cuts of any record hypothesis makes up. <!-- test: test_any_record_is_cut_only_where_no_call_is_parted_from_its_results -->
# - *hidden:* the earliest safe cut that fits, on any record. <!-- test: test_any_record_is_cut_at_the_earliest_safe_cut_that_fits -->
#
# *view*
#
# - one summary, and two of which the newest counts: each sent marked, then the kept turns word for word; a record with no summary viewed as in lesson 12. <!-- test: test_the_view_of_a_compacted_record_is_the_marked_summary_then_the_kept_turns -->
# - the same bytes every time, and each view the start of the next one's. <!-- test: test_the_view_of_a_record_is_the_same_bytes_every_time_and_grows_only_at_its_end -->
#
# *compact*
#
# - ten reads in a window of 600 tokens: no request over it, every prompt answered; and the same again under a system prompt of about 300 tokens. <!-- test: test_a_long_session_never_sends_a_request_over_the_window -->
# - the record holds every message the uncompacted session holds, each summary as the harness's at a safe cut, and all of it in the file. <!-- test: test_the_record_keeps_every_message_and_each_summary_as_written_by_the_harness -->
# - each summary request: the session's system prompt, no tools, the replaced part as it was sent, then `SUMMARISE`. <!-- test: test_the_model_writes_the_summary_through_the_harness_loop -->
# - after a compaction: the marked summary, then the newest turns word for word. <!-- test: test_the_newest_turns_are_sent_word_for_word_after_the_marked_summary -->
# - between two summaries, each request starts with the whole of the one before. <!-- test: test_the_start_of_what_is_sent_stays_the_same_between_summaries -->
# - a compacted record that fits is sent as it is, nothing summarised again. <!-- test: test_a_compacted_record_that_fits_is_sent_as_it_is -->
# - a prompt too long for the window: a failed reply of kind `too_long`, nothing over the window sent, the next prompts answered. <!-- test: test_a_turn_too_long_for_the_window_gets_a_clear_failed_reply_and_is_never_sent -->
# - a crash after six reads: the resumed harness sends exactly what the steady one sends. <!-- test: test_a_resumed_record_compacts_the_same_way -->
#
# <details><summary>Stuck on cut? A question</summary>
#
# Walking the record backwards, what do you need to remember, at each user message, to know
# whether a cut there would part a call from its result?
#
# </details>
#
# <details><summary>An outline for cut</summary>
#
# Walk from the last index to the first with one flag: "a tool result lies ahead, before the
# next span opens". A tool result sets it; an assistant message that is not a placeholder is a
# cut and clears it; a user message is a cut when the flag is clear. Return the cuts in
# increasing order. For the choice, find where the newest summary's `first_kept` is (0 when
# there is none), and return the first safe cut at or after it whose `view_of` adds up, with
# `lab.tokens`, to no more than `keep`; otherwise None.
#
# </details>
#
# <details><summary>Stuck on view? A question</summary>
#
# Which two given functions make the two halves of the view, and which number from the record
# tells the second where to start?
#
# </details>
#
# <details><summary>An outline for view</summary>
#
# Find the newest summary with `latest_summary`. None: return `view_of(messages)`. Otherwise
# return a list: `summary_message` of that entry, followed by `view_of(messages, first_kept)`.
#
# </details>
#
# <details><summary>Stuck on compact? A question</summary>
#
# What does `_send` need to know before it can decide anything, and which three things can go
# wrong after it decides to compact, each of which must end in a failed reply rather than a
# request?
#
# </details>
#
# <details><summary>An outline for compact</summary>
#
# `_send`, after its given lines (a view that fits is sent; `room` is worked out): cut =
# `choose_cut(self._messages, room // 2)`; None: `does_not_fit`. Ask `_summarise`; a failed
# reply comes back as it is. Record `summary_entry(text_of(reply), cut)` with `record_message`
# (with `self._save` when there is a file), build `context_for_model(self._messages)`, and send
# it if it fits, else `does_not_fit`. `_summarise`: the newest summary's message (if any) and
# its `first_kept`; for each possible start (that `first_kept`, each safe cut between it and
# the cut, then the cut itself), the part is the summary message plus `view_of` from the start
# to the cut; the first part that fits with `SUMMARISE` added goes to `run_agent` with no tools
# and `max_turns=1`, and the list's last message is the reply. None fits: `does_not_fit`.
#
# </details>
#
# To grade your file, from the project root:
#
# ```sh
# .venv/bin/lab-check --harness harness.py --lesson 13
# ```
#
# The report names the first gap to fill; `lab-check --hint` gives the hints for its first
# failing test, and `lab-check --watch` grades again each time you save.

# %% [markdown]
# ## Forty reads
#
# Once the lab passes, re-run the first cell and then this one: it runs on your harness. Forty
# reads in a window of 600 tokens, the record on a disk; then the numbers that only a harness
# that compacts as a view can show. Nothing here passes or fails; read them.

# %% id="forty"
if not (waiting := empty_gaps("cut", "view", "compact")):
    tools, new_model = make_session(harness)
    model = new_model()
    disk = lab.Disk()
    h = harness.Harness(model, harness.SYSTEM, tools, window=WINDOW, file=disk.open("record.jsonl"))
    ask(h, [f"Read notes{k}.txt" for k in range(1, 41)])
    sizes = [lab.request_tokens(r.system, r.messages, r.tools) for r in model.calls]
    on_disk = harness.load_record(disk.read_text("record.jsonl")).messages
    print("prompts answered:          ", sum(m.get("stop_reason") == "stop" for m in h.messages))
    print("requests, summaries asked: ", len(model.calls), sum(not r.tools for r in model.calls))
    print("largest request:           ", lab.counted(max(sizes), "token"), "of", WINDOW)
    print("the record:                ", lab.counted(len(h.messages), "entry", "entries") + ",",
          lab.counted(sum(map(lab.tokens, h.messages)), "token"))
    print("the file holds the record: ", on_disk == list(h.messages))
    print("the last request:          ", lab.shape(model.calls[-1].messages))
else:
    print(waiting)

# %% [markdown]
# Forty answers, not one request over the window, and a record some nine times the size of
# the window, all of it on the disk. The last request is short, and it ends where the
# conversation does.
#
# ## In your own words
#
# Your harness writes a summary into the record and never takes anything out. In a sentence or
# two: why is the summary in the record at all, when the view is where it is used?
#
# <details><summary>A hint</summary>
#
# What would a resumed harness, or the same harness a request later, have to do if the
# summary were not there?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# Because asking for it is something that happened, and what it said is what the model was
# shown in place of the older turns from then on. Kept in the record, it is asked for once,
# and every later view, in this process or a resumed one, is built from it the same way, to
# the byte; kept anywhere else, it has to be asked for again, and comes back in other words.
#
# Common answers, and what each one misses:
#
# - *"So the record is shorter."* The record is no shorter: nothing is taken out of it.
# - *"So that the user can read it."* They can, and that is a side effect. The reason is that
#   the view must be a function of the record alone.
# - *"Because the model needs it."* The model needs it in the view, which is built from the
#   record; that is the same answer one step further down.
#
# </details>

# %% [markdown]
# ## A further case
#
# A teammate's harness uses a provider whose API compacts for you: send the long request with
# compaction turned on and the provider answers with an opaque "compaction" item to send back
# next time in place of the older turns (OpenAI's Responses API has such an item, made by its
# compact endpoint). Does anything in this lesson change, and what is the rule, in one
# sentence, that also settles the next case like it (a provider that drops old tool results
# from requests for you)?
#
# <details><summary>A hint</summary>
#
# Which of the two lists does the provider's item belong to, and which one would it be tempting
# to put it in?
#
# </details>
#
# <details><summary>Our answer</summary>
#
# Nothing changes in the record, and the rule is: *whatever makes a request smaller is part of
# the view, and whatever the harness was given or decided is kept in the record, appended,
# never in place of what it stands for.* The provider's item is what the harness got back,
# so it is appended to the record like a summary (opaque text instead of the model's words),
# and the view sends it in place of the turns before its cut; the turns stay in the record.
# A provider that drops old tool results is doing the view's job on its side: the record
# still keeps them, and the harness's own view need not change.
#
# Common answers, and what each one misses:
#
# - *"Let the provider keep the history, and keep nothing ourselves."* Then the record lives
#   on somebody else's server, and lesson 11's resume has nothing to resume from.
# - *"Replace the turns with the item, since the provider will never need them again."* The
#   provider will not; the user, the next provider, and tomorrow's debugging will.
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
# 13. **New:** Fit a long conversation into the model's window, and keep all of it on the record.

# %% [markdown]
# ## Wrapping up
#
# **You hit** a conversation that outgrew its model's window: every prompt refused as too long,
# from a record that was right in every message.
#
# **You built** compaction as a view: `safe_cuts` and `choose_cut`, which never part a call from
# its result; the view of a compacted record, the marked summary then the newest turns word for
# word; and `Harness._send`, which summarises through the harness's own loop, keeps the
# summary in the record, and never sends a request over the window.
#
# **The principle:** when the request must shrink, shrink the view, never the record; write
# down what you did to it; and send nothing you know will be refused.
#
# **Your harness now**
#
# The names in it, lesson 13's in bold (and *changed* where lesson 13 rewrote one): `run_agent`,
# `record_message`, *`context_for_model`*, `repaired_view`, `repair_history`, **`SUMMARY_HEADER`**,
# **`SUMMARISE`**, **`is_summary`**, **`latest_summary`**, **`view_of`**, **`summary_message`**,
# **`summary_entry`**, **`does_not_fit`**, **`safe_cuts`**, **`choose_cut`**, `classify`,
# `RetryPolicy`, `Retrying`, *`Harness`* (with **`window`**, **`_send`** and **`_summarise`**),
# `JsonRenderer`, `FinalTextRenderer`.
#
# **Still open.** Look at the summary's role once more. It goes out as a user message, marked
# as the harness's in words the model may or may not weigh. It is not the only text in your
# requests that wears the user's role without being the user's: a file the user asks the agent
# to read, pasted into the prompt, arrives the same way, and a file can say anything, "ignore
# your instructions" included. Lesson 14 asks who really spoke.
#
# **Previous:** 12 · The wrong refusal.
#
# **Next:** 14 · Who really spoke.
