"""Whether the site holds any line of a lab's answer: the release's leak check, run over it.

Each lab's folder (its page and its edition's zip) is checked against that lab's answer by
lab.release.leaks, exactly as an edition is; and since a page holds code as HTML text, where
`<` is `&lt;`, each page is checked again with its HTML entities read back. The shared assets/
folder is checked against the answer of every lab on the site.
"""

import html
import pathlib
import re

from lab.release import leaks as release_leaks

TAG = re.compile(r"<[^<>]*>")


def leaks(site, built):
    """Every leak found in the site folder `site`; `built`: {label: Lesson} of its pages."""
    site, found = pathlib.Path(site), []
    for label, lesson in built.items():
        folder = site / label
        found += [f"{label}/{line}" for line in release_leaks.leaks(folder, lesson)]
        for archive in sorted(folder.glob("*.zip")):
            found += [f"{label}/{archive.name}: {line}"
                      for line in release_leaks.leaks_in(archive, lesson)]
        secret = release_leaks.secrets(lesson)
        for page in sorted(folder.glob("*.html")):
            text = html.unescape(TAG.sub("", page.read_text(encoding="utf-8")))
            lines = {line.strip() for line in text.splitlines()}
            found += [f"{label}/{page.name}: holds a line of the answer: {line}"
                      for line in sorted(secret & lines)]
        found += [f"assets/{line}" for line in release_leaks.leaks(site / "assets", lesson)]
    return found
