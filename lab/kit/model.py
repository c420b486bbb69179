"""A scripted model: canned replies in order, every request kept, and a provider's strictness.

It stands where a hosted model would, so it behaves like one where a harness can tell: it
refuses a malformed request with a 400 instead of answering it, and it hands out call ids.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from .ids import Ids, numbered
from .message_types import AssistantMessage, CallBlock, Message
from .messages import fail, forever
from .refusals import too_long
from .window import request_tokens
from .validate import validate
from .wire import validate_wire


def snapshot(value: Any) -> Any:
    """A deep copy of `value`. Plain dicts, lists and scalars, which is what a request holds,
    are copied directly (several times quicker than copy.deepcopy, which a lesson that runs a
    session at every byte of a file notices); anything else goes through copy.deepcopy."""
    kind = type(value)
    if kind is dict:
        return {key: snapshot(item) for key, item in value.items()}
    if kind is list:
        return [snapshot(item) for item in value]
    if kind in (str, int, float, bool, type(None)):
        return value
    return copy.deepcopy(value)


@dataclass(frozen=True)
class Request:
    """One request as the model received it. `messages` is a deep copy taken on arrival, so
    it stays what was sent whatever happens to the harness's lists afterwards."""
    system: str
    messages: list[Message]
    tools: list[dict[str, Any]]


def on_the_wire(wire: str, request: Request) -> list[Any]:
    """The messages a provider receives for `request`: Chat Completions carries the system
    prompt as a message of its own, first; the Messages API has a `system` field instead."""
    if wire == "openai" and request.system:
        return [{"role": "system", "content": request.system}, *request.messages]
    return request.messages


class ScriptExhausted(AssertionError):
    """The test asked the model for more replies than its script holds."""


class ScriptedModel:
    """ScriptedModel(script): answers each request with the next entry of `script`.

    An entry is an assistant message (see lab.reply, lab.say, lab.fail), or lab.forever(fn),
    which answers this and every later request with fn(request). Every request is kept, in
    order, in `.calls`, the refused ones too, and every answer it gave in `.replies`.

    A request that breaks a rule of lab.validate is refused as a provider refuses it: the
    answer is a failed reply with no content and error_message "400 invalid_request: " plus
    the first violation. A refusal does not use up a scripted reply.

    ScriptedModel(script, wire="anthropic") or wire="openai" stands for that provider: it
    takes requests already translated into the provider's format (lesson 16's adapters) and
    checks them with lab.validate(..., wire=...), as the provider would see them: on OpenAI's
    wire the system prompt, when there is one, travels as the first message (Anthropic's is a
    field of its own). A broken one is refused with the provider's own words: error_message
    "400 invalid_request_error: " plus the first violation's .error.
    Its replies are still the lab's messages, which is what an adapter hands back to a harness.

    ScriptedModel(script, window=N) has a context window of N tokens, counted as
    lab.request_tokens counts them (lesson 13): a request bigger than that is refused the way
    OpenAI refuses one, lab.too_long(tokens, N) (status 400, code context_length_exceeded), and
    an Anthropic-wire model the way Anthropic does. Size is checked first, as a provider does
    before it reads the messages, and a refusal uses up no scripted reply.

    Call blocks without an id are given c1, c2, ... in the order this model hands them out;
    an explicit id is kept. `ids` names them another way, as a provider does: see lab.ids
    (ScriptedModel(script, ids=lab.restarting_ids("call_{k}")) starts again every reply).
    Replies are copies: the script itself is never changed.
    """

    def __init__(self, script: Iterable[AssistantMessage | forever], ids: Ids = numbered,
                 wire: str | None = None, window: int | None = None) -> None:
        if wire is not None:
            validate_wire([], wire)  # an unknown wire is the test's mistake: say so now
        if window is not None and (isinstance(window, bool) or not isinstance(window, int)
                                   or window < 1):
            raise ValueError(f"window must be a whole number of tokens, 1 or more; got {window!r}")
        self.wire, self.window = wire, window
        self._script = list(script)
        self._next = 0
        self._ids_given = 0
        self._ids = ids
        self.calls: list[Request] = []
        self.replies: list[AssistantMessage] = []

    def complete(self, system: str, messages: Iterable[Message],
                 tools: Iterable[dict[str, Any]]) -> AssistantMessage:
        """The answer to one request: the next scripted reply, or a provider's refusal."""
        reply = self._reply(Request(system, snapshot(list(messages)), snapshot(list(tools))))
        self.replies.append(copy.deepcopy(reply))
        return reply

    def _reply(self, request: Request) -> AssistantMessage:
        self.calls.append(request)
        if self.window is not None:
            size = request_tokens(request.system, request.messages, request.tools)
            if size > self.window:
                return too_long(size, self.window, self.wire or "openai")
        if self.wire is not None:
            problems = validate(on_the_wire(self.wire, request), wire=self.wire)
            if problems:
                return fail("400 invalid_request_error: " + problems[0].error)
        elif broken := validate(request.messages):
            return fail("400 invalid_request: " + broken[0])
        return self._number_calls(copy.deepcopy(self._answer(request)))

    def _answer(self, request: Request) -> AssistantMessage:
        if self._next >= len(self._script):
            raise ScriptExhausted(
                f"ScriptedModel ran out of script: it holds {len(self._script)} "
                f"{'reply' if len(self._script) == 1 else 'replies'} and this is request "
                f"{len(self.calls)} that needed an answer. Add replies to the script, or end it "
                "with lab.forever(fn) to answer every later request.")
        entry = self._script[self._next]
        if isinstance(entry, forever):
            return entry.answer(request)
        self._next += 1
        return entry

    def _number_calls(self, message: AssistantMessage) -> AssistantMessage:
        unnamed = [block for block in message.get("content", [])
                   if block.get("type") == "toolCall" and block.get("id") is None]
        for k, block in enumerate(unnamed):
            self._ids_given += 1
            call = cast(CallBlock, block)  # its type is "toolCall", picked above
            call["id"] = self._ids(self._ids_given, k, call)
        return message
