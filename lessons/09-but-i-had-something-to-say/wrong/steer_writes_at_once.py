"""Wrong: steer appends the user's words to the record the moment they are typed. Mid-batch
that puts a user message between a call and its result, U A[c1,c2,c3] R(c1) R(c2) U R(c3),
and the next request is refused: the lesson's opening failure. It also makes steer a second
writer of the record, which lesson 08 was about.
Fails: test_harness_steer_waits_for_the_batch
"""


class Harness(Harness):
    def steer(self, text):
        self._messages.append(user_message(text))
