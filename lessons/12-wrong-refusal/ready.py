"""What lesson 12's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import ScriptedModel, anthropic_error, openai_error, say, shape

DOES = "classifies a refusal by what the provider sent"
DOES_NOT = "does not classify a refusal by what the provider sent"
NEEDED = "the classifier and the retry policy"


def problem(harness):
    """"" when `harness` does lesson 12's job, else what it is missing, in a few words: its
    classify reads a refusal's kind from the response (Anthropic's 529, OpenAI's 429 and its
    retry-after), and its Harness retries an overloaded request once, with the sleep it is
    given, recording one reply."""
    for name in ("classify", "RetryPolicy", "Retrying", "Harness", "SYSTEM"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    busy = anthropic_error(529, "overloaded_error", "Overloaded")
    waits = []
    try:
        overloaded = harness.classify(busy)
        limited = harness.classify(openai_error(429, "Slow down.", "requests",
                                                "rate_limit_exceeded",
                                                headers={"retry-after": "20"}))
        h = harness.Harness(ScriptedModel([busy, say("Here.")]), harness.SYSTEM, [],
                            sleep=waits.append)
        for _ in h.prompt("Hello?"):
            pass
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if overloaded.kind != "overloaded" or limited.kind != "rate_limited" \
            or limited.retry_after != 20:
        return (f"its classify calls a 529 {overloaded.kind!r} and a 429 asking for 20 s "
                f"{limited.kind!r} ({limited.retry_after})")
    if shape(h.messages) != "U A" or len(waits) != 1:
        return f"one 529 and then an answer leave {shape(h.messages)} after {len(waits)} waits"
    return ""
