"""Retries one level up, in the harness: when a run ends on a refusal worth retrying, the
prompt is put again. The loop records the refusal, then records the user's words a second
time, so the model is shown a user who asked twice and a turn that failed in between.

Fails: test_a_retried_turn_records_one_reply_and_resends_the_same_request
"""


class Retrying(Retrying):
    def complete(self, system, messages, tools):
        reply = self._model.complete(system, messages, tools)
        if reply["stop_reason"] != "error":
            return reply
        refusal = classify(reply)
        return dict(reply, failure={"kind": refusal.kind, "status": refusal.status,
                                    "attempts": 1})


class Harness(Harness):
    def _run(self, text):
        yield  # where prompt() leaves the run
        attempt, waited = 1, 0.0
        while True:
            run = super()._run(text)
            next(run)
            yield from run
            self._running = True
            last = self._messages[-1]
            if last.get("stop_reason") != "error":
                break
            decision = self._retrying._policy.decide(classify(last), attempt, waited)
            if decision.action != "retry":
                break
            if self._retrying._on_retry is not None:
                self._retrying._on_retry(classify(last), decision, attempt)
            self._retrying._sleep(decision.wait)
            attempt, waited = attempt + 1, waited + decision.wait
        self._running = False
