"""The graded tests of lesson 08, "Two writers, one list".

Run them with lab_check, never by importing your harness here: each test drives your
harness.py's Harness in a process of its own, as the callers of a real program would (a screen
and a background job, each taking events and walking away when it likes), with the grader's
own model and tools, and judges the plain facts that come back.

    python lab/lab_check.py --harness harness.py --lesson 08

First the story of the lesson, as cards (the second prompt refused on the caller's line and
what its message says; the run that holds the harness from the moment prompt() returns; the
door, after every event in turn, before the first event, and after a failure); then four
tests of code the lesson gives you (what a walk-away does to a tool, the record it leaves
after every event in turn, and what `messages` hands out); last, the rule on schedules of
prompts and walk-aways made up by hypothesis.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect, expect_a_copy

JOB = "job: do the three steps"
EVENTS = 21  # the job's events when it is left to finish

ONE_WRITER = ("one writer: while a run is going, prompt() refuses a second one with "
              "RuntimeError, at once, on the caller's line (not at the second run's first "
              "step), and the run that was going carries on as if nothing had been asked.")
SAYS_WHAT_TO_DO = ("the refusal says what happened and what to do: its message begins "
                   "\"already running;\" and tells the caller to wait for the run to end or to "
                   "close it.")
HELD_AT_ONCE = ("the run holds the harness from the moment prompt() returns it, before anyone "
                "takes an event: is_running is True, a second prompt is refused, and the run, "
                "when it is taken, starts at agent_start with nothing lost.")
IS_RUNNING = ("is_running is True from prompt() until the run has ended, at every event in "
              "between, and False once the run is over.")
THE_DOOR = ("the door: a consumer that walks away (run.close()) after any event ends the run, "
            "is_running goes back to False, and the harness takes the next prompt.")
NEVER_STARTED = ("a run closed before its first event frees the harness too: nothing is "
                 "recorded, is_running is False, and the next prompt is answered.")
FAILED_RUN = ("a run that dies (the model's connection drops and the exception reaches the "
              "consumer) frees the harness as well: is_running is False, and the next prompt is "
              "answered.")
NOT_STARTED_TOOL = ("code the lesson gives you (lesson 07's loop): a consumer that walks away "
                    "at tool_execution_start leaves a tool that never ran, and a record that "
                    "ends on its call.")
FINISHED_TOOL = ("code the lesson gives you (lesson 07's loop): a consumer that walks away after "
                 "a tool's result was announced leaves that result on the record, and the next "
                 "tool never starts.")
TOLD_IS_KEPT = ("code the lesson gives you (lesson 07's loop), through the Harness: a consumer that "
                "walks away after any event in turn leaves a record holding exactly the messages "
                "it was told about, and a result for every step that ran.")
A_COPY = ("code the lesson gives you: messages hands out a copy, so a caller that appends to "
          "what it read changes nothing of the harness's record.")
ANY_SCHEDULE = ("any schedule of prompts and walk-aways by two callers: a prompt is refused "
                "exactly while another run is going, is_running says so, and every run's "
                "messages sit together in the record, in the order the runs were taken.")


def play(student, variation, *operations):
    return student.scenario("session", operations=list(operations),
                            seed=variation.randrange(10**9))


def refusal(outcome):
    """The exception's type and message as the report shows them, or "nothing"."""
    return "nothing was raised" if outcome["raised"] is None else outcome["raised"][1]


def user_texts(record):
    return [m["content"] for m in record if m["role"] == "user"]


def job_shape(record):
    """The shape of the whole job, with the ids the model really handed out."""
    ids = [b["id"] for m in record if m["role"] == "assistant" for b in m["content"]
           if b["type"] == "toolCall"] + ["?", "?", "?"]
    return f"U A[{ids[0]},{ids[1]}] R({ids[0]}) R({ids[1]}) A[{ids[2]}] R({ids[2]}) A"


def expect_refused_here(outcome, rule, given):
    expect(outcome["raised"] is not None and outcome["raised"][0] == "RuntimeError", rule,
           given=given, expected="RuntimeError, raised by the call of prompt() itself",
           got=refusal(outcome))


def expect_held(seen, index, rule, given):
    """Before the walk-away the run held the harness: else there is no door to speak of."""
    expect(seen["outcomes"][index]["running"], rule, given=given,
           expected="is_running True while the run is going (before it is closed)",
           got="is_running False: the run never held the harness")


