"""Wrong: a failed reply ends the run on the spot, with a plain return, since there is nothing
left to do. The turn it was in is never closed and agent_end never comes, so a frontend
waiting for the end of the run waits for ever, or calls it unfinished.
Fails: test_starts_and_ends_pair_up_on_every_exit
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
        if reply["stop_reason"] == "error":
            return
        calls = tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield append(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": added}
