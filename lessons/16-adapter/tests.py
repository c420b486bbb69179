"""The graded tests of lesson 16, "the adapter".

Run them with lab_check, never by importing your harness here: each test sends a record or a
view to your harness.py in a process of its own and judges the plain data that comes back.

    python lab/lab_check.py --harness harness.py --lesson 16

The first eight put the lesson's four cards through each translation: a record goes through
your context_for_model (given), the view through to_anthropic or to_openai, and the request is
judged three ways: its shape, lab.validate(request, wire=...), and a ScriptedModel of that wire
answering it. On Anthropic's wire the shape is read as the API reads it, consecutive turns of
one role combined into one, so a steer may join the results' turn or follow it as a turn of
its own. Three cards try safe_trim, one of them at keep=0. The rest are properties over
histories hypothesis makes.
"""

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect, expect_untouched
from lab.testkit import wire_shape

SYSTEM = "You are a helpful assistant."

PARALLEL = ("card 1, parallel calls: one assistant message asks for three reads at once. "
            "Anthropic wants all three tool_result blocks in the one user turn after it; OpenAI "
            "wants three tool messages directly after it.")
STEER = ("card 2, a steer after the results: the user typed while the tools ran, and the view "
         "puts their words after the results. On Anthropic's wire every result is in the one "
         "user turn right after the calls, before any words; the words come after them, in that "
         "turn or in one of their own. On OpenAI's, a user message after the tool messages.")
FAILED = ("card 3, a failed reply: a reply that broke off mid-call is sent as what it got out, "
          "its words and its call, with the INTERRUPTED result the view gave the call; that it "
          "failed is the record's business, not the provider's.")
OUT_OF_ORDER = ("card 4, results recorded out of order: the view puts them back in call order, "
                "and the translation keeps that order.")
KEPT = ("the translation keeps every word, call and result of the view, in the view's order, "
        "in the wire's own fields (OpenAI: arguments as a JSON string), inventing nothing.")
TRIM_BACKS_UP = ("card 5, a cut among results: safe_trim(view, keep) returns the last `keep` "
                 "messages, or more: when the cut would leave a result without its call, it "
                 "moves earlier, to the assistant message that asked. keep is a floor.")
TRIM_EXACT = ("card 6, a cut at a legal boundary: safe_trim returns exactly the last `keep` "
              "messages, as a new list; and never more than it was given.")
TRIM_NOTHING = ("card 7, keep=0: the last none of the messages is an empty list, a new one, "
                "whatever the view holds (a request of nothing, which the provider then "
                "refuses: that is the caller's to avoid, not the trim's).")
ACCEPTED = ("repair, then translate: whatever the record, the view translated for either wire "
            "is a request that provider accepts.")
DETERMINISTIC = ("a translation depends on the view alone: the same view, sent twice or as an "
                 "equal copy, gives the same request.")
STABLE = ("a valid history translates the same every time: as it grows, the request for it "
          "begins with what was sent for it before (all but the last turn, which may still "
          "gain blocks), so a provider's prompt cache keeps working.")
TRIM_LEGAL = ("safe_trim is legal at every keep: from 0 to past the end, it returns a suffix of "
              "the view, no shorter than keep (or the whole view), no longer than it must be, "
              "and one the strict provider accepts.")
PURE = ("nothing mutates its input: to_anthropic, to_openai and safe_trim leave the list they "
        "are given, and every message in it, as they were.")


# -- the cards --------------------------------------------------------------------------------

def parallel_reads():
    calls = [lab.call("read", {"path": p}, id=i) for i, p in (("c1", "a.py"), ("c2", "b.py"),
                                                              ("c3", "c.py"))]
    return [lab.user("Read the three modules."), lab.reply(lab.text("Reading them."), *calls),
            *[lab.tool_result(c, f"# {c['arguments']['path']}\n") for c in calls],
            lab.say("All three are short.")]


def steer_after_results():
    tests, lint = lab.call("bash", {"command": "pytest"}, id="c1"), lab.call("bash", {"command": "ruff ."}, id="c2")
    return [lab.user("Run the tests and the linter."), lab.reply(tests, lint),
            lab.tool_result(tests, "3 passed"), lab.tool_result(lint, "1 error", is_error=True),
            lab.user("Use spaces, not tabs."), lab.say("Noted: spaces.")]