def expect_answered_after(seen, index, rule, given):
    """Operations index (a prompt) and index + 1 (taking its run to the end) went through: the
    harness took the prompt, its run ended, and the model's answer is the record's last word."""
    asked, taken = seen["outcomes"][index], seen["outcomes"][index + 1]
    expect(asked["raised"] is None, rule, given=given, expected="the next prompt taken",
           got=f"prompt() raised: {refusal(asked)}")
    expect(taken["done"] and taken["events"][-1:] == ["agent_end"], rule, given=given,
           expected="its run goes to agent_end", got=", ".join(taken["events"]) or "no event")
    expect(not taken["running"], rule, given=given, expected="is_running False after it",
           got="is_running True")


# -- one writer -----------------------------------------------------------------------------------

def test_a_second_prompt_while_one_runs_is_refused_on_the_callers_line(student, variation):
    k = variation.randrange(1, EVENTS - 1)

    seen = play(student, variation, ["prompt", "screen", JOB], ["take", "screen", k],
                ["prompt", "job", "Summarise the build log."], ["take", "job", None],
                ["take", "screen", None])

    story = f"the screen's run took {lab.counted(k, 'event')}; then a background job prompted"
    expect_refused_here(seen["outcomes"][2], ONE_WRITER, given=story)
    expect(seen["outcomes"][3]["events"] == [], ONE_WRITER, given=story,
           expected="no run for the background job", got=seen["outcomes"][3]["events"])
    expect(lab.shape(seen["record"]) == job_shape(seen["record"]), ONE_WRITER, given=story,
           expected=job_shape(seen["record"]), got=seen["record"],
           note="expected and got are the record at the end: the screen's job, whole")
    expect(user_texts(seen["record"]) == [JOB] and len(seen["requests"]) == 3, ONE_WRITER,
           given=story, expected="three requests, all of them the screen's job",
           got=f"{lab.counted(len(seen['requests']), 'request')}; "
               f"prompts recorded: {user_texts(seen['record'])}")


def test_the_refusal_says_what_to_do(student, variation):
    seen = play(student, variation, ["prompt", "screen", JOB], ["take", "screen", 5],
                ["prompt", "job", "Summarise the build log."])

    said = refusal(seen["outcomes"][2])
    message = said.split(", raised while")[0].removeprefix("RuntimeError: ")
    expect(seen["outcomes"][2]["raised"] is not None and message.startswith("already running;")
           and ("close" in message and "wait" in message), SAYS_WHAT_TO_DO,
           given="a prompt while the job is at tool_execution_start",
           expected="RuntimeError: already running; (wait for the run to end, or close it)",
           got=said)


def test_a_run_holds_the_harness_from_the_moment_prompt_returns(student, variation):
    seen = play(student, variation, ["prompt", "screen", JOB],
                ["prompt", "job", "Summarise the build log."], ["take", "screen", None])

    made, second, taken = seen["outcomes"]
    story = "prompt() called, and nothing taken from its run yet"
    expect(made["raised"] is None and made["running"], HELD_AT_ONCE, given=story,
           expected="is_running True", got=f"raised: {refusal(made)}" if made["raised"]
           else "is_running False")
    expect_refused_here(second, HELD_AT_ONCE, given=story + "; then a second prompt")
    expect(taken["events"][:1] == ["agent_start"] and len(taken["events"]) == EVENTS, HELD_AT_ONCE,
           given=story, expected=f"the run, taken: {lab.counted(EVENTS, 'event')}, from agent_start",
           got=f"{lab.counted(len(taken['events']), 'event')}: {', '.join(taken['events'][:3])}, ...")


def test_is_running_is_true_from_prompt_until_the_run_has_ended(student, variation):
    seen = play(student, variation, ["prompt", "screen", JOB],
                *[["take", "screen", 1]] * (EVENTS + 1))

    said = [o["running"] for o in seen["outcomes"]]
    events = [o["events"][0] if o["events"] else "(the end)" for o in seen["outcomes"][1:]]
    wanted = [True] * (EVENTS + 1) + [False]
    expect(said == wanted, IS_RUNNING,
           expected="True after prompt() and after every event; False after the end",
           got="\n".join(f"after {where}: {running}" for where, running
                         in zip(["prompt()"] + events, said)))


