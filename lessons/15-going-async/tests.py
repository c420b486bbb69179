"""The graded tests of lesson 15, "going async".

Run them with lab_check, never by importing your harness here: every test runs your harness
in a process of its own and judges the plain data that comes back.

    lab-check --harness harness.py --lesson 15

Every session is one reply asking for a few calls of the grader's own tools, which keep a log
of what happened to them: when each started, whether it met the tool it was waiting for,
when it finished, whether it was cancelled and whether its cleanup ran. Nothing here is
timed. Two tools that wait for each other meet within a few turns of the event loop when
they run together and never meet when they run one after the other, on any machine; a
tool that "hangs" waits until it is stopped (or a fixed number of turns, so that a harness
that never stops it still finishes, and is caught by the log). The manifest lists the gaps
in the order to fill them (together, stopped, door).
"""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect

INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")

TOGETHER = ("the calls of one reply run at the same time: every call is started before any "
            "result is waited for, so two tools that each wait for the other to have started "
            "both meet.")
CALL_ORDER = ("results are recorded in the order the calls were written, whichever tool "
              "finishes first: the record, the message_end events and the next request all "
              "keep the model's order.")
PROTOCOL = ("lesson 07's events are unchanged for a frontend: tool_execution_start for every "
            "call of the reply, then for each call in order its result's message_end and its "
            "tool_execution_end, then turn_end; each message is recorded before it is "
            "announced, and starts and ends pair up.")
ONE_EACH = ("every call gets exactly one result, run together or not: a plain (not async) tool's "
            "answer, a failing tool's error (is_error), a missing tool's error, in call order.")
STEERED = ("a steer typed while the tools run (lesson 09) lands after every result of the "
           "batch, at the top of the next turn, as before.")
ABORTED = ("abort() stops the tools that are still running (each hears a CancelledError and "
           "its cleanup runs), records INTERRUPTED for them and a finished tool's own result "
           "for it, sends no further request, and ends the run with a failed reply and "
           "agent_end; the next prompt is answered.")
CANCELLED = ("a run whose task is cancelled leaves no tool running: every tool still going is "
             "cancelled and waited for (its cleanup has run by the time the caller hears of "
             "it), every call of the reply has exactly one result in the record (INTERRUPTED, "
             "word for word, for one that did not finish), the caller gets the "
             "CancelledError, and the next prompt is answered.")
KEPT_RESULT = ("a tool that finished before the run was stopped keeps its own result in the "
               "record, even when the run was stopped before it could be announced; only a "
               "call whose tool did not finish is recorded as INTERRUPTED.")
NEVER_STARTED = ("a run closed while the starts are announced, before any tool has started, "
                 "records INTERRUPTED for every call, runs none of them, and the next prompt "
                 "is answered.")
DOOR = ("closing a run (await run.aclose()) frees the harness and stops its tools before "
        "aclose returns: is_running is False and no tool of the run is still going; a run "
        "closed or dropped before its first step frees the harness too; a second prompt while "
        "a run is going is refused with RuntimeError on the caller's line.")
LEFT_OPEN = ("a frontend that breaks out of `async for` without closing the run leaves it to "
             "the event loop, which closes it soon after: until then the harness is still "
             "running (honestly), and after it is free, with every call of the run answered "
             "in the record.")
ANY_K = ("closed after any number of events, a job leaves no tool running, INTERRUPTED only "
         "for calls whose tool did not finish (in the record and in every request), the next two "
         "prompts answered, and, once any tool has started, every call with its result in the "
         "record.")


# -- small helpers ------------------------------------------------------------------------------

def step(call_id, **what):
    return {"name": "step", "arguments": {"id": call_id, **what}}


def note(call_id):
    return {"name": "note", "arguments": {"id": call_id}}


def shaped(messages):
    return lab.shape(messages) or "no message"


def results(record):
    """{call id: content} of the record's tool results, and their ids in record order."""
    found = [m for m in record if m.get("role") == "toolResult"]
    return {m["tool_call_id"]: m["content"] for m in found}, [m["tool_call_id"] for m in found]


def one_result_each(record, ids):
    """Whether each of `ids` has exactly one result in `record`, right after its call, in order."""
    return lab.validate(record) == [] and results(record)[1] == ids


def events_of(seen):
    said = []
    for event in seen["events"]:
        if event["type"] == "message_end":
            said.append(f"message_end {lab.shape([event['message']])}")
        elif "call" in event:
            said.append(f"{event['type']} {event['call']}")
        else:
            said.append(event["type"])
    return said


MEET = [step("c1", meet="c2"), step("c2", meet="c1")]


# -- together ------------------------------------------------------------------------------------

