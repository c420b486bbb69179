"""Lesson 12's sessions, each a function of the student's harness module.

Every function here takes the harness module first and returns plain data: the facts a test
judges, never a verdict. The scripted model, the clock the harness sleeps on (a list that
notes each wait: nothing here really sleeps) and the shrink of lesson 13 stay on the grader's
side, so every request the harness sends and every second it asks to wait is seen here, not
reported by the student's process.

A refusal is written as the lab's builders make it (lab.anthropic_error, lab.openai_error,
lab.too_long): a failed reply carrying the response the provider sent. A script is a list of
such refusals and ordinary replies, answered in order.
"""

import json

import lab
from lab.testkit import handed_out

SYSTEM_PROMPT = "You are a helpful assistant."
PATH = {"type": "string", "description": "The file."}
READ = {"type": "object", "properties": {"path": PATH}, "required": ["path"]}


# -- the classifier and the policy, called directly ----------------------------------------------

def classify(harness, replies):
    """classify(reply) for each of `replies`: [kind, status, retry_after] of each Refusal."""
    found = []
    for reply in replies:
        refusal = harness.classify(reply)
        found.append(plain([refusal.kind, refusal.status, refusal.retry_after]))
    return found


def waits_asked(harness, headers):
    """classify's retry_after for an Anthropic 429 whose response carries each headers dict h
    of `headers`, as it is written (lab.anthropic_error lower-cases the names it is given, so
    the headers are put on the response afterwards, in their own case)."""
    found = []
    for h in headers:
        refused = lab.anthropic_error(429, "rate_limit_error", "Number of requests has exceeded "
                                      "your rate limit.")
        refused = dict(refused, response=dict(refused["response"], headers=dict(h)))
        found.append(plain(harness.classify(refused).retry_after))
    return found


def decide(harness, cases, policy=None):
    """RetryPolicy(**policy).decide(Refusal(kind, status, retry_after, "..."), attempt, waited)
    for each case [kind, retry_after, attempt, waited]: [action, wait] of each Decision."""
    rules = harness.RetryPolicy(**(policy or {}))
    found = []
    for kind, retry_after, attempt, waited in cases:
        refusal = harness.Refusal(kind, None, retry_after, "whatever the provider said")
        decision = rules.decide(refusal, attempt, waited)
        found.append(plain([decision.action, decision.wait]))
    return found


# -- sessions through the Harness --------------------------------------------------------------

def session(harness, script, prompts=("Hello?",), record=(), policy=None, shrink=None,
            file_text=None, tools=False):
    """A Harness on a ScriptedModel answering with `script`, started from `record` (or, with
    `file_text`, resumed from a file holding that text), put each of `prompts` in turn.

    Its sleep notes each wait and its on_retry notes what it was told, in one list, in order,
    so a test can see that the user is told before each wait. `shrink`: None (the harness has
    none), "halve" (the last half of the request, from a user message), or "cannot" (always
    None). `tools`: give it a read tool over a small workspace. Returns the record (and the
    file's text, when it has one), every request, the waits, the on_retry calls, each run's
    event types and what shrink was handed."""
    timeline, shrunk = [], []

    def sleep(seconds):
        timeline.append(["sleep", plain(seconds)])

    def on_retry(refusal, decision, attempt):
        timeline.append(["told", plain([refusal.kind, decision.action, decision.wait, attempt])])

    def halve(messages):
        shrunk.append(plain(list(messages)))
        if shrink == "cannot":
            return None
        users = [i for i, m in enumerate(messages) if m["role"] == "user"]
        start = users[len(users) // 2] if users else 0
        return list(messages)[start:]

    ws = lab.Workspace({"a.txt": "alpha\n"})
    kit = [{"name": "read", "description": "Read a file.", "parameters": READ,
            "execute": lambda arguments: ws.read_text(arguments["path"])}] if tools else []
    model = lab.ScriptedModel(list(script))
    settings = {"sleep": sleep, "on_retry": on_retry}
    if policy is not None:
        settings["policy"] = harness.RetryPolicy(**policy)
    if shrink is not None:
        settings["shrink"] = halve
    disk = None
    if file_text is not None:
        disk = lab.Disk()
        handle = disk.open("record.jsonl")
        handle.write(file_text)
        handle.flush()
        h = harness.Harness.resume(model, SYSTEM_PROMPT, kit, handle, **settings)
    else:
        h = harness.Harness(model, SYSTEM_PROMPT, kit, list(record), **settings)
    runs = []
    for words in prompts:
        runs.append([plain(event)["type"] for event in h.prompt(words)])
    return {"record": plain(list(h.messages)),
            "requests": [plain(request.messages) for request in model.calls],
            "systems": [request.system for request in model.calls],
            "timeline": timeline, "waits": [s for what, s in timeline if what == "sleep"],
            "told": [t for what, t in timeline if what == "told"],
            "shrunk": shrunk, "runs": runs,
            "file": disk.read_text("record.jsonl") if disk is not None else None}


def handing_out(harness):
    """One prompt answered in words; then a caller appends a message to what h.messages handed
    it (lab.testkit.handed_out): the facts."""
    h = harness.Harness(lab.ScriptedModel([lab.say("Hello.")]), SYSTEM_PROMPT, [], [],
                        sleep=lambda seconds: None)
    for _ in h.prompt("Hello?"):
        pass
    return handed_out(h, "messages")


# -- the pieces --------------------------------------------------------------------------------

def plain(value):
    """`value` as plain JSON data, a copy that shares nothing with the harness's objects."""
    return json.loads(json.dumps(value))
