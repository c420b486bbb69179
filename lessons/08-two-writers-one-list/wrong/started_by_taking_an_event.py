"""Wrong: the run is started before it is handed over, as it should be, but by taking its first
real event and throwing it away, so the consumer never sees agent_start.
Fails: test_a_run_holds_the_harness_from_the_moment_prompt_returns
"""


class Harness(Harness):
    def prompt(self, text):
        if self._running:
            raise RuntimeError("already running; wait for this run to end, or close it")
        self._running = True
        run = self._events(text)
        next(run)  # agent_start, lost
        return run

    def _events(self, text):
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
        try:
            yield from run
        finally:
            run.close()
            self._running = False
