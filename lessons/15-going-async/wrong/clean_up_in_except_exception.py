"""Puts the cleanup under `except Exception`, as lesson 04 did for a tool's failure. A
cancellation is not an Exception, so it goes straight past: the tools are left running and
their calls with no result. (Closing the run is no Exception either.)

Fails: test_a_cancelled_run_leaves_no_tool_running_and_every_call_with_a_result
"""


async def run_tools(tools, calls, record, abort=None):
    tasks, recorded = [], 0
    stop = asyncio.ensure_future((abort or asyncio.Event()).wait())

    async def clean_up():
        stop.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for call, task in itertools.zip_longest(calls[recorded:], tasks[recorded:]):
            ran = task is not None and not task.cancelled()
            record(task.result() if ran else interrupted_result(call))

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
    except Exception:
        await clean_up()
        raise
    await clean_up()
