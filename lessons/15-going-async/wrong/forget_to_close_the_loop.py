"""Frees the harness in a finally, as lesson 08 did, but does not close the loop it reads:
an async generator has no `yield from` to do that, so the loop (and the tools it started) is
left to the garbage collector and the event loop, and is still going when aclose returns.

Fails: test_closing_the_run_frees_the_harness_and_stops_its_tools_before_aclose_returns
"""


class Harness(Harness):
    async def _run(self, text):
        self._unstarted = None
        sender = SimpleNamespace(complete=self._send)
        run = run_agent(sender, self._system, self._messages, self._tools, text,
                        max_turns=self._max_turns,
                        get_steering=lambda: self._take_one(self._steering),
                        get_follow_ups=lambda: self._take_one(self._follow_ups),
                        save=self._save if self._file is not None else None, abort=self._abort)
        try:
            async for event in run:
                yield event
        finally:
            self._running = False
