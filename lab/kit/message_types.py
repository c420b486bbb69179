"""The lab's messages as types: what each dict holds, so a signature can say it and mypy check it.

A message is a plain dict, nothing more: these names only describe it (a TypedDict is a dict at
run time, and `lab.user("hi")` is exactly `{"role": "user", "content": "hi"}`). A record is the
list of messages a harness keeps, in order. The shapes:

    user          {"role": "user", "content": str}
    assistant     {"role": "assistant", "content": [block, ...],
                   "stop_reason": "stop" | "toolUse" | "error"}
                  and "error_message": str when stop_reason is "error"
    tool result   {"role": "toolResult", "tool_call_id": str, "tool_name": str,
                   "content": str, "is_error": bool}
    text block    {"type": "text", "text": str}
    call block    {"type": "toolCall", "id": str, "name": str, "arguments": dict}

A refusal built by lab.anthropic_error or lab.openai_error is a failed assistant message with
one more key, "response": the status, headers and body the provider sent (Refusal below).

A call block made by `lab.call` with no id has None there until the ScriptedModel that hands the
reply out numbers it (c1, c2, ...); a record a harness keeps has every id filled in.
"""

from typing import Any, Literal, TypedDict


class TextBlock(TypedDict):
    """Words in an assistant message: {"type": "text", "text": str}."""
    type: Literal["text"]
    text: str


class CallBlock(TypedDict):
    """An assistant's request to run tool `name` with `arguments`, under call id `id`."""
    type: Literal["toolCall"]
    id: str | None
    name: str
    arguments: dict[str, Any]


Block = TextBlock | CallBlock
StopReason = Literal["stop", "toolUse", "error"]


class UserMessage(TypedDict):
    """What the user typed: {"role": "user", "content": str}."""
    role: Literal["user"]
    content: str


class _AssistantFields(TypedDict):
    role: Literal["assistant"]
    content: list[Block]
    stop_reason: StopReason


class AssistantMessage(_AssistantFields, total=False):
    """A model's reply: its blocks and why it stopped; "error_message" only when it failed."""
    error_message: str


class ToolResultMessage(TypedDict):
    """What a tool gave back for the call `tool_call_id` (is_error when it failed)."""
    role: Literal["toolResult"]
    tool_call_id: str
    tool_name: str
    content: str
    is_error: bool


Message = UserMessage | AssistantMessage | ToolResultMessage
Record = list[Message]


class ProviderResponse(TypedDict):
    """An HTTP refusal as a provider sent it (lab.kit.refusals): headers' names in lower case,
    the body the provider's own JSON."""
    wire: Literal["anthropic", "openai"]
    status: int
    headers: dict[str, str]
    body: dict[str, Any]


class Refusal(AssistantMessage):
    """A failed reply that carries the provider's response it stands for (lesson 12)."""
    response: ProviderResponse
