"""Lesson 05's sessions, run on the student's run_agent inside the grader's child process.

Each function takes the student's harness module, runs a job with the lab's scripted model and
tools of the grader's own (so a test measures the student's loop, not the student's tools), and
returns plain facts for the grader to judge in its own process: the record, every request the
model received, what each run returned, every call a tool really ran with, and what was
written to the workspace. Nothing here decides a verdict.

A harness with no limit would keep a runaway going for ever, so the grader's model gives up on
its own after GIVE_UP requests in one run: it answers in words, the run ends, and the test
counts the requests that were sent.
"""

import lab

ANY = {"type": "object", "properties": {}}
MAIN = "def main():\n    return 1\n"
GIVE_UP = 40  # requests in one run after which the grader's model stops asking
GAVE_UP = "(the grader's model gave up: no limit stopped this run)"


def session(harness, rounds=(), prompts=("Do the job.",), limit="absent", history=(), seed=None,
            runaway=False, final="Done."):
    """Put each prompt in `prompts` to harness.run_agent, one run after another, on one record
    that starts as `history` (each run is handed a copy and returns what it added).

    The first prompt's job is `rounds`: a list of {"text": words or "", "calls": [[tool,
    arguments], ...], "fail": an error_message (the reply fails, carrying those blocks), or
    absent}; after the last of them the model says `final`. With `runaway` it asks for a read
    on every turn and never stops. Any later prompt is answered in words. `limit` is passed as
    max_turns=limit, unless it is "absent", when run_agent is called without it."""
    ran, ws = [], lab.Workspace({"main.py": MAIN, "notes.md": "one\n"})
    first = prompts[0]

    def answer(request):
        said = [i for i, m in enumerate(request.messages) if m["role"] == "user"][-1]
        if request.messages[said]["content"] != first:
            return lab.say(f"About {request.messages[said]['content']!r}: all is well.")
        turn = sum(m["role"] == "assistant" for m in request.messages[said + 1:])
        if turn >= GIVE_UP:
            return lab.say(GAVE_UP)
        if runaway:
            return lab.reply(lab.text(f"Still looking ({turn + 1})."),
                             lab.call("read", {"path": f"guess{turn + 1}.py"}))
        if turn >= len(rounds):
            return lab.say(final)
        wanted = rounds[turn]
        blocks = ([lab.text(wanted["text"])] if wanted.get("text") else []) + [
            lab.call(name, arguments) for name, arguments in wanted.get("calls", [])]
        if wanted.get("fail") is not None:
            return lab.fail(wanted["fail"], *blocks)
        return lab.reply(*blocks)

    model = lab.ScriptedModel([lab.forever(answer)],
                              ids=lab.random_ids(seed) if seed is not None else lab.numbered)

    def tool(name, do):
        def execute(arguments):
            output = do(arguments)
            ran.append([name, arguments, len(model.calls)])
            return output
        return {"name": name, "description": f"The {name} tool.", "parameters": ANY,
                "execute": execute}

    def write(arguments):
        ws.write_text(arguments["path"], arguments.get("content", ""))
        return f"Wrote {arguments['path']}."

    tools = [tool("read", lambda arguments: f"read {arguments.get('path')}: nothing here"),
             tool("write", write),
             tool("bash", lambda arguments: f"ran {arguments.get('command')}"),
             tool("test", lambda arguments: "3 passed")]
    record, returned, per_run = list(history), [], []
    for prompt in prompts:
        before = len(model.calls)
        more = {} if limit == "absent" else {"max_turns": limit}
        added = harness.run_agent(model, "You are a careful assistant.", list(record), tools,
                                  prompt, **more)
        returned.append(added)
        per_run.append(len(model.calls) - before)
        if type(added) is not list:
            break  # the test says what came back instead of a list
        record += added
    return {"record": record, "returned": returned, "ran": ran, "requests_per_run": per_run,
            "requests": [request.messages for request in model.calls],
            "replies": model.replies, "files": ws.files(),
            "writes": [list(write) for write in ws.writes]}
