"""The graded tests of lesson 03, "Until it stops asking".

Run them with lab_check, never by importing your harness here: each test puts prompts to your
harness.py's run_agent in a process of its own, every request it sends goes to the grader's own
scripted model, every tool it runs is the grader's, and the plain data that comes back is judged
here.

    python lab/lab_check.py --harness harness.py --lesson 03

First the story of the lesson, as cards (the job that needs a second turn, where a run ends,
words beside calls, three calls in one reply, the stop_reason that lies, a job of any length,
what run_agent returns, what every request carries); then one test of code the lesson gives
you; last, the same rules on jobs made up by hypothesis. Every failure is said in one notation
(see lab.display.LEGEND): transcripts as shapes, with the first difference marked.
"""

from hypothesis import example, given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect, objections

FIXED = "def add(a, b):\n    return a + b\n"
JOB = "Run the tests, then fix what fails."

SEEN_THROUGH = ("the loop: a job that needs more than one turn is seen through. Every reply "
                "that asks for tools is answered and the model asked again, until a reply asks "
                "for nothing; then the run ends, with no call left unanswered.")
ENDS = ("the run ends at the first reply that asks for no tool: that reply is the last message "
        "of the run, and the model is not asked again.")
WORDS_AND_CALLS = ("words are not the end: a reply with text and calls still asks for tools, "
                   "so its calls are answered and the model asked again.")
THE_BATCH = ("every call of a reply is answered, in the order the calls were written, before "
             "the model is asked anything else: one request, then every tool of its reply, then "
             "the next request.")
CALLS_DECIDE = ("the calls decide, not the stop_reason: a reply that holds a call is answered "
                "whatever its label says, and a reply with no call ends the run even if it is "
                "labelled toolUse.")
ANY_LENGTH = ("no fixed number of turns: the loop goes round as often as the model asks, and "
              "stops when it stops asking.")
RETURNS = ("run_agent returns the messages this run added to the record, in order, from the "
           "prompt to the final reply: not the whole record, not the last reply alone.")
EVERY_REQUEST = ("every request of every turn carries the system prompt it was given, and the "
                 "whole record as it stands at that moment; the system prompt is in no message.")
ONE_ROUND = ("code the lesson gives you (lesson 02's tools and results): a reply with one call "
             "is answered with its result under its id, and the model's words end the run.")
ANY_JOB = ("any job, turn by turn: every call answered in call order before the next request, "
           "as many turns as the model asks for, and the run ends on the first reply with no "
           "call, whatever each reply's stop_reason says.")


# -- inputs that differ from grading to grading ------------------------------------------------

def system_prompt(variation):
    return f"You are a careful assistant on project {variation.randrange(1000, 10000)}."


def a_call(variation, turn):
    """[tool, arguments]: a call the model might make in turn `turn`."""
    name = variation.choice(["read", "write", "bash", "test"])
    return [name, {"n": turn, "path": f"notes{variation.randrange(100)}.md"}]


def turns(variation, count, calls=(1, 1), text=True):
    """`count` turns of `calls` calls each, every one with words beside its calls when `text`."""
    return [{"text": f"Step {t + 1}." if text else "",
             "calls": [a_call(variation, t) for _ in range(variation.randint(*calls))]}
            for t in range(count)]


def job(student, variation, rounds, prompts=("Do the job.",), **more):
    return student.scenario("session", job="rounds", rounds=rounds, prompts=list(prompts),
                            seed=variation.randrange(10**9), **more)


# -- what the facts say ------------------------------------------------------------------------

def requests(count):
    """A count of requests in words: "1 request", "3 requests"."""
    return lab.counted(count, "request")


def calls_of(messages):
    return [block for m in messages if m.get("role") == "assistant"
            for block in m.get("content", []) if block.get("type") == "toolCall"]


def shape_of_a_run(reply_calls):
    """The shape of one run: the prompt, then for each reply its calls' results, in order.
    `reply_calls` is one list of call ids a reply, the last of them empty."""
    tokens = ["U"]
    for ids in reply_calls:
        tokens.append(f"A[{','.join(ids)}]" if ids else "A")
        tokens += [f"R({i})" for i in ids]
    return " ".join(tokens)


def expected_shape(record, rounds, start=0):
    """What the run that starts at record[start] should look like for `rounds`, with the call
    ids the model really handed out (read off the record's replies, in order)."""
    ids = [c.get("id") for c in calls_of(record[start:])] + ["?"] * 20
    per_reply, at = [], 0
    for wanted in rounds:
        n = len(wanted.get("calls", []))
        per_reply.append(ids[at:at + n])
        at += n
    return shape_of_a_run(per_reply + [[]])


def expect_list(seen, rule):
    for number, added in enumerate(seen["returned"], 1):
        expect(type(added) is list, rule, expected="run_agent returns the list of messages it "
               "added to the record", got=f"run {number} returned {type(added).__name__}")


def expect_accepted(seen, rule):
    """No request of the session was refused by the strict provider."""
    for number, request in enumerate(seen["requests"], 1):
        problems = lab.validate(request)
        expect(not problems, rule, given=seen["record"], got=f"request {number}: "
               f"{lab.shape(request)}", note=objections(problems))


