"""Wrong: the flag is set inside the run, at its first step, so between prompt() and the first
event the harness looks idle, and a second prompt made in that moment gets a run of its own.
Fails: test_a_run_holds_the_harness_from_the_moment_prompt_returns
"""


class Harness(Harness):
    def prompt(self, text):
        if self._running:
            raise RuntimeError("already running; wait for this run to end, or close it")
        return self._events(text)

    def _events(self, text):
        self._running = True
        try:
            yield from run_agent(self._model, self._system, self._messages, self._tools, text,
                                 max_turns=self._max_turns)
        finally:
            self._running = False
