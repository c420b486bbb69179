"""Right, written another way: the queues are plain lists behind one helper, and each ask takes
the oldest message off the front.
"""


class Harness(Harness):
    def __init__(self, model, system, tools, messages=(), max_turns=None):
        super().__init__(model, system, tools, messages, max_turns)
        self._steering, self._follow_ups = [], []

    def _queue(self, queue, text):
        queue.append(user_message(text))

    def steer(self, text):
        self._queue(self._steering, text)

    def follow_up(self, text):
        self._queue(self._follow_ups, text)

    @staticmethod
    def _take_one(queue):
        return [queue.pop(0)] if queue else []
