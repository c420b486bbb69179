"""Catches the CancelledError, tidies up and carries on as if the tools' part had ended: the
record is repaired, but whoever cancelled the run never hears that it worked, and the run
goes on to its next request.

Fails: test_a_cancelled_run_leaves_no_tool_running_and_every_call_with_a_result
"""


async def run_tools(tools, calls, record, abort=None):
    tasks, recorded = [], 0
    stop = asyncio.ensure_future((abort or asyncio.Event()).wait())
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
    tasks += [asyncio.ensure_future(run_tool(tools, call)) for call in calls]
    try:
        for call, task in zip(calls, tasks):
            await asyncio.wait([task, stop], return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                break
            recorded += 1
            yield record(task.result())
            yield {"type": "tool_execution_end", "call": call, "result": task.result()}
    except asyncio.CancelledError:
        pass  # stopped: tidied up below
    stop.cancel()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for call, task in zip(calls[recorded:], tasks[recorded:]):
        record(interrupted_result(call) if task.cancelled() else task.result())
