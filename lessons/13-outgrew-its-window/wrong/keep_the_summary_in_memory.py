"""Keeps the summary in the harness, not in the record: the view is right for as long as the
process lives. After a crash the resumed harness has never heard of it, sends the whole record,
and asks for a summary of its own.

Fails: test_a_resumed_record_compacts_the_same_way
"""


class Harness(Harness):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._kept = []

    def _send(self, system, view, tools):
        if self._kept:
            view = context_for_model(self._messages[:1] + self._kept + self._messages[1:])
        if self._window is None or lab.request_tokens(system, view, tools) <= self._window:
            return self._retrying.complete(system, view, tools)
        room = self._window - lab.request_tokens(system, [], tools)
        cut = choose_cut(self._messages, room // 2)
        if cut is None:
            return does_not_fit("the newest turn does not fit")
        summary = self._summarise(system, cut)
        if summary["stop_reason"] == "error":
            return summary
        self._kept = [summary_entry(text_of(summary), cut + 1)]
        view = context_for_model(self._messages[:1] + self._kept + self._messages[1:])
        return self._retrying.complete(system, view, tools)
