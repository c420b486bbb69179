"""Asks shrink again every time the smaller request is refused as too long too, so a view
that lesson 13 made as small as it could is cut again, and again, until something is sent
that the harness never chose to send.

Fails: test_too_long_goes_to_shrink_once_and_never_waits
"""


class Retrying(Retrying):
    def complete(self, system, messages, tools):
        while True:
            reply = super().complete(system, messages, tools)
            failure = reply.get("failure") or {}
            if failure.get("kind") != "too_long" or self._shrink is None:
                return reply
            smaller = self._shrink(messages)
            if smaller is None:
                return reply
            messages = smaller
