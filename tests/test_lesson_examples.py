"""The lesson's thirteen examples, each checked against the output the lesson prints.

The expected text of each example is the lesson's own printed output (our trusted reference,
in seed_outputs.py), not something this code produced. Each example gets a fresh harness module, so
one that swaps `context_for_model` cannot leak into the next. The third runs on the starter:
it shows the session the lesson begins with, before the fix.
"""

import asyncio
import contextlib
import io

import pytest

import damaged
import lab
from conftest import LESSON_10, load_harness
from seed_outputs import SEED


def step_tool(execute):
    return {"name": "step", "description": "Do one step of the job.",
            "parameters": {"type": "object", "required": ["n"],
                           "properties": {"n": {"type": "integer", "description": "Which step."}}},
            "execute": execute}


def answer_of(message, harness):
    return message.get("error_message") or harness.text_of(message)


async def steer_lands_after_the_batch(harness):
    model = lab.ScriptedModel([
        lab.reply(lab.text("Three steps, then."), *[lab.call("step", {"n": n}) for n in (1, 2, 3)]),
        lab.say("Done, with spaces.")])

    def step(arguments):
        if arguments["n"] == 2:
            h.steer("Actually, use spaces.")
        return f"step {arguments['n']} done"

    h = harness.Harness(model, harness.SYSTEM, [step_tool(step)])
    await lab.drive(h.prompt("Do the three steps."))
    print("the record:      ", lab.shape(h.messages))
    print("model calls:     ", len(model.calls))
    print("second request:  ", lab.shape(model.calls[1].messages))
    print("valid record:    ", lab.validate(list(h.messages)) == [])


async def one_outage_ends_a_naive_session(harness):
    harness.context_for_model = lambda messages: list(messages)  # the teammate's one line
    model = lab.ScriptedModel([lab.say("config.py sets PORT = 9090."), lab.fail("503 overloaded"),
                               lab.say("It is back."), lab.say("Still here.")])
    h = harness.Harness(model, harness.SYSTEM, [])
    for words in ("What is in config.py?", "And main.py?", "Never mind. Hello?", "Anyone?"):
        await lab.drive(h.prompt(words))
        print(f"{words!r:24} -> {answer_of(h.messages[-1], harness)}")
    print()
    print("the record:", lab.shape(h.messages))


async def walk_away_bricks_the_starter(harness):
    ws = lab.Workspace({"main.py": "def main():\n\treturn 1\n", "config.py": "PORT = 9090\n"})
    shell, started = lab.Shell(ws), []

    def run_line(arguments):
        started.append(arguments["command"])
        return shell.run(arguments["command"])[0]

    bash = {"name": "bash", "description": "Run a shell command.", "execute": run_line,
            "parameters": {"type": "object", "required": ["command"],
                           "properties": {"command": {"type": "string", "description": "The line."}}}}
    model = lab.ScriptedModel([
        lab.reply(lab.text("Running the tests."), lab.call("bash", {"command": "pytest"})),
        lab.say("config.py sets PORT = 9090."), lab.say("Yes, still here."),
        lab.say("Shall we start again?")])
    h = harness.Harness(model, harness.SYSTEM, [harness.make_read_tool(ws), bash])
    events = await lab.drive(h.prompt("Reformat main.py and run the tests."), stop_after=5)
    print("the last event the screen got:", events[-1]["type"])
    print("commands that ran:            ", started)
    print("the record:                   ", lab.shape(h.messages))
    print()
    for words in ("Never mind. What is in config.py?", "Are you still there?", "Hello?"):
        await lab.drive(h.prompt(words))
        print(f"{words!r:36} -> {answer_of(h.messages[-1], harness)}")
    print()
    print("the record:", lab.shape(h.messages))


def card_1_missing(harness):
    record = damaged.missing_result
    view = harness.repair_tool_history(record)
    print(f"record   {lab.shape(record):32} refused: {lab.validate(record)[0]}")
    print(f"view     {lab.shape(view):32} accepted")
    print()
    print("what stands in c2's place:")
    print(lab.show(view[3:4], clip=200))


def card_2_orphan(harness):
    record = damaged.orphan_result
    view = harness.repair_tool_history(record)
    print(f"record   {lab.shape(record):26} refused: {lab.validate(record)[0]}")
    print(f"view     {lab.shape(view):26} accepted")
    print()
    print("the result nobody asked for:")
    print(lab.show(record[2:3]))
    askers = [c for m in record if m["role"] == "assistant" for c in harness.tool_calls(m)
              if c["id"] == "c7"]
    print("everything the record can tell you about the call it answers:")
    print("  tool_call_id:", record[2]["tool_call_id"])
    print("  tool_name:   ", record[2]["tool_name"])
    print("  arguments:   ", askers[0]["arguments"] if askers else
          "no message in the record asked for c7")


