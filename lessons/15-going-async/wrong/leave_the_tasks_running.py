"""Starts the tasks and records in call order, and does nothing when the run is stopped: a
cancelled run leaves its tools running in the background and their calls with no result.

Fails: test_a_cancelled_run_leaves_no_tool_running_and_every_call_with_a_result
"""


async def run_tools(tools, calls, record, abort=None):
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
    tasks = [asyncio.ensure_future(run_tool(tools, call)) for call in calls]
    stop = asyncio.ensure_future((abort or asyncio.Event()).wait())
    for call, task in zip(calls, tasks):
        await asyncio.wait([task, stop], return_when=asyncio.FIRST_COMPLETED)
        if not task.done():
            break
        yield record(task.result())
        yield {"type": "tool_execution_end", "call": call, "result": task.result()}
