"""Reads the status and nothing else. Most refusals have a status of their own, and two that
matter do not: OpenAI's 429 is a rate limit or an account out of money, and its 400 is a bad
request or one too long for the window. Both go to the wrong policy.

Fails: test_openai_refusals_are_classified_by_status_type_and_code
"""

BY_STATUS = {413: "too_long", 503: "overloaded", 529: "overloaded", 429: "rate_limited",
             401: "denied", 403: "denied"}


def classify(reply):
    words = reply.get("error_message") or ""
    response = reply.get("response") if isinstance(reply.get("response"), dict) else None
    status = response.get("status") if response is not None else None
    if type(status) is not int:
        return Refusal("unknown", None, None, words)
    kind = BY_STATUS.get(status) or ("server_error" if status >= 500 else
                                     "invalid_request" if status >= 400 else "unknown")
    return Refusal(kind, status, seconds_to_wait(response.get("headers")), words)
