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
    in the order the calls were written, before the model is asked anything else. The run
    ends at the first reply with no call in it, whatever else it holds and whatever its
    stop_reason says: the calls are the request for more, so the calls decide.
    """
    start = len(messages)
    messages.append(user_message(prompt))
    # --- your code ---
    while True:  # one pass is one turn; the way out is a reply with no call
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        calls = tool_calls(reply)
        if not calls:  # nothing asked for, so nothing to answer: the model has finished
            return messages[start:]
        for call in calls:
            messages.append(run_tool(tools, call))
    # --- starter ---
    #| # Lesson 02's one round: the reply's calls are answered, the model is asked once more,
    #| # and the run ends there, even if that answer asks for another tool.
    #| reply = model.complete(system, messages, tool_specs(tools))
    #| messages.append(reply)
    #| if tool_calls(reply):
    #|     for call in tool_calls(reply):
    #|         messages.append(run_tool(tools, call))
    #|     messages.append(model.complete(system, messages, tool_specs(tools)))
    #| return messages[start:]
    # --- end ---
