# Lesson 16, "The adapter": the source of walkthrough.ipynb.
#
# Edit this file, never the .ipynb; then, from the project root, run `python -m lab.notebook`
# to write the notebook again (outputs stripped). tests/test_lesson16.py proves the committed
# notebook is what this makes and runs it on a real kernel.

# %% [markdown]
# # 16 · The adapter
#
# *The view in a provider's own words · roughly 40 minutes · one lab · builds on lessons 10 and 11*
#
# Lessons 12 to 15 are not in this course yet. Nothing here needs them: this lesson takes the
# view you built in lesson 10 (and still build, unchanged, after lesson 11 put the record on
# disk) and sends it to a real provider's API.
#
# Until now the scripted model has read the harness's own messages. A hosted model does not.
# Anthropic's Messages API and OpenAI's Chat Completions each have a format of their own, and
# each refuses a request that breaks its rules with a 400 and a sentence. The record stays in
# our format, because it records what happened, not how one provider likes to hear it. What a
# provider needs is a property of *the request*, worked out at the edge, each time, from the
# view. The code that does it is an adapter, and you write one today: `to_anthropic`,
# `to_openai`, and `safe_trim`, a cut of a long history that can never part a call from its
# result.
#
# **How to read it.** Run the cells from top to bottom. Questions have their answers folded
# shut: pick one in your head, then unfold. Both figures are drawn from the cells above them.

# %% id="setup"
# Start here: find the project folder, let the notebook import `lab` from it, and choose the
# harness the examples run on (your harness.py once its lesson-16 gap is filled).
import json
import pathlib
import sys

here = pathlib.Path.cwd().resolve()
ROOT = next((folder for folder in (here, *here.parents) if (folder / "damaged.py").is_file()), None)
if ROOT is None:
    raise FileNotFoundError(f"no damaged.py in {here} or above it: open this notebook from "
                            "inside the project, e.g. lessons/16-adapter/")
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import lab
from lab.wire import shape as wire_shape
from lab.wire_figure import side_by_side

chosen = lab.pick_harness(lesson=16)
harness = chosen.module
print(chosen)

# %% [markdown]
# ## One view, three ways of saying it
#
# Here is a record with everything this lesson is about: two tools asked for at once, their
# results, a user who typed *"Use spaces."* while they ran, and one result that came back as
# an error. `context_for_model` turns it into the view, as it has since lesson 10.

# %% id="the-view"
tests, lint = lab.call("bash", {"command": "pytest"}, id="c1"), lab.call("bash", {"command": "ruff ."}, id="c2")
record = [lab.user("Run the tests and the linter."),
          lab.reply(lab.text("Both at once."), tests, lint),
          lab.tool_result(tests, "3 passed"),
          lab.tool_result(lint, "main.py:1: W191 indentation contains tabs", is_error=True),
          lab.user("Use spaces, not tabs."),
          lab.say("Understood; switching to spaces.")]
view = harness.context_for_model(record)
print(lab.show(view))

# %% [markdown]
# Anthropic's Messages API has two roles only, `user` and `assistant`, and they must
# alternate. A call is a `tool_use` block inside the assistant's turn; a result is a
# `tool_result` block inside the *next* user turn, and the results come first in that turn.
#
# **Question.** Our view has four messages after the assistant's: two results, then the
# user's words, then the reply. How many messages does the Anthropic request have after the
# assistant turn with the two calls?
#
# <details><summary><b>A</b> · four, one for each of ours</summary>
#
# ✗ Three user turns in a row: the roles do not alternate, and the second result is not in the
# message right after the calls. Anthropic refuses it.
#
# </details>
#
# <details><summary><b>B</b> · two: one user turn holding both results and then the words, and the reply</summary>
#
# ✓ Consecutive messages of one role become one turn. The view already has the results
# first, so merging in order keeps them first.
#
# </details>
#
# <details><summary><b>C</b> · two: one user turn with the words first, then both results, and the reply</summary>
#
# ✗ Same count, wrong order. A tool_result that is not at the front of its turn does not
# count as "immediately after" its call.
#
# </details>

# %% id="anthropic"
to_anthropic = harness.to_anthropic(view)
print(wire_shape(to_anthropic, "anthropic"))
print(json.dumps(to_anthropic[2], indent=1))

# %% [markdown]
# OpenAI's Chat Completions keeps one message for each of ours, but spells them differently:
# the calls go in the assistant message's `tool_calls`, each with its arguments as a JSON
# *string*, and each result becomes a message of role `tool` that names its `tool_call_id`.
# There is no error flag on a tool message, so a failed result has to say so in its words.

# %% id="openai"
to_openai = harness.to_openai(view)
print(wire_shape(to_openai, "openai"))
print(json.dumps(to_openai[1], indent=1))

# %% [markdown]
# ### Figure 1: one view, three formats
#
# The same conversation as the harness keeps it, as Anthropic reads it, and as OpenAI reads
# it. Under each column, the lab's validator for that format gives its verdict.

# %% id="figure-16-1"
side_by_side({"the view (the lab's messages)": (view, None),
              "Anthropic Messages": (to_anthropic, "anthropic"),
              "OpenAI Chat Completions": (to_openai, "openai")},
             title="One view, three formats")

# %% [markdown]
# ## What a provider says when the adapter is wrong
#
# `lab.ScriptedModel(script, wire=...)` stands for a provider: it takes requests in that
# format and answers them, and it refuses a broken one with the provider's own error text.
# Here are two adapters a reasonable person might write first. The first gives every message
# of the view a turn of its own; the second sends the arguments as the dict they are in the
# record.

