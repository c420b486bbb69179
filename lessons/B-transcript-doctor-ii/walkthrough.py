# Checkpoint B, "Transcript doctor II": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook.ipynb`
# to write the notebook again (outputs stripped). tests/test_checkpoint_b.py proves the
# committed notebook is what this makes and runs it on a real kernel: in the course's project,
# where fir and lesson 10's finished harness run live, and in a student's edition, where their
# sessions are replayed from sessions.json (lab.notebook.casebook).

# %% [markdown]
# # B · Transcript doctor II
#
# *Five harnesses, five ways of being nearly right*
#
# *Watching and steering a run · ~45 min · 1 lab · builds on 10 · The poisoned transcript*
#
# New here? Start at lesson 01, or carry on: every lab is self-contained. This one asks you
# to write no harness code at all. It asks you to find out, from the outside, what is wrong
# with harnesses somebody else wrote.
#
# **How to read it.** Run the cells from the top. Each question keeps its options folded:
# pick one in your head, then open them. The figures are drawn from the sessions the cells
# have just run.

# %% id="setup"
# Start here: find the project folder, let this notebook import `lab` from it, and say where
# the sessions of fir and the finished harness come from in this copy.
import os
import pathlib
import sys
from lab.course import tomlread

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "lab").is_dir()
             and (folder / "doctor.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no lab/ and doctor.py in {here} or above it: open this notebook "
                            "from inside the project, e.g. lessons/B-transcript-doctor-ii/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.notebook import casebook
from lab.testkit import clinic, rules
from lab.course import lesson_files as lessons

IDEAS = tomlread.loads((lessons.lesson("B").folder / "ideas.toml").read_text())["ideas"]
if casebook.live():
    print("sessions: run here, on fir and on lesson 10's finished harness")
else:
    print("sessions: replayed from sessions.json. fir and lesson 10's finished harness are the "
          "grader's; their sessions were run there when this copy was made, and every verdict "
          "and figure below is worked out again, here, from what they did")

# %% [markdown]
# ## A harness that works
#
# A colleague hands you their harness. It is lesson 10's, they say, with a simpler repair:
# where a call has no result, it takes the call out of the reply instead of answering it.
# Their reasoning is hard to fault at first sight. The request is valid either way, the
# provider answers, and nobody sees a 400 again. Call the harness **fir**.
#
# Here is lesson 10's own session on it: the user asks for a reformat and the tests, the
# model says "Running the tests." and asks for bash, and the user walks away before bash
# starts. Then they type "Never mind. What does config.py say?". The same session runs on
# lesson 10's finished harness beside it.

# %% id="failure"
walk_away = {
    "tools": [{"name": "bash", "result": "3 passed"}],
    "replies": [lab.reply(lab.text("Running the tests."), lab.call("bash", {"command": "pytest"}))],
    "prompts": [{"text": "Reformat main.py and run the tests.", "walk_away_after": 5},
                {"text": "Never mind. What does config.py say?"}],
}
on_finished, on_fir = casebook.visit("finished", walk_away), casebook.visit("fir", walk_away)

for label, seen in (("finished", on_finished), ("fir", on_fir)):
    second = seen.requests[1]
    print(f"{label:9} record: {lab.shape(seen.record):18} request 2: {lab.shape(second.messages):16}"
          f" {'refused' if second.refusal else 'answered'}")
print()
print("what fir showed the model of its own reply, in request 2:")
print(lab.show(on_fir.requests[1].messages[1:2]))

# %% [markdown]
# Both harnesses answered. Both kept the same record. Neither was refused. If your tests ask
# "is the session still alive?", fir passes them.

# %% [markdown]
# ### What is wrong with fir's request?
#
# <details><summary><b>A</b> · Nothing. The provider took it, and the record is exactly the
# finished harness's</summary>
#
# ✗ The provider checks the shape of a request, not whether it is true, as lesson 10's
# "What the invented result says" found. A valid request can still say something nobody saw happen.
#
# </details>
#
# <details><summary><b>B</b> · It shows the model a reply it never wrote: "Running the tests."
# with no call after it</summary>
#
# ✓ The model did ask for pytest. In fir's request it did not. From here on the model
# reasons from a turn in which it announced the tests and then did nothing, and nothing in
# the request says otherwise.
#
# </details>
#
# <details><summary><b>C</b> · fir has rewritten the record, deleting the call for good</summary>
#
# ✗ Look at the two records above: they are the same. fir's rewriting happens in the list it
# sends and nowhere else, which is why it is so easy to miss.
#
# </details>
#
# The course's rules can see it. `rules.judge` checks a session against the rules lessons 5
# to 10 built, each one something visible from outside: in the requests, in the record, or in
# which tools ran. fir breaks one, and the sentence says which message.

# %% id="rules"
for name, words in rules.RULES.items():
    print(f"{name:10} {words}")
print()
print("fir:     ", [str(b) for b in rules.judge(on_fir)])
print("finished:", [str(b) for b in rules.judge(on_finished)] or "no rule broken")

# %% [markdown]
# Figure B.1 lines fir's second request up against the record it was built from, message by
# message. What the request holds and the record does not is marked.

# %% id="figure-b-1"
breach = rules.judge(on_fir)[0]
rules.picture(on_fir, breach, title="Figure B.1 · fir after a walk-away: the request holds a "
                                    "reply the model never wrote")

# %% [markdown]
# **Figure B.1** · The record's `A[c1]` went out as a plain `A`: the call is gone from the
# request, and only the rule that compares the two lists notices.
#
# A rule names a *symptom*. "The request holds a message the record does not" is where to
# look; it is not yet why. The same broken rule can come from different missing ideas, and
# one missing idea can break different rules in different sessions. This checkpoint is the
# practice of getting from one to the other.

# %% [markdown]
# ## Checkpoint B: what you are given, and what you write
#
# The grader holds five more harnesses like fir: **ash**, **birch**, **cedar**, **dogwood** and
# **elm**. Each is lesson 10's finished harness with exactly one idea of lessons 5 to 10 taken
# out. You never see their code; you see what they do, the way you would see a colleague's
# harness misbehave: through the record it keeps, the requests it sends, the events it hands
# out and the tools it runs. For each of them you write, in `doctor.py`:
#
# 1. **a case**: a session, written as plain data, on which that harness breaks a rule and
#    lesson 10's finished harness breaks none;
# 2. **a diagnosis**: the id of the idea it is missing, from `ideas.toml`.
#
# In that order. A diagnosis is reasoned from what a case made a harness do; without a case,
# it is a guess.

# %% [markdown]
# ## How to examine a harness
#
# A case is a dict: the record the harness starts from, the session's tools and what each
# does, the model's replies in order, and the prompts, each run to its end or walked away from
# after a number of events (the docstring of `lab.testkit.clinic` has the whole form). Walking away
# after event *k* is the user closing the lid at exactly that moment, so you need to know
# which event is which. Count them in a run with one call, on the finished harness:

# %% id="events"
seen = casebook.visit("finished", {"tools": walk_away["tools"], "replies": walk_away["replies"],
                                   "prompts": [{"text": "Reformat main.py and run the tests."}]})
for k, event in enumerate(seen.events[0], 1):
    print(f"event {k:2}: {event}")

# %% [markdown]
# ### After which events does a walk-away leave c1 without a result?
#
# <details><summary><b>A</b> · Only after event 5, `tool_execution_start`</summary>
#
# ✗ Event 4 leaves it too. After event 4, the reply's `message_end`, the run is paused at
# the `yield` that announced the reply; the tool has not started, and closing the run there
# means it never will.
#
# </details>
#
# <details><summary><b>B</b> · After event 4 or event 5: the reply is on the record, its tool
# never ran</summary>
#
# ✓ Both stop the run between the reply and the tool. Event 6 is the tool result's
# `message_end`, and by lesson 7's rule, mutate then announce, the result is on the record
# before that event exists.
#
# </details>
#
# <details><summary><b>C</b> · After event 4, 5 or 6: until the turn ends, nothing is final</summary>
#
# ✗ That is true of a harness that announces first and records second. On the finished
# harness, a consumer that has seen event 6 has seen a result that is already on the
# record.
#
# </details>

# %% id="walk-away-at"
for k in range(3, 9):
    case = dict(walk_away, prompts=[{"text": "Reformat main.py and run the tests.", "walk_away_after": k}])
    seen = casebook.visit("finished", case)
    moment = f"after event {k} ({seen.events[0][-1]})"
    print(f"walked away {moment:36} the record: {lab.shape(seen.record)}")

# %% [markdown]
# After events 4 and 5 the record ends on `A[c1]`; from event 6 on, `R(c1)` is there. Three
# things to read in every visit, in this order:
#
# - **the events** of each prompt, `seen.events[k]`: where the user walked away, and what they
#   had been told by then;
# - **the record**, `seen.records[k]` after prompt *k*: what the harness keeps as having
#   happened. It may only grow, and only with what somebody typed, the model said or a tool
#   returned;
# - **the requests**, `seen.requests[n].messages`, each kept with `.record`, the record as it
#   stood when that request was sent, and `.refusal`, the provider's 400 if it refused.
#
# `seen.describe()` prints all three, prompt by prompt. The grader prints the same when a
# case of yours shows nothing.

# %% id="describe"
print(on_fir.describe())

# %% [markdown]
# ## From the symptom to the idea
#
# fir's symptom: request 2 holds a reply the record does not, an `A` where the record has
# `A[c1]`. Figure B.2 sets fir's request beside the one the finished harness sent for the same
# session.

# %% id="figure-b-2"
lab.draw(("request 2 on the finished harness", on_finished.requests[1].messages),
         ("request 2 on fir", on_fir.requests[1].messages),
         compare=True, title="Figure B.2 · the same session, the same record, two requests")

# %% [markdown]
# **Figure B.2** · Two messages differ: the finished harness keeps the call and answers it
# with INTERRUPTED; fir drops the call and has nothing left to answer.
#
# ### Which idea is fir missing?
#
# <details><summary><b>A</b> · <code>record_is_not_the_view</code></summary>
#
# ✗ The record is untouched: both harnesses ended on the same record, and the rewriting
# happened in the request only. Lesson 10's "Two lists" is intact in fir; it is the view that
# is built wrong.
#
# </details>
#
# <details><summary><b>B</b> · <code>answer_the_dangling_call</code></summary>
#
# ✓ The call had no result, and instead of answering it with INTERRUPTED, fir took it out of
# the reply. Lesson 10 put it plainly: deleting is always available, and it always falsifies
# history. fir deletes on every request that has a dangling call.
#
# </details>
#
# <details><summary><b>C</b> · <code>repair_every_request</code></summary>
#
# ✗ fir did repair the second request, which was built after the damage happened. A harness
# that repaired only once, when its record was handed over, would have sent the dangling call
# and been refused: a different symptom, under the `provider` rule.
#
# </details>

# %% id="diagnosis"
idea = IDEAS["answer_the_dangling_call"]
print(f"fir is missing answer_the_dangling_call, from lesson {idea['lesson']}:")
print(f"  {idea['idea']}")

# %% [markdown]
# ### Common answers, and what each one misses
#
# - *"The broken rule is `told`, so the idea must be about telling the model things."* A rule
#   points at where the damage shows. Three ideas of lesson 10 can each put a message in a
#   request that the record does not hold; the figure tells you which one did.
# - *"Try each idea in turn until the grader accepts one."* That is elimination, and it
#   teaches nothing about the next harness. The report you get for a wrong diagnosis shows the
#   rule your case broke, with its record and request, so that you can reason instead.
# - *"fir is fine: it only ever sends valid requests."* Valid is the provider's word. The
#   course's rules ask something harder: that every message sent is either on the record or is
#   the one made-up message lesson 10 allows.

# %% [markdown]
# ## The same idea, another symptom
#
# A missing idea does not always break the same rule. Suppose the reply carries the call and
# no words. fir deletes the call as before. What does the request hold in that message's
# place?
#
# <details><summary><b>A</b> · The same as before: a valid request with the call gone</summary>
#
# ✗ Before, the reply had words to keep. Take the call out of a reply that was nothing but the
# call, and what is left has nothing in it.
#
# </details>
#
# <details><summary><b>B</b> · An assistant message with nothing in it, which the provider refuses</summary>
#
# ✓ Lesson 5 met that message: the empty failed reply, which a provider will not take as a
# turn. fir makes one out of a healthy reply, and this time the provider notices.
#
# </details>
#
# <details><summary><b>C</b> · INTERRUPTED for c1: with no words to keep, there is nothing to
# delete the call from</summary>
#
# ✗ fir's repair never answers a dangling call, whatever the reply around it holds. That is
# the idea it lacks.
#
# </details>

# %% id="figure-b-3"
no_words = dict(walk_away, replies=[lab.reply(lab.call("bash", {"command": "pytest"}))])
seen = casebook.visit("fir", no_words)
print("rules broken:", [b.rule for b in rules.judge(seen)])
rules.picture(seen, rules.judge(seen)[0], title="Figure B.3 · fir again: a call with no words "
                                                "around it is refused once deleted")

# %% [markdown]
# **Figure B.3** · Same harness, same missing idea, a different broken rule: `provider` now,
# as well as `told`. A case decides which symptom you see; the diagnosis has to account for
# all of them.

# %% [markdown]
# ## Before you hand a case in: is the bug the case's?
#
# A case scores only if lesson 10's finished harness keeps every rule on it, because a case
# can be wrong on its own. This one hands over a record whose call it named `c1` by hand, and
# then scripts a reply whose call has no id, which the scripted model numbers `c1` as well.
#
# <details><summary><b>A</b> · The finished harness's: a correct harness should cope with any
# record it is handed</summary>
#
# ✗ Lesson 10 said in its spec that call ids may be taken to be unique, and named the cost in
# "Compared with Tau". A case that breaks that promise tests the promise, not the harness.
#
# </details>
#
# <details><summary><b>B</b> · The case's: two calls with one id, in one request</summary>
#
# ✓ The scripted model hands out `c1`, `c2`, ... to calls written without an id, as real
# providers number theirs. Give hand-made calls ids of your own (`r1`, `r2`) and the clash is
# gone.
#
# </details>
#
# <details><summary><b>C</b> · The rule's: ids are the provider's business, not the harness's</summary>
#
# ✗ The provider refuses the request; under the `provider` rule a refusal is a refusal,
# whoever caused it. Which is why the grader runs your case on the finished harness first.
#
# </details>

# %% id="own-bug"
read = lab.call("read", {"path": "config.py"}, id="c1")
clash = {"record": [lab.user("Read config.py."), lab.reply(read),
                    lab.tool_result(read, "PORT = 9090\n")],
         "tools": [{"name": "read", "result": "PORT = 9090\n"}],
         "replies": [lab.reply(lab.call("read", {"path": "config.py"}))],
         "prompts": [{"text": "Read it again."}]}

seen = casebook.visit("finished", clash)
for found in rules.judge(seen):
    print(rules.explain(seen, found))

# %% [markdown]
# The grader reports exactly this when a case breaks the finished harness: the rule, the
# record, the request and the refusal.

# %% [markdown]
# ## Your turn
#
# `doctor.py`, at the top of the project, holds one `case_<name>()` for each of the five and
# the `DIAGNOSIS` dict. The lab's builders (`lab.reply`, `lab.call`, `lab.fail`, `lab.say`,
# `lab.tool_result`, `lab.user`) make the messages of a case. The ideas of `ideas.toml` come
# from five lessons, and each is something only a particular kind of session can test:
#
# - lesson 5's failed reply: a reply that fails with nothing in it, with words, with a call;
# - lesson 7's ordering, mutate then announce: a walk-away after each event of a run in turn;
# - lesson 8's door and its one writer: a walk-away, then another prompt;
# - lesson 9's steering: a steer typed while a tool runs (a tool's `"steer"`), in a batch of
#   one call and in a batch of several;
# - lesson 10's view and record, and its pairing of results with calls: a record handed over
#   already damaged (a missing result, an orphan, a late result, two results for one call,
#   results out of call order), and a second prompt after any of the above.
#
# ### The build
#
# **Spec.** `case_<name>()` returns a case (plain data: dicts, lists, strings, numbers) that
# `lab.testkit.clinic` can run; on the harness `<name>` it must break at least one of the rules
# printed above, and on lesson 10's finished harness none. `DIAGNOSIS[<name>]` is one id of
# `ideas.toml`: the idea `<name>` lacks. Every harness lacks exactly one, no two the same.
#
# **Five gaps, one a harness**, each a case of about five lines of data and one entry of the
# `DIAGNOSIS` dict at the top of the file, about thirty lines in all. Fill them harness by harness, case first.
#
# **Ten graded tests**, two a harness, all run on the grader's side, where the five harnesses
# are; your file is asked for `DIAGNOSIS` and for what each case function returns, and nothing
# else. For each harness:
#
# - *its case breaks a rule on it and none on the finished harness* (3 points): your case runs
#   on both. If it breaks nothing on the harness, the report shows what happened there (the
#   events, the records, the requests); if it breaks the finished harness, the report shows
#   the rule, the record, the request and the refusal.
#   <!-- test: test_ash_case_breaks_a_rule_on_ash_and_none_on_the_finished_harness -->
#   <!-- test: test_birch_case_breaks_a_rule_on_birch_and_none_on_the_finished_harness -->
#   <!-- test: test_cedar_case_breaks_a_rule_on_cedar_and_none_on_the_finished_harness -->
#   <!-- test: test_dogwood_case_breaks_a_rule_on_dogwood_and_none_on_the_finished_harness -->
#   <!-- test: test_elm_case_breaks_a_rule_on_elm_and_none_on_the_finished_harness -->
# - *its diagnosis names the idea it is missing* (2 points): if the idea named is not the one,
#   the report shows what your case did on that harness, the rule it broke with its record
#   and request, so you can reason from it to the idea.
#   <!-- test: test_ash_diagnosis_names_the_idea_it_is_missing -->
#   <!-- test: test_birch_diagnosis_names_the_idea_it_is_missing -->
#   <!-- test: test_cedar_diagnosis_names_the_idea_it_is_missing -->
#   <!-- test: test_dogwood_diagnosis_names_the_idea_it_is_missing -->
#   <!-- test: test_elm_diagnosis_names_the_idea_it_is_missing -->
#
# Grade it with `lab-check --harness doctor.py --lesson B` where the five harnesses are (the
# course's own project, or the grader when you submit).
#
# <details><summary>A hint, in two folds: first a question</summary>
#
# For each harness, which of the three places (the requests, the record, the tool runs) would
# its missing idea leave a trace in, and which session is the only kind that puts a trace
# there? A healthy session passes every harness: the case has to go wrong in one particular
# way.
#
# </details>
#
# <details><summary>Then an outline</summary>
#
# Start every case from `walk_away` above and change one thing at a time: where the user walks
# away, what a tool does while it runs, how a reply ends, or what the record holds when the
# harness is made. Send the case in: the case test tells you whether it broke anything, and
# if it did, the diagnosis test's report shows the rule and where. Then ask which idea of
# `ideas.toml`, had the harness kept it, would have kept that rule, and check that the idea
# comes from the lesson whose kind of session you wrote.
#
# </details>

# %% [markdown]
# ## After the lab passes: your five cases, read back
#
# This cell reads your `doctor.py` (the file `LAB_HARNESS` names, if it names one) and lays
# out, for each harness, the idea you named, the lesson it comes from, and the session your
# case types. With every gap filled, the five ideas are five different ones, and they come
# from four different lessons. Where fir is here to run on, the cell also asks whether your
# case would have caught fir: most cases aimed at another idea do not, which is the point.

# %% id="after-pass"
from lab.notebook.harnesses import load_harness

FIVE = ("ash", "birch", "cedar", "dogwood", "elm")


def read_back(doctor, name):
    """The idea `doctor` names for `name`, the lesson it is from, and the case's prompts."""
    diagnosis = getattr(doctor, "DIAGNOSIS", None)
    said = diagnosis.get(name) if isinstance(diagnosis, dict) else None
    where = (f"lesson {IDEAS[said]['lesson']}" if said in IDEAS
             else "not named yet" if not said else "not an idea of ideas.toml")
    try:
        case = getattr(doctor, f"case_{name}")()
    except Exception as error:  # the student's function, mid-edit
        return said, where, None, f"case_{name}() raised {type(error).__name__}: {error}"
    problem = clinic.problem(case)
    if problem:
        return said, where, None, f"not a case yet: {problem}"
    typed = " / ".join(p["text"] + (f" (walk away after {p['walk_away_after']})"
                                    if "walk_away_after" in p else "") for p in case["prompts"])
    return said, where, case, typed


named = pathlib.Path(os.environ.get("LAB_HARNESS") or ROOT / "doctor.py")
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
        print(f"{name:8} {said or '-':38} {where:15} {typed}")
        if case is not None and casebook.live():
            caught = [b.rule for b in rules.judge(casebook.visit("fir", case))]
            print(f"{'':8} the same case on fir: {', '.join(caught) or 'no rule broken'}")
    lessons_named = sorted({IDEAS[i]["lesson"] for i in ideas_named})
    print()
    print(f"{len(set(ideas_named))} different ideas named, from lessons "
          f"{', '.join(map(str, lessons_named)) or '(none yet)'}")

# %% [markdown]
# ## Compared with a production harness: pi-mono
#
# pi-mono's agent loop (`packages/agent/src/agent-loop.ts`, read at commit `83378aad`) makes
# three of this checkpoint's decisions, one of them the other way round, and tests its loop
# the way you have been examining harnesses.
#
# - **A failed reply is not acted on.** A reply whose stop reason is `error` or `aborted`
#   ends the run on the spot, before the line that looks for its tool calls
#   (`agent-loop.ts:195-199`). That is lesson 5's rule, in the same place.
# - **Announced, then recorded.** `emitToolCallOutcome` sends `tool_execution_end` and the
#   result's `message_end` (`agent-loop.ts:636-663`), and the results join the context only
#   after the whole batch is back (`agent-loop.ts:211-214`). That is the order lesson 7
#   forbids. It is safe there because pi-mono's loop does not stop when a listener does: the
#   loop runs on its own and pushes events into a stream (`agent-loop.ts:40-51`), and a run is
#   stopped through an `AbortSignal`, not by closing a generator. In your harness the consumer
#   drives the loop, so the order is the only thing standing between a walk-away and a lost
#   result.
# - **Steering never lands between a call and its result**, by a different route from lesson
#   9's. After each tool it asks for steering, and if the user has typed something, every call
#   left in the batch is answered at once with an error result, "Skipped due to queued user
#   message." (`agent-loop.ts:397-407`, `:665-682`), and the steer opens the next turn
#   (`agent-loop.ts:219-222`). Your loop lets the batch finish and then lets the steer in;
#   pi-mono gives up the rest of the batch to hear the user sooner. Both keep every call
#   paired with one result, right after it.
# - **Its test reads like a case.** `should inject queued messages and skip remaining tool
#   calls` (`packages/agent/test/agent-loop.test.ts:391-496`) scripts a model that asks for two
#   calls, steers after the first tool, and then judges from the outside: which tools ran
#   (`:471`), what the events said (`:474-482`), and what the provider was sent on the second
#   call (`:436-442`, `:495`). Records, events, requests: your three places.
#
# Where the course's clinic is weaker. Our simplification: the model is a script, every tool
# returns at once, and a session is judged against nine rules the course can state. pi-mono's
# tests can also see timing, such as parallel tools that finish out of order and must still be
# reported in the order they were asked for (`should execute tool calls in parallel and emit
# tool results in source order`, `agent-loop.test.ts:310`), which a clinic of generators, one
# tool at a time, cannot. For a checkpoint whose harnesses differ from the finished one in one
# idea each, nine rules and a session are enough; for a harness in production, a rule nobody
# wrote is a bug nobody sees, which is the further case below.

# %% [markdown]
# ## In your own words
#
# Every one of the five passes the healthy session, and so would a harness missing several
# ideas at once. In a sentence or two: what can a case prove about a harness, and what can no
# number of cases prove?
#
# <details><summary>A model answer</summary>
#
# A case that breaks a rule proves the harness lacks something, and the rule and the session
# say roughly what. No set of cases proves a harness has every idea, because each case only
# walks one path, and a missing idea shows only on the paths that need it. That is why the
# finished harness is also held to every case: a case is evidence about a harness only if a
# correct harness passes it.
#
# </details>
#
# ### Common answers, and what each one misses
#
# - *"A case proves which idea is missing."* It proves that a rule broke. Getting from the rule
#   to the idea is the diagnosis, and one rule has several possible causes (Figures B.1 and
#   B.3 are one cause with two rules).
# - *"Enough cases prove a harness correct."* Enough cases of the kinds you thought of. The five
#   harnesses pass every session that is not aimed at their idea.
# - *"A case proves nothing if the provider accepted every request."* The provider is one rule of
#   nine, and some damage lives in the record alone, where no provider ever looks.

# %% [markdown]
# ## A further case
#
# Another team's harness, **hemlock**, answers every prompt, and every request it sends is
# accepted. Its trick: when a request would be long, it leaves the oldest few messages out of
# what it sends, calls and results together. Which of the nine rules does a case break on
# hemlock?
#
# <details><summary><b>A</b> · <code>provider</code>: a request that starts in the middle of a
# conversation is refused</summary>
#
# ✗ Cut at a user message, what is left is a perfectly valid request. Lesson 16 makes trims of
# exactly that kind on purpose.
#
# </details>
#
# <details><summary><b>B</b> · <code>told</code>: the model is shown something the record does
# not hold</summary>
#
# ✗ Every message hemlock sends is on the record. `told` checks what a request holds, not what
# it leaves out.
#
# </details>
#
# <details><summary><b>C</b> · None of the nine: no rule here looks at what a request leaves out</summary>
#
# ✓ hemlock is nearly right in a way this clinic cannot convict. To catch it you would need a
# rule of its own ("a request leaves nothing out but an empty failed reply"), and a case long
# enough to trigger it.
#
# </details>
#
# The rule that settles this case and the next like it: **a rule can only convict what it
# observes, so before you diagnose, ask which of the three places (requests, record, tool
# runs) the missing idea would leave a trace in, and whether any rule looks there.** When
# none does, the honest diagnosis is "not visible here", not the nearest idea on the list.

# %% [markdown]
# ## Wrapping up
#
# **You hit** a harness that works: every prompt answered, every request accepted, and a
# model told that it never asked for the tests.
#
# **You built** `doctor.py`: five cases, each a session that makes one harness break a rule
# and leaves the finished harness whole, and five diagnoses, each reasoned from the rule its
# case broke.
#
# **The principle:** a rule names a symptom; a diagnosis names the idea whose absence explains
# every symptom you can make the harness show.
#
# **Your harness now** is lesson 10's, unchanged: this checkpoint adds no names to it.
# `run_tool` · `run_agent` · `context_for_model` · `INTERRUPTED` · `repair_tool_history` ·
# `Harness` · `steer` · `follow_up` · `FinalTextRenderer` · `JsonRenderer`. What you wrote is
# its examiner: `DIAGNOSIS` · `case_ash` · `case_birch` · `case_cedar` · `case_dogwood` ·
# `case_elm` (this checkpoint's).
#
# Each harness's missing idea was taught in one of lessons 5 to 10: finding which is the
# checkpoint, so no page of the course says it, this one included.
#
# **Still open.** Everything these six harnesses know lives in one Python list in one process.
# The agent is halfway through writing two files when somebody trips over the power cable, and
# the record that was going to explain what happened is gone with the process.
#
# **Previous:** 10 · The poisoned transcript.
#
# **Next:** 11 · The power cable.
