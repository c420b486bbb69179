"""A small agent harness: lesson 10, "the poisoned transcript".

Read it top to bottom: messages, tools, the loop and what it sends, the harness that owns the
transcript, and two frontends. Everything is plain dicts and generators; nothing here talks to
a network, so the lab's scripted model can stand in for a real one.
"""


# == loop ==


def context_for_model(messages):
    """The view: what one request sends, built afresh from the record each time.

    The record keeps everything that happened; a provider takes only a well-formed transcript.
    So a failed reply with nothing in it (lesson 5) is left out, a failed reply that got words
    or calls out before it failed stays, and then calls and results are paired up by
    repair_tool_history. A new list comes back; the record and its messages are not touched.
    """
    # --- your code ---
    return repair_tool_history([m for m in messages if not is_empty_failure(m)])
    # --- starter ---
    #| # Lesson 5's view. Today's change: send what it returns through repair_tool_history.
    #| return [m for m in messages if not is_empty_failure(m)]
    # --- end ---


# place: after is_empty_failure
# --- your code ---
INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")


def repair_tool_history(messages):
    """Return a new list in which every tool call is followed at once by exactly one result,
    in the order the calls were written.

    A recorded result is kept and moved to just after its call; when a call has two, the first
    one recorded wins, because the rest of the transcript was written in reply to it. A result
    whose call appears nowhere is left out: its arguments are lost, and inventing a call would
    put words in the model's mouth. A call with no result gets one that says only what is
    known, INTERRUPTED, with is_error set.

    Pure: `messages` and the dicts in it are never changed, and the list returned holds those
    same dicts, plus one new dict for each made-up result. Idempotent, so running it before
    every request is safe: a valid transcript comes back equal, message for message. Call ids
    are taken to be unique; when a provider repeats one, every call with that id is shown the
    first result recorded for it.
    """
    first_result = {}
    for message in messages:
        if message["role"] == "toolResult":
            first_result.setdefault(message["tool_call_id"], message)
    view = []
    for message in messages:
        if message["role"] == "toolResult":
            continue  # each result is put back below, after the call it answers
        view.append(message)
        if message["role"] == "assistant":
            for call in tool_calls(message):
                found = first_result.get(call["id"])
                view.append(found if found is not None else interrupted_result(call))
    return view


def interrupted_result(call):
    """The stand-in result for a call that has none on the record."""
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": INTERRUPTED, "is_error": True}
# --- starter ---
#| # The tests import INTERRUPTED and repair_tool_history from here. Nothing else is given:
#| # the spec below, and the five wrecks in damaged.py (import damaged; lab.shape(...)).
#| #
#| # INTERRUPTED, word for word (all of the next line but its "# "):
#| # Tool call interrupted: no result was recorded. It may not have run, or may have run partly; check before repeating it.
#| #
#| # repair_tool_history(messages) -> a new list a strict provider accepts: every tool call is
#| # followed at once by exactly one toolResult, in call order.
#| #   - a recorded result is kept, and moved to its place when it is out of it;
#| #   - when a call has two results, the first one recorded wins;
#| #   - a result whose call is nowhere in the list is left out;
#| #   - a call with no result gets a new toolResult with the call's id (tool_call_id) and
#| #     name (tool_name), content INTERRUPTED and is_error True.
#| # Pure: neither `messages` nor any message in it changes, and the list returned holds the
#| # very same message objects. Idempotent: repairing twice is repairing once, and a valid
#| # transcript comes back equal. You may take call ids to be unique.
# --- end ---
