"""A small agent harness: lesson 16, "the adapter".

Read it top to bottom: messages, tools, the loop and what it sends, the repair every request
goes through, compaction, the record on disk, refusals and retries, the harness that owns the
transcript, two frontends, and, last, the adapter: the view in a provider's own words, and a
trim that cannot part a call from its result. Everything is plain dicts, and the loop is an
async generator; nothing here talks to a network, so the lab's scripted model can stand in for
a real one. What is new since lesson 15 is the last region: the harness it sits at the edge of
is lesson 15's, whose view has already renamed repeated and empty call ids, marked the
harness's own words, and compacted what outgrew the window.
"""

import copy


# == the adapter ==
# Lesson 16. The record and the view are the lab's own messages; a provider reads its own
# format. The adapter translates the view for one request, at the edge, and keeps nothing:
# the record never learns a provider's words, so one record can be sent to either.

# --- your code ---
def to_anthropic(view):
    """The view as Anthropic Messages API turns: a new list of {"role", "content"} dicts whose
    content is a list of blocks.

    Words are "text" blocks; a call is a "tool_use" block (id, name, input); a result is a
    "tool_result" block (tool_use_id, content, is_error) in a user turn. Every result of a
    batch must be in the one user turn right after the calls, at its front, so a message whose
    role matches the turn before joins that turn: the results of parallel calls share it, and
    a steer typed after them lands in it too, after them, because the view already puts
    results first. (The API would combine two user turns in a row itself; merging here is
    never wrong.) A failed reply is sent as what it got out before it failed; the failure
    itself is the record's, not the provider's. Pure: nothing given is changed or shared with
    the result.
    """
    turns = []
    for message in view:
        role, blocks = anthropic_blocks(message)
        if turns and turns[-1]["role"] == role:
            turns[-1]["content"].extend(blocks)  # the turn is ours, made just above
        else:
            turns.append({"role": role, "content": blocks})
    return turns


def anthropic_blocks(message):
    """The role of the turn `message` belongs to on Anthropic's wire, and its blocks there."""
    if message["role"] == "user":
        return "user", [{"type": "text", "text": message["content"]}]
    if message["role"] == "toolResult":
        return "user", [{"type": "tool_result", "tool_use_id": message["tool_call_id"],
                         "content": message["content"], "is_error": message["is_error"]}]
    return "assistant", [
        {"type": "text", "text": block["text"]} if block["type"] == "text" else
        {"type": "tool_use", "id": block["id"], "name": block["name"],
         "input": copy.deepcopy(block["arguments"])}
        for block in message["content"]]


def to_openai(view):
    """The view as OpenAI Chat Completions messages: a new list, one message for each.

    A user message keeps its string. An assistant message carries its words as content (None
    when it has none) and its calls as tool_calls, each {"id", "type": "function",
    "function": {"name", "arguments"}} with the arguments as a JSON string, which is what this
    wire wants. A result becomes a "tool" message with its tool_call_id, right where the view
    put it: directly after the message that asked. Chat Completions has no error flag on a
    tool message, so a failed result says so in its words (INTERRUPTED does). Pure.
    """
    return [openai_message(message) for message in view]


def openai_message(message):
    """One view message as one Chat Completions message."""
    if message["role"] == "user":
        return {"role": "user", "content": message["content"]}
    if message["role"] == "toolResult":
        return {"role": "tool", "tool_call_id": message["tool_call_id"],
                "content": message["content"]}
    sent = {"role": "assistant", "content": text_of(message) or None}
    calls = [{"id": call["id"], "type": "function",
              "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
             for call in tool_calls(message)]
    if calls:
        sent["tool_calls"] = calls
    return sent


def safe_trim(messages, keep):
    """The last `keep` messages of a view, or more: when the cut would fall between a call
    and its results, it moves earlier, to the assistant message that asked.

    `keep` is a floor, not a ceiling, so a trimmed view is never refused for a result whose
    call was cut away; and never more than was given. What comes back is a new list, a
    suffix of `messages` holding the same message objects; `messages` is not changed.
    """
    if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
        raise ValueError(f"keep={keep!r}: give a whole number of messages, 0 or more")
    start = max(len(messages) - keep, 0)
    while 0 < start < len(messages) and messages[start]["role"] == "toolResult":
        start -= 1  # a result must not lead: back up over the run to its call
    return list(messages[start:])
# --- starter ---
#| # Three functions, described in full in the lesson; a summary:
#| #
#| # to_anthropic(view) -> a new list of Anthropic Messages turns, {"role", "content": [blocks]}:
#| #   user words        -> a user turn's {"type": "text", "text": ...}
#| #   assistant words   -> an assistant turn's {"type": "text", "text": ...}
#| #   a toolCall        -> {"type": "tool_use", "id", "name", "input": the arguments dict}
#| #   a toolResult      -> a user turn's {"type": "tool_result", "tool_use_id", "content",
#| #                        "is_error"}
#| #   Every result of a batch sits in the one user turn right after the calls, at its front, in
#| #   call order; the user's words come after them (in that turn, or in one of their own: the
#| #   API combines two user turns in a row). A reply with no words has no text block.
#| #
#| # to_openai(view) -> a new list of Chat Completions messages, one for each message:
#| #   user              -> {"role": "user", "content": the string}
#| #   assistant         -> {"role": "assistant", "content": its words or None, and, when it
#| #                        has calls, "tool_calls": [{"id", "type": "function",
#| #                        "function": {"name", "arguments": a JSON string}}]}
#| #   toolResult        -> {"role": "tool", "tool_call_id", "content"}
#| #
#| #   A reply with no calls has no "tool_calls" key at all: the API refuses an empty list.
#| #
#| # safe_trim(messages, keep) -> the last `keep` messages, or more when the cut would fall
#| #   between a call and its results (move the cut earlier, never later); never more than
#| #   given; and at keep=0, nothing: a new empty list.
#| #
#| # All three are pure: a new list, and nothing they are given changes. The adapter below
#| # (request_for, Adapter) calls them by name, so name them exactly so.
# --- end ---


def request_for(wire, view):
    """The request `view` becomes on `wire`: "anthropic", "openai", or None for the lab's own
    messages. The translation is looked up when asked for, so a redefined one is used."""
    translations = {None: list, "anthropic": to_anthropic, "openai": to_openai}
    if wire not in translations:
        raise ValueError(f"no adapter for wire {wire!r}; there are {sorted(map(str, translations))}")
    return translations[wire](view)


def tools_for(wire, specs):
    """Tool specs (see tool_specs) in the form `wire` wants them."""
    if wire == "anthropic":
        return [{"name": t["name"], "description": t["description"],
                 "input_schema": t["parameters"]} for t in specs]
    if wire == "openai":
        return [{"type": "function", "function": dict(t)} for t in specs]
    return list(specs)


class Adapter:
    """Adapter(model, keep=None): a model that takes the lab's view, for any model.

    Give it to Harness in the model's place. Each request's view is trimmed by safe_trim when
    `keep` is set, then translated into the format of `model.wire` (None: sent as it is), and
    the reply comes back as the model gave it. The loop and the record never know.
    """

    def __init__(self, model, keep=None):
        self.model, self.keep = model, keep

    def complete(self, system, view, tools):
        wire = getattr(self.model, "wire", None)
        view = view if self.keep is None else safe_trim(view, self.keep)
        return self.model.complete(system, request_for(wire, view), tools_for(wire, tools))
