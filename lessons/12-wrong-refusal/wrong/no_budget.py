"""Counts attempts and never the time. A rate limit that asks for an hour is waited out, with
the user looking at a spinner, and so is a string of waits that adds up to more than anyone
agreed to.

Fails: test_the_policy_gives_up_on_its_last_attempt_and_at_its_budget
"""


class RetryPolicy(RetryPolicy):
    def decide(self, refusal, attempt, waited):
        unbounded = type(self)(self.attempts, self.base, self.cap, float("inf"))
        return RetryPolicy.__mro__[1].decide(unbounded, refusal, attempt, 0.0)
