"""Reads the error's type and never its code. Anthropic names every refusal by its type, so
its table is right; OpenAI puts a too-long request under the type invalid_request_error and
says what it is in the code, context_length_exceeded, which this never looks at.

Fails: test_openai_refusals_are_classified_by_status_type_and_code
"""

_finished_classify = classify


def classify(reply):
    response = reply.get("response")
    if isinstance(response, dict) and isinstance(response.get("body"), dict):
        error = response["body"].get("error")
        if isinstance(error, dict) and "code" in error:
            body = dict(response["body"], error={k: v for k, v in error.items() if k != "code"})
            reply = dict(reply, response=dict(response, body=body))
    return _finished_classify(reply)
