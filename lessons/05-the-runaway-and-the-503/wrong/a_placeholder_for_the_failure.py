"""Wrong: instead of leaving the empty failure out, the view fills it in with words, so that the
provider has something to accept. Those words go to the model as its own, and it never said them.
Fails: test_the_view_leaves_an_empty_failure_out
"""


def context_for_model(messages):
    return [dict(m, content=[{"type": "text", "text": f"(failed: {m['error_message']})"}])
            if is_empty_failure(m) else m for m in messages]
