"""Stops and waits for every tool, and then records INTERRUPTED for every call without a
recorded result, also for a tool that had finished: the model is told a call may not have
run when its result is right there.

Fails: test_a_tool_that_finished_keeps_its_own_result_when_the_run_is_stopped
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
        await asyncio.gather(*tasks, return_exceptions=True)
        for call in calls[recorded:]:
            record(interrupted_result(call))
