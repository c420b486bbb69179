"""A small agent harness: lesson 02, "Prose is not protocol".

Read it top to bottom: messages, tools, and the loop. New since lesson 01: the model can
ask for a tool. The harness runs it and answers the call with a toolResult under the
call's id, one call in and one result out. Nothing here talks to a network, so the lab's
scripted model can stand in for a real one.
"""


# == messages ==


# place: after text_of
def tool_calls(message):
    """The toolCall blocks of an assistant message, in the order the model wrote them. Read
    off the content each time it is wanted, so there is no second copy to fall out of step."""
    return [block for block in message["content"] if block["type"] == "toolCall"]


# == tools ==
# A tool is a dict. The model is shown its name, description and parameters (a JSON schema);
# its "execute", execute(arguments) -> str, is run by this program and by nothing else.


def tool_specs(tools):
    """The part of each tool the model is told about: everything but the function."""
    return [{key: tool[key] for key in ("name", "description", "parameters")} for tool in tools]


def run_tool(tools, call):
    """Run one call and return the toolResult that answers it: one call in, one result out,
    under the call's id, so the model can tell which of its calls each result answers."""
    tool = next(t for t in tools if t["name"] == call["name"])
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": tool["execute"](call["arguments"]), "is_error": False}


def make_read_tool(ws):
    """The `read` tool over workspace `ws`: the whole of one text file."""
    def execute(arguments):
        return ws.read_text(arguments["path"])

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
        ws.write_text(arguments["path"], arguments["content"])
        return f"Wrote {len(arguments['content'].encode())} bytes to {arguments['path']}."

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
        output, code = shell.run(arguments["command"])
        return output if code == 0 else f"{output}\n[Exit code {code}]"

    return {"name": "bash",
            "description": "Run a shell command; what it prints comes back.",
            "parameters": {"type": "object",
                           "properties": {"command": {"type": "string",
                                                      "description": "The command line."}},
                           "required": ["command"]},
            "execute": execute}


# == loop ==

def run_agent(model, system, messages, tools, prompt):
    """The user's `prompt`, the model's reply, and, when the reply asks for tools, one result
    for each call, in the order it asked, and the model's answer to those. Returns the
    messages this run added. A result goes back as a toolResult under the call's id: the
    model pairs a result with its call by that id, not by reading prose."""
    start = len(messages)
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, tool_specs(tools))
    messages.append(reply)
    if tool_calls(reply):
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
        messages.append(model.complete(system, messages, tool_specs(tools)))
    return messages[start:]
