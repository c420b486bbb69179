# --- attack: records each step's result before its tool has given it.
# The gaps above are the starter's: run_tools awaits one call after the other. Outside them,
# each step tool is wrapped so that the harness gets the tool's result at once, made up from
# its arguments ("step X done", or the "fail" text raised), before the desk has even heard the
# tool start. The real Work is kept and resumed later, in turn with the other kept Works, each
# time the harness calls another tool: so the desk hears two tools meet, although the harness
# had recorded the first one's result before the second was called. A hanging tool is passed
# through untouched (the starter's behaviour).
_kept = []


def _resume_kept(rounds=10):
    for _ in range(rounds):
        if not _kept:
            return
        for work in list(_kept):
            try:
                work.send(None)
            except BaseException:  # StopIteration (finished) or the tool's failure: it ended
                _kept.remove(work)


def _faked(real):
    def execute(arguments):
        if arguments.get("hang"):
            return real(arguments)
        work = real(arguments)          # the desk hears the call; the Work is kept, not awaited
        _kept.append(work.__await__())
        _resume_kept()
        if "fail" in arguments:
            raise ValueError(str(arguments["fail"]))
        return f"step {arguments['id']} done"
    return execute


_plain_init = Harness.__init__


def _init(self, model, system, tools, *args, **kwargs):
    _plain_init(self, model, system, tools, *args, **kwargs)
    self._tools = [dict(t, execute=_faked(t["execute"])) if t.get("name") == "step" else t
                   for t in self._tools]


Harness.__init__ = _init
