"""The graded tests of lesson 05, "The runaway and the 503".

Run them with lab_check, never by importing your harness here: each test puts prompts to your
harness.py's run_agent in a process of its own, every request it sends goes to the grader's own
scripted model, every tool it runs is the grader's, and the plain data that comes back is judged
here. The view is graded by handing context_for_model a record and reading what comes back.

    python lab/lab_check.py --harness harness.py --lesson 05

First the story of the lesson, as cards (the runaway, where the limit is checked, what the stop
is, no limit by default, the 503, the half-built call, the session after the 503, the view and
what it keeps); then one test of code the lesson gives you; last, the same rules on jobs and
records made up by hypothesis. Every failure is said in one notation (see lab.display.LEGEND).
"""

from hypothesis import example, given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect, expect_untouched, objections

JOB = "Find the config file and tell me its port."
OUTAGE = "503 overloaded"
CUT = "stream ended before the message was complete"
MAIN = "def main():\n    return 1\n"
GAVE_UP = "(the grader's model gave up: no limit stopped this run)"

RUNAWAY = ("max_turns stops a runaway: with max_turns=N a model that never stops asking is sent "
           "exactly N requests, every call it made is answered, and the run ends on the stop.")
BEFORE = ("the limit is checked before a request, never after: a job that needs exactly N "
          "requests finishes under max_turns=N, and under max_turns=N-1 it is stopped after "
          "N-1 requests, with every call of the last reply answered first.")
THE_STOP = ("the stop is data in the record, not an exception: run_agent returns normally, and "
            "the last message it added is a failed reply with empty content, stop_reason "
            "\"error\" and error_message \"Stopped: the run reached max_turns=N.\"")
NO_LIMIT = ("max_turns=None, the default, is no limit at all: a job of any length is seen "
            "through, with no stop in the record; a number is a limit, whatever the job.")
THE_503 = ("a failed reply (stop_reason \"error\") is stored in the record as it came and ends "
           "the run: the model is not asked again, and run_agent returns it with the rest.")
HALF_A_CALL = ("the loop acts on none of a failed reply: a call in a reply cut off mid-stream "
               "may be half-built, so it is never run, and no result is made up for it.")
AFTER_THE_503 = ("after a 503 the session goes on: the record keeps the failure, the next "
                 "request leaves it out, and every later prompt is answered.")
LEFT_OUT = ("the view leaves an empty failure out: context_for_model returns every message of "
            "the record, in order, except an assistant reply that failed with nothing in it.")
WORDS_STAY = ("a failed reply that got something out stays in the view: its words (and any "
              "call in it) are the model's only account of what happened, and they are sent.")
NOT_TOUCHED = ("the record is not the view: context_for_model builds a new list and leaves the "
               "record, and every message in it, exactly as it was.")
NOTHING_MADE_UP = ("the view invents nothing: every message it sends is a message of the record, "
                   "the very object, unchanged; no placeholder stands in for a failure.")
GIVEN = ("code the lesson gives you (lessons 01 to 04): a job with no limit and no failure is "
         "answered as in lesson 04, turn by turn, until a reply asks for nothing.")
ANY_JOB = ("any job, any limit, any failure: at most max_turns requests, a stop recorded "
           "exactly when the limit was reached, a failed reply ending the run with none of "
           "its calls run, and every other call answered in call order.")
ANY_RECORD = ("any record: the view is the record without its empty failures, the very "
              "objects in order, and the record is left as it was.")


# -- inputs that differ from grading to grading ------------------------------------------------

def a_call(variation, turn):
    name = variation.choice(["read", "bash", "test"])
    return [name, {"n": turn, "path": f"notes{variation.randrange(100)}.md"}]


def turns(variation, count, calls=(1, 2)):
    return [{"text": f"Step {t + 1}.", "calls": [a_call(variation, t)
                                                 for _ in range(variation.randint(*calls))]}
            for t in range(count)]


def job(student, variation, rounds=(), **more):
    return student.scenario("session", rounds=list(rounds), seed=variation.randrange(10**9),
                            **more)


def stop_text(n):
    return f"Stopped: the run reached max_turns={n}."


# -- what the facts say ------------------------------------------------------------------------

def calls_of(messages):
    return [block for m in messages if m.get("role") == "assistant"
            for block in m.get("content", []) if block.get("type") == "toolCall"]


