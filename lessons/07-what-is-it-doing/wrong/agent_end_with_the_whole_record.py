"""Wrong: agent_end hands out the record itself, which holds the run's messages and
everything before them ("the frontend can take what it needs"). A frontend that saves or
prints what the run added now repeats the whole conversation every run.
Fails: test_agent_end_carries_exactly_the_runs_new_messages
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    def append(message):
        messages.append(message)
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
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield append(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": list(messages)}
