"""A module-level history, so that callers need not pass one: every conversation run through
this module shares it.

Fails: test_two_conversations_never_share_a_record
"""

HISTORY = []


def run_agent(model, system, messages, prompt):
    HISTORY.append(user_message(prompt))
    reply = model.complete(system, HISTORY, [])
    HISTORY.append(reply)
    messages[:] = HISTORY  # and the caller gets to see it
    return reply
