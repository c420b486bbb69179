"""The record is kept, but each request carries only the newest prompt: the model, which
remembers nothing between calls, never hears what was said before.

Fails: test_every_request_carries_the_whole_conversation_so_far
"""


def run_agent(model, system, messages, prompt):
    question = user_message(prompt)
    messages.append(question)
    reply = model.complete(system, [question], [])
    messages.append(reply)
    return reply
