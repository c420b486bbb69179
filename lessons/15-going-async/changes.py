"""A small agent harness: lesson 15, "going async".

Read it top to bottom: messages, tools, the loop and what it sends, the repair every request
goes through, compaction, the record on disk, refusals and retries, the harness that owns the
transcript, and two frontends. Everything is plain dicts, and the loop is an async generator;
nothing here talks to a network, so the lab's scripted model can stand in for a real one. What
is new since lesson 14: the loop runs the tools of one reply at the same time and records their
results in the order they were asked for; a run that is closed, cancelled or aborted stops the
tools it started, waits for them, and writes down what became of each call before it lets go.
"""

import asyncio
import contextlib
import inspect
import itertools
import weakref


# == tools ==


# place: after run_tool
async def settled(value):
    """`value`, awaited first when it is awaitable: an async tool's or model's answer, or a
    plain function's, the same to whoever asks."""
    return await value if inspect.isawaitable(value) else value


# == loop ==


# place: after run_agent
ABORTED = "Stopped: the user aborted the run."


async def run_tools(tools, calls, record, abort=None):
    """Run `calls` (the calls of one reply) at the same time, and record one result for each,
    in the order the calls were written: an async generator of the events lesson 07 gives a
    tool, tool_execution_start for every call first, then, call by call, its result's
    message_end (from `record(result)`, which appends and persists it) and its
    tool_execution_end.

    Every call is started as an asyncio task before any result is waited for, so a slow tool
    does not hold up a quick one. A result that is ready early waits for the calls before it:
    the record, the events and the next request keep the model's order. `abort` set while
    the tools run (an asyncio.Event, None: never) stops the waiting at once.

    However the tools' part ends (every result in, an abort, the consumer closing the run,
    the run's task cancelled), nothing it started is left running: each task still going is
    cancelled, which a tool hears as a CancelledError at its await, and waited for, so its
    finally has run before this returns. Then every call without a recorded result gets one:
    its own, when its tool did finish, or lesson 10's stand-in, INTERRUPTED, when it did not.
    These are recorded, not announced (nobody may be listening any more). A cancellation is
    passed on, never swallowed: the run's caller asked for it.
    """
    tasks, recorded = [], 0
    stop = asyncio.ensure_future((abort or asyncio.Event()).wait())  # done once aborted
    try:
        for call in calls:
            yield {"type": "tool_execution_start", "call": call}
        # --- your code ---
        tasks += [asyncio.ensure_future(run_tool(tools, call)) for call in calls]
        for call, task in zip(calls, tasks):
            await asyncio.wait([task, stop], return_when=asyncio.FIRST_COMPLETED)
            if not task.done():
                break  # aborted: what is still running is stopped below
            recorded += 1
            yield record(task.result())
            yield {"type": "tool_execution_end", "call": call, "result": task.result()}
        # --- starter ---
        #| # Lesson 15: start every call as a task, then record the results in call order.
        #| for call in calls:
        #|     result = await run_tool(tools, call)
        #|     yield record(result)
        #|     yield {"type": "tool_execution_end", "call": call, "result": result}
        # --- end ---
    finally:
        stop.cancel()
        # --- your code ---
        for task in tasks:
            task.cancel()  # a task that has finished keeps its result
        await asyncio.gather(*tasks, return_exceptions=True)  # their finally blocks run now
        for call, task in itertools.zip_longest(calls[recorded:], tasks[recorded:]):
            ran = task is not None and not task.cancelled()  # None: closed before it started
            record(task.result() if ran else interrupted_result(call))
        # --- starter ---
        #| pass  # Lesson 15: stop what is still running, and record what became of each call.
        # --- end ---
