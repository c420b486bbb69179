"""Wrong: the view leaves out every reply that failed, words and all. An empty failure has to
go; one that got "Writing the file." out loses the only account the model has of what it was
doing when the connection broke.
Fails: test_a_failed_reply_that_got_words_out_stays_in_the_view
"""


def is_empty_failure(message):
    return message["role"] == "assistant" and message.get("stop_reason") == "error"
