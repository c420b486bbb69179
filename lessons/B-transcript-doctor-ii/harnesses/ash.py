"""ash: lesson 10's harness, but the loop lets a steer in as soon as it is typed.

After each tool of a batch it asks for steering and records what it gets right there, so a
steer typed while the first of two calls runs lands between that call's batch-mates: the
record reads A[c1,c2] R(c1) U R(c2). The view hides it (the repair moves every result up to its
call, so the provider never complains); only the record shows it, and only when someone steers
during a batch of two calls or more, before its last tool.
"""

MISSING = "steering_between_batches"


def run_agent(model, system, messages, tools, prompt, *, max_turns=None, get_steering=None,
              get_follow_ups=None):
    added = []

    def append(message):
        messages.append(message)
        added.append(message)
        return {"type": "message_end", "message": message}

    def ask(source):
        return list(source()) if source else []

    yield {"type": "agent_start"}
    waiting, turns = [user_message(prompt)] + ask(get_steering), 0
    while waiting:
        calls = []
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
            failed = reply["stop_reason"] == "error"
            calls = [] if failed else tool_calls(reply)
            for call in calls:
                yield {"type": "tool_execution_start", "call": call}
                result = run_tool(tools, call)
                yield append(result)
                yield {"type": "tool_execution_end", "call": call, "result": result}
                for message in ask(get_steering):  # the user is heard at once
                    yield append(message)
            yield {"type": "turn_end", "message": reply}
            if failed:
                break
            waiting = ask(get_steering)
        waiting = [] if failed else ask(get_follow_ups)
    yield {"type": "agent_end", "messages": added}
