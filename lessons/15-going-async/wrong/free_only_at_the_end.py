"""Frees the harness after the last event, with no finally: a run that is closed, cancelled
or left open never gets there, and the harness says it is running for good.

Fails: test_a_run_left_open_by_its_frontend_is_finished_by_the_event_loop
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
        async with contextlib.aclosing(run):
            async for event in run:
                yield event
        self._running = False