def test_two_tools_of_one_reply_run_at_the_same_time(student):
    seen = student.scenario("job", calls=MEET)

    met = [line for line in seen["log"] if line.startswith("meet")]
    expect(met == ["meet c2: yes c1", "meet c1: yes c2"] or
           sorted(met) == ["meet c1: yes c2", "meet c2: yes c1"], TOGETHER,
           given="one reply asking for c1 and c2, each waiting for the other to have started",
           expected="both met", got=", ".join(met) or "neither got as far as waiting",
           note="the tools' log: " + "; ".join(seen["log"]))
    expect(one_result_each(seen["record"], ["c1", "c2"]), CALL_ORDER,
           expected="U A[c1,c2] R(c1) R(c2) A", got=shaped(seen["record"]))


def test_results_are_recorded_in_call_order_whichever_tool_finishes_first(student):
    seen = student.scenario("job", calls=[step("c1", after="c2"), step("c2")])

    finished = [line.split()[-1] for line in seen["log"] if line.startswith("finish")]
    expect(finished == ["c2", "c1"] and "after c2: yes c1" in seen["log"], TOGETHER,
           given="c1 waits for c2 to finish; c2 finishes at once",
           expected="c2 finishes, then c1", got=f"finished: {finished}",
           note="the tools' log: " + "; ".join(seen["log"]))
    expect(one_result_each(seen["record"], ["c1", "c2"]), CALL_ORDER,
           given="c2 finished first", expected="U A[c1,c2] R(c1) R(c2) A",
           got=shaped(seen["record"]))
    ends = [e for e in events_of(seen) if e.startswith("message_end R")]
    expect(ends == ["message_end R(c1)", "message_end R(c2)"], CALL_ORDER,
           expected="message_end R(c1), then message_end R(c2)", got=", ".join(ends))
    second = seen["requests"][1] if len(seen["requests"]) > 1 else []
    expect(shaped(second) == "U A[c1,c2] R(c1) R(c2)", CALL_ORDER,
           expected="the second request: U A[c1,c2] R(c1) R(c2)", got=shaped(second))


def test_the_events_keep_lesson_7s_protocol_with_tools_running_together(student):
    seen = student.scenario("job", calls=MEET)

    wanted = ["agent_start", "turn_start", "message_end U", "message_end A[c1,c2]",
              "tool_execution_start c1", "tool_execution_start c2",
              "message_end R(c1)", "tool_execution_end c1",
              "message_end R(c2)", "tool_execution_end c2", "turn_end",
              "turn_start", "message_end A", "turn_end", "agent_end"]
    met = sorted(line for line in seen["log"] if line.startswith("meet"))
    expect(events_of(seen) == wanted and met == ["meet c1: yes c2", "meet c2: yes c1"], PROTOCOL,
           given="c1 and c2, each waiting for the other to have started",
           expected=wanted, got=events_of(seen),
           note="the tools' log: " + "; ".join(seen["log"]))
    agent_end = seen["events"][-1] if seen["events"] else {}
    expect(agent_end.get("messages") == seen["record"], PROTOCOL,
           expected="agent_end carries the run's messages, as recorded",
           got=shaped(agent_end.get("messages") or []))


def test_a_plain_tool_a_failing_tool_and_a_missing_tool_each_get_one_result(student):
    calls = [step("c1", meet="c4"), note("c2"), step("c3", fail="disk full"),
             step("c4", meet="c1"), {"name": "nope", "arguments": {"id": "c5"}}]

    seen = student.scenario("job", calls=calls)

    got, order = results(seen["record"])
    expect(order == ["c1", "c2", "c3", "c4", "c5"] and lab.validate(seen["record"]) == [],
           ONE_EACH, given="c1 and c4 wait for each other; c2 is a plain tool; c3 fails; "
                           "c5 names no tool",
           expected="R(c1) R(c2) R(c3) R(c4) R(c5)", got=shaped(seen["record"]))
    expect(got.get("c2") == "noted c2" and got.get("c3") == "disk full"
           and "nope" in str(got.get("c5")), ONE_EACH,
           expected={"c2": "noted c2", "c3": "disk full", "c5": "Tool nope not found"},
           got={k: got.get(k) for k in ("c2", "c3", "c5")})
    expect("meet c1: yes c4" in seen["log"] and "meet c4: yes c1" in seen["log"], TOGETHER,
           expected="c1 and c4 met", got="; ".join(seen["log"]))


def test_a_steer_typed_while_the_tools_run_lands_after_every_result(student):
    seen = student.scenario("job", calls=MEET, steer_at="c2")

    expect(shaped(seen["record"]) == "U A[c1,c2] R(c1) R(c2) U A"
           and "meet c1: yes c2" in seen["log"] and "meet c2: yes c1" in seen["log"], STEERED,
           given="the user steers when c2 starts, while c1 waits for it",
           expected="U A[c1,c2] R(c1) R(c2) U A, and c1 and c2 met",
           got=f"{shaped(seen['record'])}; the tools' log: " + "; ".join(seen["log"]))


