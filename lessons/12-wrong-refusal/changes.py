"""A small agent harness: lesson 12, "the wrong refusal".

Read it top to bottom: messages, tools, the loop and what it sends, the repair every request
goes through, the record on disk, what a refusal is and what to do about it, the harness that
owns the transcript, and two frontends. Everything is plain dicts and generators; nothing here
talks to a network, so the lab's scripted model can stand in for a real one. What is new since
lesson 11: a failed reply is classified by what the provider sent (its HTTP status, the error
body's type or code, its retry-after header), never by its words, and a policy that lives
outside the loop retries, gives up, or hands a request that outgrew its window on.
"""

import math
import time


# == the record on disk ==


# == refusals ==
# A failed reply says what went wrong twice: in words, for a person, and in the structure of the
# provider's response, for a program. This harness decides by the structure alone.

# What a refusal can be. Each kind asks for one thing: wait and send again (overloaded,
# rate_limited, server_error), make the request smaller (too_long), or stop and tell the user.
KINDS = ("overloaded", "rate_limited", "too_long", "invalid_request", "denied", "quota",
         "server_error", "unknown")


@dataclass(frozen=True)
class Refusal:
    """What a failed reply is. `kind`: one of KINDS. `status`: the HTTP status (None when the
    failure never was a response). `retry_after`: the seconds the provider asked us to wait,
    None when it did not say. `words`: the provider's message, for the user; no decision here
    ever reads it."""
    kind: str
    status: object
    retry_after: object
    words: str


def classify(reply):
    """The Refusal a failed `reply` stands for, read from reply["response"]: {"wire", "status",
    "headers", "body"}, as the provider sent it (see lab.anthropic_error, lab.openai_error).

    The body's error object names the refusal: Anthropic by its "type" (overloaded_error,
    rate_limit_error, request_too_large, authentication_error, permission_error, api_error,
    invalid_request_error, ...), OpenAI by its "type" and "code" (insufficient_quota,
    context_length_exceeded, ...). Where the name says nothing this harness knows, the status
    decides. Checked in this order, the first that holds wins:
      too_long        code context_length_exceeded, type request_too_large, or status 413
      quota           type or code insufficient_quota (429 too: money, not speed)
      overloaded      type overloaded_error, or status 503 or 529
      rate_limited    type rate_limit_error, or status 429
      denied          type authentication_error or permission_error, or status 401 or 403
      server_error    any other status from 500 up
      invalid_request any other status from 400 to 499
      unknown         anything else: no response, no whole-number status, a status below 400
    retry_after is seconds_to_wait(the response's headers). A failed reply with no response
    (lesson 5's lab.fail, a run stopped by max_turns, a stream cut mid-way) is unknown, with
    status and retry_after None. error_message is only copied into words; nothing is matched
    in it. A response that is not what a provider sends (a body that is not JSON's object, a
    type that is not a string) is read as far as it makes sense, never raised on (error_names
    reads the body that way).
    """
    words = reply.get("error_message") or ""
    response = reply.get("response")
    status = response.get("status") if isinstance(response, dict) else None  # as it was sent
    named = error_names(response)  # the error object's type and code: the names to decide by
    # --- your code ---
    if type(status) is not int:
        return Refusal("unknown", None, None, words)
    if named & {"context_length_exceeded", "request_too_large"} or status == 413:
        kind = "too_long"
    elif "insufficient_quota" in named:
        kind = "quota"
    elif "overloaded_error" in named or status in (503, 529):
        kind = "overloaded"
    elif "rate_limit_error" in named or status == 429:
        kind = "rate_limited"
    elif named & {"authentication_error", "permission_error"} or status in (401, 403):
        kind = "denied"
    elif status >= 500:
        kind = "server_error"
    elif status >= 400:
        kind = "invalid_request"
    else:
        kind = "unknown"
    return Refusal(kind, status, seconds_to_wait(response.get("headers")), words)
    # --- starter ---
    #| # Lesson 12: decide the kind by the table above, from `status` and `named` alone (a
    #| # status may be anything a response held); the wait is seconds_to_wait's.
    #| raise NotImplementedError("classify is yours to write in lesson 12")
    # --- end ---


def error_names(response):
    """The names a provider gave its refusal in `response`: the "type" and the "code" of the
    body's error object, those that are strings, as a set ({"invalid_request_error",
    "context_length_exceeded"} for OpenAI's too-long request; OpenAI sends null for a code it
    has none of). Given, because what it guards against is not the lesson: a response, a body
    or an error that is not JSON's object (a proxy's page of HTML, a 529 with no body, an error
    written as a bare string) has no names, and the set is empty, so the status decides."""
    body = response.get("body") if isinstance(response, dict) else None
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else {}
    return {name for name in (error.get("type"), error.get("code")) if isinstance(name, str)}


