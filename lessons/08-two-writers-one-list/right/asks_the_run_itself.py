"""A second correct answer, written another way: no flag to clear. The harness keeps a weak
reference to the run it handed out and asks the run itself: a generator that has finished,
died or been closed (even before its first event) has no frame left, and one that was dropped
is gone altogether.
"""

import weakref


class Harness(Harness):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._current = lambda: None

    @property
    def is_running(self):
        run = self._current()
        return run is not None and run.gi_frame is not None

    def prompt(self, text):
        if self.is_running:
            raise RuntimeError("already running; wait for this run to end, or close it")
        run = self._events(text)
        self._current = weakref.ref(run)
        return run

    def _events(self, text):
        yield from run_agent(self._model, self._system, self._messages, self._tools, text,
                             max_turns=self._max_turns)
