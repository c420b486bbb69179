# ---
# jupyter:
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
#   language_info:
#     name: python
# ---

# Checkpoint A, "Transcript doctor I": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). tests/test_labs.py and
# tests/test_checkpoint_a.py run the committed notebook on a real kernel: in the course's
# project, where finch and lesson 05's finished harness run live, and in a student's edition,
# where their sessions are replayed from sessions.json (lab.notebook.casebook).

# %% [markdown]
# # A · Transcript doctor I
#
# *Five harnesses, each one idea short*
#
# *The loop · ~40 min · 1 lab · builds on 05 · The runaway and the 503*
#
# New here? Start at lesson 01, or carry on: every lab is self-contained. This one asks for no
# harness code at all. You get five harnesses you cannot read, each of them lesson 05's with
# one idea of lessons 01 to 05 missing, and you find out from the outside which idea it is.
#
# **How to read it.** Run the cells from the top. Each question keeps its options folded:
# pick one in your head, then open them. The figures are drawn from the sessions the cells
# have just run.

# %% id="setup"
# Start here: find the project folder, let this notebook import `lab` from it, and say where
# the sessions of finch and the finished harness come from in this copy.
import os
import pathlib
import sys
from lab.course import tomlread

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "lab").is_dir()
             and (folder / "doctor_a.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no lab/ and doctor_a.py in {here} or above it: open this notebook "
                            "from the folder that holds doctor_a.py, or one inside it")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook import casebook
from lab.testkit import clinic, rules
from lab.course import lesson_files as lessons

book = casebook.of("A")
IDEAS = tomlread.loads((lessons.lesson("A").folder / "ideas.toml").read_text())["ideas"]
if book.live():
    print("sessions: run here, on finch and on lesson 05's finished harness")
else:
    print("sessions: replayed from sessions.json. finch and lesson 05's finished harness are the "
          "grader's; their sessions were run there when this copy was made, and every verdict "
          "and figure below is worked out again, here, from what they did")

# %% [markdown]
# ## A harness that answers every prompt
#
# A colleague has "improved" lesson 05's harness. The model kept forgetting its instructions
# in long conversations, they say, so now a new conversation opens with the system prompt
# written into the record, where the model is sure to see it. Every prompt is answered, and
# the provider has not refused a request since. Call the harness **finch**.
#
# Here is a plain session on it, two prompts and two answers, beside the same session on
# lesson 05's finished harness.

# %% id="failure"
chat = {"replies": [lab.say("PORT is 8080."), lab.say("Yes, in config.py.")],
        "prompts": [{"text": "What port does the app use?"}, {"text": "Are you sure?"}]}
on_finished, on_finch = book.visit("finished", chat), book.visit("finch", chat)

for label, seen in (("finished", on_finished), ("finch", on_finch)):
    refused = [sent for sent in seen.requests if sent.refusal]
    print(f"{label:9} record: {lab.shape(seen.record):12} request 2: "
          f"{lab.shape(seen.requests[1].messages):10} refused: {len(refused)}")
print()
print("the first message of finch's record:")
print(lab.show(on_finch.record[:1], clip=80))

# %% [markdown]
# Neither was refused. Both answered twice. finch's record is one message longer, and the
# message is a user's.

# %% [markdown]
# ### What is wrong with finch's session?
#
# <details><summary><b>A</b> · Nothing: the provider accepted every request, and the model
# answered</summary>
#
# ✗ A provider checks that a request is well formed, not that it is true. Two user messages
# in a row are well formed; nobody typed the first of them.
#
# </details>
#
# <details><summary><b>B</b> · finch sends the system prompt twice, and the second request is
# refused for it</summary>
#
# ✗ Look at the output: no request was refused. The duplicate is in the conversation, where a
# provider sees only another user message.
#
# </details>
#
# <details><summary><b>C</b> · The record says the user typed the instructions, and every
# request repeats that to the model</summary>
#
# ✓ Lesson 01's record is what was said, by whom. finch's says the user opened the
# conversation by typing "You are a helpful assistant.", and each request hands the model
# that line twice: once as the system prompt, once as the user's words.
#
# </details>
#
# The course's rules can see it. `rules.judge` checks a session against rules you can state
# from outside a harness, each one visible in the requests, in the record, or in which tools
# ran. finch breaks one.

