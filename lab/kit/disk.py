"""A disk that can lose power: files held in memory, and a power cable someone can trip over.

Lesson 11's harness appends its record to a file. To show what a crash leaves behind, the lab
needs a file whose writes stop at an exact byte, the same byte every time the test runs. A
`Disk` is an in-memory folder of byte files; `Disk(power_fails_after=N)` keeps the first N
bytes written to it (all files together) and no more. The write that would pass byte N stores
what fits and raises PowerCut: the program is dead at that line, as it would be if the lights
went out (lab.testkit's PowerCut, which kills a real process, is another thing). `power_off()` cuts it between two writes instead (after an event of a run, say).

`disk.open(name)` gives a file object that does what the harness does with a real file opened
with `open(path, "a+")`: write (always at the end), flush, seek, read, tell, truncate, close.
Its bytes are on the disk the moment `write` stores them: the stand-in has no cache, so flush
changes nothing here (on a real disk, flush and os.fsync are what put a line beyond a crash).

After a cut, `disk.restart()` is the machine coming back up: a new Disk holding exactly the
bytes that survived, with the power on for good. Every truncation is kept in `.truncations`,
so a test can tell a record that was only appended to from one that was rewritten.
"""

from __future__ import annotations

from collections.abc import Mapping


class PowerCut(Exception):
    """The power went off during a write. The disk is dead from then on: every later write
    raises this again, so a program that catches it and carries on writes nothing more, and a
    test counts nothing it does after the cut. An Exception, not a BaseException, so that a
    grader's sandbox, which hands the failure of any grader-side object back to the harness
    that called it, hands this one back too."""


class Disk:
    """Disk(files=None, power_fails_after=None): files (name -> text or bytes) held in memory.

    power_fails_after  how many bytes may still be written before the power goes; None: never
    .written           bytes written since the disk was made
    .dead              True once the power has gone
    .writes            (name, start, end) for every write, in order: where its bytes went
                       in the file (end - start is what reached it)
    .truncations       (name, size) for every truncate() of a file, in order
    """

    def __init__(self, files: Mapping[str, str | bytes] | None = None,
                 power_fails_after: int | None = None) -> None:
        if power_fails_after is not None and power_fails_after < 0:
            raise ValueError(f"power_fails_after must be 0 or more, not {power_fails_after}")
        self._files = {name: bytearray(data.encode() if isinstance(data, str) else data)
                       for name, data in (files or {}).items()}
        self.power_fails_after = power_fails_after
        self.written, self.dead = 0, False
        self.writes: list[tuple[str, int, int]] = []
        self.truncations: list[tuple[str, int]] = []

    def open(self, name: str) -> DiskFile:
        """The file `name`, for appending and reading (created empty if it is not there)."""
        self._files.setdefault(name, bytearray())
        return DiskFile(self, name)

    def exists(self, name: str) -> bool:
        """True when the disk holds a file called `name`."""
        return name in self._files

    def read_bytes(self, name: str) -> bytes:
        """The file's bytes, as many as reached the disk."""
        if name not in self._files:
            raise FileNotFoundError(f"No such file on the disk: {name} (it has "
                                    f"{', '.join(sorted(self._files)) or 'no files'})")
        return bytes(self._files[name])

    def read_text(self, name: str) -> str:
        """The file as text. A write cut in the middle of a character leaves half of it:
        those bytes read as U+FFFD, as a lenient reader of a real file would see them."""
        return self.read_bytes(name).decode("utf-8", errors="replace")

    def power_off(self) -> None:
        """Cut the power now, between writes: every later write raises PowerCut."""
        self.dead = True

    def restart(self) -> Disk:
        """The machine back on after a cut: a new Disk with the bytes that survived."""
        return Disk({name: bytes(data) for name, data in self._files.items()})

    def _append(self, name: str, data: bytes) -> None:
        if self.dead:
            raise PowerCut(f"the power is off: nothing more reaches {name}")
        room = (len(data) if self.power_fails_after is None
                else max(0, min(len(data), self.power_fails_after - self.written)))
        start = len(self._files[name])
        self._files[name] += data[:room]
        self.written += room
        self.writes.append((name, start, start + room))
        if room < len(data):
            self.dead = True
            raise PowerCut(f"the power went off after byte {self.power_fails_after} was "
                           f"written: {room} of the {len(data)} bytes of this write reached "
                           f"{name}")

    def _truncate(self, name: str, size: int) -> None:
        if self.dead:
            raise PowerCut(f"the power is off: {name} cannot be truncated")
        del self._files[name][size:]
        self.truncations.append((name, size))


class DiskFile:
    """One open file of a Disk, behaving like a text file opened with "a+": writes go to the
    end whatever the position; reads start at the position, which seek(0) moves to the
    start."""

    def __init__(self, disk: Disk, name: str) -> None:
        self._disk, self.name = disk, name
        self._position = len(disk._files[name])
        self.closed = False

    def write(self, text: str) -> int:
        """Append `text` at the end of the file; returns how many characters."""
        self._check()
        if not isinstance(text, str):
            raise TypeError(f"write() takes a str, not {type(text).__name__}")
        self._disk._append(self.name, text.encode())
        self._position = len(self._disk._files[self.name])
        return len(text)

    def flush(self) -> None:
        """Nothing to do: a write is on the disk the moment it returns."""
        self._check()

    def seek(self, offset: int, whence: int = 0) -> int:
        """Move the reading position (whence 0: from the start, 1: from here, 2: from the
        end); returns the new position."""
        self._check()
        size = len(self._disk._files[self.name])
        self._position = {0: offset, 2: size + offset}.get(whence, self._position + offset)
        return self._position

    def tell(self) -> int:
        """The reading position, in bytes from the start."""
        self._check()
        return self._position

    def read(self) -> str:
        """Everything from the position to the end, as text."""
        self._check()
        data = bytes(self._disk._files[self.name][self._position:])
        self._position += len(data)
        return data.decode("utf-8", errors="replace")

    def truncate(self, size: int | None = None) -> int:
        """Cut the file to `size` bytes (the position, by default); returns the size."""
        self._check()
        size = self._position if size is None else size
        self._disk._truncate(self.name, size)
        return size

    def close(self) -> None:
        """Close the file: any later use raises ValueError, as a real file does."""
        self.closed = True

    def __enter__(self) -> DiskFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _check(self) -> None:
        if self.closed:
            raise ValueError(f"I/O operation on closed file {self.name}")
