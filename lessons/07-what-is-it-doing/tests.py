"""The graded tests of lesson 07, "What is it doing?".

Run them with lab_check, never by importing your harness here: each test drives your
run_agent (a real generator, in a process of its own) or feeds your FinalTextRenderer, and
judges the plain data that comes back.

    python lab/lab_check.py --harness harness.py --lesson 07

The first six grade the loop's events: the protocol in order, the record at every event,
walking away after every event in turn, no tool before its start is announced, balanced pairs
on every way out, and agent_end's messages; the seventh tries the same on jobs hypothesis
makes up, stopped anywhere. The next two grade FinalTextRenderer, on runs that ended and runs
walked away from; the last checks JsonRenderer, which the lesson gives you.
"""

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect

PROTOCOL = ("the protocol, in order: agent_start; for each turn turn_start, a message_end for "
            "each message added (the prompt, the reply, each result), tool_execution_start and "
            "tool_execution_end around each tool, turn_end; agent_end last.")
MUTATE_FIRST = ("mutate, then announce: when a message_end is handed out, its message is "
                "already the last one in the record, and at every event the record holds "
                "exactly the messages announced so far.")
WALK_AWAY = ("a consumer that walks away after any event leaves every tool that finished "
             "recorded: the tools that ran are exactly the results the record holds.")
START_FIRST = ("a tool runs only after its tool_execution_start has been handed out: the screen "
               "hears of a step before it happens, not after.")
PAIRS = ("starts and ends pair up on every way out (the model's answer, a failed reply, "
         "max_turns): agent_start first and agent_end last, once each; each turn_start closed "
         "by a turn_end before the next; each tool_execution_start by its tool_execution_end, "
         "for the same call.")
AGENT_END = ("agent_end carries the run's new messages: exactly what this run added to the "
             "record, in order, and nothing of the history it was handed.")
ANY_JOB = ("on any job, stopped after any event: the record holds what the screen was told, "
           "no more and no less, and the tools that ran are the results recorded.")
NO_SUCCESS = ("a run walked away from is no success: FinalTextRenderer's finish() returns "
              "False and writes one line starting 'Error:', and never the words of a reply "
              "that was not the answer.")
VERDICT = ("FinalTextRenderer writes nothing while the run goes on; at finish() a run that "
           "reached agent_end is judged by its last reply (its words and True; 'Error: <its "
           "error_message>' and False if it failed), and a run that did not is an error.")
JSON_LINES = ("given code (JsonRenderer): one line of JSON per event, as it arrives, and "
              "finish() is True only for a run that reached agent_end with no failed reply.")

THREE_STEPS = ["agent_start", "turn_start", "message_end", "message_end", "tool_execution_start",
               "message_end", "tool_execution_end", "tool_execution_start", "message_end",
               "tool_execution_end", "turn_end", "turn_start", "message_end",
               "tool_execution_start", "message_end", "tool_execution_end", "turn_end",
               "turn_start", "message_end", "turn_end", "agent_end"]


def types(events):
    return [e.get("type") if isinstance(e, dict) else repr(e) for e in events]


def watched(student, variation, job="three_steps", **options):
    """The job's run, taken to its end or walked away from, checked to be a generator."""
    seen = student.scenario("watch", job=job, seed=variation.randrange(10**9), **options)
    expect(seen["generator"], PROTOCOL, expected="run_agent(...) returns a generator of events",
           got=f"it returned {seen.get('returned')}")
    return seen


def announced(events):
    """The messages of the message_end events among `events`, in order."""
    return [e["message"] for e in events if e.get("type") == "message_end"]


def at_each_event(seen):
    """[(i, event, the record then, what the record should hold then)] for every event."""
    return [(i, event, record, seen["history"] + announced(seen["events"][:i + 1]))
            for i, (event, record) in enumerate(zip(seen["events"], seen["records"]))]


def expect_record_is_what_was_told(seen, rule, walked=""):
    expect(len(seen["records"]) == len(seen["events"]) and None not in seen["records"], rule,
           expected="the record run_agent was handed, readable at every event",
           got="run_agent's generator holds no list under its third parameter (messages)")
    for i, event, record, wanted in at_each_event(seen):
        expect(record == wanted, rule, given=f"{walked}event {i + 1}, {event.get('type')}",
               expected=wanted, got=record,
               note="expected: the history, then every message announced so far")


