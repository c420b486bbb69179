# base: starter
# args: --time-limit 3 -k "orphan"
# exit: 1
# says: first difference: messages[0]
# closing: 0 passed, 1 failed
# Returns a call whose id is a million and a half characters: the explanation that writes it
# out is clipped before it crosses to the host, so the grade still arrives (exit 1, never 3).

INTERRUPTED = "x"


def repair_tool_history(messages):
    return [{"role": "assistant", "stop_reason": "toolUse",
             "content": [{"type": "toolCall", "id": "c" * 1_500_000, "name": "read",
                          "arguments": {}}]}]
