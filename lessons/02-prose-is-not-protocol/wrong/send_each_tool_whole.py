"""Wrong: each tool is sent as a copy of the whole dict, its execute function included. A
function is not JSON, and the model has no use for it: only the harness runs a tool.
Fails: test_the_model_is_sent_no_function
"""


def tool_specs(tools):
    return [dict(tool) for tool in tools]
