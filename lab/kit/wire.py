"""Two providers' wire formats, checked the way their APIs check a request (lesson 16).

The harness keeps its own messages (see lab.messages); an adapter translates the view into a
provider's request. `validate_wire(messages, wire)` reads that request, in the words of the
wire named ("anthropic" for the Messages API, "openai" for Chat Completions), and returns a
Violation for each place a provider would object to, in message order; [] when it would take
the request. Each violation has a code (toolrepair's vocabulary for the pairing rules, ours
for the rest), the place (`messages[3].content[1]`, or `messages[3].tool_calls[0]` on
OpenAI's wire) and the call id; `.error` is what the provider answers with.

The lab's providers refuse what the real ones refuse, and only that. Each rule below names
where it comes from; where the provider's wording is known, `.error` is that wording (typos
included: a harness that matches on a provider's message should be tested against the real
one), and elsewhere it is this module's own sentence, which says so by starting with the code.

Both wires, the pairing rules (toolrepair 0.1.0, seed 003, checks the same ones; the suite
holds the two validators against each other): every call is answered, once, in the message
(Anthropic) or the run of tool messages (OpenAI) directly after the one that asked; no result
answers a call that is not in the message directly before it; on Anthropic's wire a user
turn's tool_result blocks come before anything else in it. A call has an id and a name.

Anthropic Messages, beyond pairing (the wording, as the API sends it, from reports quoting it):
- at least one message: "messages: at least one message is required" (langgenius/dify#6179).
- content: "messages.N: all messages must have non-empty content except for the optional
  final assistant message" (writingmate/chatlabs#35 and many since).
- text blocks: "messages: text content blocks must be non-empty" for an empty one
  (anthropics/claude-code#59812); "messages: text content blocks must contain non-whitespace
  text" for a turn whose only words are blanks (anthropics/claude-code#23440; the cases
  measured against the API in LibreChat-AI/agents#124: blanks beside real words pass).
- tool_use ids: "messages.N.content.J: `tool_use` ids must be unique" across the request
  (anthropics/claude-code#20573, anomalyco/opencode#1279).
- roles: consecutive user (or assistant) turns are NOT refused. The API reference says
  "Consecutive `user` or `assistant` turns in your request will be combined into a single
  turn" (docs: Messages, create, `messages`), and pi-mono sends a steer as a user turn of its
  own after the tool_result turn (packages/ai/src/providers/anthropic.ts:783-814). Combining
  does not rescue results split over several user turns: those are refused as unanswered
  calls (1jehuang/jcode#276).
- a call's input must be an object, and every block is of a type the API has (the SDK's own
  request types, anthropic.types.MessageParam; the wording here is ours).

OpenAI Chat Completions, beyond pairing:
- at least one message: "Invalid 'messages': empty array. Expected an array with minimum
  length 1, but got an empty array instead." (CopilotKit/CopilotKit#529).
- tool_calls, when present, is not empty: "Invalid 'messages[N].tool_calls': empty array.
  Expected an array with minimum length 1, but got an empty array instead."
  (home-assistant/core#118577, 0xPlaygrounds/rig#327, openai/openai-node#1341).
- function.arguments is a JSON string: "Invalid type for
  'messages[N].tool_calls[J].function.arguments': expected a string, but got an object
  instead." An assistant message needs content or tool_calls (our wording).
- the wording of the two pairing refusals is the API's ("preceeding", sic).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

# A provider's request on its wire: its own message dicts, whatever they hold (they are checked,
# not trusted), as opposed to the lab's Message (lab.kit.message_types).
WireMessage = Any
Wire = Literal["anthropic", "openai"]
WIRES = ("anthropic", "openai")
# The content block types the Messages API takes in a request (its MessageParam).
ANTHROPIC_BLOCKS = {"text", "image", "document", "search_result", "tool_use", "tool_result",
                    "thinking", "redacted_thinking", "server_tool_use",
                    "web_search_tool_result", "container_upload"}


@dataclass(frozen=True)
class Violation:
    """One thing a provider would refuse: what (`code`), where, for which call, and why.

    `detail` is our explanation; `error` is the text the provider sends back for it.
    """
    code: str
    where: str
    call_id: object
    detail: str
    error: str

    def __str__(self) -> str:
        return _line(self.code, self.where, self.call_id, self.detail)


def validate_wire(messages: Iterable[WireMessage], wire: str) -> list[Violation]:
    """Every Violation in the request `messages` for `wire`, in message order."""
    if wire not in WIRES:
        raise ValueError(f"wire={wire!r}: name one of {', '.join(map(repr, WIRES))}, or pass "
                         "wire=None for the lab's own messages")
    messages = list(messages)
    return _anthropic(messages) if wire == "anthropic" else _openai(messages)


def shape(request: list[WireMessage], wire: str) -> str:
    """A request on `wire` as one line, one token a message, the way lab.shape does it for the
    lab's messages. Anthropic: each turn's role and its blocks, `assistant[text,use(c1)]
    user[result(c1),text]`, a plain string content being one text block, as the API reads
    it. OpenAI: `user assistant[c1,c2] tool(c1) tool(c2)`, an assistant's calls in brackets.
    Anything that is not a message is `?`."""
    if wire not in WIRES:
        raise ValueError(f"wire={wire!r}: name one of {', '.join(map(repr, WIRES))}")
    if not isinstance(request, list):
        return f"(not a list: a {type(request).__name__})"
    return " ".join((_anthropic_token if wire == "anthropic" else _openai_token)(m)
                    for m in request) or "(nothing)"


def _anthropic_token(message):
    if not isinstance(message, dict):
        return "?"
    names = {"text": lambda b: "text", "tool_use": lambda b: f"use({b.get('id')})",
             "tool_result": lambda b: f"result({b.get('tool_use_id')})"}
    blocks = [names.get(b.get("type"), lambda b: f"{b.get('type')}?")(b) for b in _blocks(message)]
    return f"{message.get('role')}[{','.join(blocks)}]"


def _openai_token(message):
    if not isinstance(message, dict):
        return "?"
    role = message.get("role")
    if role == "tool":
        return f"tool({message.get('tool_call_id')})"
    calls = message.get("tool_calls")
    if isinstance(calls, list) and calls:
        ids = [str(c.get("id")) if isinstance(c, dict) else "?" for c in calls]
        return f"{role}[{','.join(ids)}]"
    return str(role)


# -- Anthropic Messages -----------------------------------------------------------------------

def _anthropic(messages):
    if not messages:
        return [Violation("empty_request", "messages", None, "a request with no messages",
                          "messages: at least one message is required")]
    found: list[Violation] = []
    used: set[object] = set()  # the tool_use ids of the request so far
    for i, message in enumerate(messages):
        role = _get(message, "role")
        blocks = _blocks(message)
        if role not in ("user", "assistant"):
            found.append(_own("malformed_message", f"messages[{i}]", None,
                              f"role is {role!r}; this wire has user and assistant turns only"))
            continue
        content = _get(message, "content")
        final_assistant = role == "assistant" and i == len(messages) - 1
        # content "" is a text block with no text, refused below in the API's words for that
        if not content and content != "" and not final_assistant:
            found.append(Violation(
                "empty_content", f"messages[{i}]", None, "a turn with nothing in it",
                f"messages.{i}: all messages must have non-empty content except for the "
                "optional final assistant message"))
        found += _anthropic_kinds(i, blocks)
        found += _anthropic_text(i, blocks)
        if role == "assistant":
            found += _anthropic_ids(i, blocks, used)
            found += _anthropic_calls(messages, i, blocks)
        else:
            found += _anthropic_results(messages, i, blocks)
    return found


def _anthropic_kinds(i, blocks):
    """A block of a type the Messages API does not have (our wording: the API's own message
    for it is a schema error we have not seen quoted)."""
    return [_own("malformed_block", f"messages[{i}].content[{j}]", block.get("id"),
                 f"a block of type {block.get('type')!r}, which this wire does not have")
            for j, block in enumerate(blocks) if block.get("type") not in ANTHROPIC_BLOCKS]


def _anthropic_text(i, blocks):
    """An empty text block is refused wherever it is; blanks are refused only when they are
    all the words a turn has and it has nothing else."""
    texts = [(j, b) for j, b in _typed(blocks, "text")]
    for j, block in texts:
        if block.get("text") == "":
            return [Violation("empty_text", f"messages[{i}].content[{j}]", None,
                              "a text block with no text",
                              "messages: text content blocks must be non-empty")]
    if texts and len(texts) == len(blocks) and all(
            isinstance(b.get("text"), str) and not b["text"].strip() for _, b in texts):
        return [Violation("blank_text", f"messages[{i}].content[{texts[0][0]}]", None,
                          "the turn's only words are blanks",
                          "messages: text content blocks must contain non-whitespace text")]
    return []


def _anthropic_ids(i, blocks, used):
    """A tool_use id used a second time anywhere in the request."""
    found = []
    for j, block in _typed(blocks, "tool_use"):
        call_id = _id(block.get("id"))
        if isinstance(call_id, str) and call_id and call_id in used:
            found.append(Violation("duplicate_tool_use_id", f"messages[{i}].content[{j}]",
                                   call_id, "a second tool_use with an id already used",
                                   f"messages.{i}.content.{j}: `tool_use` ids must be unique"))
        used.add(call_id)
    return found


def _anthropic_calls(messages, i, blocks):
    found, unanswered = [], []
    answers = _results_in(messages[i + 1]) if i + 1 < len(messages) else {}
    for j, block in _typed(blocks, "tool_use"):
        where, call_id = f"messages[{i}].content[{j}]", _id(block.get("id"))
        problem = _bad_call(call_id, block.get("name"))
        if problem is None and not isinstance(block.get("input"), dict):
            problem = f"its input is a {type(block.get('input')).__name__}, not an object"
        if problem:
            found.append(_own("malformed_tool_use", where, call_id, problem))
        elif call_id not in answers or answers[call_id] > _first_other(messages[i + 1]):
            unanswered.append((where, call_id))
    ids = ", ".join(str(call_id) for _, call_id in unanswered)
    for where, call_id in unanswered:
        found.append(Violation(
            "orphaned_tool_use", where, call_id,
            "no tool_result for it leads the next message",
            f"messages.{i}: `tool_use` ids were found without `tool_result` blocks immediately "
            f"after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block "
            "in the next message."))
    return found


def _anthropic_results(messages, i, blocks):
    found, seen = [], set()
    asked = _ids(_blocks(messages[i - 1]), "tool_use") if i else set()
    asked = asked if i and _get(messages[i - 1], "role") == "assistant" else set()
    text_before = False
    for j, block in enumerate(blocks):
        if block.get("type") != "tool_result":
            text_before = True
            continue
        where, call_id = f"messages[{i}].content[{j}]", _id(block.get("tool_use_id"))
        if call_id not in asked:
            found.append(Violation(
                "orphaned_tool_result", where, call_id,
                "it answers no tool_use of the message before",
                f"messages.{i}.content.{j}: unexpected `tool_use_id` found in `tool_result` "
                f"blocks: {call_id}. Each `tool_result` block must have a corresponding "
                "`tool_use` block in the previous message."))
        elif call_id in seen:
            found.append(_own("duplicate_tool_result", where, call_id,
                              "a second tool_result for the same tool_use"))
        elif text_before:
            found.append(_own("tool_result_not_first", where, call_id,
                              "tool_result blocks must come before any other block of the turn"))
        seen.add(call_id)
    return found


def _results_in(message):
    """call id -> the place of its first tool_result block in `message` (a user turn)."""
    places: dict[object, int] = {}
    if _get(message, "role") == "user":
        for j, block in _typed(_blocks(message), "tool_result"):
            places.setdefault(_id(block.get("tool_use_id")), j)
    return places


def _first_other(message):
    """The place of the first block of `message` that is not a tool_result."""
    return next((j for j, b in enumerate(_blocks(message)) if b.get("type") != "tool_result"),
                len(_blocks(message)))


# -- OpenAI Chat Completions ------------------------------------------------------------------

def _openai(messages):
    if not messages:
        return [Violation("empty_request", "messages", None, "a request with no messages",
                          "Invalid 'messages': empty array. Expected an array with minimum "
                          "length 1, but got an empty array instead.")]
    found: list[Violation] = []
    asked: set[object] = set()  # the call ids of the run of tool messages we are in
    answered: set[object] = set()
    for i, message in enumerate(messages):
        role = _get(message, "role")
        if role == "tool":
            call_id = _id(_get(message, "tool_call_id"))
            found += _openai_result(i, call_id, asked, answered)
            answered.add(call_id)
            continue
        asked, answered = set(), set()
        if role not in ("system", "developer", "user", "assistant"):
            found.append(_own("malformed_message", f"messages[{i}]", None,
                              f"role is {role!r}, which Chat Completions does not have"))
        elif role == "assistant":
            calls = _get(message, "tool_calls")
            if calls == []:
                found.append(Violation(
                    "empty_tool_calls", f"messages[{i}].tool_calls", None,
                    "tool_calls is there and empty; leave it out when there are no calls",
                    f"Invalid 'messages[{i}].tool_calls': empty array. Expected an array with "
                    "minimum length 1, but got an empty array instead."))
            calls = calls or []
            if not isinstance(calls, list):
                found.append(_own("malformed_tool_use", f"messages[{i}]", None,
                                  f"tool_calls is a {type(calls).__name__}, not a list"))
                calls = []
            if not calls and not _get(message, "content"):
                found.append(_own("empty_content", f"messages[{i}]", None,
                                  "an assistant message needs content or tool_calls"))
            asked = {_id(call.get("id")) for call in calls if isinstance(call, dict)}
            found += _openai_calls(messages, i, calls)
    return found


def _openai_calls(messages, i, calls):
    found, unanswered = [], []
    run = set()
    for later in messages[i + 1:]:
        if _get(later, "role") != "tool":
            break
        run.add(_id(_get(later, "tool_call_id")))
    for j, call in enumerate(calls):
        call = call if isinstance(call, dict) else {}
        where, call_id = f"messages[{i}].tool_calls[{j}]", _id(call.get("id"))
        function = call.get("function")
        function = function if isinstance(function, dict) else {}
        arguments = function.get("arguments")
        problem = _bad_call(call_id, function.get("name"))
        if problem is None and call.get("type") != "function":
            problem = f"its type is {call.get('type')!r}, not 'function'"
        if problem:
            found.append(_own("malformed_tool_use", where, call_id, problem))
        elif not isinstance(arguments, str):
            found.append(Violation(
                "malformed_tool_use", where, call_id,
                f"function.arguments is a {type(arguments).__name__}; the wire wants a JSON "
                "string", f"Invalid type for 'messages[{i}].tool_calls[{j}].function.arguments'"
                f": expected a string, but got {_json_kind(arguments)} instead."))
        elif not _is_json(arguments):
            found.append(_own("malformed_tool_use", where, call_id,
                              "function.arguments is not JSON"))
        elif call_id not in run:
            unanswered.append((where, call_id))
    ids = ", ".join(str(call_id) for _, call_id in unanswered)
    for where, call_id in unanswered:
        found.append(Violation(
            "orphaned_tool_use", where, call_id, "no tool message answers it",
            "An assistant message with 'tool_calls' must be followed by tool messages "
            "responding to each 'tool_call_id'. The following tool_call_ids did not have "
            f"response messages: {ids}"))
    return found


def _openai_result(i, call_id, asked, answered):
    where = f"messages[{i}]"
    if not asked:
        return [Violation("orphaned_tool_result", where, call_id,
                          "no assistant message with tool_calls comes directly before it",
                          "Invalid parameter: messages with role 'tool' must be a response to a "
                          "preceeding message with 'tool_calls'.")]
    if call_id not in asked:
        return [Violation("orphaned_tool_result", where, call_id,
                          "the tool_calls before it have no such id",
                          f"Invalid parameter: 'tool_call_id' of '{call_id}' not found in "
                          "'tool_calls' of previous message.")]
    if call_id in answered:
        return [_own("duplicate_tool_result", where, call_id,
                     "a second tool message for the same call")]
    return []


# -- shared -------------------------------------------------------------------------------------

def _own(code, where, call_id, detail):
    """A violation whose provider wording we do not know: the error is our own line."""
    return Violation(code, where, call_id, detail, _line(code, where, call_id, detail))


def _line(code, where, call_id, detail):
    """`orphaned_tool_use at messages[1].content[1] (c1): why`; no id when none is involved."""
    return f"{code} at {where}{'' if call_id is None else f' ({call_id})'}: {detail}"


def _bad_call(call_id, name):
    if not isinstance(call_id, str) or not call_id:
        return "it has no id, so nothing can answer it"
    if not isinstance(name, str) or not name:
        return "it names no tool"
    return None


def _id(value):
    """A call id as something a set can hold: a scalar as it is, anything else as its repr."""
    return value if isinstance(value, (str, int, float, bool, type(None))) else repr(value)


def _get(message, key):
    return message.get(key) if isinstance(message, dict) else None


def _blocks(message):
    """A turn's content as blocks: a bare string is one text block, as the providers read it."""
    content = _get(message, "content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b if isinstance(b, dict) else {} for b in content] if isinstance(content, list) else []


def _typed(blocks, kind):
    return [(j, block) for j, block in enumerate(blocks) if block.get("type") == kind]


def _ids(blocks, kind):
    return {_id(block.get("id")) for _, block in _typed(blocks, kind)}


def _is_json(text):
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _json_kind(value):
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    return "null" if value is None else f"a {type(value).__name__}"
