"""Wrong: int_arg never complains: anything that is not an int is quietly replaced by the
default. The model asked for limit "all" and is given 2000 lines without a word, so it never
learns that its argument was ignored.
Fails: test_int_arg_gives_the_default_only_when_the_argument_is_left_out
"""


def int_arg(arguments, name, default):
    value = arguments.get(name)
    return value if isinstance(value, int) else default
