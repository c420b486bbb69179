"""Another correct retrying model: one attempt a call, and the next attempt a call of its own
with the attempt, the time waited and whether shrink has been asked carried along, instead
of a while loop with state.
"""


class Retrying(Retrying):
    def complete(self, system, messages, tools):
        return self._attempt(system, messages, tools, 1, 0.0, False)

    def _attempt(self, system, messages, tools, attempt, waited, shrunk):
        reply = self._model.complete(system, messages, tools)
        if reply["stop_reason"] != "error":
            return reply
        refusal = classify(reply)
        decision = self._policy.decide(refusal, attempt, waited)
        if decision.action == "compact" and self._shrink and not shrunk:
            smaller = self._shrink(messages)
            if smaller is not None:
                return self._attempt(system, smaller, tools, attempt + 1, waited, True)
        if decision.action == "retry":
            if self._on_retry:
                self._on_retry(refusal, decision, attempt)
            self._sleep(decision.wait)
            return self._attempt(system, messages, tools, attempt + 1, waited + decision.wait,
                                 shrunk)
        failure = {"kind": refusal.kind, "status": refusal.status, "attempts": attempt}
        return {**reply, "failure": failure}
