"""What lesson 01's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import call, reply, ScriptedModel, shape, text, user

DOES = "keeps who said what"
DOES_NOT = "does not keep who said what"
NEEDED = "a harness that keeps who said what"


def problem(harness):
    """"" when `harness` does lesson 01's job, else what it is missing, in a few words: its
    run_agent, given two prompts and an empty record, keeps each prompt as typed and each reply
    whole as the assistant's own, sends the system prompt beside the whole conversation and in
    no message, and its text_of reads the words of a reply past a tool call."""
    for name in ("SYSTEM", "user_message", "text_of", "run_agent"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    model = ScriptedModel([reply(text("Nice to meet "), text("you, Ada.")),
                           reply(text("I called you Ada."))])
    record, prompts, system = [], ("My name is Ada.", "What did you just call me?"), "Be brief."
    try:
        for prompt in prompts:
            harness.run_agent(model, system, record, prompt)
        words = harness.text_of(reply(call("read", {"path": "a.py"}, id="c1"), text("Reading.")))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    said = [user(prompts[0]), *model.replies[:1], user(prompts[1]), *model.replies[1:2]]
    if record != said:
        return (f"its run_agent keeps the record as {shape(record)}, not {shape(said)} with the "
                "prompts as typed and the replies as they came")
    if [r.system for r in model.calls] != [system, system] or model.calls[1].messages != said[:3]:
        return "its run_agent does not send the system prompt beside the whole conversation"
    if words != "Reading.":
        return "its text_of does not read the words of a reply past a tool call"
    return ""
