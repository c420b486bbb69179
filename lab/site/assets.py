"""The site's shared files, in its assets/ folder: everything a page loads, none from a CDN.

    site.css, course.js, run.js  this package's static/ files, copied
    editor.js                    static/editor.js bundled with CodeMirror by esbuild, both
                                 from node_modules (package.json; `npm ci` installs them)
    python-files.js              the Python files Pyodide is given (lab.site.browser_support)
    pyodide/                     Pyodide itself (lab.site.pyodide_files)
"""

import json
import pathlib
import shutil
import subprocess

from lab.site import browser_support, pyodide_files

STATIC = pathlib.Path(__file__).resolve().parent / "static"
COPIED = ("site.css", "course.js", "run.js")


def write(project, folder):
    """Write assets/ into `folder`; returns the path of each file written."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        shutil.copyfile(STATIC / name, folder / name)
    bundle_editor(project, folder / "editor.js")
    files = browser_support.python_files(project)
    (folder / "python-files.js").write_text(
        f"globalThis.__coursePython = {json.dumps(files, indent=0)};\n", encoding="utf-8")
    pyodide_files.write(project, folder / "pyodide")
    return sorted(p for p in folder.rglob("*") if p.is_file())


def bundle_editor(project, output):
    """static/editor.js and CodeMirror as one minified classic script, by esbuild."""
    esbuild = pathlib.Path(project) / "node_modules" / ".bin" / "esbuild"
    if not esbuild.is_file():
        raise pyodide_files.PyodideMissing(f"{esbuild} is not there: run `npm ci` in {project} "
                                           "first")
    subprocess.run([str(esbuild), str(STATIC / "editor.js"), "--bundle", "--minify",
                    "--format=iife", "--log-level=warning", f"--outfile={output}"],
                   cwd=project, check=True)
