"""Lesson 11's sessions, each a function of the student's harness module.

Every function here takes the harness module first and returns plain data (dicts, lists,
strings, numbers): the facts a test judges, never a verdict. They use only what a harness
module offers (its Harness, SYSTEM, load_record, repair_history, open_record) and the
grader's own lab: a scripted model, tools, and a Disk that loses power at an exact byte. So
they run the same whether the module is the harness itself, imported in the process that runs
them, or (as lab_check runs them) a proxy for a harness living in the sandbox, whose calls of
the model, the tools and the Disk come back here.

The job the power is cut in: the model writes two files, a and b, in one reply (ids call_0
and call_1), then reads one back in the next (call_0 again: this provider restarts its ids
every reply), then says it is done. Twenty-one events and seven messages, when nothing goes
wrong.
"""

import copy
import hashlib
import json

import lab
from lab.testkit import PowerCut  # a grader-side object that raises it kills the process
from lab.testkit import handed_out

RECORD = "record.jsonl"
STAND_INS = (  # lesson 10's words, and the lesson's for a tool that only reads
    "Tool call interrupted: no result was recorded. It may not have run, or may have run "
    "partly; check before repeating it.",
    "Tool call interrupted: no result was recorded. This tool only reads, so nothing was "
    "changed; run it again if its result is still needed.")
PROMPT = "Write a and b, then check a."
THEN = ["What did you write?", "Thanks."]
GIVE_UP = 6  # replies to one prompt after which the scripted model stops asking for tools, so
             # a harness whose view hides results ends its run instead of looping until timed out
PATH = {"type": "string", "description": "The file."}
WRITE = {"type": "object", "properties": {"path": PATH, "content": {
    "type": "string", "description": "All of its text."}}, "required": ["path", "content"]}
READ = {"type": "object", "properties": {"path": PATH}, "required": ["path"]}


# -- the repair and the loader, called directly ------------------------------------------------

def repair(harness, messages, read_only=None):
    """repair_history(messages) (with is_read_only when `read_only` lists tool names), twice on
    the same input and once more on its own output, and the input as it was afterwards (run
    through a proxy, the harness gets a copy of the input, so only the view's tests, through
    the student's own process, can see it changed)."""
    given = copy.deepcopy(messages)
    args = (messages,) if read_only is None else (messages, lambda name: name in read_only)
    first = harness.repair_history(*args)
    again = harness.repair_history(*args)
    view = plain(first.messages)
    twice = harness.repair_history(*((view,) + args[1:]))
    return {"messages": view, "interrupted": plain(first.interrupted),
            "again": plain(again.messages), "twice": plain(twice.messages),
            "input_before": given, "input_after": plain(messages)}


def repair_each(harness, histories):
    """repair_history(h).messages for each history h, in order."""
    return [plain(harness.repair_history(history).messages) for history in histories]


def load(harness, text):
    """load_record(text): the messages it loads and the lines it sets aside."""
    loaded = harness.load_record(text)
    return {"messages": plain(loaded.messages), "set_aside": plain(loaded.set_aside)}


# -- sessions on a disk that loses power -------------------------------------------------------

def power_cut(harness, at_byte=None, after_event=None, then=THEN, resume=True):
    """Run the job with the record on a Disk; cut the power when byte `at_byte` would be
    written, or after event `after_event` (neither: let it finish); bring the machine back up,
    resume from the file, and put each prompt of `then`.

    Returns: the events announced before the cut (plain), the record the harness held in
    memory at the cut, the file's text at the cut and where each write before it went; then
    (unless `resume` is False, which stops at the cut and needs nothing but the record on
    disk) what resume loaded, set aside, called interrupted and told the user, the answers to
    `then`, every request the resumed session made, the file's text at the end, and
    load_record's reading of that text."""
    job = _files_job()
    disk = lab.Disk(power_fails_after=at_byte)
    first = harness.Harness(job["model"](), harness.SYSTEM, job["tools"], file=disk.open(RECORD))
    events = _until_the_power_goes(first.prompt(PROMPT), disk, after_event)
    recorded, ran = plain(first.messages), list(job["ran"])
    at_cut, writes = disk.read_text(RECORD), list(disk.writes)
    if not resume:
        return {"events": events, "recorded": recorded, "ran": ran, "text_at_cut": at_cut,
                "writes": [list(w) for w in writes]}

    disk = disk.restart()
    model = job["model"]()
    resumed = harness.Harness.resume(model, harness.SYSTEM, job["tools"], disk.open(RECORD))
    facts = {"events": events, "recorded": recorded, "ran": ran, "text_at_cut": at_cut,
             "loaded": plain(resumed.messages), "set_aside": plain(resumed.set_aside),
             "interrupted": plain(resumed.interrupted), "notice": resumed.notice}
    facts["answers"] = [_prompt(resumed, words) for words in then]
    reread = harness.load_record(disk.read_text(RECORD))
    facts.update(writes=[list(w) for w in writes],
                 requests=[request.messages for request in model.calls],
                 resumed_record=plain(resumed.messages), final_text=disk.read_text(RECORD),
                 reloaded=plain(reread.messages), reloaded_set_aside=plain(reread.set_aside),
                 truncations=[list(t) for t in disk.truncations])
    return facts