def expect_balanced(events, rule, story):
    """The pairs of `events` close in order, agent_start first and agent_end last."""
    names = types(events)
    expect(names[:1] == ["agent_start"] and names[-1:] == ["agent_end"]
           and names.count("agent_start") == names.count("agent_end") == 1, rule,
           given=story, expected="agent_start ... agent_end, once each", got=" ".join(names))
    turn, tool = False, None
    for i, event in enumerate(events):
        kind = event.get("type")
        wrong = ((kind == "turn_start" and turn) or (kind == "turn_end" and not turn)
                 or (kind in ("turn_start", "turn_end", "agent_end") and tool is not None)
                 or (kind == "tool_execution_start" and (tool is not None or not turn))
                 or (kind == "tool_execution_end"
                     and (tool is None or event.get("call", {}).get("id") != tool))
                 or (kind == "agent_end" and turn))
        expect(not wrong, rule, given=story, expected="every start closed by its end, in order",
               got=f"event {i + 1} ({kind}) in: {' '.join(names)}")
        if kind in ("turn_start", "turn_end"):
            turn = kind == "turn_start"
        elif kind == "tool_execution_start":
            tool = event.get("call", {}).get("id")
        elif kind == "tool_execution_end":
            tool = None


# -- the loop's events ------------------------------------------------------------------------

def test_a_job_hands_out_the_protocol_in_order(student, variation):
    seen = watched(student, variation)

    expect(types(seen["events"]) == THREE_STEPS, PROTOCOL,
           given="a job of three steps: two in one reply, one in the next, then words",
           expected=" ".join(THREE_STEPS), got=" ".join(types(seen["events"])))
    ends = announced(seen["events"])
    expect(lab.shape(ends) == lab.shape(seen["records"][-1]), PROTOCOL,
           expected=f"one message_end per message added: {lab.shape(seen['records'][-1])}",
           got=lab.shape(ends))


def test_each_message_is_on_the_record_before_its_message_end(student, variation):
    seen = watched(student, variation)

    expect_record_is_what_was_told(seen, MUTATE_FIRST)


def test_walking_away_after_any_event_leaves_every_finished_tool_recorded(student, variation):
    seed = variation.randrange(10**9)
    for k in range(1, len(THREE_STEPS) + 1):
        seen = student.scenario("watch", job="three_steps", stop_after=k, seed=seed)
        expect(seen["generator"], WALK_AWAY, expected="a generator of events",
               got=f"it returned {seen.get('returned')}")
        last = types(seen["events"])[-1:] or ["no event"]
        story = f"walked away after event {k} ({last[0]})"
        record = seen["records"][-1] if seen["records"] else None
        recorded = sorted(m["content"] for m in record or [] if m["role"] == "toolResult")
        told = sorted(m["content"] for m in announced(seen["events"]) if m["role"] == "toolResult")
        ran = sorted(f"step {n}: ok" for _, n, _ in seen["ran"])

        expect(record is not None and ran == recorded == told, WALK_AWAY, given=story,
               expected=f"the steps that ran ({ran}) are the results recorded and announced",
               got=f"recorded: {recorded if record is not None else 'unreadable'}; "
                   f"announced: {told}")


def test_no_tool_runs_before_its_start_is_handed_out(student, variation):
    seen = watched(student, variation)
    starts = [i + 1 for i, e in enumerate(seen["events"]) if e.get("type") == "tool_execution_start"]

    expect(len(seen["ran"]) == len(starts) == 3, START_FIRST, given="a job of three steps",
           expected="three steps ran, each announced by a tool_execution_start",
           got=f"{len(seen['ran'])} ran; {len(starts)} tool_execution_start events")
    for (name, n, taken), start in zip(seen["ran"], starts):
        expect(taken == start, START_FIRST, given="a job of three steps",
               expected=f"step {n} is run once {lab.counted(start, 'event')} have been taken (its "
                        "tool_execution_start is the last of them)",
               got=f"it ran when the consumer had taken {taken}")


