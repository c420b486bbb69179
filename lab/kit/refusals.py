"""A provider's refusal, as the provider sends it: an HTTP status, headers and a JSON body.

A hosted model that will not answer says so in an HTTP response, and says it twice: in words
for a person (the body's message) and in structure for a program (the status, the body's error
type or code, headers such as retry-after). An adapter that keeps only the words has thrown the
program's half away. The builders here keep both: each returns a failed reply (an assistant
message with stop_reason "error", so it is an ordinary ScriptedModel script entry) that carries
the response it stands for under "response":

    {"wire": "anthropic" or "openai", "status": 529,
     "headers": {"request-id": "req_...", "retry-after": "20"},   # names in lower case
     "body": {...}}                                               # the provider's own JSON

and, in "error_message", the words an official SDK would have put in its exception's message
("Error code: 529 - " and the body), which is all a harness that matches text gets to read.

The shapes are the providers' own. Anthropic (platform.claude.com/docs/en/api/errors): a body
{"type": "error", "error": {"type": ..., "message": ...}, "request_id": ...} and a request-id
header. OpenAI (developers.openai.com/docs/guides/error-codes; the official SDK reads the body's
"error" object for its code, param and type): a body {"error": {"message", "type", "param",
"code"}} and an x-request-id header. What each status and type means is the lesson's to teach:
nothing here says which refusal is which kind.
"""

import hashlib
import json
from collections.abc import Mapping
from typing import Any, Literal

from .message_types import Refusal

Headers = Mapping[str, Any] | None

WIRES = ("anthropic", "openai")


def anthropic_error(status: int, error_type: str, message: str,
                    headers: Headers = None) -> Refusal:
    """Anthropic's refusal: HTTP `status`, its error type (e.g. "overloaded_error") and
    message, and any further response `headers` (e.g. {"retry-after": "20"})."""
    request_id = _request_id("anthropic", status, error_type, message)
    body = {"type": "error", "error": {"type": error_type, "message": message},
            "request_id": request_id}
    return _refused("anthropic", status, {"request-id": request_id, **_lower(headers)}, body)


def openai_error(status: int, message: str, error_type: str | None = None, code: str | None = None,
                 param: str | None = None, headers: Headers = None) -> Refusal:
    """OpenAI's refusal: HTTP `status`, the message, and the error object's type, code and
    param (each may be null, as OpenAI sends them), plus any further response `headers`."""
    request_id = _request_id("openai", status, error_type, code, message)
    body = {"error": {"message": message, "type": error_type, "param": param, "code": code}}
    return _refused("openai", status, {"x-request-id": request_id, **_lower(headers)}, body)


def too_long(tokens: int, window: int, wire: str = "openai") -> Refusal:
    """How `wire`'s provider refuses a request of `tokens` tokens to a model whose context
    window is `window`. OpenAI marks it with a code of its own, context_length_exceeded;
    Anthropic sends an ordinary invalid_request_error, and only its words say what it is."""
    if wire == "anthropic":
        return anthropic_error(400, "invalid_request_error",
                               f"prompt is too long: {tokens} tokens > {window} maximum")
    _check_wire(wire)
    return openai_error(400, f"This model's maximum context length is {window} tokens. However, "
                             f"your messages resulted in {tokens} tokens. Please reduce the "
                             "length of the messages.",
                        error_type="invalid_request_error", code="context_length_exceeded",
                        param="messages")


def _refused(wire: Literal["anthropic", "openai"], status: int, headers: dict[str, str],
             body: dict[str, Any]) -> Refusal:
    """The failed reply that carries this response."""
    words = f"Error code: {status} - {json.dumps(body)}"
    return {"role": "assistant", "content": [], "stop_reason": "error", "error_message": words,
            "response": {"wire": wire, "status": status, "headers": headers, "body": body}}


def _lower(headers: Headers) -> dict[str, str]:
    """`headers` with lower-case names, as HTTP/2 sends them; values as strings."""
    return {str(name).lower(): str(value) for name, value in dict(headers or {}).items()}


def _request_id(*parts: object) -> str:
    """A request id that depends only on what was refused, so a transcript is reproducible."""
    digest = hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:24]
    return f"req_{digest}"


def _check_wire(wire: str) -> None:
    if wire not in WIRES:
        raise ValueError(f"unknown wire {wire!r}: the lab speaks {' and '.join(WIRES)}")
