"""Lesson 07's runs, driven on the student's run_agent and frontends from the grader's process.

Each function takes the student's harness module (a proxy: the code runs in the student's
process), runs a job with the lab's scripted model and tools of the grader's own, and returns
plain facts for the grader to judge: every event the consumer took, the record as it stood at
the moment each event was handed out, and each tool that really ran, with how many events the
consumer had taken when it did. Nothing here decides a verdict.

How the record is seen. run_agent writes to the list it is handed, and that list lives in the
student's process. While the run is paused at an event, its generator's frame still holds the
list under the name of run_agent's third parameter, and the grader reads it there (a fact the
student's process reports). Once the consumer closes the run the frame is gone, so the record
is read at every event, before the next is asked for.
"""

import asyncio

import lab

STEP = {"type": "object", "properties": {"n": {"type": "integer", "description": "Which step."}},
        "required": ["n"]}
ANY = {"type": "object", "properties": {}}
HISTORY = [lab.user("Hello."), lab.say("Hello. What shall we do?")]


def watch(harness, job, stop_after=None, seed=None, max_turns=None, history=False, rounds=()):
    """Run `job` through harness.run_agent and take its events as a consumer does, walking
    away after `stop_after` of them (None: to the end), with lab.drive. `history`: the record
    starts with two messages of an earlier conversation. With a `seed` the model names its
    calls as a provider does, at random."""
    made = JOBS[job](rounds) if job == "rounds" else JOBS[job]()
    model = lab.ScriptedModel([lab.forever(made["answer"])],
                              ids=lab.random_ids(seed) if seed is not None else lab.numbered)
    before = [dict(m) for m in HISTORY] if history else []
    taken, records = [], []
    options = {} if max_turns is None else {"max_turns": max_turns}
    run = harness.run_agent(model, harness.SYSTEM, before, made["tools"](taken), made["prompt"],
                            **options)
    if isinstance(run, list):
        return {"generator": False, "returned": "a list", "events": run, "records": [],
                "ran": made["ran"], "history": before}
    events = asyncio.run(lab.drive(_watched(run, taken, records), stop_after=stop_after))
    return {"generator": True, "events": events, "records": records, "ran": made["ran"],
            "history": before, "requests": [request.messages for request in model.calls]}


def _watched(run, taken, records):
    """The run's events, each one counted and the record read while the run waits on it."""
    try:
        for event in run:
            taken.append(event)
            records.append(_record_of(run))
            yield event
    finally:
        run.close()


def _record_of(run):
    """The list the paused run is writing to, as it stands; None when it cannot be read (not a
    generator, or one whose frame holds no such list)."""
    try:
        frame, names = run.gi_frame, run.gi_code.co_varnames
        found = frame.f_locals.get(names[2]) if frame is not None and len(names) > 2 else None
    except Exception:  # a run that is not a generator: the test says what it is instead
        return None
    return found if isinstance(found, list) else None


def render(harness, renderer, events):
    """Feed `events` (plain dicts) to a new harness.<renderer>, writing to a stream of the
    grader's, then call finish(): what it returned, what it wrote while the events went in,
    and what it wrote at finish."""
    stream = _Stream()
    frontend = getattr(harness, renderer)(stream)
    for event in events:
        frontend.render(event)
    during = stream.text()
    verdict = frontend.finish()
    return {"verdict": verdict, "during": during, "at_finish": stream.text()[len(during):]}


class _Stream:
    """What a frontend is handed to write to: it keeps every string written."""

    def __init__(self):
        self.parts = []

    def write(self, text):
        self.parts.append(str(text))
        return len(str(text))

    def flush(self):
        pass

    def text(self):
        return "".join(self.parts)


def _tool(name, parameters, ran, taken, do):
    """A tool of the grader's: each time it runs, [its name, its n, how many events the
    consumer had taken by then] goes in `ran`."""
    def execute(arguments):
        ran.append([name, arguments.get("n"), len(taken)])
        return do(arguments)

    return {"name": name, "description": f"The {name} tool.", "parameters": parameters,
            "execute": execute}


def _three_steps():
    """Steps 1 and 2 in one reply, step 3 in the next, then done: 21 events if left alone."""
    ran = []

    def answer(request):
        results = sum(m["role"] == "toolResult" for m in request.messages)
        if results == 0:
            return lab.reply(lab.text("Two steps first."),
                             lab.call("step", {"n": 1}), lab.call("step", {"n": 2}))
        if results == 2:
            return lab.reply(lab.text("One more."), lab.call("step", {"n": 3}))
        return lab.say("Done: three steps.")

    return {"prompt": "Do the job.", "answer": answer, "ran": ran,
            "tools": lambda taken: [_tool("step", STEP, ran, taken,
                                          lambda arguments: f"step {arguments['n']}: ok")]}


def _outage():
    """One step, then the provider fails: a run that ends on a failed reply."""
    ran = []

    def answer(request):
        if not any(m["role"] == "toolResult" for m in request.messages):
            return lab.reply(lab.text("Starting."), lab.call("step", {"n": 1}))
        return lab.fail("503 overloaded")

    return {"prompt": "Do the job.", "answer": answer, "ran": ran,
            "tools": lambda taken: [_tool("step", STEP, ran, taken, lambda arguments: "ok")]}


def _runaway():
    """A model that asks for one more step on every reply, for ever: only max_turns ends it."""
    ran = []

    def answer(request):
        done = sum(m["role"] == "toolResult" for m in request.messages)
        return lab.reply(lab.text(f"Step {done + 1}."), lab.call("step", {"n": done + 1}))

    return {"prompt": "Keep going.", "answer": answer, "ran": ran,
            "tools": lambda taken: [_tool("step", STEP, ran, taken, lambda arguments: "ok")]}


def _rounds(rounds):
    """A job given in full: `rounds` is a list of turns, each the number of calls its reply
    asks for; after them the model says "Done." or, if the last round is "fail", fails."""
    ran = []
    asks = [r for r in rounds if r != "fail"]

    def answer(request):
        turn = sum(m["role"] == "assistant" for m in request.messages)
        if turn < len(asks):
            n = sum(asks[:turn])
            return lab.reply(lab.text(f"Round {turn + 1}."),
                             *[lab.call("step", {"n": n + i + 1}) for i in range(asks[turn])])
        return lab.fail("503 overloaded") if rounds and rounds[-1] == "fail" else lab.say("Done.")

    return {"prompt": "Do the rounds.", "answer": answer, "ran": ran,
            "tools": lambda taken: [_tool("step", STEP, ran, taken,
                                          lambda arguments: f"step {arguments['n']}: ok")]}


JOBS = {"three_steps": _three_steps, "outage": _outage, "runaway": _runaway, "rounds": _rounds}
