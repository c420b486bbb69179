"""Saves each message as its message_end goes past on the way to the consumer: the harness
listens to its own events and writes what it hears. Tidy, and one step too late: the consumer
has been told about a message that is not on disk yet, and a power cut right then loses it.

Fails: test_every_announced_message_is_already_on_disk_whatever_event_the_power_goes_after
"""


def record_message(messages, message, save):
    messages.append(message)
    return {"type": "message_end", "message": message}


class Harness(Harness):
    def _run(self, text):
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._take_one(self._steering),
                        get_follow_ups=lambda: self._take_one(self._follow_ups))
        try:
            for event in run:
                yield event
                if event["type"] == "message_end" and self._file is not None:
                    self._save(event["message"])
        finally:
            run.close()
            self._running = False
