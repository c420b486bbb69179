# base: finished
# args: --time-limit 5 -k "walk_away_at_tool_start"
# exit: 1
# says: more than 32 MiB of answers in one test
# closing: 0 passed, 1 failed
# Every event of a run carries 3 MB of padding, which the grader's driver would keep: the grader
# stops reading after 32 MiB from one test, so its memory stays bounded.

_PADDING = "x" * (3 << 20)


class Harness(Harness):
    def prompt(self, text):
        def heavy():
            for _ in range(100):
                yield {"type": "turn_start", "padding": _PADDING}
        return heavy()
