"""Lesson 15's desk and stepper, on their own: the desk decides and writes the tools' log and
refuses what no run of the tools could do; the stepper runs an event loop only while a step is
taken. (Graded through a real lab-check: test_lesson15_forgeries.py and test_labs.py.)"""

import asyncio

import pytest

import lab
from lab.kit.desk import Desk, note_tool, step_tool
from lab.kit.jobs import LocalLoop
from lab.kit.stepping import Stepper


def work_of(desk, **arguments):
    """What the step tool hands back when the harness calls it with `arguments`."""
    return step_tool(desk)["execute"](arguments)


def turns_until_done(work, most=50):
    """Resume `work` as an event loop would: how many turns it waited, and its result."""
    for waited in range(most):
        try:
            next(work)
        except StopIteration as done:
            return waited, done.value
    raise AssertionError(f"still waiting after {most} turns")


def test_a_tool_waiting_for_another_waits_its_turns_until_the_other_has_started():
    desk = Desk(patience=5)
    c1, c2 = work_of(desk, id="c1", meet="c2"), work_of(desk, id="c2")

    first = [next(c1), next(c1)]  # c1 starts, and waits: c2 has not
    waited, result = turns_until_done(c2)
    after = turns_until_done(c1)

    assert first == [None, None] and (waited, result) == (0, "step c2 done")
    assert after == (0, "step c1 done")
    assert desk.lines == ["start c1", "start c2", "finish c2", "cleaned up c2",
                          "meet c2: yes c1", "finish c1", "cleaned up c1"]


def test_a_tool_that_waits_longer_than_its_patience_gives_up_and_goes_on():
    desk = Desk(patience=3)

    waited, result = turns_until_done(work_of(desk, id="c1", after="c2"))

    assert (waited, result) == (2, "step c1 done")
    assert desk.lines == ["start c1", "after c2: gave up c1", "finish c1", "cleaned up c1"]


def test_a_cancelled_tool_tidies_up_for_its_turns_then_lets_the_cancellation_out():
    desk = Desk()
    c1 = work_of(desk, id="c1", hang=True)
    next(c1)

    tidying = [c1.throw(asyncio.CancelledError())] + [next(c1) for _ in range(2)]
    with pytest.raises(asyncio.CancelledError):
        next(c1)

    assert tidying == [None, None, None] and desk.going == []
    assert desk.lines == ["start c1", "cancelled c1", "cleaned up c1"]


@pytest.mark.parametrize("misdeed, fault", [
    (lambda desk: (work_of(desk, id="c1"), work_of(desk, id="c1")),
     "the harness called c1's tool a second time"),
    (lambda desk: (lambda c1: (turns_until_done(c1), next(c1)))(work_of(desk, id="c1")),
     "c1 was resumed after it had ended"),
    (lambda desk: (lambda c1: (turns_until_done(c1), c1.throw(asyncio.CancelledError())))(
        work_of(desk, id="c1")), "c1 was stopped after it had ended"),
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


def test_a_sealed_result_is_shown_as_the_lesson_writes_it_and_an_unsealed_one_is_refused():
    from lab.testkit import unsealed
    from lab.testkit.problems import StudentGarbled
    from lab.testkit.student_loop import INTERRUPTED

    desk = Desk(sealed=True)
    _, c1 = turns_until_done(work_of(desk, id="c1"))
    calls = [{"arguments": {"id": "c1"}}, {"arguments": {"id": "c2", "fail": "disk full"}}]

    def record(c1_says, c2_says=INTERRUPTED):
        return {"record": [{"role": "toolResult", "tool_call_id": "c1", "content": c1_says},
                           {"role": "toolResult", "tool_call_id": "c2", "content": c2_says}]}

    shown = unsealed(record(c1), desk.given, calls)

    assert c1 != "step c1 done" and c1.startswith("step c1 done ")
    assert [m["content"] for m in shown["record"]] == ["step c1 done", INTERRUPTED]
    for forged in (record("step c1 done"), record(c1, c2_says="disk full"),
                   record(c1, c2_says=c1), record("pending c1")):
        with pytest.raises(StudentGarbled, match="never gave"):
            unsealed(forged, desk.given, calls)


def test_no_tool_starts_once_a_tool_of_the_run_has_been_stopped():
    desk = Desk()
    c1, c2 = work_of(desk, id="c1", hang=True), work_of(desk, id="c2")
    next(c1)
    c1.throw(asyncio.CancelledError())

    with pytest.raises(ValueError, match="the lab's desk refused"):
        next(c2)

    assert desk.faults == ["c2 was started after another tool of the run had been stopped"]
