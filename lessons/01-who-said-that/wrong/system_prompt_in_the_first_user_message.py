"""The instructions pasted in front of the user's first words: a provider accepts it, and
every request carries the system prompt twice, once beside the messages and once inside them.

Fails: test_the_system_prompt_goes_beside_the_messages_on_every_request
"""


def run_agent(model, system, messages, prompt):
    if not messages:
        prompt = system + "\n\n" + prompt
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, [])
    messages.append(reply)
    return reply
