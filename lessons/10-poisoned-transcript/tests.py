"""The graded tests of lesson 10, "the poisoned transcript".

Run them with lab_check, never by importing your harness here: each test sends transcripts to
your harness.py in a process of its own and judges the plain data that comes back.

    python lab/lab_check.py --harness harness.py --lesson 10

The first fourteen are the lesson's own list of what changed in this lesson; the next checks
that steering, which the lesson gives you, still works; the last five try the same rules on
wrecks made up by hypothesis. Every failure is said in one notation (see lab.display.LEGEND):
transcripts as shapes, with the first difference marked.
"""

import copy
import re
import string

from hypothesis import example, given, settings
from hypothesis import strategies as st

import damaged
import lab
from lab.testkit import Record
from lab.testkit import expect, expect_untouched, objections

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
THE_VIEW = ("the view: context_for_model leaves out an empty failed reply (as it did before "
            "this lesson) and then repairs, building a new list; the record keeps the failure "
            "and the hole.")
WALK_AWAY = ("a walk-away at tool_execution_start: the tool never ran, the next prompts are "
             "answered because the model is shown INTERRUPTED for the call, and the record still "
             "ends that run on the dangling call.")
FAILED_REPLY = ("a reply that failed mid-stream: none of it is acted on, so its half-built call "
                "never runs; the next request pairs that call with INTERRUPTED and is answered.")
ANY_EVENT = ("walking away after any event of a job leaves a session that answers the next two "
             "prompts, and the model is never told a tool that ran was interrupted.")
NO_DELETIONS = ("no deletions: every message of the record that is not a tool result stays in "
                "the view, in order, as the very same object; no call is removed or rewritten.")
FIRST_WINS = ("the first result recorded wins, on any wreck: a call with a result anywhere in "
              "the record is shown the first one recorded for it, never a later one and never "
              "INTERRUPTED.")
AT_THE_EDGES = ("a record's edges are places like any other: an empty record gives an empty list, "
                "and damage at the very first message or the very last is repaired as it would "
                "be in the middle (a call answered INTERRUPTED, an orphan left out).")
STEERING = ("code the lesson gives you (steering, from an earlier lesson): a steer typed while a "
            "tool runs lands at the top of the next turn, after every result of the batch.")


# -- inputs that differ from grading to grading ------------------------------------------------
# The wrecks' stories stay the lesson's; their ids become a provider's (random, in no order) and
# one or two healthy turns, a different number each grading, come before them. The seed is in the
# result, and lab_check --seed replays it.

def provider_ids(variation):
    """{"c1": "toolu_01Xq...", ...}: a random provider-style id for each id the wrecks use."""
    style = variation.choice(["toolu_01{}", "call_{}", "functions.run:{}"])
    alphabet = string.ascii_letters + string.digits
    return {old: style.format("".join(variation.choice(alphabet) for _ in range(12)))
            for old in [f"c{n}" for n in range(1, 10)] + [f"o{n}" for n in range(1, 5)]}


def renamed(value, ids):
    """`value` (a transcript, a message, a shape) with every wreck id replaced by its new one."""
    if isinstance(value, str):
        return re.sub(r"\b[co]\d\b", lambda m: ids.get(m.group(0), m.group(0)), value)
    if isinstance(value, list):
        return [renamed(item, ids) for item in value]
    if isinstance(value, dict):
        return {key: renamed(item, ids) if key in ("id", "tool_call_id", "content") else item
                for key, item in value.items()}
    return value


def lead_in(variation):
    """One or two healthy turns, each a call and its result, for a wreck to come after: an
    answer that drops every result cannot pass a card by it."""
    turns = []
    for n in range(variation.randrange(1, 3)):
        made_up = "".join(variation.choice(string.ascii_letters + string.digits) for _ in range(12))
        call = lab.call("read", {"path": f"notes{n}.md"}, id=f"toolu_{made_up}")
        turns += [lab.user(f"Read notes{n}.md."), lab.reply(call),
                  lab.tool_result(call, f"note {variation.randrange(1000)}"), lab.say("Read.")]
    return turns