def failed_reply():
    write = lab.call("write", {"path": "main.py", "content": "print('hi')\n"}, id="c1")
    return [lab.user("Write main.py."), lab.fail("503 overloaded"), lab.user("Try again."),
            lab.fail("stream ended", lab.text("Writing it now."), write),
            lab.user("What happened?")]


def results_out_of_order():
    calls = [lab.call("read", {"path": p}, id=i) for i, p in (("c1", "a.py"), ("c2", "b.py"))]
    return [lab.user("Read both."), lab.reply(*calls), lab.tool_result(calls[1], "B = 2\n"),
            lab.tool_result(calls[0], "A = 1\n"), lab.user("Well?")]


CARDS = {  # card -> (record, rule, the request's shape on each wire)
    "parallel": (parallel_reads, PARALLEL, {
        "anthropic": "user[text] assistant[text,use(c1),use(c2),use(c3)] "
                     "user[result(c1),result(c2),result(c3)] assistant[text]",
        "openai": "user assistant[c1,c2,c3] tool(c1) tool(c2) tool(c3) assistant"}),
    "steer": (steer_after_results, STEER, {
        "anthropic": "user[text] assistant[use(c1),use(c2)] user[result(c1),result(c2),text] "
                     "assistant[text]",
        "openai": "user assistant[c1,c2] tool(c1) tool(c2) user assistant"}),
    "failed": (failed_reply, FAILED, {
        "anthropic": "user[text,text] assistant[text,use(c1)] user[result(c1),text]",
        "openai": "user user assistant[c1] tool(c1) user"}),
    "out_of_order": (results_out_of_order, OUT_OF_ORDER, {
        "anthropic": "user[text] assistant[use(c1),use(c2)] user[result(c1),result(c2),text]",
        "openai": "user assistant[c1,c2] tool(c1) tool(c2) user"}),
}


def judge_card(student, wire, card):
    """The card's record, through your view and then your translation for `wire`, judged by
    its shape, the wire's validator, the wire's scripted model, and what it carries."""
    make, rule, shapes = CARDS[card]
    record = make()
    view = student.view(record).messages

    request = student.value(f"to_{wire}", view).value

    shown = f"the view {lab.shape(view)}"
    read = wire_shape(as_the_api_reads_it(request, wire), wire)
    expect(read == shapes[wire], rule, given=shown, expected=shapes[wire],
           got=wire_shape(request, wire),
           note="" if read == wire_shape(request, wire) else f"read as the API reads it: {read}")
    expect_accepted(request, wire, rule, shown)
    expect(facts(request, wire) == view_facts(view, wire), KEPT, given=shown,
           expected=view_facts(view, wire), got=facts(request, wire), note=f"on the {card} card")


def as_the_api_reads_it(request, wire):
    """The request as the provider reads it: on Anthropic's wire, consecutive turns of one role
    combined into one turn ("Consecutive user or assistant turns in your request will be
    combined into a single turn", the Messages API reference). Only for reading the shape:
    whether the request is accepted is judged on what was sent."""
    if wire != "anthropic" or not isinstance(request, list):
        return request
    combined = []
    for m in request:
        if not isinstance(m, dict) or not isinstance(m.get("content"), (list, str)):
            combined.append(m)
            continue
        blocks = m["content"] if isinstance(m["content"], list) else [
            {"type": "text", "text": m["content"]}]
        if combined and isinstance(combined[-1], dict) and combined[-1].get("role") == m.get("role") \
                and isinstance(combined[-1].get("content"), list):
            combined[-1] = dict(combined[-1], content=combined[-1]["content"] + blocks)
        else:
            combined.append(dict(m, content=list(blocks)))
    return combined


def expect_accepted(request, wire, rule, shown):
    expect_messages(request, wire, rule, shown)
    problems = lab.validate(request, wire=wire)
    expect(not problems, rule, given=shown, got=wire_shape(request, wire),
           note=f"lab.validate(request, wire={wire!r}) says: {problems[0] if problems else ''}")
    answer = lab.ScriptedModel([lab.say("Done.")], wire=wire).complete(SYSTEM, request, [])
    expect(answer["stop_reason"] != "error", rule, given=shown,
           expected=f"the {wire} scripted model answers", got=answer.get("error_message"))


