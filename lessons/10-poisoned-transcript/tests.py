"""The graded tests of lesson 10, "the poisoned transcript".

Run them with lab_check, never by importing your harness here: each test sends transcripts to
your harness.py in a process of its own and judges the plain data that comes back.

    python lab/lab_check.py --harness harness.py --lesson 10

The first fourteen are the lesson's list under "what changed since lesson 09"; the five after
them try the same rules on wrecks made up by hypothesis; the last checks that lesson 09's
steering still works, which the lesson gives you.
"""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

import damaged
import lab
from lab.grading.verdict import expect

# The contract's words, which the starter gives too (set out here so that no line of the
# finished file is copied into the student's tests).
INTERRUPTED = ("Tool call interrupted: no result was recorded. "
               "It may not have run, or may have run partly; check before repeating it.")
THEN = ["Never mind, what is in config.py?", "And main.py?"]

CARD_1 = ("card 1, a missing result (damaged.missing_result): a call with no result gets one "
          "made for it, in its place in call order: its id and tool name, content INTERRUPTED, "
          "is_error true.")
CARD_2 = ("card 2, an orphan result (damaged.orphan_result): a result whose call is nowhere is "
          "left out, and no call is invented for it.")
CARD_3 = ("card 3, a late result (damaged.late_result): a real result recorded late is moved to "
          "directly after its call, as the very message recorded; nothing is thrown away and "
          "nothing made up.")
CARD_4 = ("card 4, two results for one call (damaged.duplicate_result): the first one recorded "
          "stays, because the rest of the transcript answered it; the second is dropped.")
CARD_5 = ("card 5, a reply cut off mid-call (damaged.failed_reply_with_a_call): a call the "
          "model can see needs a result in the view, even in a failed reply: INTERRUPTED.")
IN_ORDER = ("every call is followed at once by its result, in the order the calls were written, "
            "whatever order the results were recorded in.")
TO_THE_END = ("the repair runs to the end of the record: a record that stops on its own damage, "
              "with no user message after it, is repaired there too.")
UNCHANGED = ("a valid transcript comes back equal and made of the very same message objects: "
             "the repair runs before every request, and must not rewrite healthy ones.")
IDEMPOTENT = ("idempotent: repairing a repaired list changes nothing, or every request would "
              "pile made-up results on made-up results.")
PURE = ("pure: the record you are given is not touched, neither the list nor any message in "
        "it. The record is not the view.")
THE_VIEW = ("the view: context_for_model leaves out an empty failed reply (lesson 5) and then "
            "repairs, building a new list; the record keeps the failure and the hole.")
WALK_AWAY = ("a walk-away at tool_execution_start: the tool never ran, the next prompts are "
             "answered because the model is shown INTERRUPTED for the call, and the record still "
             "ends that run on the dangling call.")
FAILED_REPLY = ("a reply that failed mid-stream: none of it is acted on, so its half-built call "
                "never runs; the next request pairs that call with INTERRUPTED and is answered.")
ANY_EVENT = ("walking away after any event of a job leaves a session that answers the next two "
             "prompts, and the model is never told a tool that ran was interrupted.")
NO_DELETIONS = ("no deletions: every message of the record that is not a tool result stays in "
                "the view, in order, as the very same object; no call is removed or rewritten.")
REAL_WINS = ("a real result always beats a made-up one: a call with a result anywhere in the "
             "record is shown that recorded result, never INTERRUPTED.")
STEERING = ("lesson 09, which you were given: a steer typed while a tool runs lands at the top "
            "of the next turn, after every result of the batch.")


def interrupted_for(call_id, tool_name):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": tool_name,
            "is_error": True, "content": INTERRUPTED}


def is_interrupted(message):
    return message["role"] == "toolResult" and message["content"] == INTERRUPTED


def one_line(messages):
    return lab.show(messages, clip=60).replace("\n", " | ") or "(nothing)"


def expect_shape(view, wanted, rule):
    """The view has the shape `wanted` (lab.shape's tokens), or the test fails naming `rule`."""
    expect(view.shape == wanted, rule, given=view.given, expected=wanted, got=view.messages)


