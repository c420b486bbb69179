"""Runs the tools together with asyncio.gather and records the results once they are all in,
in call order. Until the slowest tool is done nothing can interrupt the wait, so an abort is
not heard: the tool that hangs runs on until it gives up by itself.

Fails: test_abort_stops_the_running_tools_and_ends_the_run_with_a_failed_reply
"""


async def run_tools(tools, calls, record, abort=None):
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
    tasks = [asyncio.ensure_future(run_tool(tools, call)) for call in calls]
    recorded = 0
    try:
        results = await asyncio.gather(*tasks)
        for call, result in zip(calls, results):
            recorded += 1
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for call, task in zip(calls[recorded:], tasks[recorded:]):
            record(interrupted_result(call) if task.cancelled() else task.result())