# -- the door -----------------------------------------------------------------------------------

def test_walking_away_after_any_event_frees_the_harness(student, variation):
    for k in range(1, EVENTS + 1):
        seen = play(student, variation, ["prompt", "screen", JOB], ["take", "screen", k],
                    ["close", "screen"], ["prompt", "screen", "Are you still there?"],
                    ["take", "screen", None])

        left = seen["outcomes"][1]["events"][-1:] or ["no event"]
        story = f"the screen walked away after event {k} ({left[0]})"
        expect_held(seen, 1, THE_DOOR, given=story)
        expect(not seen["outcomes"][2]["running"], THE_DOOR, given=story,
               expected="is_running False once the run is closed", got="is_running True")
        expect_answered_after(seen, 3, THE_DOOR, given=story)


def test_a_run_closed_before_its_first_event_frees_the_harness(student, variation):
    seen = play(student, variation, ["prompt", "screen", JOB], ["close", "screen"],
                ["prompt", "screen", "Are you still there?"], ["take", "screen", None])

    story = "prompt() called, and its run closed before a single event was taken"
    expect_held(seen, 0, NEVER_STARTED, given=story)
    expect(not seen["outcomes"][1]["running"], NEVER_STARTED, given=story,
           expected="is_running False once the run is closed", got="is_running True")
    expect_answered_after(seen, 2, NEVER_STARTED, given=story)
    expect(user_texts(seen["record"]) == ["Are you still there?"], NEVER_STARTED, given=story,
           expected="a record holding only the second prompt's run", got=seen["record"])


def test_a_run_that_fails_frees_the_harness(student, variation):
    seen = play(student, variation, ["prompt", "screen", "crash: the connection drops"],
                ["take", "screen", None], ["prompt", "screen", "Are you still there?"],
                ["take", "screen", None])

    died = seen["outcomes"][1]
    story = "the model's connection dropped during the first request"
    expect_held(seen, 0, FAILED_RUN, given=story)
    expect(died["raised"] is not None, FAILED_RUN, given=story,
           expected="the exception reaches the consumer", got=", ".join(died["events"]))
    expect(not died["running"], FAILED_RUN, given=story,
           expected="is_running False after the run died", got="is_running True")
    expect_answered_after(seen, 2, FAILED_RUN, given=story)


# -- code the lesson gives you ---------------------------------------------------------------------

def test_a_tool_left_at_its_start_never_runs(student, variation):
    seen = play(student, variation, ["prompt", "screen", JOB], ["take", "screen", 5],
                ["close", "screen"])

    asked = [b["id"] for m in seen["record"] if m["role"] == "assistant"
             for b in m["content"] if b["type"] == "toolCall"] + ["?", "?"]
    expect(seen["outcomes"][1]["events"][-1:] == ["tool_execution_start"] and seen["ran"] == [],
           NOT_STARTED_TOOL, expected="five events, the last tool_execution_start; no step ran",
           got=f"{seen['outcomes'][1]['events'][-1:]}; steps run: {seen['ran']}")
    expect(lab.shape(seen["record"]) == f"U A[{asked[0]},{asked[1]}]", NOT_STARTED_TOOL,
           expected=f"U A[{asked[0]},{asked[1]}]", got=seen["record"])


def test_a_tool_whose_result_was_announced_stays_recorded(student, variation):
    seen = play(student, variation, ["prompt", "screen", JOB], ["take", "screen", 6],
                ["close", "screen"])

    asked = [b["id"] for m in seen["record"] if m["role"] == "assistant"
             for b in m["content"] if b["type"] == "toolCall"] + ["?", "?"]
    expect(seen["outcomes"][1]["events"][-1:] == ["message_end"] and seen["ran"] == [1],
           FINISHED_TOOL, expected="six events, the last step 1's message_end; step 1 ran, once",
           got=f"{seen['outcomes'][1]['events'][-1:]}; steps run: {seen['ran']}")
    wanted = f"U A[{asked[0]},{asked[1]}] R({asked[0]})"
    expect(lab.shape(seen["record"]) == wanted, FINISHED_TOOL, expected=wanted, got=seen["record"])


