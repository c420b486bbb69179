"""Wrong: every message of the view becomes a turn of its own for Anthropic, so parallel
results arrive as consecutive user turns: only the first sits in the message right after the
calls, and the rest answer nothing in the message before them. The API combines consecutive
turns of one role, but only after pairing is checked: results split over user turns are
refused as calls without a tool_result "immediately after" (1jehuang/jcode#276 met it with
image results). Wrong by the pairing rule, not by any rule that roles alternate.
Fails: test_anthropic_parallel_calls_have_their_results_in_one_user_turn
"""


def to_anthropic(view):
    turns = []
    for message in view:
        role, blocks = anthropic_blocks(message)
        turns.append({"role": role, "content": blocks})
    return turns
