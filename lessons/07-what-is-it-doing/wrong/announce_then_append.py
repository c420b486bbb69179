"""Wrong: each message is announced first and written to the record after, when the consumer
asks for the next event ("tell the screen as soon as possible"). A consumer that looks at the
record when it hears of a message finds it missing, and one that stops listening there leaves
it out for good.
Fails: test_each_message_is_on_the_record_before_its_message_end
"""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    added = []
    yield {"type": "agent_start"}
    waiting, calls, turns = [user_message(prompt)], [], 0
    while waiting or calls:
        turns += 1
        yield {"type": "turn_start"}
        for message in waiting:
            yield {"type": "message_end", "message": message}
            messages.append(message)
            added.append(message)
        if max_turns is not None and turns > max_turns:
            reply = error_message(f"Stopped: the run reached max_turns={max_turns}.")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield {"type": "message_end", "message": reply}
        messages.append(reply)
        added.append(reply)
        calls = [] if reply["stop_reason"] == "error" else tool_calls(reply)
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield {"type": "message_end", "message": result}
            messages.append(result)
            added.append(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": added}
