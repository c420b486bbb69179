# lab: lesson 05  (lab-check reads this line to know which lesson's tests to run)
"""A small agent harness: lesson 05, "The runaway and the 503".

Read it top to bottom: messages, tools, the loop and what it sends. New since lesson 04:
a run stops after max_turns requests, a reply that failed is kept in the record with
empty content and stop_reason "error" and none of it is acted on, and what is sent (the
view) leaves an empty failure out. Nothing here talks to a network, so the lab's scripted
model can stand in for a real one.
"""

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


def make_read_tool(ws):
    """The `read` tool over workspace `ws`: the whole of one text file. A missing file is the
    model's to hear about, with the names that are there, so it can ask again."""
    def execute(arguments):
        path = str_arg(arguments, "path")
        if not ws.exists(path):
            raise FileNotFoundError(f"File not found: {path}. Files here: "
                                    f"{', '.join(ws.listdir('.'))}")
        return ws.read_text(path)

    return {"name": "read",
            "description": "Read a text file and return all of it.",
            "parameters": {"type": "object",
                           "properties": {
                               "path": {"type": "string", "description": "The file to read."}},
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


def make_bash_tool(shell):
    """The `bash` tool: one command line in `shell`, and what it printed. A non-zero exit is
    reported, not raised: the command did run."""
    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        return output if code == 0 else f"{output}\n[Exit code {code}]"

    return {"name": "bash",
            "description": "Run a shell command; what it prints comes back.",
            "parameters": {"type": "object",
                           "properties": {"command": {"type": "string",
                                                      "description": "The command line."}},
                           "required": ["command"]},
            "execute": execute}


# == 3 loop ==
# The loop talks to the model. It holds no state between runs: the record is passed in.

def run_agent(model, system, messages, tools, prompt, *, max_turns=None):
    """Send `prompt` and keep going until the model stops asking for tools, a reply fails
    (stop_reason "error"), or `max_turns` requests have been made (None: no limit). Returns
    the messages this run added.

    A failed reply is kept, like any other, and none of it is acted on: a call in it is not
    run, since a reply cut off mid-stream may hold half a call. Every request sends the view,
    context_for_model(messages), not the record itself.
    """
    start = len(messages)
    messages.append(user_message(prompt))
    # --- your code ---
    turns = 0
    while True:
        turns += 1
        if max_turns is not None and turns > max_turns:
            messages.append(error_message(f"Stopped: the run reached max_turns={max_turns}."))
            return messages[start:]
        # Looked up by name on each request, so the lesson can swap in another view.
        reply = model.complete(system, context_for_model(messages), tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if reply["stop_reason"] == "error" or not calls:  # nothing in a failed reply is acted on
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
    # --- starter ---
    #| # Lesson 04's loop, with one change made for you: each request sends the view,
    #| # context_for_model(messages), not the record. It has no limit: max_turns is never
    #| # read. And it answers the calls of every reply, a failed one too.
    #| while True:
    #|     reply = model.complete(system, context_for_model(messages), tool_specs(tools))
    #|     messages.append(reply)
    #|     calls = tool_calls(reply)
    #|     if not calls:
    #|         return messages[start:]
    #|     for call in calls:
    #|         messages.append(run_tool(tools, call))
    # --- end ---


def context_for_model(messages):
    """The view: what one request sends, built afresh from the record each time.

    The record keeps everything that happened; a provider takes only a well-formed transcript.
    So a failed reply with nothing in it is left out, and a failed reply that got words or
    calls out before it failed stays. A new list comes back; the record is not touched.
    """
    # --- your code ---
    return [m for m in messages if not is_empty_failure(m)]
    # --- starter ---
    #| # Lesson 04's requests: the record itself, every message of it, the very list.
    #| return messages
    # --- end ---


def is_empty_failure(message):
    """An assistant reply that failed before any of it arrived: nothing a model can read."""
    # --- your code ---
    return (message["role"] == "assistant" and not message["content"]
            and message.get("stop_reason") == "error")
    # --- starter ---
    #| return False  # not written yet: no message counts as one
    # --- end ---
