"""A copy of the caller's list, "so as not to touch it": the caller's record never grows, and
the next call starts from the old one.

Fails: test_the_record_grows_in_the_callers_own_list
"""


def run_agent(model, system, messages, prompt):
    messages = messages + [user_message(prompt)]
    reply = model.complete(system, messages, [])
    messages = messages + [reply]
    return reply
