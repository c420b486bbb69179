"""Wrong: str_arg is lenient and turns whatever came into a string. A number where a path goes
becomes a file name the model never wrote ("5"), None becomes "None", and a missing argument
is read as a file called None, instead of the model being told what it got wrong.
Fails: test_str_arg_refuses_a_value_that_is_not_a_string
"""


def str_arg(arguments, name):
    value = arguments.get(name)
    return value if isinstance(value, str) else str(value)