def expect_run(seen, rounds, rule):
    """The session's one run has exactly the shape `rounds` asks for, and was never refused."""
    expect_list(seen, rule)
    expect_accepted(seen, rule)
    wanted = expected_shape(seen["record"], rounds)
    expect(lab.shape(seen["record"]) == wanted, rule, expected=wanted, got=seen["record"])


def expect_tools_ran_between_requests(seen, rounds, rule):
    """Turn t's tools ran, in call order, after request t+1 and before request t+2."""
    wanted = [[name, arguments, t + 1] for t, r in enumerate(rounds) for name, arguments in r["calls"]]
    got = [[name, arguments, sent] for name, arguments, _, sent in seen["ran"]]
    expect(got == wanted, rule,
           expected="\n".join(f"{n}({a}) after request {s}" for n, a, s in wanted) or "no tool",
           got="\n".join(f"{n}({a}) after request {s}" for n, a, s in got) or "no tool ran")


# -- the job that needs a second turn ------------------------------------------------------------

def test_a_job_that_needs_three_turns_is_seen_through(student, variation):
    seen = student.scenario("session", job="fix", prompts=[JOB, "Is it fixed?"],
                            seed=variation.randrange(10**9))

    expect_list(seen, SEEN_THROUGH)
    expect_accepted(seen, SEEN_THROUGH)
    ids = [c.get("id") for c in calls_of(seen["record"])] + ["?"] * 3
    wanted = f"{shape_of_a_run([[ids[0]], [ids[1]], [ids[2]], []])} U A"
    expect(lab.shape(seen["record"]) == wanted, SEEN_THROUGH, expected=wanted,
           got=seen["record"])
    expect(seen["files"].get("calc.py") == FIXED, SEEN_THROUGH,
           expected="calc.py written with the fix", got=f"writes: {seen['writes']}")
    expect([name for name, *_ in seen["ran"]] == ["test", "write", "test"], SEEN_THROUGH,
           expected="test, write, test", got=", ".join(n for n, *_ in seen["ran"]) or "no tool")


def test_the_run_ends_at_the_first_reply_that_asks_for_nothing(student, variation):
    rounds = turns(variation, variation.randrange(2, 5))

    seen = job(student, variation, rounds, final="All done.")

    expect_run(seen, rounds, ENDS)
    expect(len(seen["requests"]) == len(rounds) + 1, ENDS,
           expected=f"{requests(len(rounds) + 1)}: one a turn, the last answered in words",
           got=requests(len(seen["requests"])))
    last = seen["record"][-1]
    expect(last.get("content") == [{"type": "text", "text": "All done."}], ENDS,
           expected='the run ends on the reply "All done."', got=seen["record"])


def test_a_reply_with_words_and_calls_is_not_the_last(student, variation):
    rounds = turns(variation, 2, text=True)
    rounds[0]["text"] = "Here is what I found so far; one more look first."

    seen = job(student, variation, rounds)

    expect_run(seen, rounds, WORDS_AND_CALLS)
    expect_tools_ran_between_requests(seen, rounds, WORDS_AND_CALLS)


def test_three_calls_in_one_reply_are_all_answered_in_call_order_first(student, variation):
    three = [["read", {"path": "a.py"}], ["bash", {"command": "ls"}],
             ["write", {"path": "b.py", "content": "B = 2\n"}]]
    variation.shuffle(three)
    rounds = [{"text": "Looking first.", "calls": [a_call(variation, 0)]},
              {"text": "Three at once.", "calls": three}]

    seen = job(student, variation, rounds)

    expect_run(seen, rounds, THE_BATCH)
    expect_tools_ran_between_requests(seen, rounds, THE_BATCH)
    asked = [c["id"] for c in calls_of(seen["requests"][-1])][-3:]
    answered = [m.get("tool_call_id") for m in seen["requests"][-1][-3:]]
    expect(answered == asked, THE_BATCH, expected=f"request 3 ends on R({asked[0]}) "
           f"R({asked[1]}) R({asked[2]})" if len(asked) == 3 else "three results",
           got=seen["requests"][-1])


def test_the_calls_decide_not_the_stop_reason(student, variation):
    rounds = [{"text": "", "calls": [a_call(variation, 0)]},
              {"text": "One more read.", "calls": [a_call(variation, 1)], "label": "stop"},
              {"text": "That is everything.", "calls": [], "label": "toolUse"}]

    seen = job(student, variation, rounds, final="(a request nobody should have sent)")

    expect_list(seen, CALLS_DECIDE)
    expect_accepted(seen, CALLS_DECIDE)
    ids = [c.get("id") for c in calls_of(seen["record"])] + ["?", "?"]
    wanted = shape_of_a_run([[ids[0]], [ids[1]], []])
    expect(lab.shape(seen["record"]) == wanted and len(seen["requests"]) == 3, CALLS_DECIDE,
           given="replies labelled toolUse (true), stop (with a call in it), toolUse (words only)",
           expected=f"{wanted}, in three requests",
           got=f"{lab.shape(seen['record'])}, in {requests(len(seen['requests']))}")


