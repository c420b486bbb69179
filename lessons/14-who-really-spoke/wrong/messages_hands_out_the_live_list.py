"""Wrong: messages hands out the harness's own list, not lesson 08's snapshot. Whoever reads
it can append a message in the user's role, and the next request says the user typed it:
the very promotion this lesson forbids, done from outside the harness.
Fails: test_appending_to_what_messages_hands_out_leaves_the_record_alone
"""


class Harness(Harness):
    @property
    def messages(self):
        return self._messages
