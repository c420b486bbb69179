"""Wrong: the flag is cleared when the run ends and when it is closed (GeneratorExit), but not
when it dies of an exception, so one dropped connection leaves the harness refusing for good.
Fails: test_a_run_that_fails_frees_the_harness
"""


class Harness(Harness):
    def _run(self, text):
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
        try:
            yield
            yield from run
        except GeneratorExit:
            self._running = False
            raise
        self._running = False
