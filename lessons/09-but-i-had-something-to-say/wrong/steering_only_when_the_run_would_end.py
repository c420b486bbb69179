"""Wrong: steering is asked only once the run would end, just before the follow-ups, so a steer
typed during the first turn of a long job waits out every turn after it: "use spaces" arrives
after the work is done. Steering belongs at every gap between turns.
Fails: test_steering_is_asked_after_every_turn_and_never_mid_batch
"""


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
    waiting, turns, calls = [user_message(prompt)] + ask(get_steering), 0, []
    while waiting:
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
            waiting = []
            for call in calls:
                yield {"type": "tool_execution_start", "call": call}
                result = run_tool(tools, call)
                yield append(result)
                yield {"type": "tool_execution_end", "call": call, "result": result}
            yield {"type": "turn_end", "message": reply}
            if failed:
                break
        waiting = [] if failed else (ask(get_steering) or ask(get_follow_ups))
    yield {"type": "agent_end", "messages": added}
