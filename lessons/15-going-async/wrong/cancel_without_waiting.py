"""Cancels what is still running but does not wait for it: the cancellation is only a request,
so the tools are still going (their cleanup not yet run) when the caller hears the run is
over, and a task that has not finished cancelling has no result to record yet.

Fails: test_a_cancelled_run_leaves_no_tool_running_and_every_call_with_a_result
"""


async def run_tools(tools, calls, record, abort=None):
    tasks, recorded = [], 0
    stop = asyncio.ensure_future((abort or asyncio.Event()).wait())
    try:
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
        tasks += [asyncio.ensure_future(run_tool(tools, call)) for call in calls]
        for call, task in zip(calls, tasks):
            await asyncio.wait([task, stop], return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                break
            recorded += 1
            yield record(task.result())
            yield {"type": "tool_execution_end", "call": call, "result": task.result()}
    finally:
        stop.cancel()
        for task in tasks:
            task.cancel()
        for call, task in itertools.zip_longest(calls[recorded:], tasks[recorded:]):
            finished = task is not None and task.done() and not task.cancelled()
            record(task.result() if finished else interrupted_result(call))
