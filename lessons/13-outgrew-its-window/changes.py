"""A small agent harness: lesson 13, "the conversation that outgrew its window".

Read it top to bottom: messages, tools, the loop and what it sends, the repair every request
goes through, compaction, the record on disk, refusals and retries, the harness that owns the
transcript, and two frontends. Everything is plain dicts and generators; nothing here talks to
a network, so the lab's scripted model can stand in for a real one. What is new since lesson
12: a conversation bigger than the model's context window is sent as a summary of its start,
which the model writes through this harness's own loop, and its newest turns word for word;
the summary is kept in the record as the harness's, and the record keeps every message.
"""

import lab
from types import SimpleNamespace


# == the view ==

def context_for_model(messages):
    """The view: what one request sends, built afresh from the record each time.

    The record keeps everything that happened, and since lesson 13 every summary the harness
    wrote of it too. With no summary in it, the view is lesson 12's: the record with lesson 5's
    drop and the repair applied (view_of). With one, the view starts with the newest summary,
    sent as summary_message shows it, followed by view_of the record from that summary's
    first_kept on; older messages and the other summaries stay in the record, unsent. A new
    list comes back; the record and its messages are not touched.
    """
    # --- your code ---
    at = latest_summary(messages)
    if at is None:
        return view_of(messages)
    return [summary_message(messages[at])] + view_of(messages, messages[at]["first_kept"])
    # --- starter ---
    #| # Lesson 12's view. Today's change: when the record holds a summary, send the newest
    #| # one first (latest_summary, summary_message), then view_of(messages, its first_kept).
    #| return repaired_view(messages).messages
    # --- end ---


# == compaction ==
# A conversation bigger than the model's window is sent as one summary of its start and its
# newest turns word for word. The summary is written into the record, as the harness's own;
# the record keeps every message, and only the view gets shorter.

SUMMARY_HEADER = ("[A summary written by the harness, not by the user: what the model wrote, "
                  "when asked, about the earlier part of this conversation, which this request "
                  "leaves out.]")
SUMMARISE = ("Summarise the conversation so far, for yourself to carry on from: the user's "
             "task in their own words, what has been done and found, and what is left to do. "
             "Keep file names, commands and error messages exactly. Reply with the summary "
             "alone.")


def is_summary(message):
    """A summary the harness wrote into the record: {"role": "summary", "content": its text,
    "first_kept": the index in the record of the first message it does not stand for}. It is
    the harness's, so it is never sent as it is stored: see summary_message."""
    return message["role"] == "summary"


def latest_summary(messages):
    """The index of the newest summary in the record `messages`, or None when there is none."""
    return next((i for i in range(len(messages) - 1, -1, -1) if is_summary(messages[i])), None)


def view_of(messages, start=0, end=None):
    """Lesson 12's view of the record's messages[start:end], its summaries left out."""
    return repaired_view([m for m in messages[start:end] if not is_summary(m)]).messages


def summary_message(entry):
    """How a summary kept in the record is sent: in the user's role, the only one a provider
    has for words that are not the model's, and marked, first thing, as the harness's."""
    return {"role": "user", "content": f"{SUMMARY_HEADER}\n\n{entry['content']}"}


def summary_entry(text, first_kept):
    """The record's summary of everything before index `first_kept`, in the model's words."""
    return {"role": "summary", "content": text, "first_kept": first_kept}


def does_not_fit(why):
    """The failed reply for a request the harness will not send because it is over the
    window: lesson 5's error message, saying why, with lesson 12's structured kind, too_long.
    No provider was asked, so there is no status and no attempt."""
    return dict(error_message(f"Not sent, too long for the model's window: {why}."),
                failure={"kind": "too_long", "status": None, "attempts": 0})


def safe_cuts(messages):
    """Every index at which the record `messages` may be cut, in order: the part kept from
    there on holds every result of each call it holds, and no result of a call before it.

    That is true at an assistant message that opens a span (lesson 11: not a placeholder), and
    at a user message after which only user messages come before the next such assistant
    message, or the end: a tool result there would answer a call made before the cut. It is
    never true at a tool result, a summary or a placeholder.
    """
    # --- your code ---
    cuts, result_ahead = [], False
    for i in range(len(messages) - 1, -1, -1):  # from the end: what comes after i is known
        role = messages[i]["role"]
        if role == "toolResult":
            result_ahead = True
        elif role == "assistant" and not is_placeholder(messages[i]):
            cuts.append(i)
            result_ahead = False  # a result after it is its own, or an orphan of its span
        elif role == "user" and not result_ahead:
            cuts.append(i)
    return cuts[::-1]
    # --- starter ---
    #| raise NotImplementedError("safe_cuts is yours to write in lesson 13")
    # --- end ---


def choose_cut(messages, keep):
    """Where to cut the record `messages` so that its newest part, sent word for word, takes
    at most `keep` tokens: the earliest safe cut, not before the newest summary's first_kept,
    whose view_of(messages, cut) counts at most `keep`, each message counted by lab.tokens.
    None when there is none: not even the newest turn fits, or the record has no safe cut.
    The earliest such cut keeps the most, and a later request cuts at the same place until
    the next summary, so the start of what is sent does not move."""
    # --- your code ---
    start = 0 if (at := latest_summary(messages)) is None else messages[at]["first_kept"]
    for cut in safe_cuts(messages):
        if cut >= start and sum(map(lab.tokens, view_of(messages, cut))) <= keep:
            return cut
    return None
    # --- starter ---
    #| raise NotImplementedError("choose_cut is yours to write in lesson 13")
    # --- end ---
