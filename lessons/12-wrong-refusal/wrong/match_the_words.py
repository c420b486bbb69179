"""Decides by the words, as a harness does that keeps only the SDK's message: a pattern for
each kind, tried in turn against error_message. It reads the provider's own refusals well
enough, and the first refusal that happens to mention another's keyword ("overloaded" in a
400's message, "too long" in a rate limit's) gets the other one's treatment.

Fails: test_a_keyword_in_another_refusals_words_changes_nothing
"""

import re

PATTERNS = [("too_long", r"prompt is too long|context.?length|too large|too long"),
            ("quota", r"quota"),
            ("overloaded", r"overloaded|\b503\b|\b529\b"),
            ("rate_limited", r"rate.?limit|too many requests|\b429\b"),
            ("denied", r"authentication|permission|api key"),
            ("server_error", r"\b50\d\b|server.?error|internal"),
            ("invalid_request", r"invalid|\b4\d\d\b")]


def classify(reply):
    words = reply.get("error_message") or ""
    response = reply.get("response") if isinstance(reply.get("response"), dict) else None
    if response is None or type(response.get("status")) is not int:
        return Refusal("unknown", None, None, words)
    kind = next((kind for kind, pattern in PATTERNS if re.search(pattern, words, re.I)),
                "unknown")
    return Refusal(kind, response["status"], seconds_to_wait(response.get("headers")), words)
