"""Gives up the right way and then hands the loop the bare refusal, as it came: the record
says the turn failed and keeps no word of what kind of failure it was, or how many times it
was tried.

Fails: test_a_refusal_given_up_on_is_recorded_once_with_its_kind
"""


class Retrying(Retrying):
    def complete(self, system, messages, tools):
        reply = super().complete(system, messages, tools)
        return {key: value for key, value in reply.items() if key != "failure"}
