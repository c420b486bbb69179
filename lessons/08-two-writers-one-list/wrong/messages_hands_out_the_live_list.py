"""Wrong: messages hands out the harness's own list, not a snapshot of it. It looks the same to
a caller who only reads, but one who appends to what it got (a screen adding a note, say)
writes into the record behind the harness's back, and the next request carries a message
nobody said.
Fails: test_appending_to_what_messages_hands_out_leaves_the_record_alone
"""


class Harness(Harness):
    @property
    def messages(self):
        return self._messages
