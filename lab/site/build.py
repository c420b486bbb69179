"""`lab-check --site DIR`: the course as a static folder, from the lessons' own sources.

    DIR/index.html            the course map (lab.site.front_page)
    DIR/<lab>/index.html      each written lab's page (lab.site.page), e.g. DIR/10/index.html
    DIR/<lab>/edition-<lab>.zip  the student's edition of the lab (lab.release.edition)
    DIR/assets/               the styles, scripts, CodeMirror and Pyodide (lab.site.assets)

Each lab's edition is built with its notebook, which runs the walkthrough (made from
walkthrough.py by lab.notebook.ipynb) on a real kernel; the page is made from that notebook, so its
text, figures and saved outputs are the ones the student's copy carries, and nothing of a
lesson is written twice. Then the release's leak check runs over the whole site (lab.site.
leak_check) and the build refuses to finish if any line of an answer is there. It reports each
page's weight: what a reader downloads to read it, and what the first Run adds.
"""

import pathlib
import tempfile
import zipfile
from dataclasses import dataclass

import nbformat

from lab.course import order as course, lesson_files as lessons
from lab.notebook import ipynb as notebook
from lab.course import manifest
from lab.release import edition, saved_outputs as release_outputs
from lab.course.gap_markers import make_starter
from lab.site import assets, front_page as course_map, leak_check, page

READING = ("site.css", "course.js", "run.js", "editor.js")  # what every lab page loads


class LeakFound(RuntimeError):
    """The site would hold a line of an answer; the message lists where."""


@dataclass(frozen=True)
class Weight:
    page: str
    html: int      # the page's own bytes, its figures inline
    reading: int   # with the styles and scripts it loads
    first_run: int  # what the first Run adds: Pyodide and the lab's Python files


def build(output, only=None, project=None, log=print):
    """Write the site into the folder `output` (made if need be; refused if it holds anything,
    so that nothing stale is published). `only`: the ids of the labs to make pages for (every
    written lab when None); the map lists the whole course either way. Returns the Weights."""
    project = pathlib.Path(project) if project is not None else lessons.PROJECT
    output = pathlib.Path(output)
    if output.exists() and any(output.iterdir()):
        raise FileExistsError(f"{output} is not empty: name a new folder for the site, or empty "
                              "this one first, so that nothing stale is published")
    output.mkdir(parents=True, exist_ok=True)
    written = lessons.available(project)
    wanted = [key for key in written if only is None or key in {lessons.lesson_id(o) for o in only}]
    order = [lab for lab in course.labs(project) if lab.id in written]
    assets.write(project, output / "assets")
    pages, built = {}, {}
    for key in wanted:
        lab = next(one for one in order if one.id == key)
        log(f"site: {lab.heading}")
        pages[lab.label] = _lab_page(lab, written[key], order, output / lab.label)
        built[lab.label] = written[key]
    (output / "index.html").write_text(course_map.render(course.labs(project), pages),
                                       encoding="utf-8")
    found = leak_check.leaks(output, built)
    if found:
        raise LeakFound("the site holds the answer:\n  " + "\n  ".join(found))
    weights = weigh(output, pages)
    for weight in weights:
        log(f"weight: {weight.page:16} page {_kb(weight.html):>8}, with its styles and scripts "
            f"{_kb(weight.reading):>8}; the first Run adds {_kb(weight.first_run)}")
    log(f"site: {output} holds {_kb(_size(output))} in all")
    return weights


def _lab_page(lab, lesson, order, folder):
    """Write `lab`'s page (and its edition) into `folder`; (href, questions, cells)."""
    folder.mkdir(parents=True)
    meta = manifest.read(lesson)
    student = meta.get("student_file", "harness.py")
    zip_name = f"edition-{lab.label}.zip"
    with tempfile.TemporaryDirectory(prefix="lab-site-") as scratch:
        copy = pathlib.Path(scratch, f"edition-{lab.label}")
        edition.build(lesson, copy)
        nb = nbformat.read(copy / notebook.NOTEBOOK, as_version=4)
        _zip(copy, folder / zip_name)
    nb.cells = [cell for cell in nb.cells if cell.id != release_outputs.NOTE_ID]
    starter = make_starter(lesson.finished.read_text(encoding="utf-8"), str(lesson.finished))
    grading = page.Grading(f"python lab/lab_check.py --harness {student} --lesson {lab.label} "
                           "tests.py", zip_name)
    text, questions, cells = page.render(lab, nb, starter, _neighbours(lab, order), grading,
                                         student)
    (folder / "index.html").write_text(text, encoding="utf-8")
    return f"{lab.label}/index.html", questions, cells


def _neighbours(lab, order):
    at = [one.id for one in order].index(lab.id)
    item = lambda one: (one.label, one.heading, f"../{one.label}/index.html")  # noqa: E731
    return page.Neighbours(item(order[at - 1]) if at > 0 else None,
                           item(order[at + 1]) if at + 1 < len(order) else None)


def _zip(folder, path):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(p for p in folder.rglob("*") if p.is_file()):
            archive.write(file, pathlib.Path(folder.name, file.relative_to(folder)))


def weigh(output, pages):
    """Each page's Weight, the map's first."""
    assets_folder = output / "assets"
    reading = sum((assets_folder / name).stat().st_size for name in READING)
    first_run = _size(assets_folder / "pyodide") + (assets_folder / "python-files.js").stat().st_size
    css = (assets_folder / "site.css").stat().st_size + (assets_folder / "course.js").stat().st_size
    found = [Weight("index.html", (output / "index.html").stat().st_size,
                    (output / "index.html").stat().st_size + css, 0)]
    for label, (href, _, _) in pages.items():
        size = (output / href).stat().st_size
        found.append(Weight(href, size, size + reading, first_run))
    return found


def _size(path):
    return sum(p.stat().st_size for p in pathlib.Path(path).rglob("*") if p.is_file())


def _kb(size):
    return f"{size / 1024:.0f} KB" if size < 1024 * 1024 else f"{size / 1024 / 1024:.1f} MB"

