"""Right, written by hand: a case is only data, so cedar's can be written without the lab's
builders, as the dicts they would have made, and the diagnoses in any order of keys.
"""

DIAGNOSIS = {name: DIAGNOSIS[name] for name in sorted(DIAGNOSIS, reverse=True)}


def case_cedar():
    return {
        "tools": [{"name": "write", "result": "written"}],
        "replies": [{"role": "assistant", "stop_reason": "error",
                     "error_message": "the connection dropped",
                     "content": [{"type": "toolCall", "id": "w1", "name": "write",
                                  "arguments": {"path": "notes.txt"}}]}],
        "prompts": [{"text": "Save my notes."}],
    }
