"""Wrong: prompt() is itself a generator, so its check runs only when somebody takes the first
event: the caller who asked is told nothing, and whoever iterates later gets the error.
Fails: test_a_second_prompt_while_one_runs_is_refused_on_the_callers_line
"""


class Harness(Harness):
    def prompt(self, text):
        if self._running:
            raise RuntimeError("already running; wait for this run to end, or close it")
        self._running = True
        try:
            yield from run_agent(self._model, self._system, self._messages, self._tools, text,
                                 max_turns=self._max_turns)
        finally:
            self._running = False