# %% id="refusals"
def one_turn_each(view):
    return [{"role": "user" if m["role"] != "assistant" else "assistant",
             "content": harness.anthropic_blocks(m)[1]} for m in view]


def arguments_as_they_are(view):
    request = harness.to_openai(view)
    for message in request:
        for call_block in message.get("tool_calls", []):
            call_block["function"]["arguments"] = json.loads(call_block["function"]["arguments"])
    return request


for wire, translate in (("anthropic", one_turn_each), ("openai", arguments_as_they_are)):
    model = lab.ScriptedModel([lab.say("Done.")], wire=wire)
    answer = model.complete(harness.SYSTEM, translate(view), [])
    print(f"{wire}: {answer['error_message']}\n")

# %% [markdown]
# Both are refused, and only one of them could have been caught earlier by a type checker.
# The official SDKs describe a request as typed dictionaries; the project's test suite reads
# every adapter in this lesson against them (`tests/test_lesson16.py`). Those types know that
# `function.arguments` is a string, so they catch the second adapter. They do not know which
# message must follow which, so the first adapter, results after the user's words, and both
# bad trims below all pass the types and fail at the provider. Pairing is a rule about the
# sequence, and only something that reads the sequence, like `lab.validate(request,
# wire=...)`, can check it before the provider does.

# %% id="violations"
for problem in lab.validate(one_turn_each(view), wire="anthropic"):
    print(problem)

# %% [markdown]
# ## Trimming a long history
#
# A long session outgrows the context window, and the first fix everybody writes is
# `messages[-keep:]`. That cut can fall between an assistant's calls and their results,
# leaving results that answer nothing in the message before them. The request is refused,
# and only on the next turn, which is why this bug is so hard to trace.
#
# `safe_trim(messages, keep)` returns the last `keep` messages, unless the cut would fall
# inside a run of results; then it moves *earlier*, to the assistant message that asked. So
# `keep` is a floor, not a ceiling, and it never returns more than it was given.

# %% id="trim"
three = [lab.call("read", {"path": p}, id=i) for i, p in (("c3", "a.py"), ("c4", "b.py"), ("c5", "c.py"))]
long_view = view + [lab.user("Now read the three modules."), lab.reply(*three),
                    *[lab.tool_result(c, f"# {c['arguments']['path']}") for c in three],
                    lab.say("All three are short.")]
naive = long_view[-3:]
safe = harness.safe_trim(long_view, 3)
print("the view:   ", lab.shape(long_view))
print("naive tail: ", lab.shape(naive))
print("safe_trim:  ", lab.shape(safe))
print("naive, on Anthropic's wire:", lab.ScriptedModel([lab.say("ok")], wire="anthropic")
      .complete(harness.SYSTEM, harness.to_anthropic(naive), [])["error_message"])

# %% [markdown]
# ### Figure 2: a trim that backs up to a legal boundary
#
# Asked for the last three messages, the naive slice starts on `R(c4)`, whose call it cut
# away. `safe_trim` backs up over the results to `A[c3,c4,c5]` and keeps five: the smallest
# legal cut that keeps at least three.

# %% id="figure-16-2"
lab.draw(lab.Panel("the view", long_view),
         lab.Panel("long_view[-3:]", naive, note="the cut falls among the results"),
         lab.Panel("safe_trim(long_view, 3)", safe, note="backed up to the call"),
         title="Asked for three messages", per_row=3)

# %% [markdown]
# ## The adapter in the harness
#
# Nothing in the loop changes. `Adapter(model, keep=None)` wraps any model: each request's
# view is trimmed (when `keep` is set), translated for `model.wire`, and sent; the reply comes
# back as the lab's message. Here a whole session runs against a model that speaks only
# OpenAI's format, with a trim of four on every request.

# %% id="session"
def read_tool(arguments):
    return f"# contents of {arguments['path']}"


reads = [lab.call("read", {"path": p}) for p in ("a.py", "b.py")]
openai_model = lab.ScriptedModel([lab.reply(*reads), lab.say("Both read."),
                                  lab.say("Nothing else to do.")], wire="openai")
tool = {"name": "read", "description": "Read a file.", "execute": read_tool,
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}
h = harness.Harness(harness.Adapter(openai_model, keep=4), harness.SYSTEM, [tool])
await lab.drive(h.prompt("Read a.py and b.py."))
await lab.drive(h.prompt("Anything else?"))
print("the record:   ", lab.shape(h.messages))
for n, request in enumerate(openai_model.calls, 1):
    print(f"request {n}:    ", wire_shape(request.messages, "openai"))

# %% [markdown]
# The record holds all seven messages, in our format. Each request was cut to at least four,
# at a legal place, and spoken in OpenAI's words; none was refused.
#
# ## What you write, and how it is graded
#
# In region 6 of `harness.py`, the gap marked `# --- your code ---`: `to_anthropic(view)`,
# `to_openai(view)` and `safe_trim(messages, keep)`. All three are pure: they build new lists
# and change nothing they are given.
#
# ```sh
# lab-check --harness harness.py --lesson 16
# ```
#
# The graded tests put four cards through each translation (parallel calls; a steer after the
# results; a failed reply; results recorded out of order) and judge every request by its
# shape, by the validator for its wire, and by the scripted model for that wire answering it.
# Two cards try `safe_trim`. Then hypothesis makes up histories, wrecked and whole, and checks
# that a repaired view always translates to a request both providers accept; that the same
# view always gives the same request; that a growing history's request starts with what was
# sent before (so a provider's prompt cache keeps working); that `safe_trim` is legal at
# every `keep`; and that nothing changes its input.