def expect_interrupted(view, index, call_id, tool_name, rule):
    """view.messages[index] is the made-up result for call `call_id` of tool `tool_name`."""
    made = interrupted_for(call_id, tool_name)
    expect(view.messages[index:index + 1] == [made], rule, given=view.given,
           expected=one_line([made]), got=one_line(view.messages[index:index + 1]))


def expect_valid(messages, rule, given):
    problems = lab.validate(messages)
    expect(not problems, rule, given=given, got=messages,
           note=f"the strict provider refuses it: {problems[0] if problems else ''}")


# -- the five wrecks --------------------------------------------------------------------------

def test_missing_result_gets_interrupted_right_after_its_call(student):
    record = damaged.missing_result

    view = student.repair(record)

    expect_shape(view, "U A[c1,c2] R(c1) R(c2) U", CARD_1)
    expect_interrupted(view, 3, "c2", "bash", CARD_1)


def test_orphan_result_is_dropped_without_inventing_a_call(student):
    record = damaged.orphan_result

    view = student.repair(record)

    expect_shape(view, "U A U", CARD_2)
    expect(view.origins == [0, 1, 3], CARD_2, given=record,
           expected="the three messages that were recorded, as they were",
           got=one_line(view.messages))


def test_late_result_is_moved_up_not_made_up(student):
    record = damaged.late_result

    view = student.repair(record)

    expect_shape(view, "U A[c1] R(c1) U A", CARD_3)
    expect(view.origins[2] == 3, CARD_3, given=record,
           expected="in view[2], the very toolResult recorded at record[3]",
           got=f"{one_line(view.messages[2:3])} (a message the function made)")


def test_first_of_two_results_for_one_call_wins(student):
    record = damaged.duplicate_result

    view = student.repair(record)

    expect_shape(view, "U A[c2] R(c2) A", CARD_4)
    expect(view.origins[2] == 2, CARD_4, given=record,
           expected=f"the first result, {one_line(record[2:3])}", got=one_line(view.messages[2:3]))


def test_call_in_a_reply_cut_off_mid_stream_gets_interrupted(student):
    record = damaged.failed_reply_with_a_call

    view = student.repair(record)

    expect_shape(view, "U A[c1](error) R(c1) U", CARD_5)
    expect_interrupted(view, 2, "c1", "write", CARD_5)


# -- the rules around them --------------------------------------------------------------------

def test_results_come_back_in_call_order(student):
    calls = [lab.call("read", {"path": p}, id=i) for i, p in (("c1", "a.py"), ("c2", "b.py"),
                                                              ("c3", "c.py"))]
    record = [lab.user("Read all three."), lab.reply(*calls),
              lab.tool_result(calls[2], "C = 3\n"), lab.tool_result(calls[0], "A = 1\n"),
              lab.user("Well?")]

    view = student.repair(record)

    expect_shape(view, "U A[c1,c2,c3] R(c1) R(c2) R(c3) U", IN_ORDER)
    expect(view.origins[2] == 3 and view.origins[4] == 2, IN_ORDER, given=record,
           expected="c1's recorded result, then INTERRUPTED for c2, then c3's recorded result",
           got=one_line(view.messages[2:5]))
    expect_interrupted(view, 3, "c2", "read", CARD_1)


def test_record_that_ends_on_its_own_damage_is_repaired_to_its_end(student):
    read, tests = lab.call("read", {"path": "main.py"}, id="c1"), lab.call("bash", {"command": "pytest"}, id="c2")
    asked = [lab.user("Read main.py and run the tests."), lab.reply(read, tests)]
    one_back = asked + [lab.tool_result(read, damaged.MAIN_PY)]
    healthy = one_back + [lab.tool_result(tests, "3 passed")]

    after_ask, after_one, after_healthy = (student.repair(r) for r in (asked, one_back, healthy))

    expect(after_ask.shape == "U A[c1,c2] R(c1) R(c2)"
           and after_ask.messages[2:] == [interrupted_for("c1", "read"), interrupted_for("c2", "bash")],
           TO_THE_END, given=asked, expected="U A[c1,c2] R(c1) R(c2), both INTERRUPTED",
           got=one_line(after_ask.messages))
    expect(after_one.shape == "U A[c1,c2] R(c1) R(c2)"
           and after_one.messages[3] == interrupted_for("c2", "bash"), TO_THE_END, given=one_back,
           expected="U A[c1,c2] R(c1) R(c2), ending on INTERRUPTED for c2",
           got=one_line(after_one.messages))
    expect(after_healthy.messages == healthy and after_healthy.origins == [0, 1, 2, 3],
           UNCHANGED, given=healthy, expected="the same four messages", got=after_healthy.messages)