def card_3_late(harness):
    record = damaged.late_result
    view = harness.repair_tool_history(record)
    print(f"record   {lab.shape(record):30} refused, twice over:")
    for complaint in lab.validate(record):
        print(f"         {complaint}")
    print(f"view     {lab.shape(view):30} accepted")
    print()
    print("what the model is shown for c1:")
    print(lab.show(view[2:3]))
    print("is that the very message that was recorded?", view[2] is record[3])
    print("made-up results in the view:",
          sum(m["role"] == "toolResult" and m["content"] == harness.INTERRUPTED for m in view))


def card_4_duplicate(harness):
    record = damaged.duplicate_result
    view = harness.repair_tool_history(record)
    print(f"record   {lab.shape(record):30} refused: {lab.validate(record)[0]}")
    print(f"view     {lab.shape(view):30} accepted")
    print()
    print("the two results on the record, in the order they were recorded:")
    print(lab.show(record[2:4]))
    print("the one the model is shown:")
    print(lab.show(view[2:3]))


async def card_5_cut_off(harness):
    ws = lab.Workspace({"main.py": "def main():\n\treturn 1\n", "config.py": "PORT = 9090\n"})
    model = lab.ScriptedModel([
        lab.fail("stream ended before the message was complete", lab.text("Writing the file."),
                 lab.call("write", {"path": "main.py"})),
        lab.say("Nothing was written. Shall I try again?")])
    h = harness.Harness(model, harness.SYSTEM,
                        [harness.make_read_tool(ws), harness.make_write_tool(ws)])
    await lab.drive(h.prompt("Reformat main.py."))
    print("the reply that came back:")
    print(lab.show(list(h.messages)[1:2]))
    print("writes to the disk: ", ws.writes)
    print("the record:         ", lab.shape(h.messages))
    print()
    await lab.drive(h.prompt("What happened?"))
    print("the next request:   ", lab.shape(model.calls[1].messages))
    print(lab.show(model.calls[1].messages[2:3], clip=200))
    print("the record:         ", lab.shape(h.messages))


def choosing_the_words(harness):
    record = damaged.missing_result
    call = harness.tool_calls(record[1])[1]
    for label, content, is_error in (
            ("(a) Tool call interrupted by user", "Tool call interrupted by user", True),
            ("(b) " + harness.INTERRUPTED[:31] + "...", harness.INTERRUPTED, True),
            ("(c) The tool ran. (not an error)", "The tool ran.", False)):
        stand_in = {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
                    "content": content, "is_error": is_error}
        verdict = "accepted" if not lab.validate(record[:3] + [stand_in] + record[3:]) else "refused"
        print(f"{label:38} provider: {verdict}")
    print()
    print("what the record actually says about", call["id"] + ":")
    print("  it was asked for:       ", call["name"], call["arguments"])
    print("  results recorded for it:",
          sum(m["role"] == "toolResult" and m["tool_call_id"] == call["id"] for m in record))
    print("  anything else:          ", "nothing was written down")


async def repair_at_load_or_every_request(harness):
    yesterday = [lab.user("Reformat main.py and run the tests."),
                 lab.reply(lab.text("Running the tests."),
                           lab.call("bash", {"command": "pytest"}, id="y1"))]
    every_request = harness.context_for_model

    def lesson_5_view(messages):
        return [m for m in messages if not (m["role"] == "assistant" and not m["content"]
                                            and m.get("stop_reason") == "error")]

    def answer(request):
        if [m["content"] for m in request.messages if m["role"] == "user"][-1] == "Run the tests.":
            return lab.reply(lab.text("Running them."), lab.call("bash", {"command": "pytest"}))
        return lab.say("Carrying on.")

    async def session(label, view, messages):
        harness.context_for_model = view
        shell = lab.Shell(lab.Workspace({"config.py": "PORT = 9090\n"}))
        h = harness.Harness(lab.ScriptedModel([lab.forever(answer)]), harness.SYSTEM,
                            [harness.make_bash_tool(shell)], messages=messages)
        print(label)
        await lab.drive(h.prompt("What is in config.py?"))
        print("   prompt 1, on yesterday's hole:  ", h.messages[-1].get("error_message") or "answered")
        await lab.drive(h.prompt("Run the tests."), stop_after=5)
        await lab.drive(h.prompt("Never mind. Hello?"))
        print("   prompt 2, after a second hole:  ", h.messages[-1].get("error_message") or "answered")
        print("   the record:                     ", lab.shape(h.messages))

    await session("repaired once, when the session was loaded:", lesson_5_view,
                  harness.repair_tool_history(yesterday))
    print()
    await session("repaired before every request:", every_request, list(yesterday))


