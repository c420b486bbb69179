"""Wrong: steering is asked after every tool result, so the user's words go in as soon as they
are typed, between one call's result and the next call's: U A[c1,c2,c3] R(c1) R(c2) U R(c3).
The next request is refused, the lesson's opening failure moved from Harness into the loop.
Fails: test_a_steer_typed_mid_batch_lands_after_the_whole_batch
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
    while True:
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
                for message in ask(get_steering):  # in at once, mid-batch
                    yield append(message)
            yield {"type": "turn_end", "message": reply}
            if failed:
                break
            waiting = ask(get_steering)
        waiting = [] if failed else ask(get_follow_ups)
        if not waiting:
            break
    yield {"type": "agent_end", "messages": added}
