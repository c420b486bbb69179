"""Wrong: the repair deep-copies every message, so a healthy transcript comes back equal but
made of new objects, and the record and the view can no longer be told apart by identity.
Fails: test_valid_transcript_comes_back_equal_holding_the_same_objects
"""

import copy

_repair_by_reference = repair_tool_history


def repair_tool_history(messages):
    return copy.deepcopy(_repair_by_reference(messages))
