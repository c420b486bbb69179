"""Another correct classifier: tables instead of a chain of ifs, one for the names a body can
carry and one for the statuses, and the header found by a scan instead of a dict. The
lesson's tests must not care how the table is written, only what it says.
"""

BY_NAME = [("context_length_exceeded", "too_long"), ("request_too_large", "too_long"),
           ("insufficient_quota", "quota"), ("overloaded_error", "overloaded"),
           ("rate_limit_error", "rate_limited"), ("authentication_error", "denied"),
           ("permission_error", "denied")]
BY_STATUS = {413: "too_long", 503: "overloaded", 529: "overloaded", 429: "rate_limited",
             401: "denied", 403: "denied"}


def classify(reply):
    words = reply.get("error_message") or ""
    response = reply.get("response")
    if not isinstance(response, dict) or type(response.get("status")) is not int:
        return Refusal("unknown", None, None, words)
    status, body = response["status"], response.get("body")
    error = body.get("error", {}) if isinstance(body, dict) else {}
    names = [error.get(key) for key in ("type", "code")] if isinstance(error, dict) else []
    kind = next((kind for name, kind in BY_NAME if name in names), None)
    if kind is None and status in BY_STATUS:
        kind = BY_STATUS[status]
    if kind is None:
        kind = "server_error" if status >= 500 else "invalid_request" if status >= 400 else "unknown"
    return Refusal(kind, status, seconds_to_wait(response.get("headers")), words)


def seconds_to_wait(headers):
    if not isinstance(headers, dict):
        return None
    for name, value in headers.items():
        if str(name).lower() == "retry-after":
            try:
                seconds = float(value)
            except (TypeError, ValueError):
                return None
            return seconds if 0 <= seconds < float("inf") else None
    return None
