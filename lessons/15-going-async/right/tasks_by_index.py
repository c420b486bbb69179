"""Another correct run_tools: the tasks are kept in a dict by call index, each result is
waited for with asyncio.wait on a set, and the cleanup walks every call, asking the dict for
its task (a call closed before its task existed has none).
"""


async def run_tools(tools, calls, record, abort=None):
    running, done_up_to = {}, 0
    aborted = asyncio.ensure_future((abort or asyncio.Event()).wait())
    try:
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
        for index, call in enumerate(calls):
            running[index] = asyncio.create_task(run_tool(tools, call))
        while done_up_to < len(calls):
            task = running[done_up_to]
            await asyncio.wait({task, aborted}, return_when=asyncio.FIRST_COMPLETED)
            if aborted.done() and not task.done():
                return
            result = task.result()
            done_up_to += 1
            yield record(result)
            yield {"type": "tool_execution_end", "call": calls[done_up_to - 1], "result": result}
    finally:
        aborted.cancel()
        for task in running.values():
            task.cancel()
        if running:
            await asyncio.wait(list(running.values()))
        for index in range(done_up_to, len(calls)):
            task = running.get(index)
            if task is None or task.cancelled():
                record(interrupted_result(calls[index]))
            else:
                record(task.result())
