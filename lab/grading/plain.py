"""Plain data: the only thing that crosses from the student's process to the grader's.

A check made on an object the student built can be fooled by the object (an __eq__ that always
says yes, a list subclass that hides items). A check made on JSON built from exact built-in
types cannot, so everything the grader judges is turned into that first, in the child.
"""

SCALARS = (str, int, float, bool, type(None))
DEPTH = 40  # far deeper than any message; deeper means a structure that contains itself


class NotPlain(ValueError):
    """A value that is not made of exact built-in types; the message says where."""


def to_plain(value, where="the value", depth=0):
    """`value` as JSON-ready data, or NotPlain naming the first part that is not.

    Only exact dicts with string keys, lists and tuples (which become lists), strings, whole
    numbers, floats, booleans and None are accepted; subclasses of any of them are not.
    """
    kind = type(value)
    if kind in SCALARS:
        return value
    if depth >= DEPTH:
        raise NotPlain(f"{where} is nested more than {DEPTH} deep (does it contain itself?)")
    if kind is list or kind is tuple:
        return [to_plain(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
    if kind is dict:
        plain = {}
        for key, item in value.items():
            if type(key) is not str:
                raise NotPlain(f"{where} has a key that is a {type(key).__name__}, not a string")
            plain[key] = to_plain(item, f"{where}[{key!r}]", depth + 1)
        return plain
    raise NotPlain(f"{where} is a {kind.__module__}.{kind.__qualname__}, where plain data "
                   "(a dict, list, str, number, bool or None) was expected")