def varied(variation, wreck):
    """(record, ids, offset): `wreck` renamed and put after a lead-in of `offset` messages. The
    record is a Record: a report folds its lead-in and shows the wreck's ids by the card's
    names."""
    ids, lead = provider_ids(variation), lead_in(variation)
    return with_lead_in(lead, renamed(wreck, ids), ids), ids, len(lead)


def with_lead_in(lead, messages, ids):
    """lead + messages, as a Record that knows its lead-in and the card's names of `ids`."""
    return Record(lead + messages, lead_in=len(lead), names={new: old for old, new in ids.items()})


def after_lead_in(record, at, shape, ids):
    """The shape wanted of a varied card: its lead-in as it is, then `shape` renamed."""
    return f"{lab.shape(record[:at])} {renamed(shape, ids)}"


def expect_whole(view, record, rule, keep=lambda m: True):
    """Every message of `record` that is not a result (and that `keep` keeps) is in the view, in
    order, and every call in it is answered at once by exactly one result: an answer that drops
    messages, or results, cannot pass a rule vacuously."""
    wanted = without_results(record, keep)
    got = [m for m in view.messages if m["role"] != "toolResult"]
    expect(got == wanted, rule + " (and first: every message that is not a result is kept)",
           given=record, expected=wanted, got=got,
           note="expected and got leave the results out")
    unpaired = [p for p in lab.validate(view.messages) if "has empty content" not in p]
    expect(not unpaired, rule + " (and first: every call is answered by exactly one result)",
           given=record, got=view.messages, note=objections(unpaired))


def without_results(record, keep=lambda m: True):
    """The messages of `record` that are not results (and that `keep` keeps); of a Record, a
    Record whose lead-in is what is left of its own."""
    def wanted(messages):
        return [m for m in messages if m["role"] != "toolResult" and keep(m)]

    if not isinstance(record, Record):
        return wanted(record)
    return Record(wanted(record), lead_in=len(wanted(record.lead)), names=record.names)


def interrupted_for(call_id, tool_name):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": tool_name,
            "is_error": True, "content": INTERRUPTED}


def is_interrupted(message):
    return message["role"] == "toolResult" and message["content"] == INTERRUPTED


def with_message(messages, index, message):
    """`messages` with the one at `index` replaced by `message`: what was wanted, when only
    that message is wrong, so the report can point at it."""
    return messages[:index] + [message] + messages[index + 1:]


def copies(returned):
    """Which messages came back as new objects rather than the ones handed over, in words."""
    made = [i for i, origin in enumerate(returned.origins) if origin is None]
    if made and len(made) == len(returned.origins) > 1:
        return f"all {lab.counted(len(made), 'message')}"
    return "none" if not made else ", ".join(f"messages[{i}]" for i in made)


def expect_shape(view, wanted, rule):
    """The view has the shape `wanted` (lab.shape's tokens, or the very messages wanted, so that
    the report can point at the first one that differs), or the test fails naming `rule`."""
    shape = wanted if isinstance(wanted, str) else lab.shape(wanted)
    expect(view.shape == shape, rule, given=view.given, expected=wanted, got=view.messages)


def expect_interrupted(view, index, call_id, tool_name, rule):
    """view.messages[index] is the made-up result for call `call_id` of tool `tool_name`."""
    made = interrupted_for(call_id, tool_name)
    expect(view.messages[index:index + 1] == [made], rule, given=view.given,
           expected=with_message(view.messages, index, made), got=view.messages)


def expect_recorded(view, index, origin, rule):
    """view.messages[index] is the very message recorded at view.given[origin], not a copy."""
    recorded = view.given[origin]
    copied = view.messages[index:index + 1] == [recorded]
    expect(view.origins[index:index + 1] == [origin], rule, given=view.given,
           expected=with_message(view.messages, index, recorded), got=view.messages,
           note=f"messages[{index}] should be the very message recorded at given[{origin}]"
                + ("; it is an equal copy, a new object" if copied else ""))


