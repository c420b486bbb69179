"""A small agent harness: lesson 09, "But I had something to say".

Read it top to bottom: messages, tools, the loop and what it sends, the harness that owns
the transcript, and two frontends. New since lesson 08: the user can speak mid-run, with
steer() and follow_up(), and the loop lets their words in only where a user message keeps
the transcript valid. Everything is plain dicts and generators; nothing here talks to a
network, so the lab's scripted model can stand in for a real one.
"""

from collections import deque


# == loop ==

def run_agent(model, system, messages, tools, prompt, *, max_turns=None, get_steering=None,
              get_follow_ups=None):
    """Send `prompt` and keep going until the model stops asking for tools, a reply fails
    (stop_reason "error"), or `max_turns` requests have been made (None: no limit).

    A generator of events, plain dicts with a "type": agent_start, then per turn turn_start,
    message_end for each message added, tool_execution_start and _end around each tool, and
    turn_end; agent_end last, carrying the run's new messages. Starts and ends always pair up.
    Mutate, then announce: a message is appended to `messages` (the caller's record) before
    its message_end is handed out, so a consumer that stops listening never leaves a finished
    tool unrecorded.

    The user can speak mid-run. `get_steering()` is asked once a turn's calls all have their
    results, `get_follow_ups()` only when the run would otherwise end; each returns a list of
    user messages, often empty. Their words land only where a user message keeps the
    transcript valid: at the top of a turn.
    """
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
            if failed:
                break
            waiting = ask(get_steering)  # every call of the turn has its result by now
        waiting = [] if failed else ask(get_follow_ups)
    yield {"type": "agent_end", "messages": added}


# == harness ==

class Harness:
    """Owns one transcript, the settings that hold from run to run, and the rule that one run
    at a time may write to the transcript.

    Harness(model, system, tools, messages=(), max_turns=None) keeps a list of its own,
    starting from a copy of `messages`.
      .messages     the transcript as a tuple: a snapshot nobody outside can append to.
      .is_running   True from prompt() until that run is finished, closed or dead.
      .prompt(text) the run, as a generator of run_agent's events. Asking again while a run
                    is going raises RuntimeError at once, on the caller's line.
      .steer(text)  words for the next gap between turns ("use spaces instead").
      .follow_up(text)  words for when the run would otherwise end ("now run the tests").
    steer and follow_up may be called at any time; a queued message joins the transcript only
    when the loop asks for it, one per ask, and queues outlive runs.
    """

    def __init__(self, model, system, tools, messages=(), max_turns=None):
        self._model, self._system, self._tools = model, system, list(tools)
        self._messages, self._max_turns = list(messages), max_turns
        self._steering, self._follow_ups = deque(), deque()
        self._running = False

    @property
    def messages(self):
        return tuple(self._messages)

    @property
    def is_running(self):
        return self._running

    def prompt(self, text):
        if self._running:  # raised here, not at the run's first step
            raise RuntimeError("already running; use steer() or follow_up()")
        self._running = True
        return self._run(text)

    def steer(self, text):
        self._steering.append(user_message(text))

    def follow_up(self, text):
        self._follow_ups.append(user_message(text))

    def _run(self, text):
        run = run_agent(self._model, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._take_one(self._steering),
                        get_follow_ups=lambda: self._take_one(self._follow_ups))
        try:
            yield from run
        finally:  # finished, closed by the consumer, or failed: the harness is free again
            run.close()
            self._running = False

    @staticmethod
    def _take_one(queue):
        return [queue.popleft()] if queue else []