def loads(harness, texts):
    """load_record(text) for each text: what it loads and what it sets aside."""
    return [load(harness, text) for text in texts]


def power_cuts(harness, at_bytes):
    """power_cut at each byte of `at_bytes`, in one go, each told in brief: every message as
    a digest of its JSON (equal digests, equal messages), the tail of the file after its last
    newline, what was set aside, the error of every answer that failed, and, as [tool, path],
    the calls whose results were announced and the calls a later request answered with a
    stand-in."""
    return [_brief(power_cut(harness, at_byte=n)) for n in at_bytes]


def restarting_ids(harness, ids="restarting", prompts=("Read a.txt twice.", "Again.")):
    """A session whose model names its calls `ids` ("restarting": call_0 every reply;
    "empty": no ids at all): each prompt asks for two reads, one reply at a time. Returns the
    answers, the record and every request."""
    name = {"restarting": lab.restarting_ids("call_{k}"), "empty": lab.empty_ids}[ids]
    ws = lab.Workspace({"a.txt": "alpha\n"})

    def answer(request):
        since = request.messages[_last_user(request.messages):]
        reads = sum(m["role"] == "toolResult" for m in since)
        if reads < 2 and sum(m["role"] == "assistant" for m in since) < GIVE_UP:
            return lab.reply(lab.text(f"Read number {reads + 1}."),
                             lab.call("read", {"path": "a.txt"}))
        return lab.say("It says alpha, both times.")

    model = lab.ScriptedModel([lab.forever(answer)], ids=name)
    h = harness.Harness(model, harness.SYSTEM, [_tool("read", "Read a file.", READ,
                                                      lambda a: ws.read_text(a["path"]))])
    answers = [_prompt(h, words) for words in prompts]
    return {"answers": answers, "record": plain(h.messages),
            "requests": [request.messages for request in model.calls]}


def handing_out(harness):
    """One prompt answered in words; then a caller appends a message to what h.messages handed
    it (lab.testkit.handed_out): the facts."""
    h = harness.Harness(lab.ScriptedModel([lab.say("Hello.")]), harness.SYSTEM, [])
    _prompt(h, "Hello?")
    return handed_out(h, "messages")


# -- a real process, killed (the grader runs scenarios in its own process) ----------------------

def start_on_a_real_file(harness, kill_at_call):
    """Run the job with the record in a real file (open_record) in the harness's folder; the
    tool run for call number `kill_at_call` (1, 2 or 3) cuts the power: it raises the grader's
    PowerCut, and the grader SIGKILLs the harness's process there and then. Returns only if
    the job finishes first."""
    job = _files_job(cut_at_call=kill_at_call, cut=PowerCut)
    h = harness.Harness(job["model"](), harness.SYSTEM, job["tools"],
                        file=harness.open_record(RECORD))
    _prompt(h, PROMPT)
    return {"ran": list(job["ran"]), "record": plain(h.messages)}


def resume_from_a_real_file(harness, then=THEN):
    """In a fresh process on the same folder: resume from the real file, put each prompt of
    `then`, and read the file again."""
    job = _files_job()
    model = job["model"]()
    file = harness.open_record(RECORD)
    resumed = harness.Harness.resume(model, harness.SYSTEM, job["tools"], file)
    facts = {"loaded": plain(resumed.messages), "set_aside": plain(resumed.set_aside),
             "interrupted": plain(resumed.interrupted), "notice": resumed.notice}
    facts["answers"] = [_prompt(resumed, words) for words in then]
    file.seek(0)
    facts.update(requests=[request.messages for request in model.calls],
                 resumed_record=plain(resumed.messages),
                 reloaded=plain(harness.load_record(file.read()).messages))
    return facts


# -- the pieces --------------------------------------------------------------------------------

def plain(value):
    """`value` as plain JSON data, a copy that shares nothing with the harness's objects."""
    return json.loads(json.dumps(value))


