"""Records each result the moment its tool finishes (asyncio.as_completed): the tools run
together, and the record has them in the order they happened to finish, not the order the
model asked for them.

Fails: test_results_are_recorded_in_call_order_whichever_tool_finishes_first
"""


async def run_tools(tools, calls, record, abort=None):
    for call in calls:
        yield {"type": "tool_execution_start", "call": call}
    tasks = {asyncio.ensure_future(run_tool(tools, call)): call for call in calls}
    try:
        for next_done in asyncio.as_completed(list(tasks)):
            result = await next_done
            call = next(c for c in calls if c["id"] == result["tool_call_id"])
            yield record(result)
            yield {"type": "tool_execution_end", "call": call, "result": result}
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
