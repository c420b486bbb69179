"""Lesson 06's sessions, run on the student's harness from the grader's side.

Each function takes the student's harness module (a proxy: every call of it runs in the
student's sandboxed process), makes the student's own read or bash tool over a workspace of the
grader's, runs it the way the harness does (through run_tool, so whatever a tool raises comes
back as an is_error result), and returns plain facts for the grader to judge in its own process:
what each call returned, every request the model received and its size. Nothing here decides
a verdict.
"""

import json
import re

import lab

NEXT = re.compile(r"offset=(\d+)")
READS_AT_MOST = 60  # a model that follows a note which never moves on gives up here


def budget(max_lines, max_bytes):
    return {key: value for key, value in (("max_lines", max_lines), ("max_bytes", max_bytes))
            if value is not None}


def reads(harness, files, calls, max_lines=None, max_bytes=None):
    """The student's read tool over `files`, given each of `calls` (a list of its arguments)
    through run_tool: [content, is_error] for each."""
    read = harness.make_read_tool(lab.Workspace(files), **budget(max_lines, max_bytes))
    return [_answer(harness, read, "read", arguments, n) for n, arguments in enumerate(calls, 1)]


def read_on(harness, files, path, max_lines=None, max_bytes=None):
    """Read `path` from offset 1 and then from wherever the last line of each result says to,
    as a model that does what it is told: [[offset, content, is_error], ...], until a result
    names no offset, names one that does not move on, or READS_AT_MOST reads."""
    read = harness.make_read_tool(lab.Workspace(files), **budget(max_lines, max_bytes))
    done, offset = [], 1
    while len(done) < READS_AT_MOST:
        content, is_error = _answer(harness, read, "read", {"path": path, "offset": offset},
                                    len(done) + 1)
        done.append([offset, content, is_error])
        found = NEXT.findall(content.rsplit("\n", 1)[-1]) if isinstance(content, str) else []
        if is_error or not found or int(found[-1]) <= offset:
            break
        offset = int(found[-1])
    return done


def commands(harness, files, lines, max_lines=None, max_bytes=None):
    """The student's bash tool over `files`, given each command line in `lines`: [content,
    is_error] for each."""
    bash = harness.make_bash_tool(lab.Shell(lab.Workspace(files)), **budget(max_lines, max_bytes))
    return [_answer(harness, bash, "bash", {"command": line}, n) for n, line in enumerate(lines, 1)]


def made(harness, tool, max_lines, max_bytes):
    """Whether make_<tool>_tool takes the budget (max_lines, max_bytes) or refuses it: the
    exception's kind and message, or None when the tool was made."""
    from lab.testkit import StudentRaised

    ws = lab.Workspace({"a.txt": "a\n"})
    maker = harness.make_read_tool if tool == "read" else harness.make_bash_tool
    try:
        maker(ws if tool == "read" else lab.Shell(ws), max_lines=max_lines, max_bytes=max_bytes)
    except StudentRaised as problem:
        return {"raised": problem.kind, "message": str(problem)}
    return {"raised": None, "message": ""}


def log_session(harness, log, window, verdict_lines=5):
    """The lesson's opening, on the student's whole harness: "Why did last night's build
    fail?" The model reads build.log; told that a read was cut, it looks at the log's last
    `verdict_lines` lines with bash tail instead, and answers with the last line it was shown.
    The provider refuses any request over `window` bytes (sizes as JSON, in UTF-8), as a
    provider refuses a request longer than its context window. Then one more prompt."""
    ws = lab.Workspace({"build.log": log, "config.py": "PORT = 9090\n"})
    tools = [harness.make_read_tool(ws), harness.make_bash_tool(lab.Shell(ws))]

    def answer(request):
        said = [i for i, m in enumerate(request.messages) if m["role"] == "user"][-1]
        if request.messages[said]["content"] != "Why did last night's build fail?":
            return lab.say("Anything else?")
        results = [m for m in request.messages[said + 1:] if m["role"] == "toolResult"]
        if not results:
            return lab.reply(lab.text("Reading the log."), lab.call("read", {"path": "build.log"}))
        newest = str(results[-1]["content"])
        if results[-1]["tool_name"] == "read" and NEXT.search(newest.rsplit("\n", 1)[-1]):
            return lab.reply(lab.text("It is long. The end, then."),
                             lab.call("bash", {"command": f"tail -n {verdict_lines} build.log"}))
        return lab.say("The log ends: " + newest.rstrip("\n").rsplit("\n", 1)[-1])

    model = WindowedModel([lab.forever(answer)], window)
    record = []
    for prompt in ("Why did last night's build fail?", "Thanks. Anything else?"):
        record += harness.run_agent(model, harness.SYSTEM, list(record), tools, prompt,
                                    max_turns=8)
    return {"record": record, "sizes": model.sizes, "window": window,
            "results": [[m["tool_name"], size_of(m["content"])] for m in record
                        if m["role"] == "toolResult"]}


def size_of(value):
    return len(json.dumps(value, ensure_ascii=False).encode())


class WindowedModel(lab.ScriptedModel):
    """A scripted model with a context window: a request bigger than `window` bytes is refused
    with a 400, as a provider refuses one longer than its window, and costs no scripted reply."""

    def __init__(self, script, window):
        super().__init__(script)
        self.window, self.sizes = window, []

    def complete(self, system, messages, tools):
        size = size_of(list(messages))
        self.sizes.append(size)
        if size > self.window:
            self.calls.append(lab.Request(system, [], []))
            return lab.fail(f"400 request_too_large: {lab.counted(size, 'byte')}; "
                            f"the window is {self.window}")
        return super().complete(system, messages, tools)


def _answer(harness, tool, name, arguments, n):
    result = harness.run_tool([tool], {"id": f"c{n}", "name": name, "arguments": arguments})
    return [result.get("content"), result.get("is_error")]
