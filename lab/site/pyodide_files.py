"""Pyodide, from the npm package in node_modules/pyodide, as the site serves it.

A page opened from disk (file://) may load a classic <script>, but Chromium refuses it both
fetch() and an ES module import from another file. So every file Pyodide loads is turned, at
build time, into a classic script that the page can load anywhere:

    pyodide.js              the loader (already a classic script), copied as it is
    pyodide.asm.js          pyodide.asm.mjs with its one `export default` turned into a global
                            and its `import.meta.url` into the folder's address, which the page
                            sets before loading it
    pyodide.asm.wasm.js     the WebAssembly module, base64 in a script: `bytes("pyodide.asm.wasm")`
    python_stdlib.zip.js    the standard library, the same way
    pyodide-lock.json.js    the package lock, which loadPyodide is handed as text

The page's loader (static/run.js) answers Pyodide's fetch of the two binary files from those
scripts, so the same files work from disk and from any static host. Nothing else of the npm
package is copied: no package wheels are needed, since the lab uses the standard library only.
"""

import base64
import json
import pathlib

from lab.kit.counting import counted

PACKAGE = pathlib.Path("node_modules", "pyodide")
BINARIES = ("pyodide.asm.wasm", "python_stdlib.zip")
# What pyodide.asm.mjs must hold, exactly this often, for the rewrite below to be right; a new
# Pyodide that changes them fails the build here, not in the reader's browser.
EXPORT = "export default _createPyodideModule"
META = "import.meta.url"
SETTER = "globalThis.__courseBlobs = globalThis.__courseBlobs || {};\n"


class PyodideMissing(FileNotFoundError):
    """node_modules/pyodide is not there: `npm ci` has not been run in the project."""


def version(project):
    """The version of the Pyodide package installed in the project."""
    return json.loads((_package(project) / "package.json").read_text())["version"]


def write(project, folder):
    """Write the site's copy of Pyodide into `folder` (made if need be); returns the names
    written, the loader first."""
    source, folder = _package(project), pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pyodide.js").write_bytes((source / "pyodide.js").read_bytes())
    (folder / "pyodide.asm.js").write_text(classic(source / "pyodide.asm.mjs"))
    names = ["pyodide.js", "pyodide.asm.js"]
    for name in BINARIES:
        encoded = base64.b64encode((source / name).read_bytes()).decode("ascii")
        (folder / f"{name}.js").write_text(f"{SETTER}globalThis.__courseBlobs[{name!r}] = "
                                           f'"{encoded}";\n')
        names.append(f"{name}.js")
    lock = (source / "pyodide-lock.json").read_text()
    (folder / "pyodide-lock.json.js").write_text(
        f"globalThis.__courseLock = {json.dumps(lock)};\n")
    names.append("pyodide-lock.json.js")
    return names


def classic(path):
    """pyodide.asm.mjs as a classic script: its module factory left in a global."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    for piece, times in ((EXPORT, 1), (META, 3)):
        if text.count(piece) != times:
            raise ValueError(f"{path}: expected {piece!r} {counted(times, 'time')}, found "
                             f"{text.count(piece)}: this Pyodide is laid out differently; "
                             "update lab/site/pyodide_files.py")
    text = text.replace(EXPORT, "globalThis._createPyodideModule = _createPyodideModule")
    return text.replace(META, "globalThis.__courseBase")


def _package(project):
    source = pathlib.Path(project) / PACKAGE
    if not (source / "package.json").is_file():
        raise PyodideMissing(f"{source} is not there: run `npm ci` in {project} first (the "
                             "site's Pyodide and CodeMirror come from package.json)")
    return source