def test_starts_and_ends_pair_up_on_every_exit(student, variation):
    for job, options, story in (("three_steps", {}, "a job the model finishes"),
                                ("outage", {}, "a job whose second reply fails (503)"),
                                ("runaway", {"max_turns": 2}, "a runaway stopped by max_turns=2")):
        seen = watched(student, variation, job=job, **options)

        expect_balanced(seen["events"], PAIRS, story)
        for event in seen["events"]:
            if event.get("type") == "turn_end":
                expect(event.get("message", {}).get("role") == "assistant", PAIRS, given=story,
                       expected="turn_end carries the turn's reply", got=event)
    stopped = watched(student, variation, job="runaway", max_turns=2)
    last = announced(stopped["events"])[-1:]
    expect(len(stopped["ran"]) == 2 and [m.get("stop_reason") for m in last] == ["error"], PAIRS,
           given="a runaway stopped by max_turns=2",
           expected="two steps ran, and the last message announced is the stop, failed",
           got=f"{len(stopped['ran'])} ran; last announced: {lab.show(last) or 'nothing'}")


def test_agent_end_carries_exactly_the_runs_new_messages(student, variation):
    seen = watched(student, variation, history=True)
    end = seen["events"][-1]

    expect(end.get("type") == "agent_end", AGENT_END, expected="agent_end last",
           got=types(seen["events"])[-1])
    added = seen["records"][-1][len(seen["history"]):]
    expect(end.get("messages") == added and end.get("messages") == announced(seen["events"]),
           AGENT_END, given="a record that starts with an earlier conversation: U A",
           expected=added, got=end.get("messages"),
           note="expected: the record's messages after the two it started with")


@st.composite
def jobs(draw):
    """A job of one to three rounds of one to three calls, then words or a failed reply, or
    a run cut short by max_turns; and the event to walk away after (None: the end)."""
    rounds = draw(st.lists(st.integers(1, 3), min_size=0, max_size=3))
    if draw(st.booleans()) and draw(st.booleans()):
        rounds.append("fail")
    max_turns = draw(st.sampled_from([None, None, None, 1, 2]))
    events = 3 + sum(3 * n + 3 for n in rounds if n != "fail") + 3  # an upper bound
    stop = draw(st.one_of(st.none(), st.integers(1, events)))
    return rounds, max_turns, stop


@given(jobs())
@example(job=([2, 1], None, 7))
@settings(max_examples=25)
def test_any_job_stopped_anywhere_leaves_the_record_the_screen_was_told(student, job):
    rounds, max_turns, stop = job

    seen = student.scenario("watch", job="rounds", rounds=rounds, max_turns=max_turns,
                            stop_after=stop)

    expect(seen["generator"], ANY_JOB, expected="a generator", got=seen.get("returned"))
    story = f"rounds {rounds}, max_turns {max_turns}, walked away after {stop}: "
    expect_record_is_what_was_told(seen, ANY_JOB, walked=story)
    recorded = [m for m in seen["records"][-1] if m["role"] == "toolResult"] if seen["records"] else []
    expect(len(recorded) == len(seen["ran"]), ANY_JOB, given=story,
           expected=f"{lab.counted(len(seen['ran']), 'result')} recorded, one per tool that ran",
           got=f"{len(recorded)}")
    if stop is None:
        expect_balanced(seen["events"], ANY_JOB, story)


# -- the frontends ----------------------------------------------------------------------------
# A frontend is a fold over events, so it is fed events made here: the runs below, as the
# protocol has them, whole or cut off after any event.

def run_of(turns, failed=None):
    """The events of a run: `turns` is a list of (words, [step numbers]) for replies that ask
    for tools, then the answer's words; or, with `failed`, a last reply that failed with it."""
    ids = iter(f"call_{n}" for n in range(100))
    events = [{"type": "agent_start"}, {"type": "turn_start"},
              {"type": "message_end", "message": lab.user("Do the job.")}]
    said = [events[-1]["message"]]

    def say(message):
        said.append(message)
        events.append({"type": "message_end", "message": message})

    for words, steps in turns[:-1]:
        calls = [lab.call("step", {"n": n}, id=next(ids)) for n in steps]
        reply = lab.reply(lab.text(words), *calls)
        say(reply)
        for call in calls:
            events.append({"type": "tool_execution_start", "call": call})
            result = lab.tool_result(call, f"step {call['arguments']['n']}: ok")
            say(result)
            events.append({"type": "tool_execution_end", "call": call, "result": result})
        events += [{"type": "turn_end", "message": reply}, {"type": "turn_start"}]
    last = lab.fail(failed) if failed else lab.say(turns[-1][0])
    say(last)
    events += [{"type": "turn_end", "message": last}, {"type": "agent_end", "messages": said}]
    return events


