"""birch: lesson 10's harness, but the loop says a tool has ended before it records the result.

tool_execution_end is handed out first and the result is appended when the consumer asks for
the next event, as some real harnesses do. A consumer that stops listening right after
tool_execution_end leaves a tool that ran to its end with no result on the record, and the
next request tells the model that call was interrupted. Any other walk-away, and every session
left to finish, looks exactly like the finished harness.
"""

MISSING = "mutate_then_announce"


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
                yield {"type": "tool_execution_end", "call": call, "result": result}
                yield append(result)  # announced first, recorded second
            yield {"type": "turn_end", "message": reply}
            if failed:
                break
            waiting = ask(get_steering)
        waiting = [] if failed else ask(get_follow_ups)
    yield {"type": "agent_end", "messages": added}
