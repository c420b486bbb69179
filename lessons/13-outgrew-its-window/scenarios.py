"""Lesson 13's sessions, each a function of the student's harness module.

Every function here takes the harness module first and returns plain data: the facts a test
judges, never a verdict. The scripted model stays on the grader's side, with a context window
of its own (lab.ScriptedModel(..., window=N)): every request the harness sends is seen and
counted here, with the lab's counter, and a request over the window is refused the way OpenAI
refuses one, so a harness that sends one is caught by what came back, not by what it says.

The session: the user asks for one file after another; the model reads each with the `read`
tool and says what it found. Each turn is about ninety tokens, so a window of a few hundred
is outgrown within a few prompts. Asked to summarise (the last message of its request is the
harness's SUMMARISE), the model answers with a short summary that names how many messages it
was shown; every other request is answered from the newest prompt.
"""

import json

import lab

SYSTEM_PROMPT = "You are a helpful assistant."
PATH = {"type": "string", "description": "The file."}
READ = {"type": "object", "properties": {"path": PATH}, "required": ["path"]}
FILES = {f"notes{k}.txt": f"Line one of notes {k}.\nLine two says the number {k * 7}.\n"
         for k in range(1, 13)}


# -- the pieces, called directly -----------------------------------------------------------------

def cuts(harness, messages, keep=None):
    """safe_cuts(messages), and choose_cut(messages, keep) when `keep` is given, with the
    record as it was afterwards."""
    given = plain(messages)
    found = {"cuts": plain(harness.safe_cuts(messages))}
    if keep is not None:
        found["cut"] = plain(harness.choose_cut(messages, keep))
    found["input_before"], found["input_after"] = given, plain(messages)
    return found


def views(harness, records):
    """context_for_model(r) for each record r, twice each, as JSON text (to compare bytes)."""
    return [[json.dumps(plain(harness.context_for_model(r))) for _ in range(2)] for r in records]


# -- sessions through the Harness --------------------------------------------------------------

def session(harness, prompts, window, record=(), file_text=None, summaries=None,
            crash_after=None, system=SYSTEM_PROMPT):
    """A Harness with a window of `window` tokens on a ScriptedModel with the same window,
    started from `record` (or, with `file_text`, resumed from a file holding that text), put
    each of `prompts` in turn, its record saved on a Disk.

    `summaries`: the texts the model answers a summary request with, in order (None: a short
    one naming how many messages it was shown; "fail": a 503 instead). `crash_after`: after
    that many prompts, the process is gone and a fresh Harness resumes from the file (same
    model, same window) for the rest. Returns the record, the file, every request (system,
    messages, tools and its size), and each prompt's last message."""
    asked = []

    def answer(request):
        last = request.messages[-1] if request.messages else {}
        if last.get("role") == "user" and last.get("content") == harness.SUMMARISE:
            asked.append(len(request.messages))
            if summaries == "fail":
                return lab.openai_error(503, "The server is overloaded.", "server_error")
            if summaries:
                return lab.say(summaries[(len(asked) - 1) % len(summaries)])
            return lab.say(f"Summary {len(asked)}: the user asked for notes files one by one; "
                           f"I read them ({lab.counted(len(request.messages) - 1, 'message')} shown).")
        said = [m["content"] for m in request.messages if m["role"] == "user"][-1]
        path = said.split()[-1].rstrip(".") if said.startswith("Read ") else None
        since = [m for m in request.messages[_last_user(request.messages):]
                 if m["role"] == "toolResult"]
        if path is not None and not since:
            return lab.reply(lab.text(f"Reading {path}."), lab.call("read", {"path": path}))
        if path is not None:
            return lab.say(f"{path} says: {since[-1]['content'].splitlines()[-1]}")
        return lab.say("Noted.")

    ws = lab.Workspace(dict(FILES))
    tools = [{"name": "read", "description": "Read a file.", "parameters": READ,
              "execute": lambda arguments: ws.read_text(arguments["path"])}]
    model = lab.ScriptedModel([lab.forever(answer)], window=window)
    disk = lab.Disk()
    handle = disk.open("record.jsonl")
    if file_text is not None:
        handle.write(file_text)
        handle.flush()
        h = harness.Harness.resume(model, system, tools, handle, window=window)
    else:
        for message in record:
            handle.write(json.dumps(message) + "\n")
        handle.flush()
        h = harness.Harness(model, system, tools, list(record), file=handle, window=window)
    last, records = [], []
    for k, words in enumerate(prompts):
        if crash_after is not None and k == crash_after:
            records.append(plain(list(h.messages)))
            handle = disk.restart().open("record.jsonl")
            h = harness.Harness.resume(model, system, tools, handle, window=window)
        for _ in h.prompt(words):
            pass
        last.append(plain(h.messages[-1]))
    requests = [{"system": r.system, "messages": plain(r.messages), "tools": plain(r.tools),
                 "tokens": lab.request_tokens(r.system, r.messages, r.tools)}
                for r in model.calls]
    return {"record": plain(list(h.messages)), "file": disk.read_text("record.jsonl"),
            "requests": requests, "last": last, "summary_requests": len(asked),
            "before_crash": records[0] if records else None}


# -- the pieces --------------------------------------------------------------------------------

def _last_user(messages):
    """The index of the last user message in `messages` (0 when there is none)."""
    return max((i for i, m in enumerate(messages) if m["role"] == "user"), default=0)


def plain(value):
    """`value` as plain JSON data, a copy that shares nothing with the harness's objects."""
    return json.loads(json.dumps(value))
