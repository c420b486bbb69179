"""Records what became of each call by pairing the calls with their tasks (zip): a run closed
while the starts are announced has no tasks yet, so its calls get no result at all.

Fails: test_a_run_closed_before_its_tools_start_records_every_call_as_interrupted
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
        for call, task in zip(calls[recorded:], tasks[recorded:]):
            record(interrupted_result(call) if task.cancelled() else task.result())
