"""An assistant message rebuilt from the reply's words: the role is right, but the content is
now a string and the stop_reason is gone (and, from lesson 02 on, every tool call with it).

Fails: test_a_reply_is_kept_whole_as_it_came
"""


def run_agent(model, system, messages, prompt):
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, [])
    messages.append({"role": "assistant", "content": text_of(reply)})
    return reply
