"""The instructions stored as the first message of the record, role "system", and passed
beside the messages as well: sent twice, and refused by a provider that takes no system role
in its messages.

Fails: test_the_system_prompt_is_never_stored_in_the_record
"""


def run_agent(model, system, messages, prompt):
    if not messages:
        messages.append({"role": "system", "content": system})
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, [])
    messages.append(reply)
    return reply
