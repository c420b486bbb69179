"""Wrong: lesson 06's loop runs the whole job, collecting an event for each step as it goes,
and the events are handed out when it is over. Every event is right and in order; each one
arrives after everything it describes, and after everything else too. A consumer that walks
away after the first event has let every tool run.
Fails: test_walking_away_after_any_event_leaves_every_finished_tool_recorded
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    events, added = [{"type": "agent_start"}], []

    def append(message):
        messages.append(message)
        added.append(message)
        events.append({"type": "message_end", "message": message})

    waiting, calls, turns = [user_message(prompt)], [], 0
    while waiting or calls:
        turns += 1
        events.append({"type": "turn_start"})
        for message in waiting:
            append(message)
        if max_turns is not None and turns > max_turns:
            reply = error_message(f"Stopped: the run reached max_turns={max_turns}.")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        append(reply)
        calls = [] if reply["stop_reason"] == "error" else tool_calls(reply)
        for call in calls:
            events.append({"type": "tool_execution_start", "call": call})
            result = run_tool(tools, call)
            append(result)
            events.append({"type": "tool_execution_end", "call": call, "result": result})
        events.append({"type": "turn_end", "message": reply})
        waiting = []
    events.append({"type": "agent_end", "messages": added})
    yield from events
