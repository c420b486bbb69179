"""A second correct answer: a user turn that holds only words is sent as a plain string, which
the Messages API also accepts; a turn that must hold blocks (results, or words joined to
results) is a list of blocks.

Appended to finished.py, it replaces to_anthropic. It must pass every graded test.
"""


def to_anthropic(view):
    turns = []
    for message in view:
        role, blocks = anthropic_blocks(message)
        if turns and turns[-1]["role"] == role:
            last = turns[-1]
            if isinstance(last["content"], str):
                last["content"] = [{"type": "text", "text": last["content"]}]
            last["content"].extend(blocks)
        elif message["role"] == "user":
            turns.append({"role": role, "content": message["content"]})
        else:
            turns.append({"role": role, "content": blocks})
    return turns
