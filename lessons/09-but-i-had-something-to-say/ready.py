"""What lesson 09's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import call, reply, say, ScriptedModel, shape

DOES = "lets a steer in at a safe point"
DOES_NOT = "does not let a steer in at a safe point"
NEEDED = "steering at the top of a turn"


def problem(harness):
    """"" when `harness` does lesson 09's job, else what it is missing, in a few words: its
    Harness, given a steer typed while the second of three calls runs, must let the words in
    only once the whole batch has its results, at the top of the next turn."""
    if not hasattr(harness, "Harness"):
        return "it has no Harness"
    slot = []

    def step(arguments):
        if arguments.get("n") == 2:
            slot[0].steer("Actually, use spaces.")
        return "done"

    tools = [{"name": "step", "description": "One step.",
              "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}},
              "execute": step}]
    model = ScriptedModel([reply(*[call("step", {"n": n}) for n in (1, 2, 3)]), say("Done.")])
    try:
        h = harness.Harness(model, getattr(harness, "SYSTEM", ""), tools)
        slot.append(h)
        for _ in h.prompt("Do the three steps."):
            pass
        got = shape(list(h.messages))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    wanted = "U A[c1,c2,c3] R(c1) R(c2) R(c3) U A"
    return "" if got == wanted else f"a steer typed mid-batch gives {got}, not {wanted}"
