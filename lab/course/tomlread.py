"""The one place that picks a TOML reader: the standard library's tomllib from Python 3.11 on,
and on 3.10 the tomli package it was taken from (a dependency there only, by a marker in
pyproject.toml). Everything that reads TOML imports `loads` from here."""

import sys

if sys.version_info >= (3, 11):
    from tomllib import TOMLDecodeError, loads  # novermin (only reached on 3.11 and later)
else:
    from tomli import TOMLDecodeError, loads

__all__ = ["TOMLDecodeError", "loads"]
