"""Wrong: the flag is cleared on the line after the loop, not in a finally, so a consumer
that walks away never reaches that line and the harness refuses every prompt after it.
Fails: test_walking_away_after_any_event_frees_the_harness
"""


class Harness(Harness):
    def _run(self, text):
        yield
        yield from run_agent(self._model, self._system, self._messages, self._tools, text,
                             max_turns=self._max_turns)
        self._running = False
