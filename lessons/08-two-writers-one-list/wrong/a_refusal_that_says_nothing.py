"""Wrong: the second prompt is refused, with a message that says neither what is going on
in words a caller can act on nor what to do about it.
Fails: test_the_refusal_says_what_to_do
"""


class Harness(Harness):
    def prompt(self, text):
        if self._running:
            raise RuntimeError("busy")
        self._running = True
        run = self._run(text)
        next(run)
        return run
