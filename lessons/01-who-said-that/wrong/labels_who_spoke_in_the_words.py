"""Who spoke, written into the words as well as the role ("User: ..."): the record no longer
holds what the user typed, and a label in prose is one anybody can type.

Fails: test_the_users_words_go_on_the_record_exactly_as_typed
"""


def run_agent(model, system, messages, prompt):
    messages.append(user_message("User: " + prompt))
    reply = model.complete(system, messages, [])
    messages.append(reply)
    return reply