# %% id="rules"
for name, words in rules.RULES.items():
    print(f"{name:10} {words}")
print()
print("finch:   ", [str(b) for b in rules.judge(on_finch)])
print("finished:", [str(b) for b in rules.judge(on_finished)] or "no rule broken")

# %% [markdown]
# Figure A.1 draws finch's record as the session left it, with the broken rule over it.

# %% id="figure-a-1"
breach = rules.judge(on_finch)[0]
rules.picture(on_finch, breach, title="Figure A.1 · finch's record: a user message nobody typed")

# %% [markdown]
# **Figure A.1** · The record opens on a `U` the user never typed. Only the `record` rule
# notices it, because no request is refused and every message sent is one the record holds.
#
# A rule names a *symptom*: where to look, not yet why. This checkpoint is practice in going
# from one to the other, on harnesses you are not allowed to read.

# %% [markdown]
# ## Checkpoint A: what you are given, and what you write
#
# The grader holds five more harnesses like finch: **auk**, **bittern**, **crane**, **dunlin**
# and **egret**. Each is lesson 05's finished harness with exactly one idea of lessons 01 to
# 05 taken out. You see what they do, the way you would see a colleague's harness misbehave:
# the record it keeps, the requests it sends, the tools it runs. For each, you write in
# `doctor_a.py`:
#
# 1. **a case**: a session, written as plain data, on which that harness breaks a rule and
#    lesson 05's finished harness breaks none;
# 2. **a diagnosis**: the id of the idea it is missing, one of `ideas.toml`.
#
# Case first. A diagnosis without a case that broke something is a guess.

# %% [markdown]
# ## How to examine a harness
#
# A case is a dict: `"record"`, what the harness starts from; `"tools"`, each with the text it
# returns (`"result"`) or the error it raises (`"error"`); `"replies"`, the model's replies in
# order; `"prompts"`, typed one after another; and `"max_turns"`, the limit handed to
# `run_agent`, if the run should have one. Lesson 05's harness is a `run_agent` function, not
# a `Harness` with events, so a case here runs every prompt to its end: there is no walking
# away yet (checkpoint B has that). The docstring of `lab.testkit.clinic` has the whole form.
#
# A visit keeps three things to read: `seen.records`, the record after each prompt
# (`records[0]` after the first); `seen.requests`, each request with `.messages` (what the
# model got), `.record` (the record as it stood) and `.refusal`; and `seen.runs`, every tool
# run with its call. `seen.describe()` prints all three, which is what the grader prints when
# a case of yours shows nothing.

# %% id="describe"
print(on_finch.describe())

# %% [markdown]
# ### Which session shows finch's trouble?
#
# <details><summary><b>A</b> · Any session that starts from an empty record, even one prompt</summary>
#
# ✓ The first prompt of a new conversation is where finch writes the system prompt in, and
# the record rule sees it in the record after that prompt.
#
# </details>
#
# <details><summary><b>B</b> · A session handed a record that already holds a conversation</summary>
#
# ✗ finch writes the instructions in only when the record it is handed is empty. A case that
# starts from an old conversation carries on it exactly as the finished harness does.
#
# </details>
#
# <details><summary><b>C</b> · Only a session with a tool call in it</summary>
#
# ✗ finch's change is in how a conversation opens, before any reply. The tools are never
# involved.
#
# </details>

# %% id="which-session"
old_talk = [lab.user("Hi."), lab.say("Hello. What can I do?")]
for label, case in (("handed a conversation", {"record": old_talk, "prompts": chat["prompts"][:1]}),
                    ("from an empty record", {"prompts": chat["prompts"][:1]})):
    broken = [b.rule for b in rules.judge(book.visit("finch", case))]
    print(f"{label:22} -> {', '.join(broken) or 'no rule broken'}")

