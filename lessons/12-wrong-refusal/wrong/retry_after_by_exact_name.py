"""Reads the wait itself, by the header's exact lower-case name, where the given seconds_to_wait
was there to ask. HTTP header names carry no case, and a response that says Retry-After is
asking for the same wait: this classify does not hear it, and the policy backs off on its own
schedule, sending again before the provider said it would listen.
Fails: test_retry_after_is_read_in_seconds_and_nothing_else
"""
_finished_classify = classify
def classify(reply):
    refusal = _finished_classify(reply)
    response = reply.get("response")
    headers = response.get("headers") if isinstance(response, dict) else None
    try:
        seconds = float(headers.get("retry-after")) if isinstance(headers, dict) else None
    except (TypeError, ValueError):
        seconds = None
    if seconds is not None and not (math.isfinite(seconds) and seconds >= 0):
        seconds = None
    return Refusal(refusal.kind, refusal.status, seconds, refusal.words)