def expect_messages(request, wire, rule, shown):
    """The translation came back as a list of messages (dicts), or the test fails saying so."""
    expect(isinstance(request, list) and all(isinstance(m, dict) for m in request), rule,
           given=shown, expected=f"a new list of {wire}'s messages, each a dict",
           got=wire_shape(request, wire))


def test_anthropic_parallel_calls_have_their_results_in_one_user_turn(student):
    judge_card(student, "anthropic", "parallel")


def test_anthropic_steer_comes_after_the_results(student):
    judge_card(student, "anthropic", "steer")


def test_anthropic_failed_reply_is_sent_as_what_it_got_out(student):
    judge_card(student, "anthropic", "failed")


def test_anthropic_results_recorded_out_of_order_are_sent_in_call_order(student):
    judge_card(student, "anthropic", "out_of_order")


def test_openai_parallel_calls_are_answered_by_tool_messages_right_after(student):
    judge_card(student, "openai", "parallel")


def test_openai_steer_comes_after_the_tool_messages(student):
    judge_card(student, "openai", "steer")


def test_openai_failed_reply_is_sent_as_what_it_got_out(student):
    judge_card(student, "openai", "failed")


def test_openai_results_recorded_out_of_order_are_sent_in_call_order(student):
    judge_card(student, "openai", "out_of_order")


def test_safe_trim_backs_up_to_the_call_when_the_cut_falls_among_results(student):
    view = parallel_reads() + [lab.user("Now the tests."), lab.say("They pass.")]

    trimmed = student.value("safe_trim", view, 4).value

    expect(trimmed == view[1:], TRIM_BACKS_UP, given=f"safe_trim(view, 4), view {lab.shape(view)}",
           expected=lab.shape(view[1:]), got=trimmed if isinstance(trimmed, list) else repr(trimmed),
           note="the last 4 would begin with R(c3), whose call is in A[c1,c2,c3]")


def test_safe_trim_keeps_exactly_keep_at_a_legal_boundary_and_never_more_than_given(student):
    view = steer_after_results()

    exact = student.value("safe_trim", view, 2)
    everything = student.value("safe_trim", view, 100)

    expect(exact.value == view[-2:] and not exact.returned_input, TRIM_EXACT,
           given=f"safe_trim(view, 2), view {lab.shape(view)}", expected=lab.shape(view[-2:]),
           got=exact.value if isinstance(exact.value, list) else repr(exact.value))
    expect(everything.value == view and not everything.returned_input, TRIM_EXACT,
           given=f"safe_trim(view, 100), view {lab.shape(view)}",
           expected=f"a new list: {lab.shape(view)}",
           got="the very list it was given" if everything.returned_input else everything.value)


def test_safe_trim_at_keep_0_keeps_nothing(student):
    view = parallel_reads()

    nothing = student.value("safe_trim", view, 0)

    expect(nothing.value == [] and not nothing.returned_input, TRIM_NOTHING,
           given=f"safe_trim(view, 0), view {lab.shape(view)}", expected="[] (a new list)",
           got="the very list it was given" if nothing.returned_input else (
               lab.shape(nothing.value) if isinstance(nothing.value, list) else repr(nothing.value)))


# -- what a request carries -----------------------------------------------------------------

def view_facts(view, wire):
    """What the view says, in order, as the wire can carry it: (role, kind, ...) tuples. OpenAI
    has one content string an assistant message, before its calls, and no error flag."""
    found = []
    for m in view:
        if m["role"] == "user":
            found.append(("user", "text", m["content"]))
        elif m["role"] == "toolResult":
            found.append(("user" if wire == "anthropic" else "tool", "result", m["tool_call_id"],
                          m["content"], m["is_error"] if wire == "anthropic" else None))
        elif wire == "anthropic":
            found += [("assistant", "text", b["text"]) if b["type"] == "text" else
                      ("assistant", "call", b["id"], b["name"], b["arguments"]) for b in m["content"]]
        else:
            words = "".join(b["text"] for b in m["content"] if b["type"] == "text")
            found += [("assistant", "text", words)] if words else []
            found += [("assistant", "call", b["id"], b["name"], b["arguments"])
                      for b in m["content"] if b["type"] == "toolCall"]
    return found


