"""Wrong: the repair is written into the record itself, so the record now claims a result for
a call whose tool may never have started, and loses the failure that explains the stall.
Fails: test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone
"""


def context_for_model(messages):
    messages[:] = repair_tool_history([m for m in messages if not is_empty_failure(m)])
    return list(messages)
