"""Wrong: each Anthropic user turn is built as its words first and its tool_result blocks after,
so a steer typed while the tools ran is sent ahead of their results, and the API finds the
calls unanswered "immediately after".
Fails: test_anthropic_steer_comes_after_the_results
"""


def to_anthropic(view):
    turns = []
    for message in view:
        role, blocks = anthropic_blocks(message)
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})
    for turn in turns:
        if turn["role"] == "user":  # words first, "the user spoke last"
            turn["content"].sort(key=lambda block: block["type"] == "tool_result")
    return turns
