"""Another correct policy: a match statement over the kind, and the budget checked before the
attempts. Order does not matter where both lead to giving up.
"""


class RetryPolicy(RetryPolicy):
    def decide(self, refusal, attempt, waited):
        match refusal.kind:
            case "too_long":
                return Decision("compact")
            case "overloaded" | "rate_limited" | "server_error":
                backoff = min(self.cap, self.base * 2 ** (attempt - 1))
                wait = backoff if refusal.retry_after is None else refusal.retry_after
                if waited + wait > self.budget:
                    return Decision("give_up")
                return Decision("give_up") if attempt >= self.attempts else Decision("retry", wait)
            case _:
                return Decision("give_up")
