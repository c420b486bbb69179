"""Removing a folder whatever a student's code left in it."""

import os
import shutil
import subprocess


def remove_tree(path):
    """Remove `path` and all below it: any depth, links never followed; never raises."""
    try:
        shutil.rmtree(path)
        return
    except (OSError, RecursionError):
        pass
    if os.path.lexists(path):
        subprocess.run(["rm", "-rf", "--one-file-system", "--", path],
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=False)