def facts(request, wire):
    """What a request says, in the same terms as view_facts; anything it holds that the wire
    has no place for shows up as such, so it cannot pass for something it is not."""
    if not isinstance(request, list):
        return [("not a list", repr(request)[:80])]
    found = []
    for m in request:
        if not isinstance(m, dict):
            found.append(("not a message", repr(m)[:80]))
        elif wire == "anthropic":
            found += _anthropic_facts(m)
        else:
            found += _openai_facts(m)
    return found


def _anthropic_facts(message):
    role, content = message.get("role"), message.get("content")
    if not isinstance(content, list):
        return [(role, "text", content)]
    found = []
    for b in content:
        kind = b.get("type") if isinstance(b, dict) else None
        if kind == "text":
            found.append((role, "text", b.get("text")))
        elif kind == "tool_use":
            found.append((role, "call", b.get("id"), b.get("name"), b.get("input")))
        elif kind == "tool_result":
            found.append((role, "result", b.get("tool_use_id"), b.get("content"), b.get("is_error")))
        else:
            found.append((role, f"a block of type {kind!r}"))
    return found


def _openai_facts(message):
    role = message.get("role")
    if role == "tool":
        return [("tool", "result", message.get("tool_call_id"), message.get("content"), None)]
    content = message.get("content")
    found = [(role, "text", content)] if content is not None else []
    for call in message.get("tool_calls") or []:
        function = call.get("function", {}) if isinstance(call, dict) else {}
        arguments = function.get("arguments")
        try:
            arguments = json.loads(arguments) if isinstance(arguments, str) else (
                "not a JSON string", arguments)
        except ValueError:
            arguments = ("not JSON", arguments)
        found.append((role, "call", call.get("id") if isinstance(call, dict) else None,
                      function.get("name"), arguments))
    return found


# -- the same rules, on histories hypothesis makes up ---------------------------------------------

WORDS = st.sampled_from(["Run the tests.", "Use spaces.", "ok", "Done: 3 passed.", "naïve ✓",
                         'a "quoted" word', "line one\nline two"])


@st.composite
def histories(draw, wrecked=True):
    """A record of a few turns: words, parallel calls with nested arguments, steers typed after
    the results, failed replies. Wrecked (the default), results are also lost, recorded late,
    doubled and shuffled, replies fail mid-call or empty, results answer calls nobody made, and
    the record may be cut off anywhere, and its provider may number its calls afresh in every
    reply (call_0, call_1, ...), which lesson 11's view renames. Unwrecked, it is a valid
    transcript, and its ids are unique."""
    record, ids = [], iter(f"c{n}" for n in range(1, 1000))
    restarting = wrecked and draw(st.booleans())
    for turn in range(draw(st.integers(1, 4))):
        record.append(lab.user(draw(WORDS)))
        for _ in range(draw(st.integers(0, 2))):
            calls = [lab.call(draw(st.sampled_from(["read", "bash", "write"])),
                              {"n": turn, "paths": ["a.py", {"deep": [turn]}]},
                              id=f"call_{k}" if restarting else next(ids))
                     for k in range(draw(st.integers(1, 3)))]
            said = [lab.text(draw(WORDS))] if draw(st.booleans()) else []
            failed = wrecked and draw(st.booleans()) and draw(st.booleans())
            record.append(lab.fail("stream ended", *said, *calls) if failed
                          else lab.reply(*said, *calls))
            results = [lab.tool_result(c, draw(WORDS), is_error=draw(st.booleans())) for c in calls]
            if wrecked and not failed:
                record += wreck(draw, results)
            elif not failed:
                record += results
            if draw(st.booleans()):
                record.append(lab.user(draw(WORDS)))  # a steer, after the batch
        if draw(st.booleans()):
            record.append(lab.fail("503 overloaded") if wrecked and draw(st.booleans())
                          else lab.say(draw(WORDS)))
        if wrecked and draw(st.booleans()) and draw(st.booleans()):
            record.append(lab.tool_result(lab.call("read", {}, id=f"o{turn}"), "nobody asked"))
    if wrecked and draw(st.booleans()):
        record = record[:draw(st.integers(1, len(record)))]
    return record


