"""Right, written another way: the view is built message by message, and an empty failure is
told by what it lacks, read with .get so that any message can be asked."""


def is_empty_failure(message):
    if message.get("role") != "assistant" or message.get("stop_reason") != "error":
        return False
    return len(message.get("content") or []) == 0


def context_for_model(messages):
    view = []
    for message in messages:
        if is_empty_failure(message):
            continue  # kept in the record; there is nothing in it to send
        view.append(message)
    return view
