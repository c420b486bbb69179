"""Lesson 03's sessions, run on the student's run_agent inside the grader's child process.

Each function takes the student's harness module, runs a job with the lab's scripted model and
tools of the grader's own (so a test measures the student's loop, not the student's tools), and
returns plain facts for the grader to judge in its own process: the record, every request the
model received (its system prompt and messages), what each run returned, and every call a tool
really ran with, numbered by how many requests had been sent when it ran. Nothing here decides
a verdict.
"""

import lab

ANY = {"type": "object", "properties": {}}
PATH = {"type": "object",
        "properties": {"path": {"type": "string", "description": "The file."}},
        "required": ["path"]}
WRITE = {"type": "object",
         "properties": {"path": {"type": "string", "description": "The file."},
                        "content": {"type": "string", "description": "All of its text."}},
         "required": ["path", "content"]}

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
JOB = "Run the tests, then fix what fails."


def session(harness, job, prompts, system="You are a careful assistant.", history=(), seed=None,
            **details):
    """Put each prompt in `prompts` to harness.run_agent, one run after another on one record
    that starts as `history` (the grader keeps the record: each run is handed a copy and
    returns what it added). With a `seed` the model names its calls as a provider does, at
    random; without one, c1, c2, ... `details` are the job's own."""
    made = JOBS[job](**details)
    model = lab.ScriptedModel([lab.forever(made["answer"])],
                              ids=lab.random_ids(seed) if seed is not None else lab.numbered)
    made["model"].append(model)
    record, returned = list(history), []
    for prompt in prompts:
        added = harness.run_agent(model, system, list(record), made["tools"], prompt)
        returned.append(added)
        if type(added) is not list:
            break  # the test says what came back instead of a list
        record += added
    return {"record": record, "returned": returned, "ran": made["ran"],
            "requests": [request.messages for request in model.calls],
            "systems": [request.system for request in model.calls],
            "files": made["files"](), "writes": made["writes"]()}


def _tool(name, description, parameters, ran, model, do):
    """A tool of the grader's: every time it runs, [its name, the arguments, what it returned,
    how many requests the model had been sent by then] goes in `ran`."""
    def execute(arguments):
        output = do(arguments)
        ran.append([name, arguments, output, len(model[0].calls) if model else 0])
        return output

    return {"name": name, "description": description, "parameters": parameters,
            "execute": execute}


def _since_the_prompt(request):
    """The messages after the last user message: this run's turns so far."""
    last = max(i for i, m in enumerate(request.messages) if m["role"] == "user")
    return request.messages[last + 1:]


def _fix(bug=BUGGY):
    """The lesson's opening: "Run the tests, then fix what fails." Three turns of calls (run
    the tests; write the fix; run them again), then words. The model decides each step from
    the newest result it is shown; any other prompt gets words."""
    ran, model = [], []
    ws = lab.Workspace({"calc.py": bug, "test_calc.py": "assert add(2, 2) == 4\n"})

    def run_tests(arguments):
        if ws.read_text("calc.py") == FIXED:
            return "test_calc.py .  1 passed"
        return "test_calc.py F  1 failed: assert add(2, 2) == 4, got 0"

    tools = [_tool("read", "Read a text file.", PATH, ran, model,
                   lambda arguments: ws.read_text(arguments["path"])),
             _tool("write", "Write a text file, replacing it.", WRITE, ran, model,
                   lambda arguments: ws.write_text(arguments["path"], arguments["content"])
                   or f"Wrote {arguments['path']}."),
             _tool("test", "Run the project's tests.", ANY, ran, model, run_tests)]

    def answer(request):
        if [m["content"] for m in request.messages if m["role"] == "user"][-1] != JOB:
            return lab.say("Anything else?")
        results = [m for m in _since_the_prompt(request) if m["role"] == "toolResult"]
        if not results:
            return lab.reply(lab.text("Running the tests first."), lab.call("test", {}))
        newest = results[-1]
        if newest["tool_name"] == "test" and "failed" in newest["content"]:
            return lab.reply(lab.text("add subtracts. Fixing calc.py."),
                             lab.call("write", {"path": "calc.py", "content": FIXED}))
        if newest["tool_name"] == "write":
            return lab.reply(lab.text("Running them again."), lab.call("test", {}))
        return lab.say("Fixed: add adds now, and the tests pass.")

    return {"answer": answer, "tools": tools, "ran": ran, "model": model, "files": ws.files,
            "writes": lambda: [list(write) for write in ws.writes]}


def _rounds(rounds=(), final="Done."):
    """A job of turns given in full: `rounds` is a list of {"text": words or "", "calls":
    [[tool, arguments], ...], "label": a stop_reason to report instead of the true one, or
    absent}; after the last of them the model says `final`. Which turn it is comes from how
    many replies the model has given since the prompt, so a harness that asks before a batch
    is answered is refused, not handed the next turn. Tools are read, write, bash and test, and
    each says what it ran with."""
    ran, model = [], []
    tools = [_tool(name, f"The {name} tool.", ANY, ran, model,
                   lambda arguments, name=name: f"{name} ran with {sorted(arguments.items())}")
             for name in ("read", "write", "bash", "test")]

    def answer(request):
        turn = sum(m["role"] == "assistant" for m in _since_the_prompt(request))
        if turn >= len(rounds):
            return lab.say(final)
        wanted = rounds[turn]
        blocks = ([lab.text(wanted["text"])] if wanted.get("text") else []) + [
            lab.call(name, arguments) for name, arguments in wanted.get("calls", [])]
        made = lab.reply(*blocks) if blocks else lab.reply()
        if wanted.get("label"):
            made["stop_reason"] = wanted["label"]
        return made

    return {"answer": answer, "tools": tools, "ran": ran, "model": model, "files": dict,
            "writes": list}


JOBS = {"fix": _fix, "rounds": _rounds}