# %% [markdown]
# ## From the symptom to the idea
#
# finch broke `record`: its record holds a message nobody typed. Figure A.2 sets finch's
# second request beside the finished harness's for the same session.

# %% id="figure-a-2"
lab.draw(("request 2 on the finished harness", on_finished.requests[1].messages),
         ("request 2 on finch", on_finch.requests[1].messages),
         compare=True, title="Figure A.2 · the same two prompts, two requests")

# %% [markdown]
# **Figure A.2** · One message differs: finch's request opens on the system prompt, in the
# user's role, and both requests are valid.
#
# ### Which idea is finch missing?
#
# <details><summary><b>A</b> · <code>roles_say_who_spoke</code></summary>
#
# ✗ Close, and a fair first guess: a user message says the user spoke. But finch gets every
# role of the conversation right. Its mistake is storing something that never belonged in
# the conversation at all.
#
# </details>
#
# <details><summary><b>B</b> · <code>system_prompt_never_stored</code></summary>
#
# ✓ Lesson 01 sends the system prompt beside every request, as `complete(system, messages,
# tools)`, and keeps it out of the record. finch keeps it in, and so says it twice.
#
# </details>
#
# <details><summary><b>C</b> · <code>prose_is_not_protocol</code></summary>
#
# ✗ That is lesson 02's idea about tool results, which must not travel as a user's words.
# No tool ran in this session.
#
# </details>

# %% id="diagnosis"
idea = IDEAS["system_prompt_never_stored"]
print(f"finch is missing system_prompt_never_stored, from lesson {idea['lesson']:02}:")
print(f"  {idea['idea']}")

# %% [markdown]
# ### Common answers, and what each one misses
#
# - *"The rule is `record`, so the idea is whichever one mentions the record."* A rule says
#   where the damage shows. Half the ideas of lessons 01 to 05 can leave a trace in the record;
#   the message that should not be there says which.
# - *"No request was refused, so the harness is fine."* `provider` is one rule of nine. finch
#   breaks none of the provider's, and a correct harness must keep all nine.
# - *"Try each idea until the grader takes one."* The report for a wrong diagnosis shows the
#   rule your case broke, with its record and request: reason from that instead.

# %% [markdown]
# ## A case that breaks the finished harness too
#
# A case counts only if lesson 05's finished harness keeps every rule on it. Suppose your case
# hands over a record that ends on a reply whose call never got a result (a session that was
# cut off mid-tool), and prompts once. Whose bug is it when the request is refused?
#
# <details><summary><b>A</b> · The case's: it asks lesson 05's harness for something it never
# promised</summary>
#
# ✓ The finished harness sends the record as it is, dangling call and all, and the provider
# refuses. A case that breaks the correct harness shows a bug of its own.
#
# </details>
#
# <details><summary><b>B</b> · The finished harness's: a correct harness copes with any record</summary>
#
# ✗ Lesson 05's harness promises to keep a record well formed, not to mend one it was handed.
# Repairing a broken record is lesson 10's work, five lessons later.
#
# </details>
#
# <details><summary><b>C</b> · Nobody's: the provider is being strict</summary>
#
# ✗ Strict is what a hosted provider is. Under the `provider` rule a refusal is a refusal,
# whoever caused it, which is why the grader runs your case on the finished harness first.
#
# </details>

# %% id="own-bug"
bash = lab.call("bash", {"command": "pytest"}, id="t1")
cut_off = {"record": [lab.user("Run the tests."), lab.reply(bash)],
           "prompts": [{"text": "Try again."}]}

seen = book.visit("finished", cut_off)
for found in rules.judge(seen):
    print(rules.explain(seen, found))

# %% [markdown]
# The grader reports exactly this when a case breaks the finished harness: the rule, the
# record, the request and the refusal.

