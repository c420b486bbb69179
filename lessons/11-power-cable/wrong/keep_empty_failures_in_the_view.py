"""Wrong: reads rule 6 as being about placeholders saved before the tools ran, so a failed reply
with nothing in it is no placeholder; and the view sends the record straight through the
repair, without lesson 5's drop. An empty failed reply (a 503 before any byte came) is then
kept in the view and opens a span of its own: the strict provider refuses the request, whose
assistant message has empty content.
Fails: test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone
"""


def is_placeholder(message):
    return (message["role"] == "assistant" and not tool_calls(message)
            and not text_of(message).strip() and message.get("stop_reason") != "error")


def context_for_model(messages):
    return repair_history(messages, is_read_only).messages
