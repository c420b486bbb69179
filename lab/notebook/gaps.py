"""Whether a lesson's gap is filled yet, for the examples of a notebook.

`filled(harness, *names, where=...)` is True when the harness module defines every one of
`names`. When it does not, it prints one line saying which names are missing and where to
write them, and returns False, so an example that needs them is skipped instead of stopping
on an AttributeError: the notebook runs on the starter as it runs on a finished harness.
"""


def filled(harness, *names, where="its gap"):
    """True if `harness` has every one of `names`; else one line about what to fill first."""
    missing = [name for name in names if not hasattr(harness, name)]
    if missing:
        listed = ", ".join(missing)
        print(f"fill {where} first: {listed} {'is' if len(missing) == 1 else 'are'} not "
              "written yet. Then run this cell again.")
    return not missing