def test_valid_transcript_comes_back_equal_holding_the_same_objects(student):
    tests = lab.call("bash", {"command": "pytest"}, id="c1")
    record = [lab.user("Run the tests."), lab.reply(lab.text("Running them."), tests),
              lab.tool_result(tests, "3 passed"), lab.say("All three pass."),
              lab.user("Thanks.")]

    view = student.repair(record)

    expect(view.messages == record, UNCHANGED, given=record, expected=record, got=view.messages)
    expect(view.origins == list(range(len(record))), UNCHANGED, given=record,
           expected="every message the very object that was handed over",
           got=f"copies at {[i for i, o in enumerate(view.origins) if o is None]}")
    expect(not view.returned_input, UNCHANGED, given=record,
           expected="a new list holding those objects", got="the list it was given, returned")


def test_repairing_twice_is_repairing_once(student):
    wrecks = [getattr(damaged, name) for name in damaged.NAMES]
    glued = [message for wreck in wrecks for message in wreck]

    for record in wrecks + [glued]:
        once = student.repair(record)
        twice = student.repair(once.messages)

        expect(twice.messages == once.messages, IDEMPOTENT, given=record,
               expected=f"the second pass: {once.shape}", got=twice.messages)
        if record is not glued:  # glued, the wrecks' ids repeat, and only equality is asked
            expect(twice.origins == list(range(len(once.messages))), IDEMPOTENT,
                   given=once.messages, expected="the very same objects back from the second pass",
                   got=f"copies at {[i for i, o in enumerate(twice.origins) if o is None]}")


def test_repair_leaves_its_input_untouched(student):
    for name in damaged.NAMES:
        record = getattr(damaged, name)

        view = student.repair(record)

        expect(view.input_after == record and view.input_kept_objects, PURE, given=record,
               expected=f"the record afterwards: {lab.shape(record)}, every message as it was",
               got=f"the record afterwards: {one_line(view.input_after)}"
               + ("" if view.input_kept_objects else " (messages in it were replaced)"),
               note=f"on damaged.{name}")


def test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone(student):
    call = lab.call("bash", {"command": "pytest"}, id="c1")
    record = [lab.user("Run the tests."), lab.fail("503 overloaded"), lab.user("Try again."),
              lab.reply(call), lab.user("Never mind. What is in config.py?")]

    view = student.view(record)

    expect_shape(view, "U U A[c1] R(c1) U", THE_VIEW)
    expect_valid(view.messages, THE_VIEW, given=record)
    expect_interrupted(view, 3, "c1", "bash", THE_VIEW)
    expect(view.origins == [0, 2, 3, None, 4], THE_VIEW, given=record,
           expected="4 of the 5 messages the very objects of the record",
           got=f"{sum(o is not None for o in view.origins)} of {len(view.origins)}")
    expect(view.input_after == record and view.input_kept_objects, THE_VIEW, given=record,
           expected=f"the record afterwards: {lab.shape(record)}",
           got=f"the record afterwards: {lab.shape(view.input_after)}")


# -- whole sessions on your Harness -----------------------------------------------------------

