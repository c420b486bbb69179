"""Wrong: the finally is there, but in a generator nobody has started: prompt() sets the flag
and hands the run over unstarted, so a run closed (or dropped) before its first event never
enters its try, the finally never runs, and every later prompt is refused.
Fails: test_a_run_closed_before_its_first_event_frees_the_harness
"""


class Harness(Harness):
    def prompt(self, text):
        if self._running:
            raise RuntimeError("already running; wait for this run to end, or close it")
        self._running = True
        return self._events(text)

    def _events(self, text):
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
        try:
            yield from run
        finally:
            run.close()
            self._running = False
