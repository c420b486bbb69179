"""Lesson 02's sessions, run on the student's run_agent inside the grader's child process.

Each function takes the student's harness module, runs a job with the lab's scripted model and
tools of the grader's own (so a test measures the student's tool_specs and run_tool, and the
loop the lesson gives, not the student's tools), and returns plain facts for the grader to
judge in its own process: the record, every request the model received (its messages and the
tools it was told about), and every call a tool really ran with. Nothing here decides a verdict.
"""

import lab

PATH = {"type": "object",
        "properties": {"path": {"type": "string", "description": "The file."}},
        "required": ["path"]}
WRITE = {"type": "object",
         "properties": {"path": {"type": "string", "description": "The file."},
                        "content": {"type": "string", "description": "All of its text."}},
         "required": ["path", "content"]}
COMMAND = {"type": "object",
           "properties": {"command": {"type": "string", "description": "The command line."}},
           "required": ["command"]}


def session(harness, job, prompts, seed=None, **details):
    """Put each prompt in `prompts` to harness.run_agent, one run after another on one record
    (the grader keeps it: each run is handed a copy and returns what it added). With a `seed`
    the model names its calls as a provider does, at random (lab.random_ids); without one,
    c1, c2, ... `details` are the job's own (which files, which calls)."""
    made = JOBS[job](**details)
    ids = lab.random_ids(seed) if seed is not None else lab.numbered
    model = lab.ScriptedModel([lab.forever(made["answer"])], ids=ids)
    record, returned = [], []
    for prompt in prompts:
        added = harness.run_agent(model, harness.SYSTEM, list(record), made["tools"], prompt)
        returned.append(added)
        if type(added) is not list:
            break  # the test says what came back instead of a list
        record += added
    return {"record": record, "returned": returned, "ran": made["ran"],
            "requests": [request.messages for request in model.calls],
            "tools_seen": [request.tools for request in model.calls],
            "systems": [request.system for request in model.calls]}


def _tool(name, description, parameters, ran, do):
    """A tool of the grader's: every time it runs, [its name, the arguments, what it returned]
    goes in `ran`."""
    def execute(arguments):
        output = do(arguments)
        ran.append([name, arguments, output])
        return output

    return {"name": name, "description": description, "parameters": parameters,
            "execute": execute}


def _workspace_tools(files, ran):
    ws = lab.Workspace(files)
    return ws, [
        _tool("read", "Read a text file and return all of it.", PATH, ran,
              lambda arguments: ws.read_text(arguments["path"])),
        _tool("write", "Write a text file, replacing anything that was there.", WRITE, ran,
              lambda arguments: ws.write_text(arguments["path"], arguments["content"])
              or f"wrote {arguments['path']}"),
        _tool("bash", "Run a shell command; what it prints comes back.", COMMAND, ran,
              lambda arguments: lab.Shell(ws).run(arguments["command"])[0]),
    ]


def _said_last(request):
    return [m["content"] for m in request.messages if m["role"] == "user"][-1]


def _results_in(request):
    return [m for m in request.messages if m["role"] == "toolResult"]


def _port(files=None):
    """The lesson's opening: "What port does config.py set?" One read, then an answer built
    from the newest result the model was shown; any other prompt gets words."""
    ran = []
    _, tools = _workspace_tools(files or {"config.py": "PORT = 9090\n"}, ran)

    def answer(request):
        if not _said_last(request).startswith("What port"):
            return lab.say("Anything else?")
        results = _results_in(request)
        if results:
            return lab.say(f"config.py says: {str(results[-1]['content']).strip()}")
        return lab.reply(lab.text("Reading it."), lab.call("read", {"path": "config.py"}))

    return {"answer": answer, "tools": tools, "ran": ran}


def _calls(calls=(), files=None):
    """One reply asking for `calls` ([name, arguments] pairs, in order), then words that list
    the results the model was shown, in the order it was shown them."""
    ran = []
    _, tools = _workspace_tools(files or {}, ran)

    def answer(request):
        if request.messages[-1]["role"] == "user":
            return lab.reply(lab.text("On it."), *[lab.call(name, arguments)
                                                   for name, arguments in calls])
        return lab.say(" | ".join(str(m["content"]) for m in _results_in(request)) or "nothing")

    return {"answer": answer, "tools": tools, "ran": ran}


def _words():
    """A model that only ever talks: no call, nothing to run."""
    ran = []
    _, tools = _workspace_tools({"config.py": "PORT = 9090\n"}, ran)
    return {"answer": lambda request: lab.say(f"You said: {_said_last(request)}"),
            "tools": tools, "ran": ran}


JOBS = {"port": _port, "calls": _calls, "words": _words}


def given_tools(harness, files, calls):
    """The lesson's own tools, make_read_tool, make_write_tool and make_bash_tool, made by the
    student's harness over a workspace of `files`, each run directly on the arguments of
    `calls` ([name, arguments] pairs): what each returned, the tools as the model would be
    told of them (without the functions), and the files and writes afterwards."""
    ws = lab.Workspace(files)
    tools = {"read": harness.make_read_tool(ws), "write": harness.make_write_tool(ws),
             "bash": harness.make_bash_tool(lab.Shell(ws))}
    outputs = [tools[name]["execute"](arguments) for name, arguments in calls]
    described = {name: {key: value for key, value in tool.items() if key != "execute"}
                 for name, tool in tools.items()}
    return {"outputs": outputs, "described": described, "files": ws.files(),
            "writes": [list(write) for write in ws.writes]}
