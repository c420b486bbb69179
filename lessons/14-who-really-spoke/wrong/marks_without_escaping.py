"""Puts the marks around the note's text but leaves the text as it is: a file that holds the
closing mark ends the note early, and whatever follows it stands in the user's role unmarked.

Fails: test_nothing_a_note_quotes_can_close_it_or_open_another
"""


def note_message(text):
    return {"role": "user", "content": f"{NOTE_OPEN}\n{text}\n{NOTE_CLOSE}"}
