"""Wrong: one queue for both kinds of words. A follow-up typed mid-run goes on the steering
queue, so "now run the tests" lands at the next gap between turns, while the job is still
being done, instead of when the run would end.
Fails: test_a_follow_up_typed_mid_run_lands_after_the_last_answer
"""


class Harness(Harness):
    def follow_up(self, text):
        self._steering.append(user_message(text))