# %% [markdown]
# ## A limit is part of the case
#
# Lesson 05's `run_agent` takes `max_turns`, and a case can hand it one. Give the finished
# harness `max_turns=2` and a model whose every reply asks for a tool. How many requests does
# the run make?
#
# <details><summary><b>A</b> · Three: two turns of tools, and the request that follows them</summary>
#
# ✗ That counts turns of tools instead of requests, so the first request is free. A harness
# that counts that way breaks the `limit` rule on exactly this kind of session.
#
# </details>
#
# <details><summary><b>B</b> · Two, and then a failed reply of its own says why it stopped</summary>
#
# ✓ The limit counts requests, the first one included, and is checked before each is sent.
# The stop goes on the record as an assistant message with empty content and stop_reason
# "error".
#
# </details>
#
# <details><summary><b>C</b> · As many as the model likes: the limit only stops the tools</summary>
#
# ✗ It stops the loop. With no request, nothing more can be asked for.
#
# </details>

# %% id="limit"
keeps_asking = {"tools": [{"name": "step", "result": "ok"}],
                "replies": [lab.reply(lab.call("step", {"n": n})) for n in (1, 2, 3, 4)],
                "prompts": [{"text": "Step until it is done."}], "max_turns": 2}
seen = book.visit("finished", keeps_asking)
print("requests:", len(seen.requests))
print("record:  ", lab.shape(seen.record))
print("the stop:", lab.show(seen.record[-1:], clip=80))
print("rules:   ", [b.rule for b in rules.judge(seen)] or "no rule broken")

# %% [markdown]
# Figure A.3 draws that record: two replies that asked, their results, and the harness's note
# at the end.

# %% id="figure-a-3"
lab.draw(lab.Panel("the record after a run stopped at max_turns=2", seen.record, check=False,
                   note="the last message is the harness's own: the run reached its limit"),
         title="Figure A.3 · a runaway stopped at its limit, on the finished harness")

# %% [markdown]
# **Figure A.3** · The stop is data, an empty failed reply at the end of the record, and the
# `record` rule accepts it only where the case gave a limit.
#
# ### Common answers, and what each one misses
#
# - *"Any case with a tool in a loop tests the limit."* Only if the case hands over
#   `max_turns`. Lesson 05's default is `None`, no limit at all, and the clinic's model says
#   "Done." once its replies run out, so a case without a limit always ends by itself.
# - *"A limit of 1 is too small to show anything."* It shows the most: with `max_turns=1` the
#   first request is the whole budget, and a harness that does not count it sends a second.
# - *"The harness's stop note breaks `record`: no model wrote it."* Lesson 05 makes that note
#   on purpose, as data, so the rule accepts an empty failed reply in a case that set a limit.
#   Any other message the harness writes by itself still counts as an invention.

# %% [markdown]
# ## What the view sends for a failure
#
# A reply breaks off after the words "Let me look", with no call. Then the user types again.
# What does lesson 05's view send for the failed reply in the second request?
#
# <details><summary><b>A</b> · The reply as it was recorded, its words and all</summary>
#
# ✓ It has content, so a provider takes it, and it is on the record, so the model is told
# nothing that did not happen.
#
# </details>
#
# <details><summary><b>B</b> · Nothing: every failed reply is left out</summary>
#
# ✗ Only an empty one is. Lesson 05's view keeps a failed reply that got something out,
# because that is a turn the model did take.
#
# </details>
#
# <details><summary><b>C</b> · An INTERRUPTED result in its place</summary>
#
# ✗ INTERRUPTED answers a call with no result, and it is lesson 10's. This reply has no call,
# and lesson 05's harness has no INTERRUPTED.
#
# </details>

# %% id="failure-with-words"
stutter = {"replies": [lab.fail("connection reset", lab.text("Let me look")), lab.say("Found it.")],
           "prompts": [{"text": "Where is the config?"}, {"text": "Well?"}]}
seen = book.visit("finished", stutter)
print("record:   ", lab.shape(seen.record))
print("request 2:", lab.shape(seen.requests[1].messages))
print("what request 2 holds for the failed reply:")
print(lab.show(seen.requests[1].messages[1:2], clip=80))