def seconds_to_wait(headers):
    """The seconds a response's `retry-after` header asks for, as a float; None when there is
    no such header or it is not a finite number of seconds from 0 up (the header may also be an
    HTTP date, which neither provider documents sending: this harness does not read one).
    Header names are matched whatever their case: HTTP says they carry no case, and a proxy
    may send Retry-After where the provider's own servers send retry-after. Given: classify
    takes its refusal's wait from here."""
    if not isinstance(headers, dict):
        return None
    value = {str(name).lower(): value for name, value in headers.items()}.get("retry-after")
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


# == retries ==
# What to do about a refusal: a policy, and the one place it is applied. Both live outside the
# loop, which still makes one request a turn and records one reply; what happens between a
# refused request and the reply that is recorded is the retrying model's business.

@dataclass(frozen=True)
class Decision:
    """What to do about one refusal: "retry" after `wait` seconds, "give_up", or "compact"
    (the request is too long for the window: send a smaller one, lesson 13)."""
    action: str
    wait: float = 0.0


@dataclass(frozen=True)
class RetryPolicy:
    """When to send a refused request again. `attempts`: requests in all for one reply, the
    first included. `base`, `cap`: the first backoff in seconds, doubled for each attempt after,
    never more than `cap`. `budget`: the most seconds of waiting, in all, for one reply."""
    attempts: int = 4
    base: float = 1.0
    cap: float = 30.0
    budget: float = 120.0

    def decide(self, refusal, attempt, waited):
        """The Decision for `refusal`, the answer to request number `attempt` (1 for the first)
        after `waited` seconds of waiting already spent on this reply.

        too_long: compact. overloaded, rate_limited, server_error: retry, after the refusal's
        retry_after when it has one, else after base * 2 ** (attempt - 1), at most cap; but give
        up when this was the last attempt, or when that wait would take the waiting past the
        budget (a rate limit that asks for an hour is not waited out). Every other kind: give
        up at once, because sending the same request again gets the same answer."""
        # --- your code ---
        if refusal.kind == "too_long":
            return Decision("compact")
        if refusal.kind not in ("overloaded", "rate_limited", "server_error"):
            return Decision("give_up")
        wait = refusal.retry_after
        if wait is None:
            wait = min(self.cap, self.base * 2 ** (attempt - 1))
        if attempt >= self.attempts or waited + wait > self.budget:
            return Decision("give_up")
        return Decision("retry", wait)
        # --- starter ---
        #| raise NotImplementedError("RetryPolicy.decide is yours to write in lesson 12")
        # --- end ---


class Retrying:
    """A model that applies a RetryPolicy: Retrying(model, policy, sleep, shrink=None,
    on_retry=None) answers complete() as `model` does, but a refusal the policy says to retry
    is sent again, the very same request, after sleep(seconds).

    The loop never sees an attempt that was retried, and so neither does the record: a turn
    records one reply, the one that came back in the end. When the policy gives up, that last
    failed reply comes back as a copy carrying "failure": {"kind", "status", "attempts"} (the
    refusal's kind and status, and how many requests were made), so the record keeps what it
    was. "compact": `shrink(messages)`, when given, makes a smaller request out of the refused
    one (lesson 13), sent at once; it is asked once a reply, and None from it means it cannot,
    so the refusal is given up on. `on_retry(refusal, decision, attempt)`, when given, is told
    before each wait."""

    def __init__(self, model, policy, sleep, shrink=None, on_retry=None):
        self._model, self._policy, self._sleep = model, policy, sleep
        self._shrink, self._on_retry = shrink, on_retry

    def complete(self, system, messages, tools):
        attempt, waited, shrunk = 1, 0.0, False  # requests made, seconds waited, shrink asked
        while True:  # the same request each time round, unless shrink has made a smaller one
            reply = self._model.complete(system, messages, tools)
            if reply["stop_reason"] != "error":
                return reply  # the loop sees this reply and none of the attempts before it
            # --- your code ---
            refusal = classify(reply)
            decision = self._policy.decide(refusal, attempt, waited)
            if decision.action == "compact" and self._shrink is not None and not shrunk:
                smaller, shrunk = self._shrink(messages), True
                if smaller is not None:
                    messages, attempt = smaller, attempt + 1
                    continue
            if decision.action != "retry":
                return dict(reply, failure={"kind": refusal.kind, "status": refusal.status,
                                            "attempts": attempt})
            if self._on_retry is not None:
                self._on_retry(refusal, decision, attempt)
            self._sleep(decision.wait)
            waited, attempt = waited + decision.wait, attempt + 1
            # --- starter ---
            #| # Lesson 12: `reply` is a refusal. Classify it, ask the policy, and do what the
            #| # Decision says: compact (ask shrink, once a reply), give up (a copy of the
            #| # refusal with its "failure"), or retry (tell on_retry, sleep, count, go round).
            #| # Until then a refusal goes straight to the loop, as in lesson 11.
            #| return reply
            # --- end ---
