"""Sends the summary as a plain user message: the model's words about the conversation arrive
as something the user typed, with nothing to say that the harness wrote them.

Fails: test_the_view_of_a_compacted_record_is_the_marked_summary_then_the_kept_turns
"""


def summary_message(entry):
    return {"role": "user", "content": entry["content"]}
