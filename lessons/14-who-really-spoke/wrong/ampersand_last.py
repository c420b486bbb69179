"""Escapes "<" and ">" first and "&" after them, so the "&" of every "&lt;" it has just written
is escaped again: "<" goes out as "&amp;lt;", and reads back as "&lt;", not as "<".

Fails: test_a_note_reads_back_as_exactly_the_text_it_carries
"""


def note_message(text):
    escaped = text.replace("<", "&lt;").replace(">", "&gt;").replace("&", "&amp;")
    return {"role": "user", "content": f"{NOTE_OPEN}\n{escaped}\n{NOTE_CLOSE}"}
