"""The model's words kept, under the user's name: the draft's own mistake.

Fails: test_each_reply_goes_on_the_record_as_the_assistants_own_message
"""


def run_agent(model, system, messages, prompt):
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, [])
    messages.append(user_message(text_of(reply)))  # the words are what matter, surely
    return reply