def test_walking_away_after_any_event_leaves_the_record_the_screen_was_told(student, variation):
    for k in range(1, EVENTS + 1):
        seen = play(student, variation, ["prompt", "screen", JOB], ["take", "screen", k],
                    ["close", "screen"])

        taken = seen["outcomes"][1]["events"]
        story = f"the screen walked away after event {k} ({(taken[-1:] or ['no event'])[0]})"
        results = [m["content"] for m in seen["record"] if m["role"] == "toolResult"]
        expect(len(seen["record"]) == taken.count("message_end"), TOLD_IS_KEPT, given=story,
               expected=f"{lab.counted(taken.count('message_end'), 'message')} on the record, one for each "
                        "message_end the screen took",
               got=seen["record"])
        expect(results == [f"step {n}: ok" for n in seen["ran"]], TOLD_IS_KEPT, given=story,
               expected=f"a result for each step that ran (steps {seen['ran']})", got=results)


def test_appending_to_what_messages_hands_out_leaves_the_record_alone(student, variation):
    seen = student.scenario("handing_out", seed=variation.randrange(10**9))

    expect_a_copy(seen, A_COPY, given="the job run to its end; h.messages read")


# -- the rule, on schedules hypothesis makes up ------------------------------------------------------

CALLERS = ["screen", "job"]
operation = st.one_of(
    st.tuples(st.just("prompt"), st.sampled_from(CALLERS), st.sampled_from(["job", "note"])),
    st.tuples(st.just("take"), st.sampled_from(CALLERS), st.one_of(st.none(), st.integers(0, 8))),
    st.tuples(st.just("close"), st.sampled_from(CALLERS)))


def numbered(schedule):
    """The schedule as the scenario's operations, each prompt's text made unique."""
    out = []
    for n, (kind, caller, *rest) in enumerate(schedule):
        if kind == "prompt":
            out.append(["prompt", caller, f"{rest[0]} {n}"])
        else:
            out.append([kind, caller, *rest])
    return out


@given(st.lists(operation, min_size=1, max_size=10))
@settings(max_examples=25)
def test_any_schedule_keeps_one_writer(student, schedule):
    operations = numbered(schedule)

    seen = student.scenario("session", operations=operations, seed=len(operations))

    holder, after_end, taken, order = None, False, {}, []
    lines = []
    for op, outcome in zip(operations, seen["outcomes"]):
        kind, caller = op[0], op[1]
        lines.append(f"{caller} {kind} {op[2] if len(op) > 2 else ''}".rstrip())
        story = "\n".join(lines)
        if kind == "prompt":
            if holder is not None and not after_end:
                expect_refused_here(outcome, ANY_SCHEDULE, given=story)
            elif holder is None:
                expect(outcome["raised"] is None, ANY_SCHEDULE, given=story,
                       expected="the prompt taken: no run was going", got=refusal(outcome))
            if outcome["raised"] is None:
                if holder is not None and holder[0] != caller:
                    pass  # another caller's run, just past agent_end: this one is its own
                holder, after_end = (caller, op[2]), False
                taken[op[2]] = 0
        elif kind == "take" and holder is not None and holder[0] == caller:
            taken[holder[1]] += len(outcome["events"])
            after_end = outcome["events"][-1:] == ["agent_end"]
            if outcome["done"] or outcome["raised"] is not None:
                holder, after_end = None, False
        elif kind == "close" and holder is not None and holder[0] == caller:
            holder, after_end = None, False
        if not after_end:
            expect(outcome["running"] == (holder is not None), ANY_SCHEDULE, given=story,
                   expected=f"is_running {holder is not None}", got=f"is_running {outcome['running']}")
        if kind == "prompt" and outcome["raised"] is None:
            order.append(op[2])
    wanted = [text for text in order if taken.get(text, 0) >= 3]  # its prompt was recorded
    expect(user_texts(seen["record"]) == wanted, ANY_SCHEDULE, given="\n".join(lines),
           expected=f"prompts recorded, in order: {wanted}",
           got=f"prompts recorded, in order: {user_texts(seen['record'])}")
    blocks, current = {}, None
    for message in seen["record"]:
        if message["role"] == "user":
            current = message["content"]
        elif message["role"] == "assistant":
            for block in message["content"]:
                if block["type"] == "toolCall":
                    blocks[block["id"]] = current
        elif message["role"] == "toolResult":
            expect(blocks.get(message["tool_call_id"]) == current, ANY_SCHEDULE,
                   given="\n".join(lines), got=seen["record"],
                   note="a tool result landed after another run's prompt")