# %% [markdown]
# ## Your turn
#
# `doctor_a.py`, at the top of the project, holds one `case_<name>()` for each of the five and
# the `DIAGNOSIS` dict. The lab's builders (`lab.reply`, `lab.call`, `lab.fail`, `lab.say`,
# `lab.text`, `lab.tool_result`, `lab.user`) make the messages of a case. The ideas of
# `ideas.toml` come from five lessons, and each shows only in a particular kind of session:
#
# - lesson 01's record and system prompt: how a conversation opens, and what it holds after;
# - lesson 02's one call in, one result out: a call, and whose id its result carries;
# - lesson 03's loop: a reply with one call, and a reply with several;
# - lesson 04's failures: a tool that raises, a tool nobody has, and what happens next;
# - lesson 05's limit and failed reply: `max_turns` and a model that will not stop, a reply
#   that fails empty, with words, or with a call, and a prompt after any of them.
#
# ### The build
#
# **Spec.** `case_<name>()` returns a case (plain data: dicts, lists, strings, numbers) that
# `lab.testkit.clinic` can run on a `run_agent` harness; on the harness `<name>` it must break at
# least one of the rules printed above, and on lesson 05's finished harness none.
# `DIAGNOSIS[<name>]` is one id of `ideas.toml`: the idea `<name>` lacks. Each harness lacks
# exactly one, no two the same.
#
# **Five gaps, one a harness**, each a case of a few lines of data and one entry of the
# `DIAGNOSIS` dict at the top of the file, about twenty-five lines in all. Fill them harness by harness, case first.
#
# **Ten graded tests**, two a harness, all run on the grader's side, where the five harnesses
# are; your file is asked for `DIAGNOSIS` and for what each case function returns, and nothing
# else. For each harness:
#
# - *its case breaks a rule on it and none on the finished harness* (3 points): your case runs
#   on both. If it breaks nothing on the harness, the report shows what happened there; if it
#   breaks the finished harness, the report shows the rule, the record, the request and the
#   refusal.
#   <!-- test: test_auk_case_breaks_a_rule_on_auk_and_none_on_the_finished_harness -->
#   <!-- test: test_bittern_case_breaks_a_rule_on_bittern_and_none_on_the_finished_harness -->
#   <!-- test: test_crane_case_breaks_a_rule_on_crane_and_none_on_the_finished_harness -->
#   <!-- test: test_dunlin_case_breaks_a_rule_on_dunlin_and_none_on_the_finished_harness -->
#   <!-- test: test_egret_case_breaks_a_rule_on_egret_and_none_on_the_finished_harness -->
# - *its diagnosis names the idea it is missing* (2 points): if the idea named is another, the
#   report shows what your case did on that harness, the rule it broke with its record and
#   request, to reason from.
#   <!-- test: test_auk_diagnosis_names_the_idea_it_is_missing -->
#   <!-- test: test_bittern_diagnosis_names_the_idea_it_is_missing -->
#   <!-- test: test_crane_diagnosis_names_the_idea_it_is_missing -->
#   <!-- test: test_dunlin_diagnosis_names_the_idea_it_is_missing -->
#   <!-- test: test_egret_diagnosis_names_the_idea_it_is_missing -->
#
# Grade it with `lab-check --harness doctor_a.py --lesson A` where the five harnesses are (the
# course's own project, or the grader when you hand it in). In a student's copy, a bare
# `lab-check` checks what it can without them: that every case is one `lab.testkit.clinic` can run and
# every diagnosis an id of `ideas.toml`, five different ones. **Hand in** `doctor_a.py` where
# your course collects it (on Gradescope, upload the file); you may hand it in again after
# reading the report, as often as your course allows, and the last one counts. Each hand-in
# costs you a wait, so try your cases first, as below.
#
# <details><summary>A hint, in two folds: first a question</summary>
#
# For each harness, where would its missing idea leave a trace (a request, the record, a tool
# run), and what is the smallest session that walks through that spot? A healthy session
# passes every one of the five.
#
# </details>
#
# <details><summary>Then an outline</summary>
#
# Start every case from `chat` or `keeps_asking` above and change one thing at a time: how many
# calls a reply holds, whether a tool raises, how a reply ends, the limit, what the record
# holds when the harness is made. Try it on your own lesson 05 harness (the next cell) and hand
# it in; once it breaks something, the diagnosis test's report shows the rule and where. Then
# ask which idea, had the harness kept it, would have kept that rule, and check it comes from
# the lesson whose kind of session you wrote.
#
# </details>
#
# **Try a case before you hand it in.** You hold a finished lesson 05 harness: your own
# `harness.py` from lesson 05, which passed its tests. A case must break no rule on it, and
# `clinic.visit(module, case)` runs a case on any harness module, as the grader does, for
# `rules.judge` to judge. To see a case catch a harness one idea short, make one yourself:
# copy your harness.py to `broken_05.py`, take one idea out of the copy by hand (a line or
# two), and run the case on both. Put the two paths in the cell, and run it after each edit of
# `doctor_a.py`.

