"""Sends a note in the assistant's role, since the user did not write it: now the harness's
words are something the model said, a claim just as false, and the marks are in a reply.

Fails: test_a_note_is_one_user_message_between_the_harness_marks
"""


def note_message(text):
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return {"role": "assistant", "content": [{"type": "text",
                                              "text": f"{NOTE_OPEN}\n{escaped}\n{NOTE_CLOSE}"}]}
