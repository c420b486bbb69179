"""Right, written another way: the turns are a for loop over the turns allowed (itertools.count
when there is no limit), and the stop is recorded after the loop, where the turns run out."""

import itertools


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    start = len(messages)
    messages.append(user_message(prompt))
    allowed = itertools.count() if max_turns is None else range(max_turns)
    for _ in allowed:
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        if reply["stop_reason"] == "error":  # kept, and nothing in it acted on
            break
        calls = tool_calls(reply)
        if not calls:
            break
        messages.extend(run_tool(tools, call) for call in calls)
    else:
        messages.append(error_message(f"Stopped: the run reached max_turns={max_turns}."))
    return messages[start:]
