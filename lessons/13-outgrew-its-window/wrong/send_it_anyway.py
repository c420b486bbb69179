"""When not even the newest turn fits, sends the request as it is and lets the provider say so:
it does, with a 400, and a request over the window has gone out.

Fails: test_a_turn_too_long_for_the_window_gets_a_clear_failed_reply_and_is_never_sent
"""


class Harness(Harness):
    def _send(self, system, view, tools):
        if self._window is None or lab.request_tokens(system, view, tools) <= self._window:
            return self._retrying.complete(system, view, tools)
        room = self._window - lab.request_tokens(system, [], tools)
        if choose_cut(self._messages, room // 2) is None:
            return self._retrying.complete(system, view, tools)
        return super()._send(system, view, tools)
