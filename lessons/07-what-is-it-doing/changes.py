"""A small agent harness: lesson 07, "What is it doing?".

Read it top to bottom: messages, tools, the loop and what it sends, and two frontends. New
since lesson 06: the loop is a generator of events that any frontend can fold, and it
records each message before it announces it. Everything is plain dicts and generators;
nothing here talks to a network, so the lab's scripted model can stand in for a real one.
"""

import json


# == loop ==

def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Send `prompt` and keep going until the model stops asking for tools, a reply fails
    (stop_reason "error"), or `max_turns` requests have been made (None: no limit).

    A generator of events, plain dicts with a "type": agent_start, then per turn turn_start,
    message_end for each message added, tool_execution_start and _end around each tool, and
    turn_end; agent_end last, carrying the run's new messages. Starts and ends always pair up.
    Mutate, then announce: a message is appended to `messages` (the caller's record) before
    its message_end is handed out, so a consumer that stops listening never leaves a finished
    tool unrecorded.
    """
    # --- your code ---
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
        for message in waiting:  # the top of a turn is the one place a user may speak
            yield append(message)
        if max_turns is not None and turns > max_turns:
            reply = error_message(f"Stopped: the run reached max_turns={max_turns}.")
        else:
            # Looked up by name on each request, so the lesson can swap in another view.
            reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        yield append(reply)
        failed = reply["stop_reason"] == "error"
        calls = [] if failed else tool_calls(reply)  # nothing in a failed reply is acted on
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
            result = run_tool(tools, call)
            yield append(result)  # recorded before anybody is told the tool finished
            yield {"type": "tool_execution_end", "call": call, "result": result}
        yield {"type": "turn_end", "message": reply}
        waiting = []
    yield {"type": "agent_end", "messages": added}
    # --- starter ---
    #| # Lesson 06's loop, as it was: the whole run happens first, and only then is anybody
    #| # told about it. Make every step an event, handed out as it happens. The prompt's
    #| # message_end is the first turn's first message_end: after its turn_start, before
    #| # the request.
    #| start = len(messages)
    #| messages.append(user_message(prompt))
    #| turns = 0
    #| while True:
    #|     turns += 1
    #|     if max_turns is not None and turns > max_turns:
    #|         reply = error_message(f"Stopped: the run reached max_turns={max_turns}.")
    #|     else:
    #|         reply = model.complete(system, context_for_model(messages), tool_specs(tools))
    #|     messages.append(reply)
    #|     calls = tool_calls(reply)
    #|     if reply["stop_reason"] == "error" or not calls:
    #|         break
    #|     for call in calls:
    #|         messages.append(run_tool(tools, call))
    #| yield {"type": "agent_start"}
    #| yield {"type": "agent_end", "messages": messages[start:]}
    # --- end ---


# == frontends ==
# A frontend folds one run's events: render(event) for each, then finish(), which says whether
# the run ended well. The loop never learns how its events are shown.

class JsonRenderer:
    """Each event as one line of JSON, for another program to read. finish() says whether the
    run ended well: it reached agent_end, and no reply in it failed. The lines themselves are
    the whole story; finish() adds nothing to them."""

    def __init__(self, out=None):
        self.out, self.ended, self.failed = out, False, False  # out: None is the screen

    def render(self, event):
        print(json.dumps(event), file=self.out)
        if event["type"] == "message_end" and event["message"].get("stop_reason") == "error":
            self.failed = True
        self.ended = event["type"] == "agent_end"

    def finish(self):
        return self.ended and not self.failed


class FinalTextRenderer:
    """Only the answer, for `> answer.txt`: nothing is written while the run goes on. The
    answer is the last assistant message of agent_end's messages, so a run that never reached
    agent_end (its consumer stopped listening, or it died) has none, whatever words it said
    on the way. finish() writes the answer's words and returns True; it writes
    "Error: <reason>" and returns False when the answer failed or the run never ended."""

    # --- your code ---
    def __init__(self, out=None):
        self.out, self.ended = out, None  # out: None is the screen; ended: agent_end's messages

    def render(self, event):
        if event["type"] == "agent_end":
            self.ended = event["messages"]

    def finish(self):
        replies = [m for m in self.ended or [] if m["role"] == "assistant"]
        if not replies:
            print("Error: the run stopped before it ended, so it has no answer", file=self.out)
            return False
        if replies[-1]["stop_reason"] == "error":
            print(f"Error: {replies[-1]['error_message']}", file=self.out)
            return False
        print(text_of(replies[-1]), file=self.out)
        return True
    # --- starter ---
    #| # The first draft: it keeps the newest reply it has been shown and calls that the answer.
    #| def __init__(self, out=None):
    #|     self.out, self.last = out, None  # out: None is the screen
    #|
    #| def render(self, event):
    #|     if event["type"] == "message_end" and event["message"]["role"] == "assistant":
    #|         self.last = event["message"]
    #|
    #| def finish(self):
    #|     if self.last is None:
    #|         print("Error: the run ended before the model answered", file=self.out)
    #|         return False
    #|     if self.last["stop_reason"] == "error":
    #|         print(f"Error: {self.last['error_message']}", file=self.out)
    #|         return False
    #|     print(text_of(self.last), file=self.out)
    #|     return True
    # --- end ---
