"""Wrong: messages hands out the harness's own list, not lesson 08's snapshot. A caller that
appends to what it read (a note, typed straight into it instead of through steer) writes into
the record behind the harness's back, outside any run and past both queues.
Fails: test_appending_to_what_messages_hands_out_leaves_the_record_alone
"""


class Harness(Harness):
    @property
    def messages(self):
        return self._messages
