# lab: lesson 04  (lab-check reads this line to know which lesson's tests to run)
"""A small agent harness: lesson 04, "The tool that threw".

Read it top to bottom: messages, tools, and the loop. New since lesson 03: a tool that
fails, a tool nobody has, and arguments of the wrong kind all become toolResults with
is_error set, which the model can read and act on; the run never crashes on a tool.
Nothing here talks to a network, so the lab's scripted model can stand in for a real one.
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


# == 2 tools ==
# A tool is a dict. The model is shown its name, description and parameters (a JSON schema);
# its "execute", execute(arguments) -> str, is run by this program and by nothing else.


def str_arg(arguments, name):
    """Argument `name`, which must be a string. The schema asks for one; nothing makes the
    model obey, so tools read their arguments through here and fail with a clear reason."""
    # --- your code ---
    # Trusts the model: a missing argument raises KeyError, whose message is only the name
    # in quotes, and a number goes on into the tool as a number. Raise
    # ValueError("<name> must be a string") for anything that is not a str.
    return arguments[name]
    # --- end ---


def int_arg(arguments, name, default):
    """Optional whole-number argument `name`, or `default` when the model left it out."""
    # --- your code ---
    # Takes whatever came: "10", 2.5 or True go on into the tool. Left out (or null), the
    # default; an int, itself; anything else, ValueError("<name> must be an integer").
    # (True is an int to Python, and not a number anybody meant.)
    return arguments.get(name, default)
    # --- end ---


def tool_specs(tools):
    """The part of each tool the model is told about: everything but the function."""
    return [{key: tool[key] for key in ("name", "description", "parameters")} for tool in tools]


def run_tool(tools, call):
    """Run one call and return the toolResult that answers it: one call in, exactly one result
    out, whatever happens. A tool that raises becomes a result with is_error set, which the
    model can read and act on; this function itself does not raise."""
    # --- your code ---
    # Lesson 03's run_tool. A tool that raises, or a name no tool has (next() then raises
    # StopIteration), and the exception goes up through run_agent: the run dies with the
    # call unanswered. Answer every call instead: the exception's message as content,
    # is_error True; "Tool <name> not found" for a name nobody has.
    tool = next(t for t in tools if t["name"] == call["name"])
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": tool["execute"](call["arguments"]), "is_error": False}
    # --- end ---


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

def run_agent(model, system, messages, tools, prompt):
    """Send `prompt` and keep going, turn by turn, until the model stops asking for tools.
    Returns the messages this run added.

    A turn is one request and what answers it: the reply, and a result for every call in it,
    in the order the calls were written, before the model is asked anything else. The run
    ends at the first reply with no call in it, whatever else it holds and whatever its
    stop_reason says: the calls are the request for more, so the calls decide.
    """
    start = len(messages)
    messages.append(user_message(prompt))
    while True:  # one pass is one turn; the way out is a reply with no call
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:  # nothing asked for, so nothing to answer: the model has finished
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
