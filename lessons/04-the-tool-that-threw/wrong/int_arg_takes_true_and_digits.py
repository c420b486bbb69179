"""Wrong: int_arg converts what it can: "12" becomes 12, 2.5 becomes 2, and True, which Python
counts as an int, goes through as 1. Each is a number the model did not write, used as if it
had.
Fails: test_int_arg_refuses_true_and_strings_of_digits
"""


def int_arg(arguments, name, default):
    value = arguments.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an integer") from None
