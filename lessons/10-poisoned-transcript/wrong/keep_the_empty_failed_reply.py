"""Wrong: the view repairs the pairs but forgets the filter it had before this lesson, and
sends the empty failed reply that every provider refuses.
Fails: test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone
"""


def context_for_model(messages):
    return repair_tool_history(messages)
