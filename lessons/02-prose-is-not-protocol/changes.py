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
    # --- your code ---
    return [{key: tool[key] for key in ("name", "description", "parameters")} for tool in tools]
    # --- starter ---
    #| # Sends each tool as it stands. Look at what is in a tool dict before you send it.
    #| return tools
    # --- end ---


def run_tool(tools, call):
    """Run one call and return the toolResult that answers it: one call in, one result out,
    under the call's id, so the model can tell which of its calls each result answers."""
    # --- your code ---
    tool = next(t for t in tools if t["name"] == call["name"])
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": tool["execute"](call["arguments"]), "is_error": False}
    # --- starter ---
    #| # Runs the tool, then tells the model what it returned, in a sentence. The answer the
    #| # provider reads is a message of role "toolResult": the call's id as tool_call_id, the
    #| # tool's name as tool_name, what execute returned as content (exactly), is_error False.
    #| by_name = {each["name"]: each for each in tools}
    #| output = by_name[call["name"]]["execute"](call["arguments"])
    #| return user_message(f"The {call['name']} tool returned: {output}")
    # --- end ---


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
    """The user's `prompt`, the model's reply and, when the reply asks for tools, one result
    for each call, in the order it asked, and then the model's answer to those results.
    Returns the messages this run added to `messages` (the record).

    One round only: if that answer asks for tools again, they are not run, and the run ends
    on calls nobody answered. Lesson 03 makes this a loop."""
    start = len(messages)
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, tool_specs(tools))
    messages.append(reply)
    if tool_calls(reply):
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
        messages.append(model.complete(system, messages, tool_specs(tools)))
    return messages[start:]
