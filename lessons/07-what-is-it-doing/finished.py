# lab: lesson 07  (lab-check reads this line to know which lesson's tests to run)
"""A small agent harness: lesson 07, "What is it doing?".

Read it top to bottom: messages, tools, the loop and what it sends, and two frontends. New
since lesson 06: the loop is a generator of events that any frontend can fold, and it
records each message before it announces it. Everything is plain dicts and generators;
nothing here talks to a network, so the lab's scripted model can stand in for a real one.
"""

import json

# == 1 messages ==
# A conversation is a list of dicts. Each one says, in its "role", who is speaking.

SYSTEM = "You are a helpful assistant."  # sent with every request, never stored in the record


def user_message(text):
    """What the user typed. A user message's content is a plain string."""
    return {"role": "user", "content": text}


def text_of(message):
    """The words of an assistant message: its content is a list of blocks, and the words are
    the "text" blocks, joined."""
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")


def tool_calls(message):
    """The toolCall blocks of an assistant message, in the order the model wrote them. Read
    off the content each time it is wanted, so there is no second copy to fall out of step."""
    return [block for block in message["content"] if block["type"] == "toolCall"]


def error_message(reason):
    """The assistant message that records why a run stopped: empty content, stop_reason
    "error", and the reason in error_message. A stop is data in the record, not an exception."""
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": reason}


# == 2 tools ==
# A tool is a dict. The model is shown its name, description and parameters (a JSON schema);
# its "execute", execute(arguments) -> str, is run by this program and by nothing else.

MAX_LINES = 2000    # The budget of one tool result: every result is sent again on every later
MAX_BYTES = 50_000  # request. Bytes of UTF-8, not characters ("é" is two). A cut result ends,
                    # or for a command begins, with one short line saying so, on top of this.


def str_arg(arguments, name):
    """Argument `name`, which must be a string. The schema asks for one; nothing makes the
    model obey, so tools read their arguments through here and fail with a clear reason."""
    value = arguments.get(name)
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string")
    return value


def int_arg(arguments, name, default):
    """Optional whole-number argument `name`, or `default` when the model left it out."""
    value = arguments.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer")
    return value


def tool_specs(tools):
    """The part of each tool the model is told about: everything but the function."""
    return [{key: tool[key] for key in ("name", "description", "parameters")} for tool in tools]


def run_tool(tools, call):
    """Run one call and return the toolResult that answers it: one call in, exactly one result
    out, whatever happens. A tool that raises becomes a result with is_error set, which the
    model can read and act on; this function itself does not raise."""
    tool = next((t for t in tools if t["name"] == call["name"]), None)
    try:
        if tool is None:
            raise LookupError(f"Tool {call['name']} not found")
        content, is_error = tool["execute"](call["arguments"]), False
    except Exception as exc:  # a tool's failure is news for the model, not a crash
        content, is_error = str(exc), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}


def lines_of(text):
    """The lines of `text`, each ending in its "\\n" (the last may have none). Only "\\n" ends
    a line, as for wc -l, grep -n and sed: str.splitlines would also break at a form feed,
    "\\r" or U+2028, and the line numbers a read reports would then disagree with theirs."""
    pieces = text.split("\n")
    return [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])


def fit_budget(lines, max_lines, max_bytes):
    """How many of `lines`, taken in order from the first, fit the budget: at most `max_lines`
    lines, and at most `max_bytes` bytes of UTF-8 in all, newlines included. Whole lines only:
    a line that does not fit is not taken, and neither is any line after it."""
    used = 0
    for count, line in enumerate(lines):
        used += len(line.encode())
        if count == max_lines or used > max_bytes:
            return count
    return len(lines)


