"""Asks for the summary with a request of its own making: the replaced turns pasted into one
user message, under a system prompt of its own. The model never sees the turns as it saw them,
and the request shares no prefix with the session's.

Fails: test_the_model_writes_the_summary_through_the_harness_loop
"""


class Harness(Harness):
    def _summarise(self, system, cut):
        older = view_of(self._messages, 0, cut)
        pasted = "\n".join(lab.show(older, clip=None).splitlines())
        return self._retrying.complete("You write summaries.",
                                       [user_message(pasted + "\n\n" + SUMMARISE)], [])
