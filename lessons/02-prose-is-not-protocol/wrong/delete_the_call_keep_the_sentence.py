"""Wrong: the teammate's 400 made to go away by taking the calls out of the reply, so that
the sentence after it is an ordinary user message. The provider accepts it, and the record
now says the model never asked for anything, while the user seems to have said what the file
says.
Fails: test_a_result_is_a_tool_result_not_a_user_message
"""


def run_tool(tools, call):
    tool = next(t for t in tools if t["name"] == call["name"])
    return user_message(f"The {call['name']} tool returned: {tool['execute'](call['arguments'])}")


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, tool_specs(tools))
    calls = tool_calls(reply)
    messages.append(dict(reply, content=[b for b in reply["content"] if b["type"] != "toolCall"]))
    if calls:
        for call in calls:
            messages.append(run_tool(tools, call))
        messages.append(model.complete(system, messages, tool_specs(tools)))
    return messages[start:]
