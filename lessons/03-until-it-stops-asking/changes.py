"""A small agent harness: lesson 03, "Until it stops asking".

Read it top to bottom: messages, tools, and the loop. New since lesson 02: the loop goes
round, turn by turn, until a reply asks for no tool, answering every call of a reply in
the order it was written before it asks the model again. Nothing here talks to a network,
so the lab's scripted model can stand in for a real one.
"""


# == loop ==

def run_agent(model, system, messages, tools, prompt):
    """Send `prompt` and keep going, turn by turn, until the model stops asking for tools.
    Returns the messages this run added.

    A turn is one request and what answers it: the reply, and a result for every call in it,
    in the order the calls were written, before the model is asked anything else.
    """
    start = len(messages)
    messages.append(user_message(prompt))
    while True:
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:  # stop_reason "stop": the model has said its piece
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