def expect_valid(messages, rule, given):
    problems = lab.validate(messages)
    expect(not problems, rule, given=given, got=messages, note=objections(problems))


def expect_answered(seen, rule, given, expected):
    """Every later prompt reached the model, and the harness recorded the model's own reply to
    it (not one it made up); no request of the session was refused, else the first refused
    one, with every objection the strict provider has to it."""
    for number, (answer, reply) in enumerate(zip(seen["answers"], seen["replies"]), 1):
        expect(reply is not None and answer == reply, rule, given=given, expected=expected,
               got=f"later prompt {number}: " + ("the model was never asked" if reply is None
                                                else "the record ends on something the model "
                                                "did not say"))
    refused = [(number, request, lab.validate(request))
               for number, request in enumerate(seen["requests"], 1) if lab.validate(request)]
    number, request, problems = refused[0] if refused else (0, [], [])
    expect(not refused, rule, given=given, expected=expected,
           got=f"request {number} refused: {lab.shape(request)}\n{objections(problems)}")


def call_ids(record):
    """The ids of the record's calls, in the order they were made."""
    return [block["id"] for m in record if m["role"] == "assistant"
            for block in m["content"] if block["type"] == "toolCall"] + ["?", "?", "?"]


def first_call_id(record):
    return call_ids(record)[0]


def each_request(requests, first):
    """Requests as shapes, a line each, numbered from `first`."""
    return "\n".join(f"request {n}: {lab.shape(r)}" for n, r in enumerate(requests, first)) \
        or "no request"


# -- the five wrecks --------------------------------------------------------------------------

def test_missing_result_gets_interrupted_right_after_its_call(student, variation):
    record, ids, at = varied(variation, damaged.missing_result)

    view = student.repair(record)

    expect_shape(view, after_lead_in(record, at, "U A[c1,c2] R(c1) R(c2) U", ids), CARD_1)
    expect_interrupted(view, at + 3, ids["c2"], "bash", CARD_1)


def test_orphan_result_is_dropped_without_inventing_a_call(student, variation):
    record, ids, at = varied(variation, damaged.orphan_result)

    view = student.repair(record)

    kept = [*range(at + 2), at + 3]
    expect_shape(view, [record[i] for i in kept], CARD_2)
    expect(view.origins == kept, CARD_2, given=record,
           expected=f"copies: none (the {lab.counted(len(kept), 'message')} kept, the very ones recorded)",
           got=f"copies: {copies(view)}")


def test_late_result_is_moved_up_not_made_up(student, variation):
    record, ids, at = varied(variation, damaged.late_result)

    view = student.repair(record)

    expect_shape(view, after_lead_in(record, at, "U A[c1] R(c1) U A", ids), CARD_3)
    expect_recorded(view, at + 2, at + 3, CARD_3)


def test_first_of_two_results_for_one_call_wins(student, variation):
    record, ids, at = varied(variation, damaged.duplicate_result)

    view = student.repair(record)

    expect_shape(view, after_lead_in(record, at, "U A[c2] R(c2) A", ids), CARD_4)
    expect_recorded(view, at + 2, at + 2, CARD_4)


def test_call_in_a_reply_cut_off_mid_stream_gets_interrupted(student, variation):
    record, ids, at = varied(variation, damaged.failed_reply_with_a_call)

    view = student.repair(record)

    expect_shape(view, after_lead_in(record, at, "U A[c1](error) R(c1) U", ids), CARD_5)
    expect_interrupted(view, at + 2, ids["c1"], "write", CARD_5)


# -- the rules around them --------------------------------------------------------------------

