"""Right, written another way: one loop instead of two, deciding at the end of each turn what
comes next: nothing after a failure; steering first; a follow-up only when the reply asked for
nothing; otherwise the run ends.
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None, get_steering=None,
              get_follow_ups=None):
    added = []

    def append(message):
        messages.append(message)
        added.append(message)
        return {"type": "message_end", "message": message}

    def words_from(source):
        return list(source()) if source is not None else []

    yield {"type": "agent_start"}
    top, turns = [user_message(prompt), *words_from(get_steering)], 0
    going = True
    while going:
        turns += 1
        yield {"type": "turn_start"}
        for message in top:
            yield append(message)
        if max_turns is not None and turns > max_turns:
            reply = error_message(f"Stopped: the run reached max_turns={max_turns}.")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield append(reply)
        if reply["stop_reason"] == "error":
            yield {"type": "turn_end", "message": reply}
            break
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield append(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        top = words_from(get_steering)
        if not top and not calls:
            top = words_from(get_follow_ups)
            going = bool(top)
    yield {"type": "agent_end", "messages": added}
