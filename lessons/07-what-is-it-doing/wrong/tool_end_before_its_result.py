"""Wrong: the screen is told a tool has ended, and its result is recorded after that, as some
real harnesses do. Every message_end still follows its append; the hole is one event wide. A
consumer that stops listening right after tool_execution_end leaves a tool that finished with
no result on the record.
Fails: test_walking_away_after_any_event_leaves_every_finished_tool_recorded
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
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield {"type": "tool_execution_end", "call": call, "result": result}
            yield append(result)
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": added}