def record_and_view(harness):
    call = lab.call("bash", {"command": "pytest"}, id="c1")
    record = [lab.user("Run the tests."), lab.fail("503 overloaded"), lab.user("Try again."),
              lab.reply(call), lab.user("Never mind. What is in config.py?")]
    before = lab.shape(record)
    view = harness.context_for_model(record)
    print("the record:", before)
    print("the view:  ", lab.shape(view))
    print("the record, after building the view:", lab.shape(record))
    print()
    print("in the record and not in the view:")
    print(lab.show(record[1:2]))
    print("in the view and not in the record:")
    print(lab.show(view[3:4], clip=200))
    print()
    print("messages the view shares with the record:",
          sum(any(m is r for r in record) for m in view), "of", len(view))


async def walk_away_sweep(harness):
    for k in (5, 8, 14):
        ran = []
        model = lab.ScriptedModel([lab.forever(three_step_job)])
        h = harness.Harness(model, harness.SYSTEM, [step_tool(
            lambda arguments: ran.append(arguments["n"]) or f"step {arguments['n']}: ok")])
        events = await lab.drive(h.prompt("Do the job."), stop_after=k)
        left = lab.shape(h.messages)
        for words in ("Never mind, what is in config.py?", "And main.py?"):
            await lab.drive(h.prompt(words))
        step_of = {b["id"]: b["arguments"]["n"] for m in h.messages if m["role"] == "assistant"
                   for b in harness.tool_calls(m)}
        told = sorted({step_of[m["tool_call_id"]] for request in model.calls for m in request.messages
                       if m["role"] == "toolResult" and m["content"] == harness.INTERRUPTED})
        refused = any(m.get("stop_reason") == "error" for m in h.messages)
        print(f"walked away at event {k} of 21, on {events[-1]['type']}")
        print(f"   steps that ran:             {ran}")
        print(f"   the record it left:         {left}")
        print(f"   two prompts later:          {'refused' if refused else 'answered, answered'}")
        print(f"   the record now:             {lab.shape(h.messages)}")
        print(f"   steps shown as interrupted: {told}")
        print(f"   ... that really ran:        {[n for n in told if n in ran]}")


def three_step_job(request):
    said = [m["content"] for m in request.messages if m["role"] == "user"][-1]
    results = sum(m["role"] == "toolResult" for m in request.messages)
    if said != "Do the job.":
        return lab.say("Carrying on.")
    if results == 0:
        return lab.reply(lab.text("Two steps first."), lab.call("step", {"n": 1}),
                         lab.call("step", {"n": 2}))
    return lab.reply(lab.text("One more."), lab.call("step", {"n": 3})) if results == 2 \
        else lab.say("Done.")


def reused_id(harness):
    first = lab.call("read", {"path": "a.py"}, id="c1")
    second = lab.call("read", {"path": "b.py"}, id="c1")
    record = [lab.user("Read a.py, then b.py."), lab.reply(first), lab.tool_result(first, "A = 1\n"),
              lab.reply(second), lab.tool_result(second, "B = 2\n"), lab.user("Which is bigger?")]
    view = harness.repair_tool_history(record)
    print("the record:", lab.shape(record))
    print("the view:  ", lab.shape(view))
    print()
    print("what the model is shown:")
    print(lab.show(view))
    print()
    print("the strict model's verdict on the view:", lab.validate(view)[0])


EXPECTED = {  # each example, and the notebook cell that shows the same (see seed_outputs.py)
    steer_lands_after_the_batch: "steering", one_outage_ends_a_naive_session: "teammate-503",
    walk_away_bricks_the_starter: "walk-away", card_1_missing: "card-1", card_2_orphan: "card-2",
    card_3_late: "card-3", card_4_duplicate: "card-4", card_5_cut_off: "card-5",
    choosing_the_words: "choosing-words", repair_at_load_or_every_request: "when-repair-runs",
    record_and_view: "record-and-view", walk_away_sweep: "walk-away-sweep", reused_id: "id-reuse",
}
BEFORE_THE_FIX = {walk_away_bricks_the_starter}


def printed_by(example, harness):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = example(harness)
        if asyncio.iscoroutine(result):
            asyncio.run(result)
    return "\n".join(line.rstrip() for line in out.getvalue().strip("\n").splitlines())


@pytest.mark.parametrize("example", list(EXPECTED), ids=lambda e: e.__name__)
def test_example_prints_what_the_lesson_shows(example):
    harness = load_harness(LESSON_10 / ("starter.py" if example in BEFORE_THE_FIX else "finished.py"))

    got = printed_by(example, harness)

    expected = "\n".join(line.rstrip() for line in SEED[EXPECTED[example]].strip("\n").splitlines())
    assert got == expected, f"{example.__name__} printed:\n{got}\n\nthe lesson shows:\n{expected}"
