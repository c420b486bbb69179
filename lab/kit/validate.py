"""The strict provider: the shape rules a hosted API enforces on a request, checked locally.

`validate(messages)` returns every violation it finds, in message order, as sentences a
provider might put after "400 invalid_request: ". An empty list means the request is accepted.

The rules are about pairing, not truth: every tool call is answered by exactly one toolResult,
in the run of results directly after the assistant message that asked, in the order of the
calls; no result answers a call that was never made; no call id is empty or used twice; no
assistant message is empty. Two user messages in a row are fine, and so is a failed reply that got some
content out before it failed. One walk over the list, so it costs little beside a model call.

`validate(request, wire="anthropic")` or `wire="openai"` checks a request already translated
into a provider's format instead (lesson 16), and returns lab.wire.Violation objects: see
lab/kit/wire.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, overload

from .message_types import Message
from .wire import Violation, WireMessage, validate_wire

ROLES = ("user", "assistant", "toolResult")


# What comes back depends on `wire`: sentences for the lab's messages, Violations on a wire.
@overload
def validate(messages: Iterable[Message], wire: None = None) -> list[str]: ...
@overload
def validate(messages: Iterable[WireMessage], wire: str) -> list[Violation]: ...


def validate(messages: Iterable[Message] | Iterable[WireMessage],
             wire: str | None = None) -> list[str] | list[Violation]:
    """Every rule `messages` breaks, in message order; [] when a provider would take it.
    With a `wire`, `messages` is a provider's request and the rules are that provider's."""
    if wire is not None:
        return validate_wire(messages, wire)
    # whatever the harness sent: each message is looked at before it is trusted
    sent: list[Any] = messages if isinstance(messages, list) else list(messages)
    problems: list[str] = []
    owner_of: dict[object, int] = {}  # call id -> index of the newest assistant that asked for it
    answered: set[tuple[int, object]] = set()  # (assistant index, call id): calls answered
    run_owner: int | None = None  # the assistant whose run of results we are in, if any
    run_order: dict[object, int] = {}  # its call ids -> their place in its call order
    run_last = -1        # the place of the newest in-order result of that run
    for i, message in enumerate(sent):
        role = message.get("role") if isinstance(message, dict) else None
        if role == "assistant":
            calls = _call_ids(message)
            if not message.get("content"):
                problems.append(f"messages[{i}]: assistant message has empty content")
            answered_here = _ids_in_run_after(sent, i) if calls else set()
            for call_id in calls:
                if not isinstance(call_id, str) or not call_id.strip():
                    problems.append(f"messages[{i}]: toolCall id {call_id!r} is empty")
                if call_id in owner_of:
                    problems.append(
                        f"messages[{i}]: toolCall id {call_id} is used twice in this request")
                owner_of[call_id] = i
                if call_id not in answered_here:
                    problems.append(f"messages[{i}]: toolCall {call_id} has no toolResult")
            run_owner, run_last = i, -1
            run_order = {call_id: place for place, call_id in enumerate(calls)}
        elif role == "toolResult":
            call_id = message.get("tool_call_id")
            owner = owner_of.get(call_id)
            if owner is None:
                problems.append(f"messages[{i}]: toolResult {call_id} has no toolCall before it")
            elif (owner, call_id) in answered:
                problems.append(f"messages[{i}]: toolResult {call_id} is a second result for "
                                "a call that already has one")
            else:
                answered.add((owner, call_id))
                if owner == run_owner and run_order[call_id] > run_last:
                    run_last = run_order[call_id]
                else:
                    problems.append(f"messages[{i}]: toolResult {call_id} must directly follow "
                                    "its assistant message, in call order")
        else:
            run_owner = None
            if role != "user":
                problems.append(f"messages[{i}]: not a message (expected a dict whose role is "
                                f"user, assistant or toolResult; got {_describe(message)})")
    return problems


def _call_ids(message: dict[str, Any]) -> list[object]:
    """The ids of the toolCall blocks of an assistant message, in call order."""
    content = message.get("content")
    if not isinstance(content, list):
        return []
    return [block.get("id") for block in content
            if isinstance(block, dict) and block.get("type") == "toolCall"]


def _ids_in_run_after(messages: list[Any], i: int) -> set[object]:
    """The call ids answered in the run of toolResult messages directly after messages[i]."""
    ids: set[object] = set()
    for j in range(i + 1, len(messages)):
        message = messages[j]
        if not (isinstance(message, dict) and message.get("role") == "toolResult"):
            break
        ids.add(message.get("tool_call_id"))
    return ids


def _describe(value: object) -> str:
    if isinstance(value, dict):
        return f"a dict with role {value.get('role')!r}"
    return f"a {type(value).__name__}"
