"""lab-check --reset: the lesson's starter back in the student's harness file, their own kept.

The student's file is first copied, byte for byte, to a backup in the folder `.lab-check/backups/`
beside it, named `harness.py.bak-1` (or -2, -3, ...: the lowest number not taken, so no backup
is ever overwritten), and read back to check it. One folder holds them all, out of the way of
the student's own files (and of git: `.lab-check/` ignores itself). Only then is the starter put in its place, written
beside it and renamed over it, so that at no moment is there neither the student's work nor a
whole starter. A file that is the starter already is left alone, and no backup is made.
"""

import os
import pathlib
import stat
import tempfile

LARGEST = 64 * 1024 * 1024  # bytes: far past any student file; more is not backed up whole


def reset(target, starter):
    """Put the text of `starter` in `target`; a sentence saying what was done. OSError (and
    nothing changed) when a step cannot be taken."""
    target, fresh = pathlib.Path(target), pathlib.Path(starter).read_bytes()
    if not os.path.lexists(target):
        _replace(target, fresh)
        return f"wrote the starter to {target} (there was no file there)."
    if target.is_dir():
        raise IsADirectoryError(21, "it is a folder, not a file")
    mine = _read_plain(target)
    if mine == fresh:
        return f"{target} is the starter already: nothing changed."
    backup = _keep(target, mine)
    _replace(target, fresh)
    return f"{target} is the starter again. Your file is kept as {backup}."


def put(target, data):
    """Write the bytes `data` in `target` as `reset` writes a starter: the file that was there
    kept first as its first free backup. The backup's path, or None when there was no file or it
    held `data` already (then nothing is written). OSError, and nothing changed, when a step
    cannot be taken. lab-check --next writes the next lab's file this way."""
    target = pathlib.Path(target)
    if not os.path.lexists(target):
        _replace(target, data)
        return None
    if target.is_dir():
        raise IsADirectoryError(21, "it is a folder, not a file")
    mine = _read_plain(target)
    if mine == data:
        return None
    backup = _keep(target, mine)
    _replace(target, data)
    return backup


BACKUPS = (".lab-check", "backups")  # the folder, beside the student's file


def backup_name(target, number):
    return target.parent.joinpath(*BACKUPS, f"{target.name}.bak-{number}")


def _backups(target):
    """The backups folder beside `target`, made if need be (with `.lab-check`'s .gitignore);
    OSError when a part of its path is a link or not a folder."""
    folder = target.parent
    for part in BACKUPS:
        folder = folder / part
        if os.path.islink(folder) or (os.path.lexists(folder) and not folder.is_dir()):
            raise OSError(20, f"{folder} is not a plain folder: move it away")
        folder.mkdir(exist_ok=True)
    ignore = folder.parent / ".gitignore"
    if not os.path.lexists(ignore):
        ignore.write_text("# lab-check's own record of your gradings, and your backups\n*\n")
    return folder


def _keep(target, data):
    """Write `data` to the first free backup name of `target` and check it; its path."""
    _backups(target)
    number = 1
    while True:
        backup = backup_name(target, number)
        try:
            with open(backup, "xb") as copy:  # x: never over a backup that exists
                copy.write(data)
        except FileExistsError:
            number += 1
            continue
        if backup.read_bytes() != data:
            raise OSError(5, f"the backup {backup} does not read back as written")
        return backup


def _read_plain(target):
    """The bytes of the file `target` names (through a link, as the student sees it), if it is
    a regular file of a sane size: a pipe or a device (/dev/zero) would block or never end, and
    is refused with an OSError, so that nothing is changed."""
    descriptor = os.open(target, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(descriptor, "rb") as source:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            raise OSError(22, "it is not a plain file (a pipe or a device?): move it away")
        data = source.read(LARGEST + 1)
    if len(data) > LARGEST:
        raise OSError(27, f"it is larger than {LARGEST // 1024 // 1024} MiB, more than a student "
                          "file ever is: move it away")
    return data


def _replace(target, data):
    """Put `data` in `target` whole: written to a new file beside it (made here, so never
    through a link someone left under a fixed name), then renamed over it."""
    descriptor, part = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                        suffix=".reset")
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data)
        os.chmod(part, 0o666 & ~_umask())  # as a file made afresh would be
        os.replace(part, target)
    except BaseException:
        os.unlink(part)
        raise


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask
