"""The graded tests of lesson 09, "But I had something to say".

Run them with lab_check, never by importing your harness here: each test runs a job on your
harness.py in a process of its own (the sessions are in scenarios.py) and judges the plain
data that comes back.

    python lab/lab_check.py --harness harness.py --lesson 9

A session is written as a line of tokens: `U:words` a user message, `A` a reply, `A!` a reply
that failed, `R` a tool result. The first tests grade the loop in run_agent (when it asks for
the user's words, and where they land); the next grade the Harness (its two queues, and the snapshot its messages hands out); the last two
try the same rules on jobs and interruptions made up by hypothesis.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect, expect_a_copy

SPACES, TESTS = "Actually, use spaces.", "Now run the tests."

MID_BATCH = ("a steer typed while call 2 of 3 runs waits until every call of the batch has "
             "its result, then lands at the top of the next turn, before the next request.")
EVERY_GAP = ("get_steering is asked at the start of the run and after every turn, once that "
             "turn's calls all have their results, and never while a call is still unanswered.")
AT_THE_END = ("get_follow_ups is asked only when the run would otherwise end (the newest reply "
              "asks for nothing), and its words then start a new turn.")
STEER_FIRST = ("at the end of a turn, steering is asked first; a follow-up waits until the run "
               "would end.")
AFTER_FAILURE = ("after a failed reply neither queue is asked: the run ends on the failure, "
                 "and what was queued stays queued.")
NOTHING_TO_SAY = ("code the lesson gives you (lesson 08's run): with nothing typed, a run's "
                  "events and record are lesson 08's.")
HARNESS_STEER = ("Harness.steer queues the words; they join the record only when the loop "
                 "asks, at the top of the turn after the batch, and every request is valid.")
HARNESS_FOLLOW = ("Harness.follow_up queues the words for when the run would end: after the "
                  "last answer, as a new turn of the same run.")
BETWEEN_RUNS = ("the queues outlive runs: words typed between two runs wait for the next one "
                "(a steer lands right after its prompt, a follow-up after its answer).")
ONE_PER_ASK = ("one queued message per ask: two steers typed in one batch land at the tops of "
               "two turns, one each, in the order they were typed.")
FAILED_RUN = ("a follow-up queued before a run that fails is not sent after the failure: it "
              "waits, and lands after the next run's answer.")
REFUSED = ("code the lesson gives you (lesson 08's door, in this lesson's words): prompt() "
           "during a run raises 'already running; use steer() or follow_up()'.")
A_COPY = ("code the lesson gives you (lesson 08's snapshot): messages hands out a copy, so a "
          "caller that appends to what it read changes nothing of the harness's record.")
ANY_SESSION = ("on any job with words typed at any moment, every request is valid and every "
               "message lands where the rules say.")


# -- the rules, as a line of tokens ---------------------------------------------------------

def tokens(record):
    """The record as a list of tokens (see the module's docstring)."""
    out = []
    for m in record:
        if m["role"] == "user":
            out.append("U:" + (m["content"] if isinstance(m["content"], str) else str(m["content"])))
        elif m["role"] == "toolResult":
            out.append("R")
        else:
            out.append("A!" if m.get("stop_reason") == "error" else "A")
    return out


def foreseen(plan, typed=None, prompts=("Do the job.",)):
    """The tokens the lesson's rules give for a session: an account written from the rules
    (a steer at the next top of a turn, a follow-up when the run would end, one per ask,
    nothing asked after a failure), not from any harness."""
    typed, said = typed or {}, {"steer": [], "follow_up": []}
    out, answers, executed = [], iter(list(plan) + [0] * 1000), 0

    def hear(moment):
        for kind, words in typed.get(moment, []):
            said[kind].append(words)

    def next_words(kind):
        return [said[kind].pop(0)] if said[kind] else []

    for n, prompt in enumerate(prompts):
        hear(f"before:{n}")
        top = [prompt] + next_words("steer")
        while True:
            out += ["U:" + words for words in top]
            answer = next(answers)
            if answer == "fail":
                out.append("A!")
                break  # nothing after a failure: the run ends there
            out.append("A")
            for _ in range(answer):
                executed += 1
                hear(f"exec:{executed}")
                out.append("R")
            top = next_words("steer")
            if not top and answer == 0:  # the run would end here: a follow-up may keep it going
                top = next_words("follow_up")
                if not top:
                    break
    return out


def line(items):
    return " ".join(items)


def expect_session(seen, wanted, rule):
    got = tokens(seen["record"])
    expect(got == wanted, rule, expected=line(wanted), got=line(got))
    refused = [lab.validate(r) for r in seen["requests"] if lab.validate(r)]
    expect(not refused, rule + " (and every request a provider accepts)",
           got=line(got), note=refused[0][0] if refused else None)


# -- the loop: when run_agent asks, and where the words land ---------------------------------

def test_a_steer_typed_mid_batch_lands_after_the_whole_batch(student, variation):
    typed = {"exec:2": [["steer", SPACES]]}
    seen = student.scenario("loop", plan=[3, 0], typed=typed, seed=variation.randrange(10**9))

    expect_session(seen, foreseen([3, 0], typed), MID_BATCH)


def test_steering_is_asked_after_every_turn_and_never_mid_batch(student, variation):
    plan = [2, 1, variation.randrange(1, 4), 0]
    seen = student.scenario("loop", plan=plan, seed=variation.randrange(10**9))
    steering = [a for a in seen["asks"] if a["asked"] == "steering"]
    early = [a for a in steering if a["unanswered"]]

    expect(not early, EVERY_GAP,
           got=f"asked with {lab.counted(early[0]['unanswered'], 'call')} unanswered, "
               f"after {lab.counted(early[0]['at'], 'message')}" if early else None)
    expect(len(steering) == len(plan) + 1, EVERY_GAP,
           expected=f"{lab.counted(len(plan) + 1, 'ask')} (one at the start, one after each of "
           f"{lab.counted(len(plan), 'turn')})", got=lab.counted(len(steering), "ask"))


def test_a_follow_up_lands_only_when_the_run_would_end(student, variation):
    typed = {"exec:1": [["follow_up", TESTS]]}
    seen = student.scenario("loop", plan=[1, 1, 0], typed=typed, seed=variation.randrange(10**9))
    early = [a for a in seen["asks"] if a["asked"] == "follow_ups" and a["last"] != "words"]

    expect(not early, AT_THE_END, got=f"asked after a reply that was {early[0]['last']}"
           if early else None)
    expect_session(seen, foreseen([1, 1, 0], typed), AT_THE_END)


def test_steering_is_asked_before_follow_ups(student):
    typed = {"exec:1": [["follow_up", TESTS], ["steer", SPACES]]}
    seen = student.scenario("loop", plan=[1, 0], typed=typed)

    expect_session(seen, foreseen([1, 0], typed), STEER_FIRST)


def test_neither_queue_is_asked_after_a_failed_reply(student, variation):
    typed = {"exec:1": [["steer", SPACES], ["follow_up", TESTS]]}
    seen = student.scenario("loop", plan=[1, "fail"], typed=typed, seed=variation.randrange(10**9))
    late = [a for a in seen["asks"] if a["last"] == "failed"]

    expect(not late, AFTER_FAILURE, got=f"{late[0]['asked']} asked after the failed reply"
           if late else None)
    expect_session(seen, foreseen([1, "fail"], typed), AFTER_FAILURE)


def test_a_run_with_nothing_typed_is_lesson_08s_run(student):
    plan = [2, 1, 0]
    seen = student.scenario("loop", plan=plan)
    wanted = ["agent_start"]
    for n, calls in enumerate(plan):
        wanted += ["turn_start"] + ["message_end"] * (2 if n == 0 else 1)  # the prompt, the reply
        wanted += ["tool_execution_start", "message_end", "tool_execution_end"] * calls
        wanted += ["turn_end"]
    wanted += ["agent_end"]

    expect(seen["events"] == wanted, NOTHING_TO_SAY, expected=" ".join(wanted),
           got=" ".join(seen["events"]))
    expect_session(seen, foreseen(plan), NOTHING_TO_SAY)


# -- the Harness: two queues -------------------------------------------------------------------

def test_harness_steer_waits_for_the_batch(student, variation):
    typed = {"exec:2": [["steer", SPACES]]}
    seen = student.scenario("session", plan=[3, 0], typed=typed, seed=variation.randrange(10**9))

    expect_session(seen, foreseen([3, 0], typed), HARNESS_STEER)


def test_a_follow_up_typed_mid_run_lands_after_the_last_answer(student, variation):
    typed = {"exec:1": [["follow_up", TESTS]]}
    plan = [1] * variation.randrange(1, 3) + [0]
    seen = student.scenario("session", plan=plan, typed=typed)

    expect_session(seen, foreseen(plan, typed), HARNESS_FOLLOW)


def test_words_typed_between_runs_wait_for_the_next_run(student):
    typed = {"before:1": [["steer", SPACES], ["follow_up", TESTS]]}
    prompts = ["Reformat main.py.", "And config.py."]
    seen = student.scenario("session", plan=[0, 0, 0], typed=typed, prompts=prompts)

    expect_session(seen, foreseen([0, 0, 0], typed, prompts), BETWEEN_RUNS)


def test_two_steers_in_one_batch_land_one_turn_apiece(student):
    typed = {"exec:1": [["steer", SPACES]], "exec:2": [["steer", "And tabs nowhere."]]}
    seen = student.scenario("session", plan=[2, 0, 0], typed=typed)

    expect_session(seen, foreseen([2, 0, 0], typed), ONE_PER_ASK)


def test_a_follow_up_queued_before_a_failed_run_waits_for_the_next_answer(student):
    typed = {"before:0": [["follow_up", TESTS]]}
    prompts = ["Reformat main.py.", "Try again."]
    seen = student.scenario("session", plan=["fail", 0, 0], typed=typed, prompts=prompts)
    first_run = tokens(seen["record"][:seen["ended"][0]])

    expect(first_run == ["U:" + prompts[0], "A!"], FAILED_RUN,
           expected=line(["U:" + prompts[0], "A!"]), got=line(first_run))
    expect_session(seen, foreseen(["fail", 0, 0], typed, prompts), FAILED_RUN)


def test_prompt_while_running_says_use_steer_or_follow_up(student):
    seen = student.scenario("session", plan=[1, 0], prompt_mid_run=True)

    expect(len(seen["refusals"]) == 1 and seen["refusals"][0].startswith(
        "RuntimeError: already running; use steer() or follow_up()"), REFUSED,
           got=seen["refusals"])
    expect(not seen["running"], REFUSED + " (and the harness is free once the run ends)")


def test_appending_to_what_messages_hands_out_leaves_the_record_alone(student, variation):
    seen = student.scenario("handing_out", seed=variation.randrange(10**9))

    expect_a_copy(seen, A_COPY, given="a job of two steps run to its end; h.messages read")


# -- any job, anything typed at any moment ---------------------------------------------------

def sessions(prompts_at_most):
    """(plan, typed, prompts): a job of up to six replies, some failing, and up to five things
    typed, each at a moment the job reaches or one it never does."""
    entry = st.one_of(st.integers(0, 3), st.just("fail"))
    words = st.sampled_from([SPACES, TESTS, "Stop touching README.", "Use tabs after all."])
    said = st.lists(st.tuples(st.sampled_from(["steer", "follow_up"]), words).map(list),
                    min_size=1, max_size=2)

    @st.composite
    def build(draw):
        plan = draw(st.lists(entry, min_size=1, max_size=6))
        prompts = [f"Prompt {n}." for n in range(draw(st.integers(1, prompts_at_most)))]
        moments = st.one_of(st.integers(1, 10).map(lambda n: f"exec:{n}"),
                            st.integers(0, len(prompts) - 1).map(lambda n: f"before:{n}"))
        typed = draw(st.dictionaries(moments, said, max_size=3))
        return plan, typed, prompts

    return build()


@given(sessions(prompts_at_most=1), st.integers(0, 10**9))
@settings(max_examples=40)
def test_any_job_lands_every_word_where_the_loop_rules_say(student, job, seed):
    plan, typed, prompts = job
    seen = student.scenario("loop", plan=plan, typed=typed, seed=seed)

    expect_session(seen, foreseen(plan, typed), ANY_SESSION + f" (plan {plan}, typed {typed})")


@given(sessions(prompts_at_most=3), st.integers(0, 10**9))
@settings(max_examples=40)
def test_any_session_lands_every_word_where_the_harness_rules_say(student, job, seed):
    plan, typed, prompts = job
    seen = student.scenario("session", plan=plan, typed=typed, prompts=prompts, seed=seed)

    expect_session(seen, foreseen(plan, typed, prompts),
                   ANY_SESSION + f" (plan {plan}, typed {typed}, prompts {prompts})")