def test_a_job_of_any_number_of_turns_is_seen_through(student, variation):
    rounds = turns(variation, variation.randrange(4, 9), text=variation.random() < 0.5)

    seen = job(student, variation, rounds)

    expect_run(seen, rounds, ANY_LENGTH)
    expect_tools_ran_between_requests(seen, rounds, ANY_LENGTH)


def test_run_agent_returns_the_messages_this_run_added(student, variation):
    history = [lab.user("Hello."), lab.say("Hello. What shall we do?")]
    rounds = turns(variation, 2)

    seen = job(student, variation, rounds, prompts=["Do the job.", "And again."],
               history=history)

    expect_list(seen, RETURNS)
    expect_accepted(seen, RETURNS)
    first, second = (seen["returned"] + [[], []])[:2]
    for number, (added, prompt) in enumerate(((first, "Do the job."), (second, "And again.")), 1):
        wanted = expected_shape(added, rounds)
        expect(lab.shape(added) == wanted and added[:1] == [lab.user(prompt)], RETURNS,
               given=f"a record of {lab.shape(history)} before run 1", expected=wanted,
               got=added, note=f"run {number}'s return value")


def test_every_request_carries_the_system_prompt_and_the_whole_record(student, variation):
    system = system_prompt(variation)
    rounds = turns(variation, 3, calls=(1, 2))

    seen = job(student, variation, rounds, prompts=["Do the job.", "Once more."], system=system)

    expect_accepted(seen, EVERY_REQUEST)
    one_run = expected_shape(seen["record"], rounds)
    second = len(seen["returned"][0]) if type(seen["returned"][0]) is list else 0
    wanted = f"{one_run} {expected_shape(seen['record'], rounds, start=second)}"
    expect(lab.shape(seen["record"]) == wanted, EVERY_REQUEST, expected=wanted,
           got=seen["record"], note="the same job, asked for twice")
    for number, (sent, request) in enumerate(zip(seen["systems"], seen["requests"]), 1):
        expect(sent == system, EVERY_REQUEST, expected=f"request {number}'s system: {system!r}",
               got=repr(sent))
        expect(request == seen["record"][:len(request)], EVERY_REQUEST, expected=f"request {number}: the record up to that moment",
               got=request)
    expect(all(m.get("role") in ("user", "assistant", "toolResult") for m in seen["record"]),
           EVERY_REQUEST, expected="no system message in the record", got=seen["record"])


# -- code the lesson gives you -----------------------------------------------------------------

def test_one_round_of_calls_is_answered_as_in_lesson_02(student, variation):
    rounds = [{"text": "One look.", "calls": [a_call(variation, 0)]}]

    seen = job(student, variation, rounds, final="Seen it.")

    expect_run(seen, rounds, ONE_ROUND)
    name, arguments = rounds[0]["calls"][0]
    result = seen["record"][2] if len(seen["record"]) > 2 else {}
    expect(result.get("content") == f"{name} ran with {sorted(arguments.items())}", ONE_ROUND,
           expected="the tool's own output as the result", got=seen["record"])


# -- the same rules, on jobs hypothesis makes up -------------------------------------------------

calls = st.lists(st.tuples(st.sampled_from(["read", "write", "bash", "test"]),
                           st.fixed_dictionaries({"n": st.integers(0, 9)})),
                 min_size=1, max_size=4)
a_turn = st.fixed_dictionaries(
    {"text": st.sampled_from(["", "Looking.", "Nearly there; one more step."]), "calls": calls},
    optional={"label": st.sampled_from(["toolUse", "stop", "length"])})
LABELLED_AND_LONG = [{"text": "", "calls": [("read", {"n": 1})], "label": "stop"},
                     {"text": "Two more.", "calls": [("bash", {"n": 2}), ("test", {"n": 3})]},
                     {"text": "Last.", "calls": [("write", {"n": 4})], "label": "length"}]


@given(st.lists(a_turn, max_size=6), st.sampled_from(["toolUse", "stop", None]))
@example(rounds=LABELLED_AND_LONG, last_label="toolUse")
@settings(max_examples=30)
def test_any_job_is_answered_turn_by_turn_until_a_reply_asks_for_nothing(student, rounds,
                                                                          last_label):
    rounds = [dict(r, calls=[[name, dict(args)] for name, args in r["calls"]]) for r in rounds]
    ending = [{"text": "Finished.", "calls": [], "label": last_label}] if last_label else []

    seen = student.scenario("session", job="rounds", rounds=rounds + ending,
                            prompts=["Do the job."], seed=len(rounds))

    expect_list(seen, ANY_JOB)
    expect_accepted(seen, ANY_JOB)
    wanted = expected_shape(seen["record"], rounds)
    expect(lab.shape(seen["record"]) == wanted and len(seen["requests"]) == len(rounds) + 1,
           ANY_JOB, given=f"a job of {lab.counted(len(rounds), 'turn')} of calls, then words",
           expected=f"{wanted}, in {requests(len(rounds) + 1)}",
           got=f"{lab.shape(seen['record'])}, in {requests(len(seen['requests']))}")
    expect_tools_ran_between_requests(seen, rounds, ANY_JOB)
