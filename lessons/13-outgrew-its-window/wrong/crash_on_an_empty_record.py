"""Starts from the last message to find the newest turn, and so fails on a record with no
message in it: an empty record has no cut, and saying so is the whole answer.

Fails: test_every_edge_of_a_record_empty_and_damaged_at_either_end
"""


def safe_cuts(messages):
    last = messages[-1]  # the newest message: IndexError on an empty record
    cuts, result_ahead = [], last["role"] == "toolResult"
    for i in range(len(messages) - 2, -1, -1):
        role = messages[i]["role"]
        if role == "toolResult":
            result_ahead = True
        elif role == "assistant" and not is_placeholder(messages[i]):
            cuts.append(i)
            result_ahead = False
        elif role == "user" and not result_ahead:
            cuts.append(i)
    if last["role"] == "user" or (last["role"] == "assistant" and not is_placeholder(last)):
        cuts.insert(0, len(messages) - 1)
    return cuts[::-1]