def expect_lists(seen, rule):
    for number, added in enumerate(seen["returned"], 1):
        expect(type(added) is list, rule, expected="run_agent returns the list of messages it "
               "added to the record", got=f"run {number} returned {type(added).__name__}")


def expect_accepted(seen, rule):
    for number, request in enumerate(seen["requests"], 1):
        problems = lab.validate(request)
        expect(not problems, rule, given=seen["record"], got=f"request {number}: "
               f"{lab.shape(request)}", note=objections(problems))


def expect_stop(message, n, rule, record):
    wanted = {"role": "assistant", "content": [], "stop_reason": "error",
              "error_message": stop_text(n)}
    expect({k: message.get(k) for k in wanted} == wanted if isinstance(message, dict) else False,
           rule, expected=f"the run's last message: A(error) with error_message {stop_text(n)!r}",
           got=record, note=f"its last message: {lab.show([message]) if isinstance(message, dict) else message!r}")


def run_shape(ids_per_reply, ending=""):
    """U, then each reply with its calls' results; `ending` is a last token (A, A(error))."""
    tokens = ["U"]
    for ids in ids_per_reply:
        tokens.append(f"A[{','.join(ids)}]" if ids else "A")
        tokens += [f"R({i})" for i in ids]
    return " ".join(tokens + ([ending] if ending else []))


def ids_by_reply(record):
    return [[b.get("id") for b in m.get("content", []) if b.get("type") == "toolCall"]
            for m in record if m.get("role") == "assistant"]


# -- the runaway -------------------------------------------------------------------------------

def test_a_runaway_is_stopped_at_max_turns(student, variation):
    n = variation.randrange(2, 7)

    seen = job(student, variation, runaway=True, limit=n)

    expect_lists(seen, RUNAWAY)
    expect_accepted(seen, RUNAWAY)
    expect(seen["requests_per_run"] == [n], RUNAWAY, given="a model that asks for a read on "
           f"every turn, with max_turns={n}", expected=lab.counted(n, "request"),
           got=lab.counted(seen["requests_per_run"][0], "request") + (
               ", until the grader's model gave up" if any(
                   m.get("content") == [{"type": "text", "text": GAVE_UP}] for m in seen["record"])
               else ""))
    expect(len(seen["ran"]) == n, RUNAWAY, expected=f"{lab.counted(n, 'read')} run, one a turn",
           got=lab.counted(len(seen["ran"]), "tool") + " run")
    ids = ids_by_reply(seen["record"])[:n]
    wanted = run_shape(ids, "A(error)")
    expect(lab.shape(seen["record"]) == wanted, RUNAWAY, expected=wanted, got=seen["record"])


def test_max_turns_is_checked_before_the_request_never_after(student, variation):
    k = variation.randrange(3, 6)
    rounds = turns(variation, k - 1)  # k - 1 turns of calls, then words: k requests in all

    enough = job(student, variation, rounds, limit=k)
    short = job(student, variation, rounds, limit=k - 1)

    for seen in (enough, short):
        expect_lists(seen, BEFORE)
        expect_accepted(seen, BEFORE)
    expect(enough["requests_per_run"] == [k] and enough["record"][-1:] != []
           and enough["record"][-1].get("stop_reason") != "error", BEFORE,
           given=f"a job of {lab.counted(k, 'request')} ({lab.counted(k - 1, 'turn')} of calls, "
                 f"then words), max_turns={k}",
           expected=f"{lab.counted(k, 'request')}, and the run ends on the model's words",
           got=f"{lab.counted(enough['requests_per_run'][0], 'request')}, ending "
               f"{lab.shape(enough['record'][-1:])}")
    ids = ids_by_reply(short["record"])[:k - 1]
    wanted = run_shape(ids, "A(error)")
    expect(short["requests_per_run"] == [k - 1] and lab.shape(short["record"]) == wanted, BEFORE,
           given=f"the same job, max_turns={k - 1}",
           expected=f"{wanted}, in {lab.counted(k - 1, 'request')}",
           got=f"{lab.shape(short['record'])}, in "
               f"{lab.counted(short['requests_per_run'][0], 'request')}")


def test_the_stop_is_a_failed_reply_in_the_record(student, variation):
    n = variation.randrange(1, 5)
    history = [lab.user("Hello."), lab.say("Hello. What shall we do?")]

    seen = job(student, variation, runaway=True, limit=n, history=history,
               prompts=[JOB, "Did you find it?"])

    expect_lists(seen, THE_STOP)
    first = seen["returned"][0]
    expect_stop(first[-1] if first else None, n, THE_STOP, first)
    expect(first[:1] == [lab.user(JOB)], THE_STOP, expected="run 1 returns its messages, from "
           "the prompt on", got=first)
    expect_accepted(seen, THE_STOP)
    last = seen["record"][-1] if seen["record"] else {}
    expect(last.get("stop_reason") != "error", THE_STOP, expected="the next prompt answered",
           got=seen["record"])