def test_results_come_back_in_call_order(student, variation):
    calls = [lab.call("read", {"path": p}, id=i) for i, p in (("c1", "a.py"), ("c2", "b.py"),
                                                              ("c3", "c.py"))]
    record, ids, at = varied(variation, [
        lab.user("Read all three."), lab.reply(*calls), lab.tool_result(calls[2], "C = 3\n"),
        lab.tool_result(calls[0], "A = 1\n"), lab.user("Well?")])

    view = student.repair(record)

    expect_shape(view, after_lead_in(record, at, "U A[c1,c2,c3] R(c1) R(c2) R(c3) U", ids),
                 IN_ORDER)
    expect_recorded(view, at + 2, at + 3, IN_ORDER)
    expect_interrupted(view, at + 3, ids["c2"], "read", CARD_1)
    expect_recorded(view, at + 4, at + 2, IN_ORDER)


def test_record_that_ends_on_its_own_damage_is_repaired_to_its_end(student, variation):
    ids, lead = provider_ids(variation), lead_in(variation)
    read = lab.call("read", {"path": "main.py"}, id=ids["c1"])
    tests = lab.call("bash", {"command": "pytest"}, id=ids["c2"])
    card = [lab.user("Read main.py and run the tests."), lab.reply(read, tests)]
    asked = with_lead_in(lead, card, ids)
    one_back = with_lead_in(lead, card + [lab.tool_result(read, damaged.MAIN_PY)], ids)
    healthy = with_lead_in(lead, one_back[len(lead):] + [lab.tool_result(tests, "3 passed")], ids)

    after_ask, after_one, after_healthy = (student.repair(r) for r in (asked, one_back, healthy))

    both_made = list(asked) + [interrupted_for(ids["c1"], "read"), interrupted_for(ids["c2"], "bash")]
    expect(after_ask.messages == both_made, TO_THE_END, given=asked, expected=both_made,
           got=after_ask.messages)
    one_made = list(one_back) + [interrupted_for(ids["c2"], "bash")]
    expect(after_one.messages == one_made, TO_THE_END, given=one_back, expected=one_made,
           got=after_one.messages)
    expect(after_healthy.messages == healthy, UNCHANGED, given=healthy, expected=healthy,
           got=after_healthy.messages)
    expect(after_healthy.origins == list(range(len(healthy))), UNCHANGED, given=healthy,
           expected=f"copies: none (all {lab.counted(len(healthy), 'message')} the very ones handed over)",
           got=f"copies: {copies(after_healthy)}")


def test_valid_transcript_comes_back_equal_holding_the_same_objects(student, variation):
    tests = lab.call("bash", {"command": "pytest"}, id="c1")
    record, _, _ = varied(variation, [
        lab.user("Run the tests."), lab.reply(lab.text("Running them."), tests),
        lab.tool_result(tests, "3 passed"), lab.say("All three pass."), lab.user("Thanks.")])

    view = student.repair(record)

    expect(view.messages == record, UNCHANGED, given=record, expected=record, got=view.messages)
    expect(view.origins == list(range(len(record))), UNCHANGED, given=record,
           expected=f"copies: none (all {lab.counted(len(record), 'message')} the very ones handed over)",
           got=f"copies: {copies(view)}")
    expect(not view.returned_input, UNCHANGED, given=record,
           expected="a new list holding those objects", got="the list it was given, returned")


def test_repairing_twice_is_repairing_once(student, variation):
    wrecks = [varied(variation, getattr(damaged, name))[0] for name in damaged.NAMES]
    glued = [message for wreck in wrecks for message in wreck]

    for record in wrecks + [glued]:
        once = student.repair(record)
        twice = student.repair(once.messages)

        expect_whole(once, record, IDEMPOTENT)
        expect(twice.messages == once.messages, IDEMPOTENT, given=record,
               expected=once.messages, got=twice.messages,
               note="expected: the first repair's view; got: the second repair of that view")
        if record is not glued:  # glued, the wrecks' ids repeat, and only equality is asked
            expect(twice.origins == list(range(len(once.messages))), IDEMPOTENT,
                   given=once.messages,
                   expected=f"copies: none (the first repair's "
                            f"{lab.counted(len(once.messages), 'message')})",
                   got=f"copies: {copies(twice)}")


