"""What lesson 13's notebook needs of a harness before its examples run on the reader's file
(see lab/course/readiness.py): six reads in a window of 400 tokens all answered, no request over the
window refused, and a summary of the harness's own kept in the record."""

import lab

DOES = "keeps a long conversation within the window"
DOES_NOT = "does not keep a long conversation within the window"
NEEDED = "the cut, the view of a compacted record, and compaction"


def problem(module):
    for name in ("safe_cuts", "choose_cut", "Harness", "SUMMARISE", "SYSTEM"):
        if not hasattr(module, name):
            return f"it has no {name}"
    ws = lab.Workspace({f"n{k}.txt": f"the number {k * 7}, and a line to make it longer\n"
                        for k in range(6)})
    read = {"name": "read", "description": "Read a file.",
            "execute": lambda arguments: ws.read_text(arguments["path"]),
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}

    def answer(request):
        last = request.messages[-1]
        if last["role"] == "user" and last["content"] == module.SUMMARISE:
            return lab.say("Summary: the user is reading files.")
        if last["role"] == "user":
            return lab.reply(lab.call("read", {"path": last["content"].split()[-1]}))
        return lab.say("Read it.")

    model = lab.ScriptedModel([lab.forever(answer)], window=400)
    try:
        h = module.Harness(model, module.SYSTEM, [read], window=400)
        for k in range(6):
            for _ in h.prompt(f"Read n{k}.txt"):
                pass
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    refused = [r for r in model.replies if r.get("response")]
    if refused or not any(m.get("role") == "summary" for m in h.messages):
        return (f"six reads in a window of 400 tokens leave {lab.shape(h.messages)}, "
                f"{len(refused)} requests refused as too long")
    return ""
