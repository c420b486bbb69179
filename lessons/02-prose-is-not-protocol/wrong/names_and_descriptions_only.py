"""Wrong: the model is told each tool's name and description, and not its parameters, so it
has to guess what arguments the tool takes and what they are called.
Fails: test_the_model_is_told_each_tools_name_description_and_parameters
"""


def tool_specs(tools):
    return [{"name": tool["name"], "description": tool["description"]} for tool in tools]
