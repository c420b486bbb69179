"""Another correct answer: the request is built first, as the record plus the new prompt, and
both messages go on the record together once the model has answered. text_of walks the
blocks with a loop."""


def text_of(message):
    words = ""
    for block in message["content"]:
        if block.get("type") == "text":
            words += block["text"]
    return words


def run_agent(model, system, messages, prompt):
    question = user_message(prompt)
    reply = model.complete(system, [*messages, question], [])
    messages += [question, reply]  # += on a list extends it in place: the caller's record grows
    return reply