def test_none_is_no_limit_and_a_number_is_one(student, variation):
    rounds = turns(variation, variation.randrange(12, 20), calls=(1, 1))

    default = job(student, variation, rounds)
    none = job(student, variation, rounds, limit=None)

    one_short = job(student, variation, rounds, limit=len(rounds))

    expect(one_short["requests_per_run"] == [len(rounds)], NO_LIMIT, given=f"the same job of "
           f"{lab.counted(len(rounds) + 1, 'request')}, max_turns={len(rounds)}",
           expected=f"{lab.counted(len(rounds), 'request')}, then the stop",
           got=lab.counted(one_short["requests_per_run"][0], "request"))
    for label, seen in (("max_turns left out", default), ("max_turns=None", none)):
        expect_lists(seen, NO_LIMIT)
        ids = ids_by_reply(seen["record"])
        wanted = run_shape(ids[:len(rounds)] + [[]])
        expect(lab.shape(seen["record"]) == wanted, NO_LIMIT,
               given=f"a job of {lab.counted(len(rounds), 'turn')} of calls, then words, {label}",
               expected=wanted, got=seen["record"])


# -- the 503 -----------------------------------------------------------------------------------

def test_a_503_is_stored_and_ends_the_run(student, variation):
    before = turns(variation, variation.randrange(1, 4))
    got_out = {"nothing": {}, "words": {"text": "Let me check the"},
               "words and a call": {"text": "Reading", "calls": [["read", {"path": "main"}]]}}

    for what, blocks in got_out.items():
        rounds = before + [dict(blocks, fail=OUTAGE)]
        seen = job(student, variation, rounds, limit=variation.choice([None, 20]))

        expect_lists(seen, THE_503)
        said = (f"{lab.counted(len(before), 'turn')} of calls, then a reply that fails with "
                f"{OUTAGE!r}, "
                f"having got {what} out")
        expect(seen["requests_per_run"] == [len(rounds)], THE_503, given=said,
               expected=f"{lab.counted(len(rounds), 'request')}: none after the failure",
               got=lab.counted(seen["requests_per_run"][0], "request"))
        expect(len(seen["ran"]) == sum(len(r["calls"]) for r in before), THE_503, given=said,
               expected="the tools of the turns before it, and nothing of the failed reply",
               got=", ".join(n for n, *_ in seen["ran"]))
        failure = seen["record"][-1]
        expect(failure == seen["replies"][-1] and failure.get("stop_reason") == "error",
               THE_503, given=said, expected=lab.show(seen["replies"][-1:]),
               got=lab.show([failure]), note="the failed reply ends the record, as it came")


def test_a_call_in_a_failed_reply_is_never_run(student, variation):
    half = {"path": "main.py", "content": "def main():\n"}  # cut off mid-file
    name = variation.choice(["write", "bash"])
    arguments = half if name == "write" else {"command": "rm -rf bui"}
    rounds = [{"text": "Reading first.", "calls": [["read", {"path": "main.py"}]]},
              {"text": "Writing the file.", "calls": [[name, arguments]], "fail": CUT}]

    seen = job(student, variation, rounds)

    expect_lists(seen, HALF_A_CALL)
    expect([n for n, *_ in seen["ran"]] == ["read"], HALF_A_CALL,
           given=f"a reply cut off mid-stream, holding {name}({arguments})",
           expected="only the read of the turn before ran",
           got=", ".join(n for n, *_ in seen["ran"]) or "no tool ran")
    expect(seen["files"].get("main.py") == MAIN, HALF_A_CALL, expected="main.py untouched",
           got=f"writes: {seen['writes']}")
    ids = ids_by_reply(seen["record"])
    wanted = f"U A[{ids[0][0]}] R({ids[0][0]}) A[{ids[1][0]}](error)" if len(ids) > 1 else "?"
    expect(lab.shape(seen["record"]) == wanted and seen["requests_per_run"] == [2], HALF_A_CALL,
           expected=f"{wanted}, in 2 requests",
           got=f"{lab.shape(seen['record'])}, in "
               f"{lab.counted(seen['requests_per_run'][0], 'request')}")


