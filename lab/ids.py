"""How a scripted model names its tool calls: the way each provider does it.

A ScriptedModel gives an id to every call block of a reply that has none. `ids` decides what:
a function ids(n, k, call) -> str, where n counts this model's calls so far (1 for its first
call ever) and k is the call's place in its own reply (0 for the first). Three ways ship:

    numbered               c1, c2, c3, ... for the model's whole life (the default)
    restarting_ids(form)   numbering that starts again with every reply, as Kimi
                           ("functions.{name}:{k}") and Gemini through an OpenAI-style API
                           ("call_{k}") do: two replies can each hold a call_0
    empty_ids              every id "", as some servers send when they have none

Repeated and empty ids are legal in a reply and refused in a request (see lab.validate): a
harness has to make them unique before it sends a history back.
"""


def numbered(n, k, call):
    """c1, c2, ...: unique for the life of one model."""
    return f"c{n}"


def restarting_ids(form="call_{k}"):
    """Ids that start again in every reply: `form` with {k} (the call's place in its reply,
    from 0) and {name} (the tool's name) filled in."""
    def ids(n, k, call):
        return form.format(k=k, name=call["name"])
    ids.__name__ = f"restarting_ids({form!r})"
    return ids


def empty_ids(n, k, call):
    """No id at all: the empty string."""
    return ""
