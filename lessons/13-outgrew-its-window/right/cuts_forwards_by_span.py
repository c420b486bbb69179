"""Another correct cut, written forwards: it walks the record once, keeping the user messages
it has seen since the last assistant message as candidates, and lets them go when a tool
result turns up before the next assistant message. The earliest cut that fits is found by
measuring each candidate's kept part with the harness's own view.
"""


def safe_cuts(messages):
    cuts, waiting = [], []
    for i, message in enumerate(messages):
        if message["role"] == "user":
            waiting.append(i)
        elif message["role"] == "toolResult":
            waiting = []  # a result here answers a call before these users: no cut at them
        elif message["role"] == "assistant" and not is_placeholder(message):
            cuts += waiting + [i]
            waiting = []
    return cuts + waiting


def choose_cut(messages, keep):
    summaries = [i for i, m in enumerate(messages) if m["role"] == "summary"]
    floor = messages[summaries[-1]]["first_kept"] if summaries else 0
    candidates = [c for c in safe_cuts(messages) if c >= floor]
    sizes = {c: sum(lab.tokens(m) for m in view_of(messages, c)) for c in candidates}
    fitting = [c for c in candidates if sizes[c] <= keep]
    return min(fitting) if fitting else None