def test_after_a_503_the_next_prompt_is_answered(student, variation):
    rounds = turns(variation, variation.randrange(1, 3)) + [{"fail": OUTAGE}]
    later = ["Never mind. Hello?", "Anyone?", "What is in main.py?"][:variation.randrange(2, 4)]

    seen = job(student, variation, rounds, prompts=[JOB, *later])

    expect_lists(seen, AFTER_THE_503)
    expect_accepted(seen, AFTER_THE_503)
    failures = [m for m in seen["record"] if m.get("stop_reason") == "error"]
    expect(failures == [lab.fail(OUTAGE)], AFTER_THE_503, expected="the record keeps the "
           "failed reply, once", got=seen["record"])
    wanted = " ".join(["U A"] * len(later))
    tail = lab.shape(seen["record"][-2 * len(later):])
    expect(tail == wanted, AFTER_THE_503, expected=f"the record ends {wanted}: every later "
           "prompt answered", got=seen["record"])
    for request in seen["requests"][len(rounds):]:
        expect(not any(m.get("stop_reason") == "error" and not m.get("content")
                       for m in request), AFTER_THE_503,
               expected="no empty failure in a request", got=request)


# -- the view ----------------------------------------------------------------------------------

def a_record(variation):
    """A record with a 503 or two in it and a max_turns stop; ids new every grading."""
    c = [lab.call("read", {"path": f"f{variation.randrange(100)}.py"},
                  id=f"call_{variation.randrange(10**6)}") for _ in range(2)]
    return [lab.user("Look around."), lab.reply(lab.text("Reading."), c[0]),
            lab.tool_result(c[0], "A = 1\n"), lab.fail(OUTAGE), lab.user("Again?"),
            lab.reply(c[1]), lab.tool_result(c[1], "B = 2\n"),
            lab.fail(stop_text(variation.randrange(1, 9))), lab.user("And now?"),
            lab.say("Here.")]


def test_the_view_leaves_an_empty_failure_out(student, variation):
    record = a_record(variation)

    view = student.view(record)

    kept = [i for i, m in enumerate(record) if m.get("stop_reason") != "error"]
    expect(view.messages == [record[i] for i in kept], LEFT_OUT, given=record,
           expected=[record[i] for i in kept], got=view.messages)
    expect(view.origins == kept, NOTHING_MADE_UP, given=record, got=view.messages,
           note="messages that are not the record's own: " + lab.show(view.made_up, clip=60))


def test_a_failed_reply_that_got_words_out_stays_in_the_view(student, variation):
    words = variation.choice(["Writing the file.", "Let me check", "Here is the fix:"])
    cut = lab.fail(CUT, lab.text(words))
    record = [lab.user("Fix main.py."), cut, lab.user("What happened?"), lab.fail(OUTAGE),
              lab.user("Hello?")]

    view = student.view(record)

    wanted = [record[0], cut, record[2], record[4]]
    expect(view.messages == wanted, WORDS_STAY, given=record, expected=wanted, got=view.messages)


def test_the_view_leaves_the_record_as_it_was(student, variation):
    record = a_record(variation)

    view = student.view(record)

    expect_untouched(record, view.input_after, NOT_TOUCHED,
                     kept_objects=view.input_kept_objects)
    expect(not view.returned_input, NOT_TOUCHED, given=record, expected="a new list",
           got="the very list it was handed")


# -- code the lesson gives you -----------------------------------------------------------------

def test_a_job_with_no_limit_and_no_failure_runs_as_in_lesson_04(student, variation):
    rounds = turns(variation, 2)

    seen = job(student, variation, rounds, final="All done.")

    expect_lists(seen, GIVEN)
    expect_accepted(seen, GIVEN)
    wanted = run_shape(ids_by_reply(seen["record"])[:2] + [[]])
    expect(lab.shape(seen["record"]) == wanted, GIVEN, expected=wanted, got=seen["record"])


# -- the same rules, on jobs and records hypothesis makes up -----------------------------------

a_turn = st.fixed_dictionaries(
    {"text": st.sampled_from(["", "Looking."]),
     "calls": st.lists(st.tuples(st.sampled_from(["read", "bash", "test"]),
                                 st.fixed_dictionaries({"n": st.integers(0, 9)})),
                       min_size=1, max_size=3)},
    optional={"fail": st.sampled_from([OUTAGE, CUT])})
