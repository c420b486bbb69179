"""Plain data, and stand-ins for everything else: what crosses the sandbox's boundary.

A check made on an object the student built can be fooled by the object (an __eq__ that always
says yes, a list subclass that hides items). A check made on JSON built from exact built-in
types cannot. So a value crosses as itself only when it is made of exact dicts with string
keys, lists, tuples (which arrive as lists), strings, whole numbers, floats, booleans and None.
Anything else (a harness object, a generator, a function, a subclass of dict) stays on its own
side and crosses as a marker, {"$lab": side, "n": number}, that the other side turns into a
proxy: calling the proxy calls the object, over the channel, where it lives.

Both sides use a Codec: `mine` is the side whose objects it keeps in its table, `proxy(side,
number)` makes the stand-in for a marker. A dict whose own keys include "$lab" cannot be sent.
"""

SCALARS = (str, int, float, bool, type(None))
DEPTH = 40  # far deeper than any message; deeper means a structure that contains itself
MARK = "$lab"


class NotPlain(ValueError):
    """A value that cannot cross; the message says where."""


class Codec:
    def __init__(self, mine, proxy, keep_objects=True):
        self.mine, self._proxy, self._keep = mine, proxy, keep_objects
        self._objects, self._numbers = [], {}

    def kept(self, number):
        """The object of this side's table that marker `number` stands for."""
        if type(number) is not int or not 0 <= number < len(self._objects):
            raise NotPlain(f"no object numbered {number!r} was handed over")
        return self._objects[number]

    def keep(self, value):
        """`value`'s number in this side's table, adding it if new."""
        number = self._numbers.get(id(value))
        if number is None or self._objects[number] is not value:
            number = len(self._objects)
            self._objects.append(value)
            self._numbers[id(value)] = number
        return number

    def encode(self, value, where="the value", depth=0):
        """`value` as JSON-ready data, objects as markers; NotPlain when it cannot cross."""
        kind = type(value)
        if kind in SCALARS:
            return value
        if depth >= DEPTH:
            raise NotPlain(f"{where} is nested more than {DEPTH} deep (does it contain itself?)")
        if kind is list or kind is tuple:
            return [self.encode(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
        if kind is dict:
            plain = {}
            for key, item in value.items():
                if type(key) is not str:
                    if not self._keep:
                        raise NotPlain(f"{where} has a key that is a {type(key).__name__}, "
                                       "not a string")
                    return self._marker(value)
                if key == MARK:
                    raise NotPlain(f"{where} has the key {MARK!r}, which the lab keeps for itself")
                plain[key] = self.encode(item, f"{where}[{key!r}]", depth + 1)
            return plain
        proxied = getattr(value, "_lab_marker", None)
        if proxied is not None and type(proxied) is dict:
            return proxied  # a stand-in for the other side's object goes home as its marker
        if not self._keep:
            raise NotPlain(f"{where} is a {kind.__module__}.{kind.__qualname__}, where plain "
                           "data (a dict, list, str, number, bool or None) was expected")
        return self._marker(value)

    def _marker(self, value):
        return {MARK: self.mine, "n": self.keep(value)}

    def decode(self, value, depth=0):
        """JSON data from the other side as values here: markers become proxies (or, for this
        side's own objects, the objects themselves)."""
        if depth >= DEPTH + 2:
            raise NotPlain(f"data nested more than {DEPTH} deep")
        kind = type(value)
        if kind is list:
            return [self.decode(item, depth + 1) for item in value]
        if kind is dict:
            if MARK in value:
                side, number = value.get(MARK), value.get("n")
                if set(value) != {MARK, "n"} or type(number) is not int:
                    raise NotPlain(f"a malformed marker {str(value)[:80]}")
                return self.kept(number) if side == self.mine else self._proxy(side, number)
            return {key: self.decode(item, depth + 1) for key, item in value.items()}
        return value


def to_plain(value, where="the value"):
    """`value` as plain data, or NotPlain naming the first part that is not (no markers)."""
    return Codec("none", None, keep_objects=False).encode(value, where)
