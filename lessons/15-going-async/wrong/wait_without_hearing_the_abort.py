"""Awaits each task in turn, and the abort only after: the tools run together, but a tool
that hangs is never told to stop when the user aborts; it runs until it gives up by itself.

Fails: test_abort_stops_the_running_tools_and_ends_the_run_with_a_failed_reply
"""


async def run_tools(tools, calls, record, abort=None):
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
    tasks = [asyncio.ensure_future(run_tool(tools, call)) for call in calls]
    recorded = 0
    try:
        for call, task in zip(calls, tasks):
            result = await task
            recorded += 1
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for call, task in zip(calls[recorded:], tasks[recorded:]):
            record(interrupted_result(call) if task.cancelled() else task.result())
