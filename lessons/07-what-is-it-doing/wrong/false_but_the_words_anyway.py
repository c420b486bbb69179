"""Wrong: a run that never reached agent_end returns False, and still writes the newest reply's
words, since they are all there is. `> answer.txt` now holds "Running the tests." as if it
were the answer, and a script that reads the file without checking the exit code believes it.
Fails: test_a_run_walked_away_from_is_never_called_a_success
"""


class FinalTextRenderer:
    def __init__(self, out=None):
        self.out, self.last, self.ended = out, None, False

    def render(self, event):
        if event["type"] == "message_end" and event["message"]["role"] == "assistant":
            self.last = event["message"]
        self.ended = event["type"] == "agent_end"

    def finish(self):
        if self.last is None:
            print("Error: the run stopped before it ended", file=self.out)
            return False
        if self.last["stop_reason"] == "error":
            print(f"Error: {self.last['error_message']}", file=self.out)
            return False
        print(text_of(self.last), file=self.out)
        return self.ended
