"""The lab's token counter: how big a request is, the way the lab's provider measures it.

A hosted model measures a request in tokens, with a tokenizer of its own, and refuses one that
is bigger than its context window. The lab has no tokenizer. It counts the way pi-mono's
compaction estimates (characters over four): one token for every four bytes, rounded up, of
the value written as compact JSON (keys sorted, non-ASCII characters kept as UTF-8). That is
small enough to work out by hand, the same on every machine, and roughly what English text
costs on a real model.

    tokens(value)                          any JSON value: a message, a string, a tool's spec
    request_tokens(system, messages, tools)  a whole request: the system prompt, each message
                                           and each tool counted on its own, and added up

A request is counted part by part, so the count of a list of messages is the sum of the
counts of its messages, and a harness can tell what dropping one message saves.
Our simplification: a real provider also counts the reply it is about to write against the
window; the lab counts only what is sent.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from .message_types import Message

BYTES_PER_TOKEN = 4


def tokens(value: Any) -> int:
    """How many tokens `value` (anything json.dumps can write) counts for: its compact JSON,
    keys sorted, in UTF-8 bytes, divided by four and rounded up. "" counts 1 (it is `""`)."""
    written = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return -(-len(written.encode("utf-8")) // BYTES_PER_TOKEN)


def request_tokens(system: str, messages: Iterable[Message],
                   tools: Iterable[dict[str, Any]] = ()) -> int:
    """How many tokens a request counts for: the system prompt, every message and every tool
    (as the model is shown it: name, description, parameters), each counted with tokens()."""
    return tokens(system) + sum(tokens(m) for m in messages) + sum(tokens(t) for t in tools)
