"""A small agent harness: lesson 08, "Two writers, one list".

Read it top to bottom: messages, tools, the loop and what it sends, the harness that owns
the transcript, and two frontends. New since lesson 07: a Harness holds the one record
and lets one run at a time write to it, and a consumer that walks away leaves it ready
for the next prompt. Everything is plain dicts and generators; nothing here talks to a
network, so the lab's scripted model can stand in for a real one.
"""


# == loop ==


# == harness ==
# One transcript and one writer. The loop stays stateless; the harness owns the list.

class Harness:
    """Owns one transcript, the settings that hold from run to run, and the rule that one run
    at a time may write to the transcript.

    Harness(model, system, tools, messages=(), max_turns=None) keeps a list of its own,
    starting from a copy of `messages`.
      .messages     the transcript as a tuple: a snapshot nobody outside can append to.
      .is_running   True from prompt() until that run is finished, closed, dropped or dead.
      .prompt(text) the run, as a generator of run_agent's events. Asking again while a run
                    is going raises RuntimeError at once, on the caller's line. The run is
                    started before it is handed over, so a run closed or dropped before its
                    first event frees the harness too.
    """

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._running = False

    @property
    def messages(self):
        return tuple(self._messages)

    @property
    def is_running(self):
        return self._running

    # --- your code ---
    def prompt(self, text):
        if self._running:  # refused here, on the caller's line, not at the run's first step
            raise RuntimeError("already running; wait for this run to end, or close it")
        self._running = True
        run = self._run(text)
        next(run)  # into the try: from now on, closing or dropping the run runs its finally
        return run

    def _run(self, text):
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns)
        try:
            yield  # where prompt() leaves the run: the door is armed before anyone holds it
            yield from run
        finally:  # finished, closed by the consumer, dropped, or failed: free again
            run.close()  # the loop's own generator too, so it stops where it stood
            self._running = False
    # --- starter ---
    #| def prompt(self, text):
    #|     # Lesson 07's way to start a run, as a method: anyone may start one, at any time,
    #|     # and every run writes to the same list.
    #|     return run_agent(self._model, self._system, self._messages, self._tools, text,
    #|                      max_turns=self._max_turns)
    # --- end ---
