"""How a scripted model names its tool calls: the way each provider does it.

A ScriptedModel gives an id to every call block of a reply that has none. `ids` decides what:
a function ids(n, k, call) -> str, where n counts this model's calls so far (1 for its first
call ever) and k is the call's place in its own reply (0 for the first). Four ways ship:

    numbered               c1, c2, c3, ... for the model's whole life (the default)
    restarting_ids(form)   numbering that starts again with every reply, as Kimi
                           ("functions.{name}:{k}") and Gemini through an OpenAI-style API
                           ("call_{k}") do: two replies can each hold a call_0
    empty_ids              every id "", as some servers send when they have none
    random_ids(seed)       random and unique, as most providers' are (the same seed, the same)

Repeated and empty ids are legal in a reply and refused in a request (see lab.validate): a
harness has to make them unique before it sends a history back.
"""

from __future__ import annotations

from collections.abc import Callable

from .message_types import CallBlock

# ids(n, k, call) -> the id: n counts the model's calls so far, k is the call's place in its reply.
Ids = Callable[[int, int, CallBlock], str]


def numbered(n: int, k: int, call: CallBlock) -> str:
    """c1, c2, ...: unique for the life of one model."""
    return f"c{n}"


def restarting_ids(form: str = "call_{k}") -> Ids:
    """Ids that start again in every reply: `form` with {k} (the call's place in its reply,
    from 0) and {name} (the tool's name) filled in."""
    def ids(n: int, k: int, call: CallBlock) -> str:
        return form.format(k=k, name=call["name"])
    ids.__name__ = f"restarting_ids({form!r})"
    return ids


def empty_ids(n: int, k: int, call: CallBlock) -> str:
    """No id at all: the empty string."""
    return ""


def random_ids(seed: int | str, form: str = "toolu_{}") -> Ids:
    """Ids as a provider gives them: random, unique for the life of one model, in no order
    (`form` with {} filled by twelve letters and digits). The same `seed`, the same ids."""
    import random
    import string

    rng, given = random.Random(seed), set[str]()
    alphabet = string.ascii_letters + string.digits

    def ids(n: int, k: int, call: CallBlock) -> str:
        while True:
            made = form.format("".join(rng.choice(alphabet) for _ in range(12)))
            if made not in given:
                given.add(made)
                return made
    ids.__name__ = f"random_ids({seed!r})"
    return ids
