"""Lesson 12's own kit module, lab.refusals: a provider's refusal as the provider sends it.

The lesson's graded tests judge a student's classifier against these builders, so the builders
must send what the providers document: each provider's body shape, a request id in the header
the provider uses and (for Anthropic) in the body, lower-case header names, and in
error_message the string an official SDK makes of a refusal. A refusal is an ordinary script
entry: the scripted model hands it out as it is, and it survives lesson 11's record on disk.
Also here: lesson 12's hints, held to the same rules as lesson 11's.
"""

import json
import re
import tomllib

import pytest

import lab
from lab.course import lesson_files as lessons
from lab.grader import hints
from lab.course import manifest
from lab.course.gap_markers import BEGIN, END

LESSON = lessons.lesson(12)


def test_an_anthropic_refusal_has_anthropics_documented_body_and_a_request_id_header():
    refusal = lab.anthropic_error(529, "overloaded_error", "Overloaded",
                                  headers={"Retry-After": 3})

    response = refusal["response"]
    assert response["wire"] == "anthropic" and response["status"] == 529
    body = response["body"]
    assert set(body) == {"type", "error", "request_id"} and body["type"] == "error"
    assert body["error"] == {"type": "overloaded_error", "message": "Overloaded"}
    assert response["headers"] == {"request-id": body["request_id"], "retry-after": "3"}
    assert re.fullmatch(r"req_[0-9a-f]{24}", body["request_id"])


def test_an_openai_refusal_has_an_error_object_of_four_fields_and_an_x_request_id():
    refusal = lab.openai_error(429, "Slow down.", "requests", "rate_limit_exceeded",
                               headers={"retry-after": "1.5"})

    response = refusal["response"]
    assert response["wire"] == "openai" and response["status"] == 429
    assert response["body"] == {"error": {"message": "Slow down.", "type": "requests",
                                          "param": None, "code": "rate_limit_exceeded"}}
    assert set(response["headers"]) == {"x-request-id", "retry-after"}
    assert response["headers"]["retry-after"] == "1.5"


def test_a_refusal_is_lesson_5s_failed_reply_with_the_sdks_words_in_error_message():
    for refusal in (lab.anthropic_error(400, "invalid_request_error", "bad"),
                    lab.openai_error(500, "The server had an error.", "server_error")):
        response = refusal["response"]
        assert refusal["role"] == "assistant" and refusal["content"] == []
        assert refusal["stop_reason"] == "error"
        assert refusal["error_message"] == (f"Error code: {response['status']} - "
                                            f"{json.dumps(response['body'])}")


def test_too_long_is_each_providers_own_refusal_of_a_request_over_the_window():
    openai = lab.too_long(140_000, 128_000)["response"]
    anthropic = lab.too_long(210_000, 200_000, wire="anthropic")["response"]

    assert openai["status"] == 400 and openai["body"]["error"]["code"] == "context_length_exceeded"
    assert openai["body"]["error"]["param"] == "messages"
    assert "128000 tokens" in openai["body"]["error"]["message"]
    assert anthropic["status"] == 400
    assert anthropic["body"]["error"] == {"type": "invalid_request_error", "message":
                                          "prompt is too long: 210000 tokens > 200000 maximum"}
    with pytest.raises(ValueError, match="anthropic and openai"):
        lab.too_long(1, 0, wire="gemini")


def test_the_request_id_depends_only_on_what_was_refused():
    first = lab.anthropic_error(529, "overloaded_error", "Overloaded")
    again = lab.anthropic_error(529, "overloaded_error", "Overloaded")
    other = lab.anthropic_error(529, "overloaded_error", "Busy")

    assert first == again
    assert first["response"]["headers"]["request-id"] != other["response"]["headers"]["request-id"]


def test_the_scripted_model_hands_a_refusal_out_as_it_is_and_it_survives_the_record_on_disk():
    refusal = lab.openai_error(429, "Slow down.", "requests", "rate_limit_exceeded",
                               headers={"retry-after": "20"})
    model = lab.ScriptedModel([refusal, lab.say("Here.")])

    came = model.complete("", [lab.user("Hi.")], [])
    then = model.complete("", [lab.user("Hi.")], [])

    assert came == refusal and came is not refusal and then == lab.say("Here.")
    assert json.loads(json.dumps(came)) == came  # one JSON line of lesson 11's file


def test_the_builders_leave_the_headers_they_are_given_alone():
    given = {"Retry-After": 5}
    lab.anthropic_error(429, "rate_limit_error", "Slow down.", headers=given)
    assert given == {"Retry-After": 5}


# -- the hints --

def headings():
    source = (LESSON.folder / "walkthrough.py").read_text(encoding="utf-8")
    return {match.group(1).strip() for match in re.finditer(r"^# #{2,3} (.+)$", source, re.M)}


def test_each_graded_test_and_gap_has_its_two_hints_under_a_heading_of_the_walkthrough():
    guide, written = hints.guide(LESSON), headings()

    for name in manifest.graded_tests(LESSON.tests):
        question, outline = guide.hints(name)
        assert question.rstrip().endswith("?") and not outline.rstrip().endswith("?"), name
        assert guide.section(name) in written, (name, guide.section(name))
    for gap in manifest.read(LESSON)["gaps"]:
        assert guide.section(gap=gap) in written, (gap, guide.section(gap=gap))


def test_the_hints_quote_no_line_of_the_answer():
    answer, inside = [], False
    for line in LESSON.finished.read_text(encoding="utf-8").splitlines():
        marker = line.strip()
        if marker in (BEGIN, END) or marker == "# --- starter ---":
            inside = marker == BEGIN
        elif inside and len(marker) > 12 and not marker.startswith("#"):
            answer.append(marker)
    told = tomllib.loads((LESSON.folder / "hints.toml").read_text(encoding="utf-8"))
    said = " ".join(hint for entry in told["tests"].values() for hint in entry["hints"])

    assert len(answer) > 30
    assert [line for line in answer if line in said] == []