TESTS_JOB = [("Running the tests.", [1]), ("3 passed.", [])]


def test_a_run_walked_away_from_is_never_called_a_success(student):
    events = run_of(TESTS_JOB)
    for k in range(1, len(events)):
        shown = student.scenario("render", renderer="FinalTextRenderer", events=events[:k])
        story = f"a run walked away from after event {k} ({events[k - 1]['type']})"

        expect(shown["verdict"] is False, NO_SUCCESS, given=story,
               expected="finish() returns False", got=f"finish() returned {shown['verdict']!r}")
        lines = shown["at_finish"].splitlines()
        expect(len(lines) == 1 and lines[0].startswith("Error:")
               and "Running the tests." not in shown["at_finish"], NO_SUCCESS, given=story,
               expected="one line, 'Error: ...', and no words of the reply that asked for tools",
               got=f"finish() wrote {shown['at_finish']!r}")


@st.composite
def finished_or_not(draw):
    turns = [(f"Round {n}.", list(range(1, draw(st.integers(1, 3)) + 1)))
             for n in range(draw(st.integers(0, 2)))]
    turns.append((draw(st.sampled_from(["Done.", "All 3 passed.", "Nothing to do."])), []))
    failed = draw(st.sampled_from([None, None, "503 overloaded",
                                   "Stopped: the run reached max_turns=2."]))
    events = run_of(turns, failed)
    return turns, failed, draw(st.integers(1, len(events)))


FAILED_TO_ITS_END = ([("Reading the file.", [1]), ("Done.", [])], "503 overloaded")


@given(finished_or_not())
@example(case=([("Reading the file.", [1]), ("Done.", [])], None, 4))
@example(case=(*FAILED_TO_ITS_END, len(run_of(*FAILED_TO_ITS_END))))  # a failed run, ended
@settings(max_examples=30)
def test_any_run_gets_the_verdict_it_earned(student, case):
    turns, failed, k = case
    events = run_of(turns, failed)
    ended = k == len(events)

    shown = student.scenario("render", renderer="FinalTextRenderer", events=events[:k])

    story = (f"a run of {lab.counted(len(turns), 'reply', 'replies')}"
             f"{', the last failed: ' + failed if failed else ''}, "
             + ("taken to its end" if ended else f"walked away from after event {k}"))
    wanted = (f"{turns[-1][0]}\n" if ended and not failed else
              f"Error: {failed}\n" if ended else "one line starting 'Error:'")
    expect(shown["during"] == "", VERDICT, given=story, expected="nothing written during the run",
           got=shown["during"])
    expect(shown["verdict"] is (ended and not failed), VERDICT, given=story,
           expected=f"finish() returns {ended and not failed}", got=repr(shown["verdict"]))
    right = (shown["at_finish"] == wanted if ended else
             shown["at_finish"].startswith("Error:") and shown["at_finish"].count("\n") == 1)
    expect(right, VERDICT, given=story, expected=wanted, got=repr(shown["at_finish"]))


def test_json_renderer_writes_a_line_per_event_and_knows_a_walked_away_run(student):
    for events, ok, story in ((run_of(TESTS_JOB), True, "a run taken to its end"),
                              (run_of(TESTS_JOB)[:5], False, "a run walked away from"),
                              (run_of(TESTS_JOB, "503 overloaded"), False, "a run that failed")):
        shown = student.scenario("render", renderer="JsonRenderer", events=events)

        lines = [json.loads(line) for line in shown["during"].splitlines()]
        expect(lines == events and shown["at_finish"] == "", JSON_LINES, given=story,
               expected=f"{lab.counted(len(events), 'line')} of JSON, the events as given",
               got=f"{lab.counted(len(lines), 'line')}, then {shown['at_finish']!r} at finish")
        expect(shown["verdict"] is ok, JSON_LINES, given=story, expected=f"finish() is {ok}",
               got=repr(shown["verdict"]))