def test_walk_away_at_tool_start_leaves_a_session_that_still_answers(student):
    seen = student.scenario("session", job="tests", stop_after=5, then=THEN)

    later = seen["requests"][1:]
    expect(seen["events"][-1:] == ["tool_execution_start"] and seen["ran"] == [], WALK_AWAY,
           expected="five events, the last tool_execution_start, and no command run",
           got=f"{seen['events'][-1:]} with commands run: {seen['ran']}")
    refused = [a.get("error_message") for a in seen["answers"] if a.get("stop_reason") == "error"]
    expect(not refused, WALK_AWAY, given=seen["left"], expected="both prompts answered",
           got=f"refused: {refused[0] if refused else ''}")
    expect(all(interrupted_for("c1", "bash") in request for request in later), WALK_AWAY,
           given=seen["left"], expected="every later request holds INTERRUPTED for c1",
           got=" / ".join(lab.shape(r) for r in later))
    expect(lab.shape(seen["record"]) == "U A[c1] U A U A", WALK_AWAY, given=seen["left"],
           expected="the record: U A[c1] U A U A (the hole stays where it happened)",
           got=seen["record"])


def test_failed_reply_with_a_call_runs_no_tool_and_next_prompt_is_answered(student):
    seen = student.scenario("session", job="cut_off_write", then=["What happened?"])

    expect(seen["ran"] == [], FAILED_REPLY, expected="the write tool never runs",
           got=f"it ran for {seen['ran']}")
    answer = seen["answers"][0]
    expect(answer.get("stop_reason") != "error", FAILED_REPLY, given=seen["left"],
           expected="the next prompt answered", got=f"refused: {answer.get('error_message')}")
    expect(len(seen["requests"]) == 2
           and interrupted_for("c1", "write") in seen["requests"][1], FAILED_REPLY,
           given=seen["left"], expected="the second request: U A[c1](error) R(c1) U, with INTERRUPTED",
           got=" / ".join(lab.shape(r) for r in seen["requests"][1:]) or "no second request")
    expect(lab.shape(seen["record"]) == "U A[c1](error) U A", FAILED_REPLY, given=seen["left"],
           expected="the record: U A[c1](error) U A", got=seen["record"])


def test_walking_away_after_any_event_never_bricks_the_session(student):
    finished = student.scenario("session", job="three_steps")
    expect(len(finished["events"]) == 21 and not lab.validate(finished["record"]), ANY_EVENT,
           expected="left to finish: 21 events and a valid record",
           got=f"{len(finished['events'])} events, record {lab.shape(finished['record'])}")

    for k in range(1, 22):
        seen = student.scenario("session", job="three_steps", stop_after=k, then=THEN)

        walked = f"walked away after event {k} ({(seen['events'] or ['no event'])[-1]}), leaving"
        refused = [a.get("error_message") for a in seen["answers"] if a.get("stop_reason") == "error"]
        expect(not refused, ANY_EVENT, given=f"{walked} {lab.shape(seen['left'])}",
               expected="both later prompts answered",
               got=f"refused: {refused[0] if refused else ''}")
        steps = {block["id"]: block["arguments"]["n"] for m in seen["record"]
                 if m["role"] == "assistant" for block in m["content"] if block["type"] == "toolCall"}
        told = sorted({steps.get(m["tool_call_id"]) for request in seen["requests"]
                       for m in request if is_interrupted(m)}, key=str)
        expect(not set(told) & set(seen["ran"]), ANY_EVENT,
               given=f"{walked} {lab.shape(seen['left'])}",
               expected=f"INTERRUPTED only for steps that never ran (ran: {seen['ran']})",
               got=f"INTERRUPTED shown for steps {told}")


def test_steering_lands_at_the_top_of_the_next_turn(student):
    seen = student.scenario("session", job="steering")

    expect(lab.shape(seen["record"]) == "U A[c1,c2,c3] R(c1) R(c2) R(c3) U A", STEERING,
           expected="U A[c1,c2,c3] R(c1) R(c2) R(c3) U A", got=seen["record"])


# -- the same rules, on wrecks hypothesis makes up ----------------------------------------------

