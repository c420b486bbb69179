"""Measures the view against the window by its messages alone: the system prompt and the tools
go out with every request too, and the requests near the edge are over the window.

Fails: test_a_long_session_never_sends_a_request_over_the_window
"""


class Harness(Harness):
    def _send(self, system, view, tools):
        if self._window is None or sum(map(lab.tokens, view)) <= self._window:
            return self._retrying.complete(system, view, tools)
        return super()._send(system, view, tools)
