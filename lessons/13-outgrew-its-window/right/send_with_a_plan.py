"""Another correct compaction: _send works out first what it will send (the view as it is, or
a compacted one, or a failure) and sends in one place; _summarise walks its possible starts
with a while loop, newest summary first, and asks through the loop with a steering-free run.
"""


class Harness(Harness):
    def _send(self, system, view, tools):
        plan = self._plan(system, view, tools)
        if plan["stop_reason"] if isinstance(plan, dict) else False:
            return plan
        return self._retrying.complete(system, plan, tools)

    def _plan(self, system, view, tools):
        """The view to send, or the failed reply that stands in for it."""
        size = lab.request_tokens(system, view, tools)
        if self._window is None or size <= self._window:
            return view
        room = self._window - lab.request_tokens(system, [], tools)
        cut = choose_cut(self._messages, room // 2)
        if cut is None:
            return does_not_fit(f"the newest turn needs more than {room // 2} tokens")
        written = self._summarise(system, cut)
        if written["stop_reason"] == "error":
            return written
        entry = summary_entry(text_of(written), cut)
        record_message(self._messages, entry, self._save if self._file is not None else None)
        smaller = context_for_model(self._messages)
        if lab.request_tokens(system, smaller, tools) > self._window:
            return does_not_fit("even compacted, the request is over the window")
        return smaller

    def _summarise(self, system, cut):
        newest = latest_summary(self._messages)
        head, begin = [], 0
        if newest is not None:
            head, begin = [summary_message(self._messages[newest])], \
                self._messages[newest]["first_kept"]
        starts = [begin] + [c for c in safe_cuts(self._messages) if begin < c < cut] + [cut]
        while starts:
            part = head + view_of(self._messages, starts.pop(0), cut)
            if lab.request_tokens(system, part + [user_message(SUMMARISE)], []) <= self._window:
                events = list(run_agent(self._retrying, system, part, [], SUMMARISE, max_turns=1))
                return events[-1]["messages"][-1]
        return does_not_fit("nothing older can be summarised within the window")
