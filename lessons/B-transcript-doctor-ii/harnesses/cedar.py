"""cedar: lesson 10's harness, but the loop runs the calls of a reply that failed.

It still stops the run after a failed reply, and it still records everything, so its record
is tidy and every request it sends is accepted. Only a reply that broke off mid-stream with a
call already in it shows the difference: the half-written call is run.
"""

MISSING = "failed_reply_not_acted_on"


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
            calls = tool_calls(reply)  # whatever the reply managed to ask for
            for call in calls:
                yield {"type": "tool_execution_start", "call": call}
                result = run_tool(tools, call)
                yield append(result)
                yield {"type": "tool_execution_end", "call": call, "result": result}
            yield {"type": "turn_end", "message": reply}
            if failed:
                break
            waiting = ask(get_steering)
        waiting = [] if failed else ask(get_follow_ups)
    yield {"type": "agent_end", "messages": added}