# %% id="try-a-case"
from lab.notebook.harnesses import load_harness

LESSON_05 = ""   # the path of your own lesson 05 harness.py, e.g. "../05-.../harness.py"
BROKEN = ""      # a copy of it with one idea taken out by hand, e.g. "broken_05.py"

if not LESSON_05 and book.live():  # the course's own project: its finished one stands in
    LESSON_05 = str(lessons.lesson(5).finished)


def broken_by(path, case):
    """The rules `case` breaks on the harness in the file at `path`, as rule names."""
    module = load_harness(pathlib.Path(path).expanduser(), name=pathlib.Path(path).stem)
    return [b.rule for b in rules.judge(clinic.visit(module, case))]


try:
    mine = load_harness(ROOT / "doctor_a.py", name="doctor")
except Exception as error:  # the file, mid-edit
    mine = None
    print(f"doctor_a.py does not import ({type(error).__name__}: {error})")
for name in ("auk", "bittern", "crane", "dunlin", "egret") if mine and LESSON_05 else ():
    try:
        case = getattr(mine, f"case_{name}")()
        fair = broken_by(LESSON_05, case)
        caught = broken_by(BROKEN, case) if BROKEN else None
    except Exception as error:  # a case mid-edit, or one the clinic cannot run
        print(f"case_{name}: {type(error).__name__}: {error}")
        continue
    print(f"case_{name}: on lesson 05's harness {', '.join(fair) or 'no rule broken (fair)'}"
          + (f"; on {BROKEN} {', '.join(caught) or 'no rule broken'}" if BROKEN else ""))
if not LESSON_05:
    print("Put the path of your own lesson 05 harness.py in LESSON_05 above, and run this cell.")

# %% [markdown]
# ## After the lab passes: your five cases, read back
#
# This cell reads your `doctor_a.py` (the file `LAB_HARNESS` names, if it names one) and lays
# out, for each harness, the idea you named, the lesson it comes from, and what your case
# types. With every gap filled, the five ideas are five different ones. Where finch is here to
# run on, the cell also runs each case on finch. Any case that starts from an empty record
# convicts finch under `record`, whatever it was aimed at: one more reason a broken rule alone
# never names the idea.

# %% id="after-pass"
from lab.notebook.harnesses import load_harness

FIVE = ("auk", "bittern", "crane", "dunlin", "egret")


