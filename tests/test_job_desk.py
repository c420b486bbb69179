"""Lesson 15's desk and stepper, on their own: the desk decides and writes the tools' log and
refuses what no run of the tools could do; the stepper runs an event loop only while a step is
taken. (Graded through a real lab-check: test_lesson15_forgeries.py and test_labs.py.)"""

import asyncio

import pytest

import lab
from lab.kit.jobs import Desk, LocalLoop, note_tool, step_tool
from lab.kit.stepping import Stepper


def called(desk, *ids):
    tool = step_tool(desk, lambda desk, arguments: None)
    for me in ids:
        tool["execute"]({"id": me})


def test_a_tool_that_waits_for_another_hears_wait_until_it_starts_then_yes():
    desk = Desk(patience=5)
    called(desk, "c1", "c2")
    desk.start("c1")

    before = [desk.ask("c1", "meet", "c2") for _ in range(2)]
    desk.start("c2")
    after = desk.ask("c1", "meet", "c2")

    assert (before, after) == (["wait", "wait"], "yes")
    assert desk.lines == ["start c1", "start c2", "meet c2: yes c1"]


def test_a_tool_that_waits_longer_than_its_patience_gives_up_and_says_so():
    desk = Desk(patience=3)
    called(desk, "c1")
    desk.start("c1")

    said = [desk.ask("c1", "after", "c2") for _ in range(4)]

    assert said == ["wait", "wait", "gave up", "gave up"]
    assert desk.lines == ["start c1", "after c2: gave up c1"]


@pytest.mark.parametrize("misdeed, fault", [
    (lambda desk: desk.start("c1"), "c1 started, but the harness had not called its tool"),
    (lambda desk: (called(desk, "c1"), called(desk, "c1")),
     "the harness called c1's tool a second time"),
    (lambda desk: (called(desk, "c1"), desk.start("c1"), desk.start("c1")),
     "c1 started a second time"),
    (lambda desk: (called(desk, "c1"), desk.finish("c1")), "c1 finished before it had started"),
    (lambda desk: (called(desk, "c1"), desk.start("c1"), desk.finish("c1"),
                   desk.cancelled("c1")), "c1 was cancelled after it had finished"),
    (lambda desk: (called(desk, "c1"), desk.start("c1"), desk.cleaned("c1"),
                   desk.ask("c1", "hang")), "c1 asked whether it may go on (hang) while it "
                                            "was not running"),
])
def test_the_desk_refuses_what_no_run_of_the_tools_could_do(misdeed, fault):
    desk = Desk()

    with pytest.raises(ValueError, match="the lab's desk refused"):
        misdeed(desk)

    assert desk.faults == [fault]


def test_the_note_tool_is_called_started_and_finished_at_once_and_only_once():
    desk = Desk()
    note = note_tool(desk)["execute"]

    answer = note({"id": "c2"})
    with pytest.raises(ValueError):
        note({"id": "c2"})

    assert answer == "noted c2" and desk.lines == ["note c2"]
    assert desk.faults == ["the harness called c2's tool a second time"]


async def three_events(seen):
    try:
        for n in range(3):
            await asyncio.sleep(0)
            yield {"type": f"e{n}"}
    finally:
        seen.append("closed")


def test_a_reading_stops_where_it_is_told_and_closes_the_run_unless_it_broke_out():
    stepper, seen = Stepper(), []

    whole = stepper.read(three_events(seen))
    two = stepper.read(three_events(seen), most=2)
    kept = three_events(seen)
    broke = stepper.read(kept, until="e0")

    assert [e["type"] for e in whole["events"]] == ["e0", "e1", "e2"] and whole["raised"] is None
    assert [e["type"] for e in two["events"]] == ["e0", "e1"]
    assert [e["type"] for e in broke["events"]] == ["e0"]
    assert seen == ["closed", "closed"]  # the run broken out of is still open
    del kept
    stepper.turns(5)  # the garbage collector hands it to the loop, which closes it
    assert seen == ["closed", "closed", "closed"]
    stepper.shut()


def test_a_step_cancelled_while_the_run_waits_reports_the_cancellation_the_run_let_out():
    stepper = Stepper()

    async def waits_for_ever():
        yield {"type": "start"}
        stepper.cancel()  # as the desk's on_start does, from inside the step
        await asyncio.sleep(0)
        yield {"type": "never"}

    reading = stepper.read(waits_for_ever())

    assert reading == {"events": [{"type": "start"}], "raised": "CancelledError"}
    assert stepper.cancel() is False  # no step is being taken now
    stepper.shut()


def test_a_job_runs_from_inside_a_running_event_loop_as_a_notebook_runs_it():
    import importlib.util

    from conftest import PROJECT

    path = PROJECT / "lessons" / "15-going-async" / "finished.py"
    spec = importlib.util.spec_from_file_location("finished_15", path)
    harness = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(harness)
    model = lab.ScriptedModel([lab.reply(lab.call("step", {"id": "c1", "meet": "c2"}, id="c1"),
                                         lab.call("step", {"id": "c2", "meet": "c1"}, id="c2")),
                               lab.forever(lambda request: lab.say("Done."))])

    async def in_a_kernel():
        return lab.run_job(harness, model, "Go.")

    facts = asyncio.run(in_a_kernel())

    assert "meet c2: yes c1" in facts["lines"] and "meet c1: yes c2" in facts["lines"]
    assert facts["faults"] == [] and lab.validate(facts["record"]) == []


def test_a_local_loop_steps_the_same_reading_as_the_stepper():
    loop, seen = LocalLoop(), []

    reading = loop.read(three_events(seen), most=1)

    assert [e["type"] for e in reading.events] == ["e0"] and seen == ["closed"]
    loop.shut()
