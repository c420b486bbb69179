"""Wrong: each ask empties the queue, so two steers typed in one batch land together at the top
of one turn. One message per ask keeps each correction a turn of its own, answered before the
next is let in.
Fails: test_two_steers_in_one_batch_land_one_turn_apiece
"""


class Harness(Harness):
    @staticmethod
    def _take_one(queue):
        taken = list(queue)
        queue.clear()
        return taken
