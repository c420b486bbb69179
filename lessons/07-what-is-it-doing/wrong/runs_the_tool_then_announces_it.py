"""Wrong: the tool is run first and its start announced afterwards, with the result close
behind ("nothing to show until there is something to show"). The screen's spinner appears
once the work is over, and a consumer that walks away at tool_execution_start has let the
tool run anyway.
Fails: test_no_tool_runs_before_its_start_is_handed_out
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    added = []

    def append(message):
        messages.append(message)
        added.append(message)
        return {"type": "message_end", "message": message}

    yield {"type": "agent_start"}
    waiting, calls, turns = [user_message(prompt)], [], 0
    while waiting or calls:
        turns += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield append(message)
        if max_turns is not None and turns > max_turns:
            reply = error_message(f"Stopped: the run reached max_turns={max_turns}.")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield append(reply)
        calls = [] if reply["stop_reason"] == "error" else tool_calls(reply)
        for call in calls:
            result = run_tool(tools, call)
            messages.append(result)
            added.append(result)
            yield {"type": "tool_execution_start", "call": call}
            yield {"type": "message_end", "message": result}
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": added}
