"""Compacts the record itself: the older messages are taken out of the transcript and the
summary put in their place, so the request is the record again. The session goes on, and the
record no longer says what happened.

Fails: test_the_record_keeps_every_message_and_each_summary_as_written_by_the_harness
"""


class Harness(Harness):
    def _send(self, system, view, tools):
        if self._window is None or lab.request_tokens(system, view, tools) <= self._window:
            return self._retrying.complete(system, view, tools)
        room = self._window - lab.request_tokens(system, [], tools)
        cut = choose_cut(self._messages, room // 2)
        if cut is None:
            return does_not_fit("the newest turn does not fit")
        summary = self._summarise(system, cut)
        if summary["stop_reason"] == "error":
            return summary
        kept = self._messages[cut:]
        self._messages[:] = [summary_entry(text_of(summary), 1)] + kept
        view = context_for_model(self._messages)
        return self._retrying.complete(system, view, tools)
