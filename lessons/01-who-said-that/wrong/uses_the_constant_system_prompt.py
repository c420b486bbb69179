"""SYSTEM, the module's constant, sent whatever system prompt the caller passed.

Fails: test_the_system_prompt_sent_is_the_one_this_run_was_given
"""


def run_agent(model, system, messages, prompt):
    messages.append(user_message(prompt))
    reply = model.complete(SYSTEM, messages, [])
    messages.append(reply)
    return reply