def check_budget(max_lines, max_bytes):
    """A budget a tool can keep: at least one line and one byte. Anything less is the caller's
    mistake, and it is refused when the tool is made, not reported as a file's fault later."""
    for name, value in (("max_lines", max_lines), ("max_bytes", max_bytes)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number, 1 or more; got {value!r}")


def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `read` tool over workspace `ws`. A long file comes back a budget at a time, from its
    start: as many whole lines as fit, then one last line that says which offset to ask for
    next. A line alone over the byte budget is not shown at all (half a line is worse than
    none); the note names it, its size, and the offset after it. The budget is for the file's
    text: the note is one short line on top of it."""
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        path = str_arg(arguments, "path")
        offset, limit = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if offset < 1 or (limit is not None and limit < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):
            raise FileNotFoundError(f"File not found: {path}. Files here: "
                                    f"{', '.join(ws.listdir('.'))}")
        lines = lines_of(ws.read_text(path))
        if offset > max(len(lines), 1):
            raise ValueError(f"offset {offset} is past the end of {path} ({len(lines)} lines)")
        wanted = lines[offset - 1:] if limit is None else lines[offset - 1:offset - 1 + limit]
        shown = fit_budget(wanted, max_lines, max_bytes)
        if wanted and shown == 0:
            size = len(wanted[0].encode())
            after = (f" Read on with offset={offset + 1}." if offset < len(lines)
                     else " It is the last line.")
            return (f"[Line {offset} alone is {size} bytes, over the {max_bytes}-byte budget "
                    f"of a read, so none of it is shown.{after}]")
        text = "".join(wanted[:shown])
        last = offset + shown - 1
        if last < len(lines):
            text += f"[Lines {offset}-{last} of {len(lines)}. Read on with offset={last + 1}.]"
        return text

    return {"name": "read",
            "description": "Read a text file. A call returns at most "
                           f"{max_lines} lines or {max_bytes} bytes; use offset to read on.",
            "parameters": {"type": "object",
                           "properties": {
                               "path": {"type": "string", "description": "The file to read."},
                               "offset": {"type": "integer", "description": "First line, from 1."},
                               "limit": {"type": "integer", "description": "How many lines."}},
                           "required": ["path"]},
            "execute": execute}


def make_write_tool(ws):
    """The `write` tool over workspace `ws`: create a file, or replace the whole of it."""
    def execute(arguments):
        path, content = str_arg(arguments, "path"), str_arg(arguments, "content")
        ws.write_text(path, content)
        return f"Wrote {len(content.encode())} bytes to {path}."

    return {"name": "write",
            "description": "Write a text file, replacing anything that was there.",
            "parameters": {"type": "object",
                           "properties": {
                               "path": {"type": "string", "description": "The file to write."},
                               "content": {"type": "string", "description": "All of its text."}},
                           "required": ["path", "content"]},
            "execute": execute}


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `bash` tool: one command line in `shell`. A long output is kept from its end, where
    a command puts its verdict: as many whole lines as fit, after one first line that says how
    many came before them. If the last line alone is over the byte budget, nothing is shown,
    and the note says so and why. A non-zero exit is reported, not raised: the command did
    run. The budget is for the output: the notes are short lines on top of it."""
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        lines = lines_of(output)
        kept = fit_budget(lines[::-1], max_lines, max_bytes)  # counted from the end
        text = "".join(lines[len(lines) - kept:])
        if kept == 0 and lines:
            text = (f"[Line {len(lines)}, the last, alone is {len(lines[-1].encode())} bytes, "
                    f"over the {max_bytes}-byte budget, so none of the output is shown. "
                    "Narrow the command.]\n")
        elif kept < len(lines):
            cut = len(lines) - kept  # the lines left out, from the top
            text = f"[Lines 1-{cut} of {len(lines)} are left out; the rest follow.]\n" + text
        if code != 0:
            text += f"\n[Exit code {code}]"
        return text

    return {"name": "bash",
            "description": "Run a shell command; its output (the end of it, if long) comes back.",
            "parameters": {"type": "object",
                           "properties": {"command": {"type": "string",
                                                      "description": "The command line."}},
                           "required": ["command"]},
            "execute": execute}


# == 3 loop ==
# The loop talks to the model. It holds no state between runs: the record is passed in.

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


def context_for_model(messages):
    """The view: what one request sends, built afresh from the record each time.

    The record keeps everything that happened; a provider takes only a well-formed transcript.
    So a failed reply with nothing in it is left out, and a failed reply that got words or
    calls out before it failed stays. A new list comes back; the record is not touched.
    """
    return [m for m in messages if not is_empty_failure(m)]


def is_empty_failure(message):
    """An assistant reply that failed before any of it arrived: nothing a model can read."""
    return (message["role"] == "assistant" and not message["content"]
            and message.get("stop_reason") == "error")


# == 4 frontends ==
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
