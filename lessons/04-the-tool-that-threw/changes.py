"""A small agent harness: lesson 04, "The tool that threw".

Read it top to bottom: messages, tools, and the loop. New since lesson 03: a tool that
fails, a tool nobody has, and arguments of the wrong kind all become toolResults with
is_error set, which the model can read and act on; the run never crashes on a tool.
Nothing here talks to a network, so the lab's scripted model can stand in for a real one.
"""


# == tools ==


# place: first
def str_arg(arguments, name):
    """Argument `name`, which must be a string. The schema asks for one; nothing makes the
    model obey, so tools read their arguments through here and fail with a clear reason."""
    # --- your code ---
    value = arguments.get(name)
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a string")
    return value
    # --- starter ---
    #| # Trusts the model: a missing argument raises KeyError, whose message is only the name
    #| # in quotes, and a number goes on into the tool as a number. Raise
    #| # ValueError("<name> must be a string") for anything that is not a str.
    #| return arguments[name]
    # --- end ---


def int_arg(arguments, name, default):
    """Optional whole-number argument `name`, or `default` when the model left it out."""
    # --- your code ---
    value = arguments.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer")
    return value
    # --- starter ---
    #| # Takes whatever came: "10", 2.5 or True go on into the tool. Left out (or null), the
    #| # default; an int, itself; anything else, ValueError("<name> must be an integer").
    #| # (True is an int to Python, and not a number anybody meant.)
    #| return arguments.get(name, default)
    # --- end ---


def run_tool(tools, call):
    """Run one call and return the toolResult that answers it: one call in, exactly one result
    out, whatever happens. A tool that raises becomes a result with is_error set, which the
    model can read and act on; this function itself does not raise."""
    # --- your code ---
    tool = next((t for t in tools if t["name"] == call["name"]), None)
    try:
        if tool is None:
            raise LookupError(f"Tool {call['name']} not found")
        content, is_error = tool["execute"](call["arguments"]), False
    except Exception as exc:  # a tool's failure is news for the model, not a crash
        content, is_error = str(exc), True
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}
    # --- starter ---
    #| # Lesson 03's run_tool. A tool that raises, or a name no tool has (next() then raises
    #| # StopIteration), and the exception goes up through run_agent: the run dies with the
    #| # call unanswered. Answer every call instead: the exception's message as content,
    #| # is_error True; "Tool <name> not found" for a name nobody has.
    #| tool = next(t for t in tools if t["name"] == call["name"])
    #| return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
    #|         "content": tool["execute"](call["arguments"]), "is_error": False}
    # --- end ---