def wreck(draw, results):
    """The results of one batch as a broken record might hold them."""
    kept = []
    for result in (draw(st.permutations(results)) if draw(st.booleans()) else results):
        fate = draw(st.sampled_from(["kept"] * 4 + ["lost", "late", "doubled"]))
        if fate == "late":
            kept.append(lab.user("typed while it ran"))
        if fate != "lost":
            kept.append(result)
        if fate == "doubled":
            kept.append(dict(result, content=result["content"] + " (again)"))
    return kept


@given(histories())
@settings(max_examples=40)
def test_repair_then_translate_is_always_accepted(student, record):
    view = student.view(record).messages

    for wire in ("anthropic", "openai"):
        request = student.value(f"to_{wire}", view).value

        expect_accepted(request, wire, ACCEPTED, f"the view {lab.shape(view)}")
        expect(facts(request, wire) == view_facts(view, wire), KEPT,
               given=f"the view {lab.shape(view)}", expected=view_facts(view, wire),
               got=facts(request, wire), note=f"on the {wire} wire")


@given(histories())
@settings(max_examples=30)
def test_translation_is_deterministic(student, record):
    view = student.view(record).messages

    for wire in ("anthropic", "openai"):
        first = student.value(f"to_{wire}", view).value
        again = student.value(f"to_{wire}", copy.deepcopy(view)).value

        expect(again == first, DETERMINISTIC, given=f"the view {lab.shape(view)}",
               expected=wire_shape(first, wire), got=wire_shape(again, wire),
               note=f"on the {wire} wire" + ("" if wire_shape(again, wire) != wire_shape(first, wire)
                                              else ": same shape, different contents"))


@given(histories(wrecked=False), st.data())
@settings(max_examples=25)
def test_a_valid_history_translates_the_same_every_time(student, record, data):
    cut = data.draw(st.integers(1, len(record)), label="cut")

    for wire in ("anthropic", "openai"):
        whole = student.value(f"to_{wire}", record).value
        before = student.value(f"to_{wire}", record[:cut]).value

        for request in (whole, before):
            expect_messages(request, wire, STABLE, f"the history {lab.shape(record)}")
        settled = before[:-1]
        expect(whole[:len(settled)] == settled, STABLE,
               given=f"the history {lab.shape(record)}, and its first {lab.counted(cut, 'message')}",
               expected=f"the request for all of it to begin with {wire_shape(settled, wire)}",
               got=wire_shape(whole, wire), note=f"on the {wire} wire")


@given(histories(wrecked=False))
@settings(max_examples=30)
def test_safe_trim_is_legal_at_every_keep(student, view):
    for keep in range(len(view) + 2):
        trimmed = student.value("safe_trim", view, keep).value

        wanted = shortest_legal_suffix(view, keep)
        expect(trimmed == wanted, TRIM_LEGAL, given=f"safe_trim(view, {keep}), view {lab.shape(view)}",
               expected=lab.shape(wanted) or "(nothing)",
               got=(lab.shape(trimmed) or "(nothing)") if isinstance(trimmed, list) else repr(trimmed),
               note=_why_not(view, trimmed))


def shortest_legal_suffix(view, keep):
    """The spec, said with the strict provider: the shortest suffix of `view` with at least
    `keep` messages (or all of them) that lab.validate accepts."""
    for n in range(min(keep, len(view)), len(view) + 1):
        tail = view[len(view) - n:]
        if not lab.validate(tail):
            return tail
    return view


def _why_not(view, trimmed):
    if not isinstance(trimmed, list):
        return "safe_trim should return a list"
    problems = lab.validate(trimmed)
    if problems:
        return f"the strict provider refuses what came back: {problems[0]}"
    if trimmed != view[len(view) - len(trimmed):]:
        return "what came back is not the end of the view, as it was"
    return ""


@given(histories(), st.integers(1, 6))
@settings(max_examples=30)
def test_nothing_mutates_its_input(student, record, keep):
    view = student.view(record).messages

    for name, args in (("to_anthropic", (view,)), ("to_openai", (view,)),
                       ("safe_trim", (view, keep))):
        sent = copy.deepcopy(list(args))

        after = student.value(name, *args).args_after

        expect_untouched(sent[0], after[0] if after else [], f"{PURE} (on {name})", what="the view")
