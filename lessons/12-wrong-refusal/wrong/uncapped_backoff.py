"""Doubles the wait every time with no ceiling: the seventh attempt waits 64 times the first,
where the policy promised no wait longer than cap.

Fails: test_overloaded_and_server_errors_back_off_exponentially_up_to_the_cap
"""


class RetryPolicy(RetryPolicy):
    def decide(self, refusal, attempt, waited):
        uncapped = type(self)(self.attempts, self.base, float("inf"), self.budget)
        return RetryPolicy.__mro__[1].decide(uncapped, refusal, attempt, waited)
