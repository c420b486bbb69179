"""Neutralises only the two marks themselves, by spelling them with a space: a note can no
longer be closed by "</harness-note>", but every other "<" and ">" is left, and what the note
carries no longer reads back as the text it was given.

Fails: test_nothing_a_note_quotes_can_close_it_or_open_another
"""


def note_message(text):
    for mark in (NOTE_OPEN, NOTE_CLOSE):
        text = text.replace(mark, mark.replace("<", "< "))
    return {"role": "user", "content": f"{NOTE_OPEN}\n{text}\n{NOTE_CLOSE}"}
