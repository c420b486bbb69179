"""Only the words of the reply go on the record, as a plain string: it is not a message at
all, so the next request is refused.

Fails: test_the_next_request_shows_the_model_its_own_reply_as_its_own
"""


def run_agent(model, system, messages, prompt):
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, [])
    messages.append(text_of(reply))
    return reply
