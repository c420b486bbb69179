"""Right, written another way: the arguments checked with type() and a TypeError, and
run_tool built from a small helper that makes the one result every path returns."""


def str_arg(arguments, name):
    if name not in arguments or type(arguments[name]) is not str:
        raise TypeError(f"{name} must be a string")
    return arguments[name]


def int_arg(arguments, name, default):
    if arguments.get(name) is None:
        return default
    if type(arguments[name]) is not int:
        raise TypeError(f"{name} must be an integer")
    return arguments[name]


def _result(call, content, is_error):
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": content, "is_error": is_error}


def run_tool(tools, call):
    for tool in tools:
        if tool["name"] == call["name"]:
            try:
                return _result(call, tool["execute"](call["arguments"]), False)
            except Exception as error:
                return _result(call, str(error), True)
    return _result(call, f"Tool {call['name']} not found", True)
