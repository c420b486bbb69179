"""Wrong: a run that reached agent_end is a success, whatever its last reply was ("it ended,
so it ended well"). A run that ended on a 503 writes an empty line and returns True, and the
shell that ran it carries on as if it had an answer.
Fails: test_any_run_gets_the_verdict_it_earned
"""


class FinalTextRenderer:
    def __init__(self, out=None):
        self.out, self.ended = out, None

    def render(self, event):
        if event["type"] == "agent_end":
            self.ended = event["messages"]

    def finish(self):
        replies = [m for m in self.ended or [] if m["role"] == "assistant"]
        if not replies:
            print("Error: the run stopped before it ended", file=self.out)
            return False
        print(text_of(replies[-1]), file=self.out)
        return True