def test_abort_stops_the_running_tools_and_ends_the_run_with_a_failed_reply(student):
    seen = student.scenario("job", calls=[step("c1", hang=True), step("c2")],
                            stop=["abort", "c1"], then=["Never mind. Hello?"])

    expect("cancelled c1" in seen["log"] and "cleaned up c1" in seen["log"]
           and seen["ended"]["going"] == [], ABORTED,
           given="c1 hangs; the user aborts when it starts; c2 finishes at once",
           expected="c1 cancelled and cleaned up when the run ends",
           got="; ".join(seen["log"]) + f"; still going: {seen['ended']['going']}")
    got, order = results(seen["ended"]["record"])
    expect(order == ["c1", "c2"] and got.get("c1") == INTERRUPTED
           and got.get("c2") == "step c2 done", ABORTED,
           expected={"c1": INTERRUPTED, "c2": "step c2 done"}, got=got)
    record = seen["ended"]["record"]
    last = record[-1] if record else {}
    expect(shaped(record) == "U A[c1,c2] R(c1) R(c2) A(error)" and seen["ended"]["requests"] == 1
           and seen["events"] and seen["events"][-1]["type"] == "agent_end", ABORTED,
           expected="U A[c1,c2] R(c1) R(c2) A(error), one request, the run ending on agent_end",
           got=f"{shaped(record)}, {lab.counted(seen['ended']['requests'], 'request')}, "
               f"last event {seen['events'][-1]['type'] if seen['events'] else 'none'}",
           note=f"the failed reply says: {last.get('error_message')}")
    expect(seen["answers"] == ["Done."], ABORTED, expected="the next prompt answered: Done.",
           got=f"the next prompt: {seen['answers']}")


# -- stopped -------------------------------------------------------------------------------------

def test_a_cancelled_run_leaves_no_tool_running_and_every_call_with_a_result(student):
    seen = student.scenario("job", calls=[step("c1", hang=True), step("c2")],
                            stop=["cancel", "c1"], then=["Never mind. Hello?"])

    expect(seen["ended"]["going"] == [] and "cleaned up c1" in seen["log"], CANCELLED,
           given="c1 hangs; the task reading the run is cancelled when c1 starts",
           expected="no tool still going when the caller hears of the cancellation",
           got=f"still going: {seen['ended']['going']}; the tools' log: " + "; ".join(seen["log"]))
    got, order = results(seen["ended"]["record"])
    expect(order == ["c1", "c2"] and got.get("c1") == INTERRUPTED
           and lab.validate(seen["ended"]["record"]) == [], CANCELLED,
           expected="U A[c1,c2] R(c1) R(c2), c1's result INTERRUPTED word for word",
           got=f"{shaped(seen['ended']['record'])}; c1's result: {got.get('c1')!r}")
    expect(seen["ended"]["raised"] == "CancelledError", CANCELLED,
           expected="the caller's await raises CancelledError",
           got=seen["ended"]["raised"] or "nothing raised: the cancellation was swallowed")
    expect(seen["answers"] == ["Done."] and not seen["ended"]["is_running"], CANCELLED,
           expected="the harness free, and the next prompt answered",
           got=f"is_running {seen['ended']['is_running']}, answers {seen['answers']}")


def test_a_tool_that_finished_keeps_its_own_result_when_the_run_is_stopped(student):
    for how in ("cancel", "abort"):
        seen = student.scenario("job", calls=[step("c1"), step("c2", hang=True), step("c3")],
                                stop=[how, "c2"])

        got, order = results(seen["ended"]["record"])
        wanted = {"c1": "step c1 done", "c2": INTERRUPTED, "c3": "step c3 done"}
        expect(order == ["c1", "c2", "c3"] and got == wanted, KEPT_RESULT,
               given=f"c2 hangs, c1 and c3 finish at once; {how} when c2 starts",
               expected=wanted, got=got, note="the tools' log: " + "; ".join(seen["log"]))


def test_a_run_closed_before_its_tools_start_records_every_call_as_interrupted(student):
    seen = student.scenario("job", calls=[step("c1"), step("c2")], stop=["close", 5],
                            then=["Never mind. Hello?"])

    got, order = results(seen["ended"]["record"])
    expect(order == ["c1", "c2"] and set(got.values()) == {INTERRUPTED}
           and not any(line.startswith("start") for line in seen["log"]), NEVER_STARTED,
           given="the run closed at its fifth event, tool_execution_start c1",
           expected="R(c1) R(c2), both INTERRUPTED, and no tool started",
           got=f"{shaped(seen['ended']['record'])}; the tools' log: {seen['log']}")
    expect(seen["answers"] == ["Done."], NEVER_STARTED, expected=["Done."], got=seen["answers"])


