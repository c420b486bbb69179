"""The graded tests of lesson 12, "the wrong refusal".

Run them with lab_check, never by importing your harness here: every test runs your harness
in a process of its own and judges the plain data that comes back.

    lab-check --harness harness.py --lesson 12

First the classifier, on every refusal Anthropic and OpenAI document, then on the same
refusals reworded and salted with each other's keywords, then on responses no provider should
send; then the policy; then sessions through the Harness, where the scripted model refuses as
the providers do and the harness's clock is a list that notes every wait. The manifest lists
the gaps in the order to fill them (classify, policy, retrying).
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect, expect_a_copy

# -- what the providers send, and what each one is ----------------------------------------------
# Each: (what it is, the refusal, its kind, the retry_after it asks for). The statuses, types and
# codes are the documented ones (the lesson cites the pages); the words are only examples.

ANTHROPIC = [
    ("Anthropic 400 invalid_request_error", lab.anthropic_error(
        400, "invalid_request_error", "max_tokens: 65000 > 64000, the most this model allows"),
     "invalid_request", None),
    ("Anthropic 400, a prompt over the window", lab.too_long(210_000, 200_000, wire="anthropic"),
     "invalid_request", None),
    ("Anthropic 401 authentication_error", lab.anthropic_error(
        401, "authentication_error", "invalid x-api-key"), "denied", None),
    ("Anthropic 403 permission_error", lab.anthropic_error(
        403, "permission_error", "Your API key does not have permission to use this model."),
     "denied", None),
    ("Anthropic 404 not_found_error", lab.anthropic_error(
        404, "not_found_error", "model: claude-nonexistent"), "invalid_request", None),
    ("Anthropic 413 request_too_large", lab.anthropic_error(
        413, "request_too_large", "Request exceeds the maximum allowed number of bytes."),
     "too_long", None),
    ("Anthropic 429 rate_limit_error", lab.anthropic_error(
        429, "rate_limit_error", "This request would exceed your rate limit.",
        headers={"retry-after": "20"}), "rate_limited", 20.0),
    ("Anthropic 500 api_error", lab.anthropic_error(
        500, "api_error", "Internal server error"), "server_error", None),
    ("Anthropic 529 overloaded_error", lab.anthropic_error(
        529, "overloaded_error", "Overloaded"), "overloaded", None),
]
OPENAI = [
    ("OpenAI 400 invalid_request_error", lab.openai_error(
        400, "Invalid value for 'temperature': must be at most 2.", "invalid_request_error",
        None, "temperature"), "invalid_request", None),
    ("OpenAI 400 context_length_exceeded", lab.too_long(140_000, 128_000), "too_long", None),
    ("OpenAI 401 invalid_api_key", lab.openai_error(
        401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key"),
     "denied", None),
    ("OpenAI 403, a country not supported", lab.openai_error(
        403, "Country, region, or territory not supported", "request_forbidden",
        "unsupported_country_region_territory"), "denied", None),
    ("OpenAI 404 model_not_found", lab.openai_error(
        404, "The model `gpt-nonexistent` does not exist.", "invalid_request_error",
        "model_not_found"), "invalid_request", None),
    ("OpenAI 429 rate_limit_exceeded", lab.openai_error(
        429, "Rate limit reached for requests. Please try again in 1.5s.", "requests",
        "rate_limit_exceeded", headers={"retry-after": "1.5"}), "rate_limited", 1.5),
    ("OpenAI 429 insufficient_quota", lab.openai_error(
        429, "You exceeded your current quota, please check your plan and billing details.",
        "insufficient_quota", "insufficient_quota"), "quota", None),
    ("OpenAI 500 server_error", lab.openai_error(
        500, "The server had an error while processing your request.", "server_error"),
     "server_error", None),
    ("OpenAI 503, slow down", lab.openai_error(
        503, "Please reduce your request rate.", "service_unavailable_error", "slow_down"),
     "overloaded", None),
]
EVERY = ANTHROPIC + OPENAI

# Words that would move a text matcher: each is put into every other refusal's message.
KEYWORDS = ["overloaded", "Overloaded", "rate limit", "rate_limit_error", "Too Many Requests",
            "429", "529", "500", "503", "server error", "internal error", "prompt is too long",
            "exceeds the context window", "context_length_exceeded", "request_too_large",
            "insufficient_quota", "You exceeded your current quota", "invalid_request_error",
            "authentication_error", "permission denied", "please try again in 20s",
            "retry-after: 5"]
REWORDINGS = ["", "Something went wrong.", "Le service est momentanément indisponible.",
              "请稍后再试", "ERROR", "null", "{\"type\": \"error\"}", "x" * 5000]

SPEC_KIND = ("a refusal is classified by what the provider sent: the HTTP status, the error "
             "body's type or code, and the retry-after header, by the table in classify's "
             "docstring.")
REWORDED = ("the words of a refusal are for people: a provider that rewords its message, or a "
            "message that happens to hold another refusal's keyword, changes no verdict.")
WAIT_HEADER = ("a refusal's retry_after is its retry-after header read as a number of seconds "
               "(seconds_to_wait), whatever the case of the header's name; a missing header, an "
               "HTTP date, a negative number or one that is not finite is None.")
NO_RESPONSE = ("a failed reply that carries no response (lab.fail's, a stream cut mid-way, a "
               "run stopped by max_turns) is unknown, with status and retry_after None.")
ODD = ("a response no provider should send is read as far as it makes sense and never raised "
       "on: a body that is not JSON's object, an error that is not an object, a type that is "
       "not a string, a status that is not a whole number.")
BACKOFF = ("overloaded and server errors are retried after base * 2 ** (attempt - 1) seconds, "
           "never more than cap, when the refusal names no wait of its own.")
WAITS_AS_ASKED = ("a refusal that says how long to wait (retry-after) is retried after exactly "
                  "that long, even past cap, when the budget allows it.")
GIVES_UP = ("the policy gives up on the last attempt, and on a wait that would take the waiting "
            "past the budget (an hour-long rate limit is not waited out).")
PERMANENT = ("invalid_request, denied, quota and unknown are given up at once: the same "
             "request gets the same answer.")
COMPACT = ("too_long is never retried as it is: the decision is compact (lesson 13), with no "
           "wait.")
ONE_REPLY = ("a retried turn records one reply, the one that came: the refused attempts are "
             "never in the record, the prompt is there once, and every attempt sends the very "
             "same request.")
RECORDED_KIND = ("a refusal given up on is recorded once, as the turn's reply, carrying "
                 "\"failure\": {kind, status, attempts} (and its response, as it came).")
SENT_ONCE = "a refusal the policy gives up on at once is sent once, and nothing waits."
SHRINK = ("too_long hands the refused request to shrink, once, and sends what it returns at "
          "once, with no wait; shrink's None, or a second too_long, is given up on.")
MID_JOB = ("a refusal in the middle of a job is retried without touching the job: every call "
           "keeps its one result, every request is valid, and the events pair up.")
EDGES = ("a retry leaves the record it started from as it was, whatever that record holds "
         "(nothing, damage at its first or last message, a torn file), adds the prompt and one "
         "reply, and re-sends the same request.")
ON_DISK = ("the record on disk (lesson 11) holds what the record holds: one line for the reply "
           "that came, none for the attempts retried.")
TOLD_FIRST = ("on_retry is told before each wait, with the refusal's kind, the decision and the "
              "attempt, so a frontend can say \"retrying in 20 s\" while it waits.")
A_COPY = ("code the lesson gives you (lesson 08's snapshot): messages hands out a copy, so a "
          "caller that appends to what it read changes nothing of the harness's record.")
END_TO_END = ("end to end, rewording every refusal and moving every keyword changes nothing the "
              "harness does: the same requests, the same waits, the same record.")


# -- small helpers ------------------------------------------------------------------------------

def reworded(refusal, words, header=None):
    """`refusal` with its message replaced by `words` (the body's, and so the error_message an
    SDK would write), and, with `header`, one more header holding it."""
    response = json.loads(json.dumps(refusal["response"]))
    error = response["body"]["error"]
    error["message"] = words
    if header is not None:
        response["headers"]["x-note"] = header
    return dict(refusal, response=response,
                error_message=f"Error code: {response['status']} - {json.dumps(response['body'])}")


def kinds(found):
    return [f"{kind} (retry_after {wait})" for kind, _, wait in found]


def wanted(cases):
    return [f"{kind} (retry_after {wait})" for _, _, kind, wait in cases]


def shaped(messages):
    return lab.shape(messages) or "no message"


def failures(record):
    return [m.get("failure") for m in record if m.get("stop_reason") == "error"]


def session(student, script, **params):
    return student.scenario("session", script=script, **params)


OVERLOADED = lab.anthropic_error(529, "overloaded_error", "Overloaded")
SERVER = lab.openai_error(500, "The server had an error.", "server_error")
LIMITED = lab.openai_error(429, "Slow down.", "requests", "rate_limit_exceeded",
                           headers={"retry-after": "20"})
INVALID = lab.anthropic_error(400, "invalid_request_error", "tools.0.name: too long")
QUOTA = lab.openai_error(429, "You exceeded your current quota.", "insufficient_quota",
                         "insufficient_quota")
DENIED = lab.anthropic_error(401, "authentication_error", "invalid x-api-key")
TOO_LONG = lab.too_long(140_000, 128_000)
ANSWER = lab.say("Here it is.")


# -- the classifier -------------------------------------------------------------------------------

def test_anthropic_refusals_are_classified_by_status_and_type(student):
    found = student.scenario("classify", replies=[case[1] for case in ANTHROPIC])

    for (what, refusal, kind, wait), got in zip(ANTHROPIC, found):
        expect([got[0], got[2]] == [kind, wait] and got[1] == refusal["response"]["status"],
               SPEC_KIND, given=what, expected=f"{kind}, status {refusal['response']['status']}, "
               f"retry_after {wait}", got=f"{got[0]}, status {got[1]}, retry_after {got[2]}")


def test_openai_refusals_are_classified_by_status_type_and_code(student):
    found = student.scenario("classify", replies=[case[1] for case in OPENAI])

    for (what, refusal, kind, wait), got in zip(OPENAI, found):
        expect([got[0], got[2]] == [kind, wait] and got[1] == refusal["response"]["status"],
               SPEC_KIND, given=what, expected=f"{kind}, status {refusal['response']['status']}, "
               f"retry_after {wait}", got=f"{got[0]}, status {got[1]}, retry_after {got[2]}")


def same_verdicts(student, variants):
    """Classify every refusal of EVERY once for each of `variants`, a list of (how it was
    changed, a function that changes a refusal), and hold each verdict to the refusal's own."""
    replies = [change(case[1]) for case in EVERY for _, change in variants]

    found = student.scenario("classify", replies=replies)

    for n, got in enumerate(found):
        what, _, kind, wait = EVERY[n // len(variants)]
        expect([got[0], got[2]] == [kind, wait], REWORDED,
               given=f"{what}, {variants[n % len(variants)][0]}",
               expected=f"{kind} (retry_after {wait})", got=f"{got[0]} (retry_after {got[2]})")


def test_a_reworded_refusal_gets_the_same_verdict(student):
    same_verdicts(student, [(f"its message reworded to {words[:60]!r}",
                             lambda refusal, words=words: reworded(refusal, words))
                            for words in REWORDINGS])


def test_a_keyword_in_another_refusals_words_changes_nothing(student):
    same_verdicts(student, [(f"whose message (and an x-note header) says {word!r}",
                             lambda refusal, word=word: reworded(
                                 refusal, f"Note: {word}. Details follow; {word}!", header=word))
                            for word in KEYWORDS])


def test_retry_after_is_read_in_seconds_and_nothing_else(student):
    cases = [({"retry-after": "20"}, 20.0), ({"Retry-After": "7"}, 7.0),
             ({"retry-after": "0.5"}, 0.5), ({"retry-after": "0"}, 0.0), ({}, None),
             ({"retry-after": "Wed, 21 Oct 2026 07:28:00 GMT"}, None),
             ({"retry-after": "soon"}, None), ({"retry-after": "-3"}, None),
             ({"retry-after": "nan"}, None), ({"retry-after": "inf"}, None),
             ({"x-ratelimit-reset-requests": "20s"}, None)]

    found = student.scenario("waits_asked", headers=[h for h, _ in cases])

    for (headers, seconds), got in zip(cases, found):
        expect(got == seconds, WAIT_HEADER, given=f"a 429 whose headers are {headers}",
               expected=seconds, got=got)
    limited = student.scenario("classify", replies=[lab.anthropic_error(
        429, "rate_limit_error", "Slow down.", headers={"Retry-After": "12"})])
    expect(limited[0][2] == 12.0, WAIT_HEADER, given="Anthropic 429 with Retry-After: 12",
           expected="retry_after 12.0", got=f"retry_after {limited[0][2]}")


def test_a_failure_with_no_response_is_unknown(student):
    cases = [("lab.fail('503 overloaded')", lab.fail("503 overloaded")),
             ("a stream cut mid-way", lab.fail("429 rate limit: stream ended",
                                               lab.text("Writing the"))),
             ("a run stopped by max_turns", {"role": "assistant", "content": [],
                                             "stop_reason": "error",
                                             "error_message": "Stopped: max_turns=3 (overloaded)"}),
             ("a response of null", dict(lab.fail("529 Overloaded"), response=None))]

    found = student.scenario("classify", replies=[reply for _, reply in cases])

    for (what, _), got in zip(cases, found):
        expect(got == ["unknown", None, None], NO_RESPONSE, given=what,
               expected="unknown, status None, retry_after None",
               got=f"{got[0]}, status {got[1]}, retry_after {got[2]}")


def odd(status, body, headers=None):
    return {"role": "assistant", "content": [], "stop_reason": "error",
            "error_message": f"{status} {body}",
            "response": {"wire": "anthropic", "status": status, "headers": headers, "body": body}}


def test_a_response_no_provider_should_send_is_read_without_raising(student):
    cases = [
        ("413 with Cloudflare's HTML page for a body", odd(413, "<html>413 Request Entity Too "
                                                         "Large</html>"), "too_long", None),
        ("529 with no body", odd(529, None), "overloaded", None),
        ("503 with an empty JSON body", odd(503, {}), "overloaded", None),
        ("502 whose error is a string", odd(502, {"error": "Bad gateway"}), "server_error", None),
        ("400 whose error type is a list", odd(400, {"error": {"type": ["overloaded_error"]}}),
         "invalid_request", None),
        ("429 whose code is a number", odd(429, {"error": {"code": 429, "type": None}},
                                           {"retry-after": "3"}), "rate_limited", 3.0),
        ("429 with headers that are a list", odd(429, {"error": {"type": "rate_limit_error"}},
                                                  [["retry-after", "3"]]), "rate_limited", None),
        ("a status that is a string", odd("529", {"type": "error", "error": {
            "type": "overloaded_error", "message": "Overloaded"}}), "unknown", None),
        ("a status that is true", odd(True, {}), "unknown", None),
        ("a status of 200", odd(200, {}), "unknown", None),
        ("a response that is a list", dict(lab.fail("529"), response=[529]), "unknown", None),
    ]

    found = student.scenario("classify", replies=[reply for _, reply, _, _ in cases])

    for (what, _, kind, wait), got in zip(cases, found):
        expect([got[0], got[2]] == [kind, wait], ODD, given=what,
               expected=f"{kind} (retry_after {wait})", got=f"{got[0]} (retry_after {got[2]})")


# -- the policy -----------------------------------------------------------------------------------

def test_overloaded_and_server_errors_back_off_exponentially_up_to_the_cap(student):
    policy = {"attempts": 10, "base": 0.5, "cap": 6.0, "budget": 1000.0}
    cases = [[kind, None, attempt, 0.0] for kind in ("overloaded", "server_error", "rate_limited")
             for attempt in range(1, 8)]

    found = student.scenario("decide", cases=cases, policy=policy)

    for (kind, _, attempt, _), got in zip(cases, found):
        wait = min(6.0, 0.5 * 2 ** (attempt - 1))
        expect(got == ["retry", wait], BACKOFF, given=f"{kind}, attempt {attempt} of 10, "
               "base 0.5, cap 6", expected=f"retry after {wait} s", got=f"{got[0]} after {got[1]} s")


def test_a_refusal_that_says_how_long_to_wait_is_waited_exactly_that_long(student):
    policy = {"attempts": 5, "base": 1.0, "cap": 10.0, "budget": 300.0}
    cases = [["rate_limited", 20.0, 1, 0.0], ["rate_limited", 0.25, 2, 3.0],
             ["overloaded", 45.0, 3, 100.0], ["server_error", 0.0, 1, 0.0]]

    found = student.scenario("decide", cases=cases, policy=policy)

    for (kind, wait, attempt, waited), got in zip(cases, found):
        expect(got == ["retry", wait], WAITS_AS_ASKED, given=f"{kind} asking for {wait} s, "
               f"attempt {attempt} of 5, {waited} s waited, cap 10, budget 300",
               expected=f"retry after {wait} s", got=f"{got[0]} after {got[1]} s")


def test_the_policy_gives_up_on_its_last_attempt_and_at_its_budget(student):
    policy = {"attempts": 3, "base": 2.0, "cap": 30.0, "budget": 60.0}
    cases = [(["overloaded", None, 3, 6.0], "give_up"), (["rate_limited", 5.0, 3, 0.0], "give_up"),
             (["overloaded", None, 2, 50.0], "retry"), (["server_error", None, 2, 57.0], "give_up"),
             (["rate_limited", 3600.0, 1, 0.0], "give_up"), (["rate_limited", 60.0, 1, 0.0], "retry"),
             (["rate_limited", 60.5, 1, 0.0], "give_up"), (["overloaded", None, 4, 0.0], "give_up")]

    found = student.scenario("decide", cases=[case for case, _ in cases], policy=policy)

    for (case, action), got in zip(cases, found):
        kind, wait, attempt, waited = case
        expect(got[0] == action, GIVES_UP, given=f"{kind}" + (f" asking for {wait} s" if wait
               else "") + f", attempt {attempt} of 3, {waited} s of the 60 s budget waited",
               expected=action, got=f"{got[0]} after {got[1]} s")


def test_a_refusal_that_will_not_change_is_given_up_at_once(student):
    cases = [[kind, wait, 1, 0.0] for kind in ("invalid_request", "denied", "quota", "unknown")
             for wait in (None, 1.0)]

    found = student.scenario("decide", cases=cases)

    for (kind, wait, _, _), got in zip(cases, found):
        expect(got[0] == "give_up", PERMANENT, given=f"{kind}, first attempt" +
               (f", retry_after {wait}" if wait else ""), expected="give_up",
               got=f"{got[0]} after {got[1]} s")


def test_too_long_is_handed_on_to_compaction_never_retried_as_it_is(student):
    cases = [["too_long", None, 1, 0.0], ["too_long", 5.0, 2, 1.0], ["too_long", None, 4, 0.0]]

    found = student.scenario("decide", cases=cases)

    for (kind, wait, attempt, _), got in zip(cases, found):
        expect(got == ["compact", 0.0], COMPACT, given=f"too_long, attempt {attempt}" +
               (f", retry_after {wait}" if wait else ""), expected="compact, no wait",
               got=f"{got[0]} after {got[1]} s")


# -- through the Harness --------------------------------------------------------------------------

def test_a_retried_turn_records_one_reply_and_resends_the_same_request(student):
    seen = session(student, [OVERLOADED, SERVER, LIMITED, ANSWER], policy={"attempts": 5})

    expect(shaped(seen["record"]) == "U A" and seen["record"][1] == ANSWER, ONE_REPLY,
           given="529, then 500, then 429 asking for 20 s, then an answer",
           expected="U A: the prompt once, the answer", got=shaped(seen["record"]))
    first = seen["requests"][0]
    expect(len(seen["requests"]) == 4 and all(r == first for r in seen["requests"]), ONE_REPLY,
           given="529, 500, 429, then an answer", expected=f"4 requests, each {shaped(first)}",
           got=[shaped(r) for r in seen["requests"]])
    expect(seen["waits"] == [1.0, 2.0, 20.0], ONE_REPLY, given="the default policy: base 1",
           expected="waits of 1, 2 and 20 s", got=f"waits {seen['waits']}")


def test_a_refusal_given_up_on_is_recorded_once_with_its_kind(student):
    seen = session(student, [OVERLOADED] * 3 + [ANSWER], policy={"attempts": 3},
                   prompts=("Hello?", "Again?"))

    expect(shaped(seen["record"]) == "U A(error) U A", RECORDED_KIND,
           given="529 three times (a policy of 3 attempts), then the next prompt answered",
           expected="U A(error) U A", got=shaped(seen["record"]))
    failed = seen["record"][1]
    expect(failed.get("failure") == {"kind": "overloaded", "status": 529, "attempts": 3}
           and failed.get("response") == OVERLOADED["response"], RECORDED_KIND,
           given="529 three times", expected={"kind": "overloaded", "status": 529, "attempts": 3},
           got=failed.get("failure"), note="and the response as the provider sent it")
    expect(len(seen["requests"]) == 4 and seen["waits"] == [1.0, 2.0], RECORDED_KIND,
           given="529 three times, then the next prompt answered",
           expected="4 requests, waits [1, 2]",
           got=f"{lab.counted(len(seen['requests']), 'request')}, waits {seen['waits']}")


def test_a_refusal_that_will_not_change_is_sent_once(student):
    for what, refusal, kind in (("400 invalid_request_error", INVALID, "invalid_request"),
                                ("401 authentication_error", DENIED, "denied"),
                                ("429 insufficient_quota", QUOTA, "quota"),
                                ("lab.fail('503 overloaded')", lab.fail("503 overloaded"),
                                 "unknown")):
        seen = session(student, [refusal, ANSWER])

        expect(len(seen["requests"]) == 1 and not seen["waits"], SENT_ONCE, given=what,
               expected="one request, no wait",
               got=f"{lab.counted(len(seen['requests']), 'request')}, waits {seen['waits']}")
        expect(failures(seen["record"]) == [{"kind": kind, "status": refusal.get("response", {})
                                             .get("status"), "attempts": 1}],
               RECORDED_KIND, given=what, expected=f"a failure of kind {kind}, 1 attempt",
               got=failures(seen["record"]))


def test_too_long_goes_to_shrink_once_and_never_waits(student):
    earlier = [lab.user("Read the logs."), lab.say("They are long."), lab.user("Go on."),
               lab.say("Still long.")]
    shrunk = session(student, [TOO_LONG, ANSWER], record=earlier, shrink="halve")
    expect(len(shrunk["shrunk"]) == 1 and len(shrunk["requests"]) == 2 and not shrunk["waits"]
           and shrunk["requests"][1] == shrunk["requests"][0][2:]
           and shaped(shrunk["record"]) == "U A U A U A", SHRINK,
           given="context_length_exceeded, then an answer; shrink keeps the newer half",
           expected="shrink asked once, the smaller request sent at once, U A U A U A",
           got=f"shrink asked {lab.counted(len(shrunk['shrunk']), 'time')}, requests "
               f"{[shaped(r) for r in shrunk['requests']]}, waits {shrunk['waits']}, "
               f"record {shaped(shrunk['record'])}")
    for how, script in (("shrink cannot", [TOO_LONG, ANSWER]),
                        ("the smaller request is too long too", [TOO_LONG, TOO_LONG, ANSWER]),
                        ("no shrink at all", [TOO_LONG, ANSWER])):
        seen = session(student, script, record=earlier,
                       shrink=None if how == "no shrink at all" else
                       ("cannot" if how == "shrink cannot" else "halve"))
        attempts = 2 if how == "the smaller request is too long too" else 1
        expect(failures(seen["record"]) == [{"kind": "too_long", "status": 400,
                                             "attempts": attempts}]
               and len(seen["requests"]) == attempts and not seen["waits"], SHRINK,
               given=f"context_length_exceeded, {how}",
               expected=f"{lab.counted(attempts, 'request')}, no wait, a too_long failure recorded",
               got=f"{lab.counted(len(seen['requests']), 'request')}, waits {seen['waits']}, "
                   f"failures {failures(seen['record'])}")


def test_a_refusal_mid_job_keeps_every_call_paired(student):
    read = lab.reply(lab.text("Reading."), lab.call("read", {"path": "a.txt"}))
    seen = session(student, [read, OVERLOADED, OVERLOADED, lab.say("It says alpha.")], tools=True)

    expect(shaped(seen["record"]) == "U A[c1] R(c1) A", MID_JOB,
           given="a read, then 529 twice, then the answer", expected="U A[c1] R(c1) A",
           got=shaped(seen["record"]))
    problems = [lab.validate(r) for r in seen["requests"]]
    expect(len(seen["requests"]) == 4 and not any(problems)
           and seen["requests"][1] == seen["requests"][2] == seen["requests"][3], MID_JOB,
           given="a read, then 529 twice", expected="4 valid requests, the last three the same",
           got=[shaped(r) for r in seen["requests"]])
    run = seen["runs"][0]
    expect(run.count("turn_start") == run.count("turn_end") == 2 and run[0] == "agent_start"
           and run[-1] == "agent_end", MID_JOB, given="the same job", got=run,
           expected="agent_start, two turns, agent_end")


EDGE_RECORDS = [
    ("an empty record", []),
    ("a record whose first message is a result nobody asked for",
     [lab.tool_result(lab.call("read", {}, id="x9"), "orphan"), lab.user("Hi."), lab.say("Hello.")]),
    ("a record whose first message is a failed reply",
     [dict(OVERLOADED, failure={"kind": "overloaded", "status": 529, "attempts": 4}),
      lab.user("Hi."), lab.say("Hello.")]),
    ("a record whose last message is a call with no result",
     [lab.user("Read a."), lab.reply(lab.call("read", {"path": "a.txt"}, id="c9"))]),
    ("a record whose last message is a refusal given up on",
     [lab.user("Hi."), dict(QUOTA, failure={"kind": "quota", "status": 429, "attempts": 1})]),
]


def test_every_edge_of_a_record_survives_a_retry(student):
    for what, record in EDGE_RECORDS:
        seen = session(student, [OVERLOADED, LIMITED, ANSWER], record=record)

        expect(seen["record"][:len(record)] == record, EDGES, given=what,
               expected=f"the record kept: {shaped(record)}",
               got=shaped(seen["record"][:len(record)]))
        expect(shaped(seen["record"][len(record):]) == "U A", EDGES, given=what,
               expected="then U A", got=shaped(seen["record"][len(record):]))
        first = seen["requests"][0]
        expect(len(seen["requests"]) == 3 and all(r == first for r in seen["requests"])
               and not lab.validate(first) and seen["waits"] == [1.0, 20.0], EDGES, given=what,
               expected=f"3 requests, each {shaped(first)}, waits [1, 20]",
               got=f"{[shaped(r) for r in seen['requests']]}, waits {seen['waits']}")
    torn = json.dumps(lab.user("Hi.")) + "\n" + json.dumps(lab.say("Hello."))[:20]
    seen = session(student, [OVERLOADED, ANSWER], file_text=torn)
    expect(shaped(seen["record"]) == "U U A" and len(seen["requests"]) == 2
           and seen["requests"][0] == seen["requests"][1], EDGES,
           given="a file whose last line a crash cut short",
           expected="U U A, two requests the same",
           got=f"{shaped(seen['record'])}, {[shaped(r) for r in seen['requests']]}")


def test_the_file_holds_the_reply_that_came_and_no_attempt(student):
    seen = session(student, [OVERLOADED, SERVER, ANSWER], file_text="")

    lines = [json.loads(line) for line in seen["file"].split("\n") if line]
    expect(lines == seen["record"] and shaped(lines) == "U A", ON_DISK,
           given="a record on disk; 529, 500, then an answer", expected="two lines: U A",
           got=f"{lab.counted(len(lines), 'line')}: {shaped(lines)}")


def test_on_retry_is_told_before_each_wait(student):
    seen = session(student, [OVERLOADED, LIMITED, ANSWER])

    wanted = [["told", ["overloaded", "retry", 1.0, 1]], ["sleep", 1.0],
              ["told", ["rate_limited", "retry", 20.0, 2]], ["sleep", 20.0]]
    expect(seen["timeline"] == wanted, TOLD_FIRST, given="529, then 429 asking for 20 s",
           expected=wanted, got=seen["timeline"])


def test_appending_to_what_messages_hands_out_leaves_the_record_alone(student):
    seen = student.scenario("handing_out")

    expect_a_copy(seen, A_COPY, given="one prompt answered in words; h.messages read")


# -- the same verdicts, whatever the words ----------------------------------------------------------

REFUSALS = [OVERLOADED, SERVER, LIMITED, INVALID, QUOTA, DENIED, TOO_LONG,
            lab.anthropic_error(429, "rate_limit_error", "Slow down."),
            lab.openai_error(503, "Busy.", "service_unavailable_error", "slow_down")]
KIND_OF = {json.dumps(r["response"], sort_keys=True): kind for r, kind in zip(REFUSALS, [
    "overloaded", "server_error", "rate_limited", "invalid_request", "quota", "denied", "too_long",
    "rate_limited", "overloaded"])}


@st.composite
def sessions(draw):
    """A few prompts' worth of refusals and answers, and for each refusal the words it comes
    in: the provider's, other words, or another refusal's keyword."""
    script, salted = [], []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.integers(0, 2)) == 0:
            script.append(ANSWER)
            salted.append(ANSWER)
            continue
        refusal = draw(st.sampled_from(REFUSALS))
        words = draw(st.sampled_from(KEYWORDS + REWORDINGS[:5]))
        script.append(refusal)
        salted.append(reworded(refusal, words, header=draw(st.sampled_from([None, words]))))
    return script + [ANSWER] * 4, salted + [ANSWER] * 4


@given(sessions())
@settings(max_examples=25, deadline=None)
def test_rewording_every_refusal_changes_nothing_the_harness_does(student, pair):
    script, salted = pair
    prompts = ("One.", "Two.", "Three.")

    plain_words = session(student, script, prompts=prompts, shrink="cannot")
    other_words = session(student, salted, prompts=prompts, shrink="cannot")

    def kept(seen):
        return {"requests": len(seen["requests"]), "waits": seen["waits"],
                "record": shaped(seen["record"]), "failures": failures(seen["record"])}

    for failed in [m for m in plain_words["record"] if m.get("stop_reason") == "error"]:
        kind = KIND_OF[json.dumps(failed.get("response"), sort_keys=True)]
        expect((failed.get("failure") or {}).get("kind") == kind, RECORDED_KIND,
               given=failed["error_message"][:80], expected=f"failure of kind {kind}",
               got=failed.get("failure"))
    expect(kept(other_words) == kept(plain_words), END_TO_END,
           given=[r.get("error_message", "an answer")[:80] for r in salted],
           expected=kept(plain_words), got=kept(other_words))
