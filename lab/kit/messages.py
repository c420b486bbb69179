"""Builders for the lab's messages: plain dicts, in the shapes the harness reads and writes.

A model's script and a hand-made record are both written with these, so a test reads like the
transcript it describes. Call ids are normally handed out by `ScriptedModel` when it replies;
a record built by hand, with no model in it, names its ids itself: `call(..., id="c1")`.
The types in the signatures (Message, Block, ...) are lab.kit.message_types's: plain dicts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .message_types import AssistantMessage, Block, CallBlock, TextBlock, ToolResultMessage
from .message_types import UserMessage


def text(words: str) -> TextBlock:
    """A text block, for an assistant message's content."""
    return {"type": "text", "text": words}


def call(name: str, arguments: Mapping[str, Any], id: str | None = None) -> CallBlock:
    """A toolCall block asking for tool `name` with `arguments`.

    With no `id`, the ScriptedModel that hands the reply out numbers it c1, c2, ...
    """
    return {"type": "toolCall", "id": id, "name": name, "arguments": dict(arguments)}


def user(words: str) -> UserMessage:
    """A message from the user: its content is a plain string."""
    return {"role": "user", "content": words}


def tool_result(for_call: CallBlock, content: str,
                is_error: bool = False) -> ToolResultMessage:
    """The toolResult message that answers `for_call`, a block made by `call`."""
    call_id = for_call.get("id")
    if call_id is None:
        raise ValueError(
            f"the call to {for_call.get('name')!r} has no id yet, so nothing can answer it. "
            "Ids are handed out by ScriptedModel; to build a record by hand, give one: "
            "call(name, arguments, id='c1').")
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": for_call["name"],
            "content": content, "is_error": is_error}


def reply(*blocks: Block) -> AssistantMessage:
    """An assistant message that finished normally: stop_reason "toolUse" if it asks for a
    tool, "stop" if it only talks."""
    asks = any(block["type"] == "toolCall" for block in blocks)
    return {"role": "assistant", "content": list(blocks),
            "stop_reason": "toolUse" if asks else "stop"}


def say(words: str) -> AssistantMessage:
    """A reply that is just words."""
    return reply(text(words))


def fail(error_message: str, *blocks: Block) -> AssistantMessage:
    """A reply that failed (stop_reason "error"), carrying whatever blocks got out before it
    did: none for a refused or dropped request, some for a stream that broke mid-way."""
    return {"role": "assistant", "content": list(blocks), "stop_reason": "error",
            "error_message": error_message}


class forever:
    """A script entry that answers this request and every later one with `answer(request)`.

    `request` has .system, .messages and .tools, as `ScriptedModel.calls` keeps them. Put it
    last in a script: nothing after it is ever reached.
    """

    def __init__(self, answer: Callable[[Any], AssistantMessage]) -> None:
        self.answer = answer

    def __repr__(self) -> str:
        return f"forever({getattr(self.answer, '__name__', self.answer)!r})"