# -- door ----------------------------------------------------------------------------------------

def test_closing_the_run_frees_the_harness_and_stops_its_tools_before_aclose_returns(student):
    seen = student.scenario("job", calls=[step("c1"), step("c2", hang=True)], stop=["close", 7])

    expect(not seen["ended"]["is_running"] and seen["ended"]["going"] == [], DOOR,
           given="c2 hangs; the run closed at its seventh event, c1's message_end",
           expected="is_running False and no tool going once aclose has returned",
           got=f"is_running {seen['ended']['is_running']}, still going "
               f"{seen['ended']['going']}", note="the tools' log: " + "; ".join(seen["log"]))
    for how in ("close", "drop"):
        early = student.scenario("unstarted", how=how)

        expect(early["before"] and not early["after"] and early["next_prompt"] == "Answered.",
               DOOR, given=f"a run handed out by prompt(), then {how}d before its first step",
               expected="running before, free after, the next prompt answered",
               got=f"before {early['before']}, after {early['after']}, next prompt: "
                   f"{early['next_prompt']}")
    twice = student.scenario("twice")

    expect(twice["refused"] == "already running; use steer() or follow_up()"
           and twice["rest"][-1:] == ["agent_end"], DOOR,
           given="prompt() called again after the first run's first event",
           expected="RuntimeError('already running; use steer() or follow_up()'), and the "
                    "first run goes on to agent_end", got=twice)


def test_a_run_left_open_by_its_frontend_is_finished_by_the_event_loop(student):
    seen = student.scenario("left_open")

    expect(seen["just_after"] and not seen["later"], LEFT_OPEN,
           given="a frontend breaks out of `async for` at tool_execution_start and never "
                 "closes the run",
           expected="running just after the break, free once the event loop has had a turn",
           got=f"just after: {seen['just_after']}, later: {seen['later']}")
    expect(lab.validate(seen["record"]) == [], LEFT_OPEN, expected="a record a provider takes",
           got=shaped(seen["record"]))


# -- hidden ----------------------------------------------------------------------------------------

JOB = [step("c1"), step("c2", hang=True), step("c3")]


def test_a_job_closed_after_any_number_of_events_leaves_a_valid_record_and_no_tool_running(student):
    whole = student.scenario("job", calls=JOB, stop=["cancel", "nobody"])
    for k in range(len(whole["events"])):
        seen = student.scenario("job", calls=JOB, stop=["close", k],
                                then=["Never mind.", "Hello?"])

        record = seen["ended"]["record"]
        got, _ = results(record)
        finished = {line.split()[-1] for line in seen["log"] if line.startswith("finish")}
        shown = [m for request in seen["requests"] for m in request
                 if m.get("role") == "toolResult" and m.get("content") == INTERRUPTED]
        wrongly = sorted({m["tool_call_id"] for m in shown if m["tool_call_id"] in finished} |
                         {i for i, content in got.items() if content == INTERRUPTED
                          and i in finished})
        answered = [a for a in seen["answers"] if a in ("Done.", "Answered.")]
        expect(seen["ended"]["going"] == [] and not wrongly and len(answered) == 2, ANY_K,
               given=f"c2 hangs, c1 and c3 finish at once; the run closed after "
                     f"{lab.counted(k, 'event')}",
               expected="no tool going, INTERRUPTED only for unfinished calls, the next two "
                        "prompts answered",
               got=f"{shaped(record)}; still going {seen['ended']['going']}; INTERRUPTED for "
                   f"finished {wrongly}; answers {seen['answers']}")
        if any(line.startswith("start") for line in seen["log"]):
            expect(lab.validate(record) == [], ANY_K,
                   given=f"closed after {lab.counted(k, 'event')}, once a tool had started",
                   expected="every call with its result in the record", got=shaped(record))


@given(st.permutations(["c1", "c2", "c3"]))
@settings(max_examples=6, deadline=None)
def test_any_finishing_order_is_recorded_in_call_order(student, order):
    calls = [step(order[0])] + [step(later, after=before)
                                for before, later in itertools.pairwise(order)]
    calls.sort(key=lambda call: call["arguments"]["id"])

    seen = student.scenario("job", calls=calls)

    finished = [line.split()[-1] for line in seen["log"] if line.startswith("finish")]
    expect(finished == list(order) and one_result_each(seen["record"], ["c1", "c2", "c3"]),
           CALL_ORDER, given=f"the tools finish in the order {list(order)}",
           expected=f"finished {list(order)}; R(c1) R(c2) R(c3)",
           got=f"finished {finished}; {shaped(seen['record'])}")
