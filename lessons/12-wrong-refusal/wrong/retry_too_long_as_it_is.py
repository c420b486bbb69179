"""Treats a request too long for the window as one more failure to wait out. The request does
not get shorter by waiting: it is sent again, whole, and refused again, until the attempts
run out.

Fails: test_too_long_is_handed_on_to_compaction_never_retried_as_it_is
"""


class RetryPolicy(RetryPolicy):
    def decide(self, refusal, attempt, waited):
        if refusal.kind == "too_long":
            refusal = Refusal("server_error", refusal.status, refusal.retry_after, refusal.words)
        return super().decide(refusal, attempt, waited)