a_failure = st.fixed_dictionaries({"text": st.sampled_from(["", "Half of"]),
                                   "calls": st.just([]), "fail": st.just(OUTAGE)})


def expected_run(rounds, limit):
    """(requests, reply outcomes, calls run) the lesson's loop gives for `rounds` then words:
    `outcome` per reply is "calls", "failed" or "words"; "stop" ends a run at the limit."""
    requests, ran, ending = 0, 0, "words"
    for wanted in list(rounds) + [{"calls": []}]:
        if limit is not None and requests == limit:
            return requests, ran, "stop"
        requests += 1
        if wanted.get("fail") is not None:
            return requests, ran, "failed"
        if not wanted["calls"]:
            return requests, ran, ending
        ran += len(wanted["calls"])
    return requests, ran, ending


@given(st.lists(st.one_of(a_turn, a_failure), max_size=6), st.one_of(st.none(), st.integers(1, 6)))
@example(rounds=[{"text": "", "calls": [("read", {"n": 1})]},
                 {"text": "Half of", "calls": [("bash", {"n": 2})], "fail": CUT}], limit=2)
@example(rounds=[{"text": "", "calls": [("read", {"n": 1})]}] * 3, limit=3)
@settings(max_examples=25)
def test_any_job_with_a_limit_and_failures_is_run_by_the_rules(student, rounds, limit):
    rounds = [dict(r, calls=[[name, dict(args)] for name, args in r["calls"]]) for r in rounds]
    requests, ran, ending = expected_run(rounds, limit)

    seen = student.scenario("session", rounds=rounds, limit=limit, seed=len(rounds))

    expect_lists(seen, ANY_JOB)
    expect_accepted(seen, ANY_JOB)
    turns = ", ".join("failed" if r.get("fail") else lab.counted(len(r["calls"]), "call")
                      for r in rounds) or "none"
    said = f"a job of {lab.counted(len(rounds), 'turn')} ({turns}), max_turns={limit}"
    expect(seen["requests_per_run"] == [requests] and len(seen["ran"]) == ran, ANY_JOB,
           given=said,
           expected=f"{lab.counted(requests, 'request')} and {lab.counted(ran, 'tool')} run",
           got=f"{lab.counted(seen['requests_per_run'][0], 'request')} and "
               f"{lab.counted(len(seen['ran']), 'tool')} run")
    last = seen["record"][-1] if seen["record"] else {}
    if ending == "stop":
        expect_stop(last, limit, ANY_JOB, seen["record"])
    else:
        expect((last.get("stop_reason") == "error") == (ending == "failed")
               and last.get("error_message") != stop_text(limit), ANY_JOB, given=said,
               expected="the run ends on the failed reply" if ending == "failed"
               else "the run ends on the model's words", got=seen["record"])
    answered = [m.get("tool_call_id") for m in seen["record"] if m.get("role") == "toolResult"]
    asked = [b.get("id") for m in seen["record"] if m.get("role") == "assistant"
             and m.get("stop_reason") != "error" for b in m.get("content", [])
             if b.get("type") == "toolCall"]
    expect(answered == asked, ANY_JOB, given=said, expected="a result for every call of every "
           "reply that did not fail, in call order, and none for a failed one",
           got=seen["record"])


record_message = st.one_of(
    st.builds(lab.user, st.sampled_from(["Hi.", "Go on."])),
    st.builds(lab.say, st.sampled_from(["Done.", "Looking."])),
    st.builds(lambda e: lab.fail(e), st.sampled_from([OUTAGE, CUT, stop_text(3)])),
    st.builds(lambda e, w: lab.fail(e, lab.text(w)), st.sampled_from([OUTAGE, CUT]),
              st.sampled_from(["Half", "Writing the"])))


@given(st.lists(record_message, max_size=10))
@example(messages=[lab.fail(OUTAGE), lab.fail(CUT, lab.text("Half")), lab.user("Hi.")])
@settings(max_examples=30)
def test_any_records_view_is_the_record_without_its_empty_failures(student, messages):
    view = student.view(messages)

    expect_untouched(messages, view.input_after, ANY_RECORD,
                     kept_objects=view.input_kept_objects)
    kept = [i for i, m in enumerate(messages)
            if not (m["role"] == "assistant" and not m["content"] and m.get("stop_reason") == "error")]
    expect(view.origins == kept, ANY_RECORD, given=messages,
           expected=[messages[i] for i in kept], got=view.messages)