def read_back(doctor, name):
    """The idea `doctor` names for `name`, the lesson it is from, and the case's prompts."""
    diagnosis = getattr(doctor, "DIAGNOSIS", None)
    said = diagnosis.get(name) if isinstance(diagnosis, dict) else None
    where = (f"lesson {IDEAS[said]['lesson']:02}" if said in IDEAS
             else "not named yet" if not said else "not an idea of ideas.toml")
    try:
        case = getattr(doctor, f"case_{name}")()
    except Exception as error:  # the student's function, mid-edit
        return said, where, None, f"case_{name}() raised {type(error).__name__}: {error}"
    problem = clinic.problem(case)
    if problem:
        return said, where, None, f"not a case yet: {problem}"
    typed = " / ".join(p["text"] for p in case["prompts"])
    limit = f" (max_turns={case['max_turns']})" if "max_turns" in case else ""
    return said, where, case, typed + limit


named = pathlib.Path(os.environ.get("LAB_HARNESS") or ROOT / "doctor_a.py")
named = named if named.is_file() else ROOT / named  # a LAB_HARNESS relative to the project
try:
    doctor = load_harness(named, name="doctor")
except Exception as error:  # the student's file, mid-edit: say so and stop here
    doctor = None
    print(f"{named.name} does not import ({type(error).__name__}: {error}); "
          "fix it and run this cell again")

if doctor is not None:
    ideas_named = []
    for name in FIVE:
        said, where, case, typed = read_back(doctor, name)
        ideas_named += [said] if said in IDEAS else []
        print(f"{name:8} {said or '-':36} {where:14} {typed}")
        if case is not None and book.live() and clinic.problem(case, book.harness("finch")) is None:
            caught = [b.rule for b in rules.judge(book.visit("finch", case))]
            print(f"{'':8} the same case on finch: {', '.join(caught) or 'no rule broken'}")
    lessons_named = sorted({IDEAS[i]["lesson"] for i in ideas_named})
    print()
    print(f"{len(set(ideas_named))} different ideas named, from lessons "
          f"{', '.join(f'{n:02}' for n in lessons_named) or '(none yet)'}")

# %% [markdown]
# ## Compared with production harnesses
#
# **pi-mono** (badlogic/pi-mono, read at commit `83378aa`) makes the same promises as lesson
# 05's harness about tools, and tests them from the outside, as you have been doing.
#
# - **A result carries its call's id.** `emitToolCallOutcome` builds every tool result with
#   `toolCallId: toolCall.id` beside the tool's name (`packages/agent/src/agent-loop.ts:650-658`),
#   lesson 02's pairing in one line. [general] Hosted providers pair a result with its call by
#   that id and refuse a request in which a call has none; the wording of the refusal differs
#   from one provider to the next, and the lab's is its own.
# - **A failure is a result.** `prepareToolCall` answers a tool nobody has with an error result,
#   `Tool ${toolCall.name} not found` (`agent-loop.ts:512-519`), and an argument that fails
#   validation the same way, through the `catch` at `agent-loop.ts:547-553`. Nothing in either
#   path stops the loop: whether to go round again depends only on whether the reply had calls,
#   and every result, failed or not, joins the context before the next request
#   (`agent-loop.ts:201-215`). That is lesson 04's idea, in production code.
# - **Its tests read like cases.** `should handle tool calls and results`
#   (`packages/agent/test/agent-loop.test.ts:239-308`) scripts a model that asks for one call
#   and then answers in words, and judges only what it can see: which tool ran (`:298`) and
#   what the events said about it, `isError` false (`:300-307`).
#
# **mini-swe-agent** (SWE-agent/mini-swe-agent, read at commit `a83fcae`) carries on after a
# bad turn and stops on data, as your harness does.
#
# - A reply it cannot act on raises `FormatError`, whose messages go on the trajectory and the
#   loop goes round again (`src/minisweagent/agents/default.py:100-114`); it gives up only after
#   `max_consecutive_format_errors` in a row, three by default (`default.py:32`), and then by
#   adding an `exit` message, not by raising.
# - Its limit is checked before the model is called and counted after (`default.py:130-151`):
#   with `step_limit` N, N calls go out, as lesson 05's `max_turns` promises.
#
# **Where ours is weaker.** Our simplification: the clinic's model is a script, its tools return
# at once, and a session is judged against nine rules the course can state. pi-mono's tests also
# see timing and events, which lesson 05's `run_agent` does not hand out; mini-swe-agent is
# judged on whole benchmark tasks. For harnesses that each differ from the finished one in a
# single idea, nine rules and a short session are enough to convict; for a harness in
# production, a rule nobody wrote is a bug nobody sees, which is the further case below.

