"""Checkpoint B: a doctor whose cases are each as costly to run as the caps allow.

Every case keeps inside lab.testkit.clinic's bounds (under 100,000 bytes of JSON, two record
messages, 50 replies with one call each, 20 prompts), so clinic.problem accepts it. But the
record's assistant message holds about 2,950 one-letter text blocks, and the harness copies
its whole record into each of the session's 70 requests: on the grader's side, running the
case once on a harness costs it well over a second of its own CPU, and a test runs it twice
(the finished harness, then the nearly-right one). The student's own code answers at once:
the case is built when it is asked for, in a few milliseconds.

The diagnoses are right, so nothing but the cost can fail a test.
"""

import lab

HARNESSES = ("ash", "birch", "cedar", "dogwood", "elm")
IDEAS = ("steering_between_batches", "mutate_then_announce", "failed_reply_not_acted_on",
         "record_is_not_the_view", "results_directly_after_in_call_order")
DIAGNOSIS = dict(zip(HARNESSES, IDEAS))

BLOCKS = 2950  # text blocks in the one long reply: just under the 100,000-byte cap


def _costly():
    long_reply = {"role": "assistant", "stop_reason": "stop",
                  "content": [{"type": "text", "text": "a"} for _ in range(BLOCKS)]}
    return {"record": [lab.user("Start."), long_reply],
            "tools": [{"name": "step", "result": "ok"}],
            "replies": [lab.reply(lab.call("step", {"n": k})) for k in range(50)],
            "prompts": [{"text": f"Go on ({k})."} for k in range(20)]}


def case_ash():
    return _costly()


def case_birch():
    return _costly()


def case_cedar():
    return _costly()


def case_dogwood():
    return _costly()


def case_elm():
    return _costly()
