"""Right, written by hand: a case is only data, so egret's and dunlin's can be written without
the lab's builders, as the dicts they would have made, and the diagnoses in any order of keys.
"""

DIAGNOSIS = {name: DIAGNOSIS[name] for name in sorted(DIAGNOSIS, reverse=True)}


def case_egret():
    return {
        "replies": [{"role": "assistant", "content": [], "stop_reason": "error",
                     "error_message": "upstream timed out"}],
        "prompts": [{"text": "Summarise the log."}, {"text": "Any luck?"}],
    }


def case_dunlin():
    ask = {"role": "assistant", "stop_reason": "toolUse",
           "content": [{"type": "toolCall", "id": None, "name": "poll", "arguments": {}}]}
    return {"tools": [{"name": "poll", "result": "not yet"}],
            "replies": [ask, ask, ask, ask],
            "prompts": [{"text": "Wait for the build."}],
            "max_turns": 3}