# %% [markdown]
# ## In your own words
#
# Every one of the five passes `healthy_session()`. In a sentence or two: why must a case be
# run on the finished harness as well as on the sick one?
#
# <details><summary>A model answer</summary>
#
# Because a broken rule is evidence about a harness only if a correct harness keeps that rule
# on the same session. A case that breaks both shows that the case asks for something the
# course never promised, such as mending a record that was handed over broken, and says
# nothing about the idea the sick one lacks.
#
# </details>
#
# ### Common answers, and what each one misses
#
# - *"To check the case is valid."* `lab.testkit.clinic` checks that a case is well formed before
#   either harness runs it. The finished harness checks something else: that the session is
#   fair.
# - *"Because the finished harness is the answer to compare with."* It is, but the comparison
#   is not "same output": a case passes when the sick harness breaks a rule, even if both
#   records differ in harmless ways.
# - *"It need not be: a rule is a rule."* Then every case that hands over a dangling call would
#   score on all five harnesses, and teach nothing about any of them.

# %% [markdown]
# ## A further case
#
# Another team's harness, **heron**, retries quietly: when a reply fails, it throws the failed
# reply away and asks the model once more before storing anything. Every request is accepted
# and the user sees an answer. Which of the nine rules does a case break on heron?
#
# <details><summary><b>A</b> · <code>provider</code>: the retry sends a request that is refused</summary>
#
# ✗ The retry sends the very request that failed, which was well formed; the provider takes it.
#
# </details>
#
# <details><summary><b>B</b> · <code>record</code>: the record holds something that did not happen</summary>
#
# ✗ The record rule asks what the record holds. heron's holds only what did happen; what it
# lacks is the failed reply the model did send.
#
# </details>
#
# <details><summary><b>C</b> · None of the nine: no rule asks whether every reply reached the record</summary>
#
# ✓ heron breaks lesson 05's `failed_reply_kept`, and this clinic cannot convict it. To catch
# it you would need a rule of its own ("every reply the model gave is on the record") and a
# case whose reply fails.
#
# </details>
#
# The principle that settles this case and the next: **a rule can only convict what it looks
# at, so before you diagnose, ask where the missing idea would leave a trace, and whether any
# rule looks there.** When none does, the honest diagnosis is "not visible here".

# %% [markdown]
# ## Wrapping up
#
# **You hit** a harness that answered every prompt and was never refused, and told the model
# twice that the user had typed its instructions.
#
# **You built** `doctor_a.py`: five cases, each a session that makes one harness break a rule
# and leaves lesson 05's harness whole, and five diagnoses, each reasoned from the rule its
# case broke.
#
# **The principle:** a rule names a symptom; a diagnosis names the idea whose absence explains
# it, and a case is evidence only if the correct harness survives it.
#
# **Your harness now** is lesson 05's, unchanged: this checkpoint adds no names to it.
# `SYSTEM` · `user_message` · `tool_calls` · `error_message` · `str_arg` · `int_arg` ·
# `tool_specs` · `run_tool` · `run_agent` · `context_for_model` · `is_empty_failure`. What you
# wrote is its examiner: `DIAGNOSIS` · `case_auk` · `case_bittern` · `case_crane` ·
# `case_dunlin` · `case_egret` (this checkpoint's).
#
# Each harness's missing idea was taught in one of lessons 01 to 05: finding which is the
# checkpoint, so no page of the course says it, this one included.
#
# **Still open.** Lesson 05's harness survives a runaway and a 503. Then the model asks to read
# a log file of forty megabytes, the harness faithfully hands all of it back as one result, and
# every request after that is too long to send.
#
# **Previous:** 05 · The runaway and the 503.
#
# **Next:** 06 · The file that ate the context.
