"""A second correct answer, pi-mono's way (packages/ai/src/providers/anthropic.ts:783-814): the
results of a batch are collected into one user turn, and every other message of the view gets
a turn of its own, so a steer typed while the tools ran follows the results' turn as a second
user turn. The Messages API combines consecutive turns of one role, so this is accepted.

Appended to finished.py, it replaces to_anthropic. It must pass every graded test.
"""


def to_anthropic(view):
    turns = []
    for message in view:
        role, blocks = anthropic_blocks(message)
        if message["role"] == "toolResult" and turns and turns[-1]["content"] and \
                turns[-1]["content"][-1]["type"] == "tool_result":
            turns[-1]["content"].extend(blocks)  # the batch's results share one turn
        else:
            turns.append({"role": role, "content": blocks})
    return turns
