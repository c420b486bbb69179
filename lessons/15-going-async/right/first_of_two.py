"""Another correct run_tools: a small helper waits for whichever comes first, the call's task
or the abort, and says which; the cleanup cancels, gathers, and records in one pass over the
calls still owed a result.
"""


async def first_of(task, stop):
    """True when `task` is done, False when `stop` came first."""
    await asyncio.wait([task, stop], return_when=asyncio.FIRST_COMPLETED)
    return task.done()


async def run_tools(tools, calls, record, abort=None):
    tasks = []
    owed = list(calls)  # the calls that have no result in the record yet, in call order
    stop = asyncio.ensure_future((abort or asyncio.Event()).wait())
    try:
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
        tasks = [asyncio.ensure_future(run_tool(tools, call)) for call in calls]
        for call, task in zip(calls, tasks):
            if not await first_of(task, stop):
                break
            owed.pop(0)
            yield record(task.result())
            yield {"type": "tool_execution_end", "call": call, "result": task.result()}
    finally:
        stop.cancel()
        left = tasks[len(calls) - len(owed):] if tasks else []
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)
        for k, call in enumerate(owed):
            task = left[k] if k < len(left) else None
            record(task.result() if task is not None and not task.cancelled()
                   else interrupted_result(call))
