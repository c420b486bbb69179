# base: finished
# args: --time-limit 1 -k "walk_away_at_tool_start"
# exit: 1
# says: timed out after 6 s
# closing: 0 passed, 1 failed
# A run whose events never end, each quick: no single answer nears the time limit, but a test
# may take six time limits in all, so the test fails as a timeout and the grading goes on.

import time as _time


class Harness(Harness):
    def prompt(self, text):
        def endless():
            while True:
                _time.sleep(0.02)
                yield {"type": "turn_start"}
        return endless()
