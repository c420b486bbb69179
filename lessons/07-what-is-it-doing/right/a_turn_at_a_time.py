"""Right, written another way: each turn is a generator of its own, delegated to with
`yield from`, which hands back the reply when the turn is over; the frontend keeps the newest
reply and a flag for agent_end, and judges both at finish()."""


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    added = []

    def record(message):
        messages.append(message)
        added.append(message)
        return {"type": "message_end", "message": message}

    def turn(number, said):
        yield {"type": "turn_start"}
        for message in said:
            yield record(message)
        if max_turns is not None and number > max_turns:
            reply = error_message(f"Stopped: the run reached max_turns={max_turns}.")
        else:
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield record(reply)
        asked = [] if reply["stop_reason"] == "error" else tool_calls(reply)
        for call in asked:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        return bool(asked)

    yield {"type": "agent_start"}
    number, more = 1, (yield from turn(1, [user_message(prompt)]))
    while more:
        number += 1
        more = yield from turn(number, [])
    yield {"type": "agent_end", "messages": added}


class FinalTextRenderer:
    def __init__(self, out=None):
        self.out, self.last, self.over = out, None, False

    def render(self, event):
        if event["type"] == "message_end" and event["message"]["role"] == "assistant":
            self.last = event["message"]
        if event["type"] == "agent_end":
            self.over = True

    def finish(self):
        if not self.over or self.last is None:
            print("Error: no answer: the run was left before it was over", file=self.out)
            return False
        if self.last["stop_reason"] == "error":
            print("Error: " + self.last["error_message"], file=self.out)
            return False
        print(text_of(self.last), file=self.out)
        return True
