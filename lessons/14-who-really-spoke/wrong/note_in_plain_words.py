"""Sends a note of the harness as plain words in the user's role, with no marks: a file the
user attached, a resume notice, a summary, all arrive as if the user had typed them.

Fails: test_a_note_is_one_user_message_between_the_harness_marks
"""


def note_message(text):
    return {"role": "user", "content": text}
