"""Transcripts as text: `shape` for one line a transcript, `show` for one line a message.

LEGEND explains the shape notation in one line; lab_check prints it under a failing report,
and the README shows it, word for word.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from .message_types import Message

CLIP = 72  # the longest string `show` prints whole, unless told otherwise
LEGEND = ("shapes: U user · A assistant · A[c1] asks for call c1 · (error) failed · "
          "R(c1) result of c1 · messages[0] is the first")


def shape(messages: Iterable[Message | Mapping[str, Any]]) -> str:
    """One token a message, joined by single spaces: U for a user message, A for an assistant
    message (A[c1,c2] when it asks for tools, with (error) after it when it failed), and R(c1)
    for the result of call c1. `U A[c1] R(c1) A` is one tool call, answered, then a reply."""
    return " ".join(tokens(messages))


def tokens(messages: Iterable[Message | Mapping[str, Any]]) -> list[str]:
    """The shape's tokens, one a message: `shape` is them joined by single spaces."""
    return [_token(message) for message in messages]


def _token(message):
    role = message.get("role") if isinstance(message, dict) else None
    if role == "user":
        return "U"
    if role == "toolResult":
        return f"R({message.get('tool_call_id')})"
    if role == "assistant":
        ids = [str(block.get("id")) for block in _blocks(message) if block.get("type") == "toolCall"]
        calls = f"[{','.join(ids)}]" if ids else ""
        return "A" + calls + ("(error)" if message.get("stop_reason") == "error" else "")
    if role == "summary":  # lesson 13: a summary the harness wrote, kept in the record
        return "S"
    if role == "note":  # lesson 14: a note the harness wrote for the model, kept in the record
        return "N"
    return "?"


def show(messages: Iterable[Message | Mapping[str, Any]], clip: int | None = CLIP) -> str:
    """One line a message, for reading a transcript in a terminal or a notebook.

        user -> "Run the tests."
        assistant -> "Running them." + toolCall c1 bash({"command": "pytest"})
        toolResult c1 -> "3 passed"

    Strings are JSON-quoted, so a newline shows as \\n. A string longer than `clip` characters
    is cut there and followed by how much was left out, e.g. `"Tool call…" (+98 chars)`;
    clip=None shows everything. A failed reply ends with its error, a failed result with
    [is_error].
    """
    return "\n".join(_line(message, clip) for message in messages)


def _line(message, clip):
    role = message.get("role") if isinstance(message, dict) else None
    if role == "user":
        return f"user -> {_quote(message.get('content'), clip)}"
    if role == "toolResult":
        flag = "  [is_error]" if message.get("is_error") else ""
        return (f"toolResult {message.get('tool_call_id')} -> "
                f"{_quote(message.get('content'), clip)}{flag}")
    if role == "assistant":
        parts = [_block(block, clip) for block in _blocks(message)]
        line = "assistant -> " + (" + ".join(parts) if parts else "(nothing)")
        if message.get("stop_reason") == "error":
            line += f"  [error: {message.get('error_message')}]"
        return line
    if role in ("summary", "note"):
        return f"{role} -> {_quote(message.get('content'), clip)}"
    return f"not a message: {message!r}"


def _block(block, clip):
    if block.get("type") == "text":
        return _quote(block.get("text"), clip)
    if block.get("type") == "toolCall":
        arguments = _clip(json.dumps(block.get("arguments"), ensure_ascii=False), clip)
        return f"toolCall {block.get('id')} {block.get('name')}({arguments})"
    return f"[{block.get('type')} block]"


def _quote(value, clip):
    if not isinstance(value, str):
        return repr(value)
    if clip is not None and len(value) > clip:
        return f"{json.dumps(value[:clip], ensure_ascii=False)[:-1]}…\" (+{len(value) - clip} chars)"
    return json.dumps(value, ensure_ascii=False)


def _clip(rendered, clip):
    if clip is not None and len(rendered) > clip:
        return f"{rendered[:clip]}… (+{len(rendered) - clip} chars)"
    return rendered


def _blocks(message):
    content = message.get("content")
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
