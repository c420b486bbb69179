"""Wrong: a loop with a fixed count, four requests, then the run ends whatever the model asked.
Enough for the opening job; a job of four turns of calls ends on a call nobody answered. (Stopping a
runaway is lesson 05's problem, and a count is not how it is stopped.)
Fails: test_a_job_of_any_number_of_turns_is_seen_through
"""


def run_agent(model, system, messages, tools, prompt):
    start = len(messages)
    messages.append(user_message(prompt))
    for _ in range(4):
        reply = model.complete(system, messages, tool_specs(tools))
        messages.append(reply)
        if not tool_calls(reply):
            break
        for call in tool_calls(reply):
            messages.append(run_tool(tools, call))
    return messages[start:]
