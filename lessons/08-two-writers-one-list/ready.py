"""What lesson 08's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import reply, ScriptedModel, shape, text

DOES = "keeps one writer at a time"
DOES_NOT = "does not keep one writer at a time"
NEEDED = "a harness that refuses a second prompt and frees itself when a run is closed"


def problem(harness):
    """"" when `harness` does lesson 08's job, else what it is missing, in a few words: its
    Harness refuses a second prompt while a run is going, with RuntimeError on the call itself,
    and a run closed before its first event leaves it free for the next prompt."""
    for name in ("Harness", "SYSTEM"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    model = ScriptedModel([reply(text("First.")), reply(text("Second."))])
    try:
        h = harness.Harness(model, harness.SYSTEM, [])
        run = h.prompt("One.")
        try:
            h.prompt("Two.")
        except RuntimeError:
            pass
        else:
            return "its Harness lets a second prompt start while a run is going"
        run.close()
        if h.is_running:
            return "a run closed before its first event leaves its Harness running"
        for event in h.prompt("Three."):
            pass
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if shape(h.messages) != "U A":
        return f"its Harness leaves the record {shape(h.messages) or 'empty'}, not U A"
    return ""