def _brief(seen):
    def digests(messages):
        return [hashlib.sha1(json.dumps(m, sort_keys=True).encode()).hexdigest()[:16]
                for m in messages]

    announced = [e["message"] for e in seen["events"] if e["type"] == "message_end"]
    return {"announced": digests(announced), "recorded": digests(seen["recorded"]),
            "loaded": digests(seen["loaded"]), "loaded_shape": lab.shape(seen["loaded"]),
            "tail": seen["text_at_cut"].rpartition("\n")[2], "set_aside": seen["set_aside"],
            "refused": [a.get("error_message") for a in seen["answers"]
                        if a.get("stop_reason") == "error"],
            "answered": len(seen["answers"]),
            "finished": _finished_calls(seen["events"]),
            "told": sorted({tuple(c) for r in seen["requests"] for c in _stand_ins(r)})}


def _finished_calls(events):
    """[tool, path] of each call whose result was announced, in order."""
    done, running = [], None
    for event in events:
        if event["type"] == "tool_execution_start":
            running = event["call"]
        elif (event["type"] == "message_end" and event["message"]["role"] == "toolResult"
              and running is not None):
            done.append([running["name"], running["arguments"].get("path")])
    return done


def _stand_ins(request):
    """[tool, path] of each call that `request` answers with one of the lesson's stand-ins."""
    calls = {b["id"]: b for m in request if m["role"] == "assistant"
             for b in m["content"] if b["type"] == "toolCall"}
    return [[calls[m["tool_call_id"]]["name"], calls[m["tool_call_id"]]["arguments"].get("path")]
            for m in request if m["role"] == "toolResult" and m["content"] in STAND_INS
            and m["tool_call_id"] in calls]


def _until_the_power_goes(run, disk, after_event):
    """The events of `run` announced while the power was on, as plain data. A write that
    meets the cut raises in the harness; whatever the harness does after that is not counted,
    because a machine without power does nothing."""
    events = []
    try:
        for event in run:
            if disk.dead:
                break
            events.append(plain(event))
            if after_event is not None and len(events) >= after_event:
                disk.power_off()
                break
    except BaseException:
        if not disk.dead:
            raise
    return events


def _prompt(h, words):
    """Put `words` to harness `h`, take the run to its end, and return the last message."""
    for _ in h.prompt(words):
        pass
    return plain(h.messages[-1])


def _last_user(messages):
    return max((i for i, m in enumerate(messages) if m["role"] == "user"), default=0)


def _tool(name, description, parameters, execute):
    return {"name": name, "description": description, "parameters": parameters,
            "execute": execute}


def _files_job(cut_at_call=None, cut=None):
    """The job, with a workspace, the tools over it (`ran` lists every tool run, as
    [name, path]), and a maker of models that restart their call ids every reply. With
    `cut_at_call`, that tool run raises `cut` instead of running."""
    ws, ran = lab.Workspace({"notes.txt": "draft\n"}), []

    def answer(request):
        since = request.messages[_last_user(request.messages):]
        if request.messages[_last_user(request.messages)]["content"] != PROMPT:
            return lab.say("I wrote a and b, and read a back.")
        if sum(m["role"] == "assistant" for m in since) >= GIVE_UP:
            return lab.say("Giving up: the results I am shown do not add up.")
        results = sum(m["role"] == "toolResult" for m in since)
        if results == 0:
            return lab.reply(lab.text("Writing."),
                             lab.call("write", {"path": "a", "content": "café\n"}),
                             lab.call("write", {"path": "b", "content": "b\n"}))
        if results == 2:
            return lab.reply(lab.text("Checking."), lab.call("read", {"path": "a"}))
        return lab.say("Done: a reads back as written.")

    def running(name, work):
        def execute(arguments):
            if cut_at_call is not None and len(ran) + 1 == cut_at_call:
                raise cut(f"the power goes during call {cut_at_call}")
            ran.append([name, arguments["path"]])
            return work(arguments)
        return execute

    def write(arguments):
        ws.write_text(arguments["path"], arguments["content"])
        return f"Wrote {arguments['path']}."

    tools = [_tool("write", "Write a file.", WRITE, running("write", write)),
             _tool("read", "Read a file.", READ,
                   running("read", lambda arguments: ws.read_text(arguments["path"])))]
    return {"tools": tools, "ran": ran, "workspace": ws,
            "model": lambda: lab.ScriptedModel([lab.forever(answer)],
                                               ids=lab.restarting_ids("call_{k}"))}
