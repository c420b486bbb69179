"""Keeps half of the window for the newest turns, as if the window were the messages' alone,
where the given lines worked out the room: the window less the system prompt and the tools,
which go out with every request too. Under a long system prompt the newest turns and the
summary then take more than the window leaves them, and the turns near the edge are refused
before they are sent.

Fails: test_a_long_session_never_sends_a_request_over_the_window
"""


class Harness(Harness):
    def _send(self, system, view, tools):
        if self._window is None or lab.request_tokens(system, view, tools) <= self._window:
            return self._retrying.complete(system, view, tools)
        cut = choose_cut(self._messages, self._window // 2)  # the messages alone, counted
        if cut is None:
            return does_not_fit("the newest turn alone takes more than half of the window")
        summary = self._summarise(system, cut)
        if summary["stop_reason"] == "error":
            return summary
        record_message(self._messages, summary_entry(text_of(summary), cut),
                       self._save if self._file is not None else None)
        view = context_for_model(self._messages)
        if lab.request_tokens(system, view, tools) > self._window:
            return does_not_fit("the summary and the newest turns are over the window")
        return self._retrying.complete(system, view, tools)
