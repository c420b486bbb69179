"""The course on the web: `lab-check --site DIR` writes every written lab as a static page.

    build.py            the command: the site's folder, its leak check and its pages' weight
    page.py             one lab's page;  course_map.py  the front page, the labs in order
    markdown.py         a lesson's markdown as HTML, its questions marked
    outputs.py          a code cell's saved outputs as HTML
    browser_support.py  what a browser can run, and the Python files Pyodide is given
    assets.py           the shared files: styles, scripts, CodeMirror (esbuild), Pyodide
    pyodide_files.py    Pyodide from node_modules, as classic scripts a page on disk can load
    leak_check.py       the release's leak check, over the site
    browser/            the two Python files that run inside Pyodide
    static/             the CSS and JavaScript the pages load

Pyodide, CodeMirror and esbuild come from the npm registry (package.json, `npm ci`).
"""