def test_repair_leaves_its_input_untouched(student, variation):
    for name in damaged.NAMES:
        record = varied(variation, getattr(damaged, name))[0]

        view = student.repair(record)

        expect_untouched(record, view.input_after, f"{PURE} (on damaged.{name})",
                         kept_objects=view.input_kept_objects)
        expect_whole(view, record, PURE)


def edge_records(variation):
    """Three records damaged at an edge, each with the view its repair should give: a call with
    no result at messages[0], an orphan result at messages[0], a call with no result last."""
    ids = provider_ids(variation)
    read = lab.call("read", {"path": "main.py"}, id=ids["c1"])
    tests = lab.call("bash", {"command": "pytest"}, id=ids["c2"])
    orphan = lab.tool_result(lab.call("bash", {"command": "ls"}, id=ids["o1"]), "main.py")
    first_call = [lab.reply(read), lab.user("And the tests?")]
    first_orphan = [orphan, lab.user("Read main.py."), lab.say("It defines main().")]
    last = [lab.user("Run the tests."), lab.reply(tests)]
    return [(first_call, [first_call[0], interrupted_for(ids["c1"], "read"), first_call[1]]),
            (first_orphan, first_orphan[1:]),
            (last, last + [interrupted_for(ids["c2"], "bash")])]


def test_repair_holds_at_a_records_edges(student, variation):
    for record, wanted in edge_records(variation):  # damage at either end, then no record
        view = student.repair(record)
        expect_untouched(record, view.input_after, AT_THE_EDGES,
                         kept_objects=view.input_kept_objects)
        expect(view.messages == wanted, AT_THE_EDGES, given=record, expected=wanted,
               got=view.messages)
    empty = student.repair([])

    expect(empty.messages == [], AT_THE_EDGES, given=[], expected=[], got=empty.messages)


def test_view_holds_at_a_records_edges(student, variation):
    empty = student.view([])

    expect(empty.messages == [], AT_THE_EDGES, given=[], expected=[], got=empty.messages)
    for record, wanted in edge_records(variation)[1:]:  # a request opens on a user message
        view = student.view(record)
        expect_untouched(record, view.input_after, AT_THE_EDGES,
                         kept_objects=view.input_kept_objects)
        expect(view.messages == wanted, AT_THE_EDGES, given=record, expected=wanted,
               got=view.messages)
        expect_valid(view.messages, AT_THE_EDGES, given=record)


def test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone(student, variation):
    call = lab.call("bash", {"command": "pytest"}, id="c1")
    record, ids, at = varied(variation, [
        lab.user("Run the tests."), lab.fail("503 overloaded"), lab.user("Try again."),
        lab.reply(call), lab.user("Never mind. What is in config.py?")])

    view = student.view(record)

    expect_untouched(record, view.input_after, THE_VIEW, kept_objects=view.input_kept_objects)
    expect_shape(view, after_lead_in(record, at, "U U A[c1] R(c1) U", ids), THE_VIEW)
    expect_valid(view.messages, THE_VIEW, given=record)
    expect_interrupted(view, at + 3, ids["c1"], "bash", THE_VIEW)
    expect(view.origins == [*range(at), at, at + 2, at + 3, None, at + 4], THE_VIEW, given=record,
           expected=f"copies: messages[{at + 3}] (the made-up result), every other the recorded "
                    "object",
           got=f"copies: {copies(view)}")


# -- whole sessions on your Harness -----------------------------------------------------------

