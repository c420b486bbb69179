"""Awaits each call before it starts the next, as lesson 07's loop did: every result is
recorded in order, and a stopped run is cleaned up, but two tools that could run together run
one after the other, and one that waits for the other waits in vain.

Fails: test_two_tools_of_one_reply_run_at_the_same_time
"""


async def run_tools(tools, calls, record, abort=None):
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
    recorded = 0
    try:
        for call in calls:
            result = await run_tool(tools, call)
            recorded += 1
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
    finally:
        for call in calls[recorded:]:
            record(interrupted_result(call))
