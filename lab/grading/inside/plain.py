"""Plain data, and stand-ins for everything else: what crosses the sandbox's boundary.

A check made on an object the student built can be fooled by the object (an __eq__ that always
says yes, a list subclass that hides items). A check made on JSON cannot: what the grader judges
is always decoded from JSON, so made of exact dicts, lists, strings, numbers, booleans and
None. A value crosses as data when JSON can hold it (a tuple arrives as a list, a dict subclass
as the dict its items make); anything else (a harness object, a generator, a function) stays on
its own side and crosses as a marker, {"$lab": side, "n": number}, that the other side turns
into a proxy: calling the proxy calls the object, over the channel, where it lives.

Both sides use a Codec: `mine` is the side whose objects it keeps in its table, `proxy(side,
number)` makes the stand-in for a marker; `marker_for` is the `default` of the JSON encoder.
"""

DEPTH = 40  # far deeper than any message; deeper means a structure that contains itself
MARK = "$lab"


class NotPlain(ValueError):
    """A value that cannot cross; the message says where."""


class Codec:
    def __init__(self, mine, proxy):
        self.mine, self._proxy = mine, proxy
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

    def marker_for(self, value):
        """JSON's `default`: the marker for anything JSON cannot hold as data (kept in this
        side's table), or, for a stand-in of the other side's object, that object's own."""
        proxied = getattr(value, "_lab_marker", None)
        if type(proxied) is dict:
            return proxied  # a stand-in for the other side's object goes home as its marker
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

