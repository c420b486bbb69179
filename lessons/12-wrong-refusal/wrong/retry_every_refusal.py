"""Retries whatever comes back, the one too-long aside. A 400 is a bad request and an invalid
key is an invalid key: sent again, they are refused again, four times over, with the waits in
between.

Fails: test_a_refusal_that_will_not_change_is_given_up_at_once
"""


class RetryPolicy(RetryPolicy):
    def decide(self, refusal, attempt, waited):
        if refusal.kind in ("too_long", "overloaded", "rate_limited", "server_error"):
            return super().decide(refusal, attempt, waited)
        return super().decide(Refusal("server_error", refusal.status, refusal.retry_after,
                                      refusal.words), attempt, waited)
