"""Right, written another way: the loop counts its turns in a for loop and appends inline
before each message_end; the frontend keeps every event it is shown and reads the answer off
the last one, at finish(), if that one is agent_end."""

import itertools


def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    start = len(messages)
    yield {"type": "agent_start"}
    for number in itertools.count(1):
        yield {"type": "turn_start"}
        if number == 1:
            messages.append(user_message(prompt))
            yield {"type": "message_end", "message": messages[-1]}
        if max_turns is not None and number > max_turns:
            messages.append(error_message(f"Stopped: the run reached max_turns={max_turns}."))
        else:
            messages.append(model.complete(system, context_for_model(messages), tool_specs(tools)))
        reply = messages[-1]
        yield {"type": "message_end", "message": reply}
        asked = [] if reply["stop_reason"] == "error" else tool_calls(reply)
        for call in asked:
            yield {"type": "tool_execution_start", "call": call}
            messages.append(run_tool(tools, call))
            yield {"type": "message_end", "message": messages[-1]}
            yield {"type": "tool_execution_end", "call": call, "result": messages[-1]}
        yield {"type": "turn_end", "message": reply}
        if not asked:
            break
    yield {"type": "agent_end", "messages": messages[start:]}


class FinalTextRenderer:
    def __init__(self, out=None):
        self.out, self.seen = out, []

    def render(self, event):
        self.seen.append(event)

    def finish(self):
        end = self.seen[-1] if self.seen else {"type": "nothing"}
        answer = next((m for m in reversed(end.get("messages", [])) if m["role"] == "assistant"),
                      None)
        if end["type"] != "agent_end" or answer is None:
            print("Error: the run did not get to its end", file=self.out)
            return False
        if answer["stop_reason"] == "error":
            print(f"Error: {answer['error_message']}", file=self.out)
            return False
        print(text_of(answer), file=self.out)
        return True
