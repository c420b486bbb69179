"""Another correct door: the loop is held in contextlib.aclosing, which closes it however the
block is left, and the harness is freed in a finally around that.
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
            async with contextlib.aclosing(run) as events:
                async for event in events:
                    yield event
        finally:
            self._running = False
