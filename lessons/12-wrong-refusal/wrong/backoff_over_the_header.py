"""Backs off by its own schedule whatever the provider said. A 429 that asks for 20 seconds is
sent again after 1, refused again, and again: the attempts run out before the wait the
provider asked for has passed.

Fails: test_a_refusal_that_says_how_long_to_wait_is_waited_exactly_that_long
"""


class RetryPolicy(RetryPolicy):
    def decide(self, refusal, attempt, waited):
        decision = super().decide(refusal, attempt, waited)
        if decision.action != "retry":
            return decision
        return Decision("retry", min(self.cap, self.base * 2 ** (attempt - 1)))
