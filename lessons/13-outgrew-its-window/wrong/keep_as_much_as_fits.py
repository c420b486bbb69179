"""Keeps as many newest turns as the whole room holds, not half of it. The summary then has
no room of its own, the view is over the window again at once, and the turn is refused.

Fails: test_a_long_session_never_sends_a_request_over_the_window
"""


class Harness(Harness):
    def _send(self, system, view, tools):
        if self._window is None or lab.request_tokens(system, view, tools) <= self._window:
            return self._retrying.complete(system, view, tools)
        room = self._window - lab.request_tokens(system, [], tools)
        cut = choose_cut(self._messages, room)
        if cut is None:
            return does_not_fit("the newest turn does not fit")
        summary = self._summarise(system, cut)
        if summary["stop_reason"] == "error":
            return summary
        record_message(self._messages, summary_entry(text_of(summary), cut),
                       self._save if self._file is not None else None)
        return self._retrying.complete(system, context_for_model(self._messages), tools)
