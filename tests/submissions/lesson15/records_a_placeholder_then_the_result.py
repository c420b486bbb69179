# --- attack: records a placeholder for each step, and writes the real result in later.
# The gaps above are the starter's: run_tools awaits one call after the other. Outside them,
# each step tool is wrapped: it calls the desk's execute (the desk hears the call), resumes
# the Work a few times, and if the tool has not given its result yet, keeps the Work and hands
# the harness a placeholder at once ("pending c1": not in the desk's words, so the grader's
# unsealing lets it through). The harness records and announces the placeholder, then calls
# the next tool, sequentially. Each later call resumes the kept Works in turn; when a kept
# Work finally gives its sealed result, the wrapper writes it INTO the message dict already
# recorded (and announced). The grader reads the record, the events and agent_end only at the
# end, so they all show the real sealed result, as if it had been recorded after the tool gave
# it. A hanging tool is passed through untouched (the starter's behaviour).
_kept = {}       # call id -> the Work's iterator, still going
_late = {}       # call id -> the sealed result that arrived after the placeholder
_recorded = {}   # call id -> the toolResult dict the harness recorded with a placeholder
PENDING = "pending "


def _patch(me, value):
    if me in _recorded:
        _recorded[me]["content"] = value
    else:
        _late[me] = value


def _resume_kept(rounds=10):
    for _ in range(rounds):
        if not _kept:
            return
        for me, work in list(_kept.items()):
            try:
                work.send(None)
            except StopIteration as done:
                del _kept[me]
                _patch(me, done.value)
            except BaseException as failed:  # noqa: BLE001 - the tool failed
                del _kept[me]
                _patch(me, str(failed))


def _placeholding(real):
    def execute(arguments):
        if arguments.get("hang"):
            return real(arguments)
        me = str(arguments["id"])
        work = real(arguments).__await__()
        _kept[me] = work
        _resume_kept()
        if me in _late:               # it finished within the rounds: its own, real result
            value = _late.pop(me)
            if "fail" in arguments:
                raise ValueError(value)
            return value
        return PENDING + me           # not finished: a placeholder, patched in later
    return execute


_plain_record_message = record_message


def record_message(messages, message, save):  # noqa: F811 - the harness calls this name
    content = message.get("content") if isinstance(message, dict) else None
    if message.get("role") == "toolResult" and isinstance(content, str) \
            and content.startswith(PENDING):
        me = content[len(PENDING):]
        _recorded[me] = message
        if me in _late:
            message["content"] = _late.pop(me)
    return _plain_record_message(messages, message, save)


_plain_init = Harness.__init__


def _init(self, model, system, tools, *args, **kwargs):
    _kept.clear(), _late.clear(), _recorded.clear()
    _plain_init(self, model, system, tools, *args, **kwargs)
    self._tools = [dict(t, execute=_placeholding(t["execute"])) if t.get("name") == "step"
                   else t for t in self._tools]


Harness.__init__ = _init