@st.composite
def wrecks(draw):
    """A transcript of a few turns with calls and results, then broken in the ways the lesson
    names: results lost, moved late, doubled, reordered, replies failed mid-call, results for
    calls nobody made, and a record cut off anywhere. Call ids are unique."""
    record, ids = [], iter(f"c{n}" for n in range(1, 1000))
    for turn in range(draw(st.integers(1, 4))):
        record.append(lab.user(f"prompt {turn}"))
        for _ in range(draw(st.integers(0, 2))):
            calls = [lab.call(draw(st.sampled_from(["read", "bash", "write"])), {"n": turn},
                              id=next(ids)) for _ in range(draw(st.integers(1, 3)))]
            failed = draw(st.booleans()) and draw(st.booleans())
            record.append(lab.fail("stream ended", *calls) if failed else lab.reply(*calls))
            results = [lab.tool_result(c, f"output of {c['id']}") for c in calls]
            results = draw(st.permutations(results)) if draw(st.booleans()) else results
            for result in results:
                fate = draw(st.sampled_from(["kept"] * 4 + ["lost", "late", "doubled"]))
                if fate != "lost":
                    record.append(result)
                if fate == "late":
                    record.insert(len(record) - 1, lab.user("typed while it ran"))
                if fate == "doubled":
                    record.append(dict(result, content=result["content"] + " (again)"))
        if draw(st.booleans()):
            record.append(lab.fail("503 overloaded") if draw(st.booleans()) else lab.say("ok"))
        if draw(st.booleans()) and draw(st.booleans()):
            record.append(lab.tool_result(lab.call("read", {}, id=f"o{turn}"), "nobody asked"))
    cut = draw(st.integers(1, len(record)))
    return record[:cut] if draw(st.booleans()) else record


@given(wrecks())
@settings(max_examples=60)
def test_any_wreck_gives_a_view_the_provider_accepts(student, record):
    view = student.view(record)

    expect_valid(view.messages, "the view of any record is a request the provider accepts: "
                 "no empty failed reply, every call followed at once by exactly one result in "
                 "call order, no result without its call.", given=record)


@given(wrecks())
@settings(max_examples=40)
def test_repair_of_any_wreck_is_idempotent(student, record):
    once = student.repair(record)
    twice = student.repair(once.messages)

    expect(twice.messages == once.messages, IDEMPOTENT, given=record,
           expected=f"the second pass: {once.shape}", got=twice.messages)


@given(wrecks())
@settings(max_examples=40)
def test_repair_of_any_wreck_leaves_its_input_untouched(student, record):
    sent = copy.deepcopy(record)

    view = student.repair(record)

    expect(view.input_after == sent and view.input_kept_objects and not view.returned_input,
           PURE, given=record, expected=f"a new list; the record afterwards {lab.shape(sent)}",
           got=("the very list it was given" if view.returned_input
                else f"the record afterwards: {one_line(view.input_after)}"))


@given(wrecks())
@settings(max_examples=40)
def test_repair_keeps_every_message_that_is_not_a_result_as_the_same_object(student, record):
    view = student.repair(record)

    wanted = [i for i, m in enumerate(record) if m["role"] != "toolResult"]
    kept = [o for m, o in zip(view.messages, view.origins) if m["role"] != "toolResult"]
    expect(kept == wanted, NO_DELETIONS, given=record,
           expected=lab.shape([record[i] for i in wanted]),
           got=lab.shape([m for m in view.messages if m["role"] != "toolResult"])
           + ("" if None not in kept else " (some of them copies)"))


@given(wrecks())
@settings(max_examples=40)
def test_repair_never_replaces_a_recorded_result_with_a_made_up_one(student, record):
    first = {}
    for i, m in enumerate(record):
        if m["role"] == "toolResult":
            first.setdefault(m["tool_call_id"], i)

    view = student.repair(record)

    for m, origin in zip(view.messages, view.origins):
        if m["role"] == "toolResult" and m["tool_call_id"] in first:
            expect(origin == first[m["tool_call_id"]], REAL_WINS, given=record,
                   expected=f"for {m['tool_call_id']}, the first result recorded: "
                            f"{one_line([record[first[m['tool_call_id']]]])}",
                   got=one_line([m]) + ("" if origin is not None else " (made by the repair)"))
