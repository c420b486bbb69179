# base: finished
# Every test fails with an exception whose message is 30000 emoji, sent at full length: the
# sandbox's describe() clips a message to serve.CLIP characters, and the student's code shares
# that process, so it sets CLIP to ten million. JSON writes an emoji in twelve bytes (a
# surrogate pair, each "\uXXXX"); the grader clipped each test's message to 20000 characters,
# 240 KB of JSON, and 20 tests made a report larger than the 4 MiB frame the host reads. The
# host waited for the worker until the grading's ceiling (36 minutes at the default time
# limit) while the worker waited for the host to read the rest.
import sys as _sys

_sys.modules["lab_inside.serve"].CLIP = 10**7
_WORDS = "\U0001F600" * 30000


def _raise(*args, **kwargs):
    raise ValueError(_WORDS)


repair_tool_history = context_for_model = _raise


class Harness:
    def __init__(self, *args, **kwargs):
        _raise()
