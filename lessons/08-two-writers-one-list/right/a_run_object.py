"""A second correct answer, written another way: prompt() hands out a small object of its own
instead of a bare generator. Its close() frees the harness whether or not the run has started,
and so does its end, its death, and its being dropped.
"""


class Run:
    """run_agent's events, and a harness to set free exactly once when they stop."""

    def __init__(self, events, free):
        self._events, self._free = events, free

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._events)
        except BaseException:  # the end (StopIteration) or a death: free, and pass it on
            self.close()
            raise

    def close(self):
        if self._free is not None:
            free, self._free = self._free, None
            self._events.close()
            free()

    def __del__(self):
        self.close()


class Harness(Harness):
    def prompt(self, text):
        if self._running:
            raise RuntimeError("already running; wait for this run to end, or close it")
        self._running = True
        return Run(run_agent(self._model, self._system, self._messages, self._tools, text,
                             max_turns=self._max_turns), self._set_free)

    def _set_free(self):
        self._running = False
