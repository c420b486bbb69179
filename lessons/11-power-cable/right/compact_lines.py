"""Another correct record on disk: compact JSON that keeps non-ASCII characters as they are
(so a power cut can split one in half), and a loader that reads line by line with partition.
The lesson's tests must not care how a line is spelled, only that each is one whole message.
"""


def save_message(file, message):
    file.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
    file.flush()


def load_record(text):
    messages, set_aside, rest = [], [], text
    while rest:
        line, _, rest = rest.partition("\n")
        if not line:
            continue
        try:
            parsed = json.loads(line)
        except json.JSONDecodeError:
            parsed = None
        (messages if type(parsed) is dict else set_aside).append(parsed if type(parsed) is dict
                                                                 else line)
    return Loaded(messages, set_aside)