def test_walk_away_at_tool_start_leaves_a_session_that_still_answers(student, variation):
    seen = student.scenario("session", job="tests", stop_after=5, then=THEN,
                            seed=variation.randrange(10**9))
    asked = first_call_id(seen["left"])

    later = seen["requests"][1:]
    expect(seen["events"][-1:] == ["tool_execution_start"] and seen["ran"] == [], WALK_AWAY,
           expected="five events, the last tool_execution_start, and no command run",
           got=f"{seen['events'][-1:]} with commands run: {seen['ran']}")
    expect_answered(seen, WALK_AWAY, given=seen["left"], expected="both prompts answered")
    expect(all(interrupted_for(asked, "bash") in request for request in later), WALK_AWAY,
           given=seen["left"], expected=f"every later request holds INTERRUPTED for {asked}",
           got=each_request(later, 2))
    expect(lab.shape(seen["record"]) == f"U A[{asked}] U A U A", WALK_AWAY, given=seen["left"],
           expected=f"U A[{asked}] U A U A", got=seen["record"],
           note="expected and got are the record at the end: the hole stays where it happened")


def test_failed_reply_with_a_call_runs_no_tool_and_next_prompt_is_answered(student, variation):
    seen = student.scenario("session", job="cut_off_write", then=["What happened?"],
                            seed=variation.randrange(10**9))
    asked = first_call_id(seen["left"])

    expect(seen["ran"] == [], FAILED_REPLY, expected="the write tool never runs",
           got=f"it ran for {seen['ran']}")
    expect_answered(seen, FAILED_REPLY, given=seen["left"], expected="the next prompt answered")
    expect(len(seen["requests"]) == 2
           and interrupted_for(asked, "write") in seen["requests"][1], FAILED_REPLY,
           given=seen["left"],
           expected=f"request 2: U A[{asked}](error) R({asked}) U, with INTERRUPTED",
           got=each_request(seen["requests"][1:], 2))
    expect(lab.shape(seen["record"]) == f"U A[{asked}](error) U A", FAILED_REPLY,
           given=seen["left"], expected=f"U A[{asked}](error) U A", got=seen["record"],
           note="expected and got are the record at the end: it keeps the failed reply as it was")


def test_walking_away_after_any_event_never_bricks_the_session(student, variation):
    seed = variation.randrange(10**9)
    finished = student.scenario("session", job="three_steps", seed=seed)
    expect(len(finished["events"]) == 21 and not lab.validate(finished["record"]), ANY_EVENT,
           expected="left to finish: 21 events and a valid record",
           got=f"{lab.counted(len(finished['events']), 'event')}, record {lab.shape(finished['record'])}")

    for k in range(1, 22):
        seen = student.scenario("session", job="three_steps", stop_after=k, then=THEN, seed=seed)

        walked = f"walked away after event {k} ({(seen['events'] or ['no event'])[-1]}), leaving"
        expect_answered(seen, ANY_EVENT, given=f"{walked} {lab.shape(seen['left'])}",
                        expected="both later prompts answered")
        steps = {block["id"]: block["arguments"]["n"] for m in seen["record"]
                 if m["role"] == "assistant" for block in m["content"] if block["type"] == "toolCall"}
        told = sorted({steps.get(m["tool_call_id"]) for request in seen["requests"]
                       for m in request if is_interrupted(m)}, key=str)
        expect(not set(told) & set(seen["ran"]), ANY_EVENT,
               given=f"{walked} {lab.shape(seen['left'])}",
               expected=f"INTERRUPTED only for steps that never ran (ran: {seen['ran']})",
               got=f"INTERRUPTED shown for steps {told}")


def test_steering_lands_at_the_top_of_the_next_turn(student, variation):
    seen = student.scenario("session", job="steering", seed=variation.randrange(10**9))
    wanted = "U A[{0},{1},{2}] R({0}) R({1}) R({2}) U A".format(*call_ids(seen["record"])[:3])

    expect(lab.shape(seen["record"]) == wanted, STEERING, expected=wanted, got=seen["record"])


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


