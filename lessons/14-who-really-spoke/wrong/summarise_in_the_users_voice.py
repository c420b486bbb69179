"""Asks for the summary as lesson 13 did, SUMMARISE as the loop's plain prompt: the harness's
request reaches the model as words the user typed.

Fails: test_the_summary_is_asked_for_in_the_harness_voice
"""


class Harness(Harness):
    def _summarise(self, system, cut):
        at = latest_summary(self._messages)
        start = 0 if at is None else self._messages[at]["first_kept"]
        head = [] if at is None else [summary_message(self._messages[at])]
        older = head + view_of(self._messages, start, cut)
        for _ in run_agent(self._retrying, system, older, [], SUMMARISE, max_turns=1):
            pass
        return older[-1]
