"""Lesson 04's sessions, run on the student's harness inside the grader's child process.

Each function takes the student's harness module, runs a job with the lab's scripted model,
and returns plain facts for the grader to judge in its own process: the record, every request
the model received, what each run returned, and every call a tool really ran with. The tools
are the student's own read, write and bash (so their arguments go through the student's
str_arg) over the grader's workspace, plus one tool of the grader's, `deploy`, that raises
whenever it is asked to, with a message the test chose. Nothing here decides a verdict.
"""

import lab

ANY = {"type": "object", "properties": {}}


def session(harness, job, prompts, files=None, failure="disk full", seed=None, **details):
    """Put each prompt in `prompts` to harness.run_agent, one run after another on one record
    (the grader keeps it: each run is handed a copy and returns what it added). With a `seed`
    the model names its calls as a provider does, at random; without one, c1, c2, ...
    `details` are the job's own. If a run raises, the session stops there and says what was
    raised, so a test can show the crash as a fact rather than as a traceback."""
    made = _tools(harness, files, failure)
    answer = JOBS[job](**details)
    model = lab.ScriptedModel([lab.forever(answer)],
                              ids=lab.random_ids(seed) if seed is not None else lab.numbered)
    record, returned, crashed = [], [], None
    for prompt in prompts:
        try:
            added = harness.run_agent(model, harness.SYSTEM, list(record), made["tools"], prompt)
        except Exception as error:  # the student's run died: that is the fact to report
            crashed = str(error)
            break
        returned.append(added)
        if type(added) is not list:
            break  # the test says what came back instead of a list
        record += added
    return {"record": record, "returned": returned, "ran": made["ran"], "crashed": crashed,
            "requests": [request.messages for request in model.calls],
            "writes": [list(write) for write in made["ws"].writes]}


def tool_call(harness, call, files=None, failure="disk full"):
    """harness.run_tool on one call, with the student's tools and the grader's `deploy`:
    what it returned, which tools really ran, and every write to the workspace."""
    made = _tools(harness, files, failure)
    result = harness.run_tool(made["tools"], call)
    return {"result": result, "ran": made["ran"],
            "writes": [list(write) for write in made["ws"].writes]}


def _tools(harness, files, failure):
    """The student's read, write and bash over a workspace of `files`, and the grader's
    `deploy`, which raises RuntimeError(failure) when its arguments say {"fail": true}."""
    ws = lab.Workspace(files if files is not None else {"config.py": "PORT = 9090\n"})
    ran = []

    def deploy(arguments):
        ran.append(["deploy", arguments])
        if arguments.get("fail"):
            raise RuntimeError(failure)
        return "deployed"

    tools = [harness.make_read_tool(ws), harness.make_write_tool(ws),
             harness.make_bash_tool(_Shell(ws)),
             {"name": "deploy", "description": "Deploy the project.", "parameters": ANY,
              "execute": deploy}]
    return {"tools": tools, "ran": ran, "ws": ws}


class _Shell(lab.Shell):
    """The lab's shell, refusing a command line that is not a string before it gets near
    shlex (which would read the grader's stdin for None)."""

    def run(self, command):
        if not isinstance(command, str):
            raise TypeError(f"a command line must be a string, not {type(command).__name__}")
        return super().run(command)


def _since_the_prompt(request):
    last = max(i for i, m in enumerate(request.messages) if m["role"] == "user")
    return request.messages[last + 1:]


def _typo(wrong="confg.py", right="config.py"):
    """The lesson's opening: "What port does config.py set?" The model first asks to read
    `wrong`; told that it is not there, and which files are, it reads `right` if that name is
    in what it was told, and answers from it. Any other prompt gets words."""
    def answer(request):
        if not [m for m in request.messages if m["role"] == "user"][-1]["content"].startswith(
                "What port"):
            return lab.say("Anything else?")
        results = [m for m in _since_the_prompt(request) if m["role"] == "toolResult"]
        if not results:
            return lab.reply(lab.text("Reading it."), lab.call("read", {"path": wrong}))
        newest = results[-1]
        if newest["is_error"] and right in str(newest["content"]) and len(results) == 1:
            return lab.reply(lab.text(f"Not there; {right} is."), lab.call("read", {"path": right}))
        if newest["is_error"]:
            return lab.say(f"I could not read it: {newest['content']}")
        return lab.say(f"It says: {str(newest['content']).strip()}")

    return answer


def _batch(calls=(), final="report"):
    """One reply asking for `calls` ([name, arguments] pairs, in order), then one line a
    result it was shown, "<tool> ok|error: <content>", in the order it was shown them."""
    def answer(request):
        results = [m for m in _since_the_prompt(request) if m["role"] == "toolResult"]
        if not results and not any(m["role"] == "assistant" for m in _since_the_prompt(request)):
            return lab.reply(lab.text("On it."), *[lab.call(name, dict(arguments))
                                                   for name, arguments in calls])
        return lab.say("\n".join(f"{m['tool_name']} {'error' if m['is_error'] else 'ok'}: "
                                 f"{m['content']}" for m in results) or "nothing")

    return answer


def _recover(first=("deploy", {"fail": True}), then=("deploy", {})):
    """For "Deploy it.": a call that fails, and then, told so, a different call; then
    words. Any other prompt gets words."""
    def answer(request):
        if [m for m in request.messages if m["role"] == "user"][-1]["content"] != "Deploy it.":
            return lab.say("You're welcome.")
        results = [m for m in _since_the_prompt(request) if m["role"] == "toolResult"]
        if not results:
            return lab.reply(lab.text("Deploying."), lab.call(first[0], dict(first[1])))
        if len(results) == 1 and results[0]["is_error"]:
            return lab.reply(lab.text("That failed; trying the other way."),
                             lab.call(then[0], dict(then[1])))
        return lab.say(f"Done: {results[-1]['content']}")

    return answer


JOBS = {"typo": _typo, "batch": _batch, "recover": _recover}