def every_wreck():
    """One record with each kind of damage the lesson names, ids unique: every property tries
    it first, whatever else hypothesis makes up, so no grading's luck can miss a kind."""
    first, second = lab.call("read", {"path": "a.py"}, id="k1"), lab.call("bash", {}, id="k2")
    lost, cut, late = (lab.call("write", {"path": "b.py"}, id="k3"),
                       lab.call("write", {"path": "c.py"}, id="k4"),
                       lab.call("read", {"path": "d.py"}, id="k5"))
    return [lab.user("prompt 0"), lab.reply(first, second),
            lab.tool_result(second, "output of k2"), lab.tool_result(first, "output of k1"),
            lab.tool_result(first, "output of k1 (again)"),
            lab.user("prompt 1"), lab.reply(lost), lab.fail("503 overloaded"),
            lab.user("prompt 2"), lab.fail("stream ended", cut),
            lab.tool_result(lab.call("read", {}, id="o1"), "nobody asked"),
            lab.user("prompt 3"), lab.reply(late), lab.user("typed while it ran"),
            lab.tool_result(late, "output of k5"), lab.say("ok")]


@given(wrecks())
@example(record=every_wreck())
@settings(max_examples=60)
def test_any_wreck_gives_a_view_the_provider_accepts(student, record):
    view = student.view(record)

    expect_whole(view, record, "the view of any record keeps what the model must see",
                 keep=lambda m: not (m["role"] == "assistant" and not m["content"]
                                     and m.get("stop_reason") == "error"))
    expect_valid(view.messages, "the view of any record is a request the provider accepts: "
                 "no empty failed reply, every call followed at once by exactly one result in "
                 "call order, no result without its call.", given=record)


@given(wrecks())
@example(record=every_wreck())
@settings(max_examples=40)
def test_repair_of_any_wreck_is_idempotent(student, record):
    once = student.repair(record)
    twice = student.repair(once.messages)

    expect_whole(once, record, IDEMPOTENT)
    expect(twice.messages == once.messages, IDEMPOTENT, given=record,
           expected=once.messages, got=twice.messages,
           note="expected: the first repair's view; got: the second repair of that view")


@given(wrecks())
@example(record=every_wreck())
@settings(max_examples=40)
def test_repair_of_any_wreck_leaves_its_input_untouched(student, record):
    sent = copy.deepcopy(record)

    view = student.repair(record)

    expect_untouched(sent, view.input_after, PURE, kept_objects=view.input_kept_objects)
    expect_whole(view, sent, PURE)
    expect(not view.returned_input, PURE, given=record, expected="a new list",
           got="the very list it was given")


@given(wrecks())
@example(record=every_wreck())
@settings(max_examples=40)
def test_repair_keeps_every_message_that_is_not_a_result_as_the_same_object(student, record):
    view = student.repair(record)

    expect_whole(view, record, NO_DELETIONS)
    wanted = [i for i, m in enumerate(record) if m["role"] != "toolResult"]
    kept = [o for m, o in zip(view.messages, view.origins) if m["role"] != "toolResult"]
    expect(kept == wanted, NO_DELETIONS, given=record,
           expected=lab.shape([record[i] for i in wanted]),
           got=lab.shape([m for m in view.messages if m["role"] != "toolResult"])
           + ("" if None not in kept else " (some of them copies)"))


@given(wrecks())
@example(record=every_wreck())
@settings(max_examples=40)
def test_repair_of_any_wreck_shows_each_call_the_first_result_recorded_for_it(student, record):
    first = {}
    for i, m in enumerate(record):
        if m["role"] == "toolResult":
            first.setdefault(m["tool_call_id"], i)

    view = student.repair(record)

    expect_whole(view, record, FIRST_WINS)
    for index, (m, origin) in enumerate(zip(view.messages, view.origins)):
        if m["role"] == "toolResult" and m["tool_call_id"] in first:
            wanted = record[first[m["tool_call_id"]]]
            expect(origin == first[m["tool_call_id"]], FIRST_WINS, given=record,
                   expected=with_message(view.messages, index, wanted), got=view.messages,
                   note=f"messages[{index}] should be given[{first[m['tool_call_id']]}], the "
                        f"first result recorded for {m['tool_call_id']}"
                        + ("; it is an equal copy" if m == wanted else ""))
