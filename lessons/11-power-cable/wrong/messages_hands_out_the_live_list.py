"""Wrong: messages hands out the harness's own list, not lesson 08's snapshot. A caller that
appends to what it read writes into the record behind the harness's back: the message is sent
on the next request, yet it never went through record_message, so it is not on the disk, and
the record a resume loads is not the one the model saw.
Fails: test_appending_to_what_messages_hands_out_leaves_the_record_alone
"""


class Harness(Harness):
    @property
    def messages(self):
        return self._messages
