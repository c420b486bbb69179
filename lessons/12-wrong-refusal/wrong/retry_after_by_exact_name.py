"""Looks the header up by its exact lower-case name. HTTP header names are not case-sensitive,
and a response that says Retry-After is asking for the same wait; this one is not heard.

Fails: test_retry_after_is_read_in_seconds_and_nothing_else
"""


def seconds_to_wait(headers):
    if not isinstance(headers, dict):
        return None
    try:
        seconds = float(headers.get("retry-after"))
    except (TypeError, ValueError):
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None
