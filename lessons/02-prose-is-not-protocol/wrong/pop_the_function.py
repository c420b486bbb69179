"""Wrong: the function is taken out of each tool before the tools are sent, which leaves the
harness holding tools it can no longer run. What is sent must be new dicts; the tools stay
as they were.
Fails: test_specs_of_any_tools_are_exactly_what_the_model_may_see
"""


def tool_specs(tools):
    for tool in tools:
        tool.pop("execute", None)
    return tools
