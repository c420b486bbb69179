"""Lesson 10's sessions, run on the student's Harness inside the grader's child process.

Each function takes the student's harness module, runs a job with the lab's scripted model and
tools of its own (so a test measures the student's view and repair, not their tools), and
returns plain facts for the grader to judge in its own process: the events the first run
handed out, which tools really ran, the record as the walk-away left it and as it ended, and
every request the model received, and, for each later prompt, the model's last reply to it
(None when the harness never asked). Nothing here decides a verdict.
"""

import asyncio

import lab

STEP = {"type": "object", "properties": {"n": {"type": "integer", "description": "Which step."}},
        "required": ["n"]}
COMMAND = {"type": "object",
           "properties": {"command": {"type": "string", "description": "The command line."}},
           "required": ["command"]}
WRITE = {"type": "object",
         "properties": {"path": {"type": "string", "description": "The file."},
                        "content": {"type": "string", "description": "All of its text."}},
         "required": ["path", "content"]}


def session(harness, job, stop_after=None, then=(), seed=None):
    """Prompt the job, walk away after `stop_after` events (None: let it finish), then put
    each prompt in `then` and let it finish. With a `seed`, the model names its calls as a
    provider does, at random (lab.random_ids); without one, c1, c2, ..."""
    ids = lab.random_ids(seed) if seed is not None else lab.numbered
    return asyncio.run(_session(harness, JOBS[job](), stop_after, then, ids))


async def _session(harness, job, stop_after, then, ids):
    model = lab.ScriptedModel([lab.forever(job["answer"])], ids=ids)
    h = harness.Harness(model, harness.SYSTEM, job["tools"])
    job.get("harness_slot", []).append(h)  # for a tool that types into the harness mid-run
    events = await lab.drive(h.prompt(job["prompt"]), stop_after=stop_after)
    left = list(h.messages)
    answers, replies = [], []
    for words in then:
        asked = len(model.calls)
        await lab.drive(h.prompt(words))
        answers.append(h.messages[-1])
        replies.append(model.replies[-1] if len(model.calls) > asked else None)
    return {"events": [event["type"] for event in events], "ran": job["ran"], "left": left,
            "record": list(h.messages), "answers": answers, "replies": replies,
            "requests": [request.messages for request in model.calls]}


def _said_last(request):
    return [m["content"] for m in request.messages if m["role"] == "user"][-1]


def _tool(name, description, parameters, execute):
    return {"name": name, "description": description, "parameters": parameters,
            "execute": execute}


def _three_steps():
    """Steps 1 and 2 in one reply, step 3 in the next, then done: 21 events if left alone."""
    ran = []

    def answer(request):
        if _said_last(request) != "Do the job.":
            return lab.say("Carrying on.")
        results = sum(m["role"] == "toolResult" for m in request.messages)
        if results == 0:
            return lab.reply(lab.text("Two steps first."),
                             lab.call("step", {"n": 1}), lab.call("step", {"n": 2}))
        if results == 2:
            return lab.reply(lab.text("One more."), lab.call("step", {"n": 3}))
        return lab.say("Done.")

    def step(arguments):
        ran.append(arguments["n"])
        return f"step {arguments['n']}: ok"

    return {"prompt": "Do the job.", "answer": answer, "ran": ran,
            "tools": [_tool("step", "Do one step of the job.", STEP, step)]}


def _tests():
    """One call to bash for pytest, then words: the walk-away of the lesson's opening."""
    ran = []
    shell = lab.Shell(lab.Workspace({"main.py": "def main():\n\treturn 1\n",
                                     "config.py": "PORT = 9090\n"}))

    def answer(request):
        if _said_last(request) == "Reformat main.py and run the tests." and not any(
                m["role"] == "toolResult" for m in request.messages):
            return lab.reply(lab.text("Running the tests."),
                             lab.call("bash", {"command": "pytest"}))
        return lab.say("config.py sets PORT = 9090.")

    def bash(arguments):
        ran.append(arguments["command"])
        return shell.run(arguments["command"])[0]

    return {"prompt": "Reformat main.py and run the tests.", "answer": answer, "ran": ran,
            "tools": [_tool("bash", "Run a shell command.", COMMAND, bash)]}


def _cut_off_write():
    """The first reply breaks off mid-stream, holding half a write call; then words."""
    ran = []
    first = [True]

    def answer(request):
        if first[0]:
            first[0] = False
            return lab.fail("stream ended before the message was complete",
                            lab.text("Writing the file."), lab.call("write", {"path": "main.py"}))
        return lab.say("Nothing was written. Shall I try again?")

    def write(arguments):
        ran.append(arguments.get("path"))
        return "written"

    return {"prompt": "Reformat main.py.", "answer": answer, "ran": ran,
            "tools": [_tool("write", "Write a file.", WRITE, write)]}


def _steering():
    """Three calls in one reply; the user steers while the second one runs."""
    ran, slot = [], []

    def answer(request):
        if any(m["role"] == "toolResult" for m in request.messages):
            return lab.say("Done, with spaces.")
        return lab.reply(lab.text("Three steps, then."), *[lab.call("step", {"n": n})
                                                           for n in (1, 2, 3)])

    def step(arguments):
        ran.append(arguments["n"])
        if arguments["n"] == 2:
            slot[0].steer("Actually, use spaces.")
        return f"step {arguments['n']} done"

    return {"prompt": "Do the three steps.", "answer": answer, "ran": ran,
            "tools": [_tool("step", "Do one step of the job.", STEP, step)],
            "harness_slot": slot}


JOBS = {"three_steps": _three_steps, "tests": _tests, "cut_off_write": _cut_off_write,
        "steering": _steering}
