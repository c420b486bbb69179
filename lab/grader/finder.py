"""Finding a student's harness.py: the one way, shared by `lab-check --batch` (batch.discover)
and Gradescope's autograder (lab/release/autograder.py). A lab whose manifest names another
`student_file` (a checkpoint's doctor.py) is found the same way under that name
(`student_file(lesson)`, passed as `wanted`); harness.py below stands for either.

In one student's folder (`in_folder`) the file graded is, in this order: harness.py itself; a
file named so in another case (Harness.py, HARNESS.PY); one in a folder one level down
(my-lab/harness.py, the folder a student zipped); one in a zip there (at the top of the zip or
one folder down); else the only Python file there is, under whatever name. Hidden names
(.git, .DS_Store), __MACOSX and __pycache__ are never looked in. Two candidates as good as each
other (harness.py in two folders) is no grade and a sentence naming both: guessing could grade
the wrong one. A symbolic link, as the folder, the file, or a folder on the way, is never
followed: its work would be whatever the link points to.

A class (`in_class`) is a folder of one folder per student, a flat folder of files as an LMS's
"download submissions" leaves them, or both at once. The names an LMS gives (each checked
against what its users and tools show, cited where the pattern is defined below):

  Canvas       smithjane_12345_67890_harness.py   (name, user id, file id, the student's file
               smithjane_late_12345_67890_...      name, "-1" before the extension for a file
                                                    sent again); "late" when Canvas marked it so
  Moodle       Jane Smith_12345_assignsubmission_file_/harness.py   (a folder per participant;
               Jane Smith_12345_assignsubmission_file_harness.py    or flat, in older Moodles)
  Blackboard   Lab 10_jsmith_attempt_2026-12-01-23-59-07_harness.py (assignment, user name,
               Lab 10_jsmith_attempt_2026-12-01-23-59-07.txt          attempt's time; the .txt
                                                                      is its receipt)
  Gradescope   submission_301/harness.py + submission_metadata.yml   (the export of a whole
               assignment: the index names each folder's students and its time; see
               GRADESCOPE_EXPORT)

Files of one student (same LMS, same id) are one submission; a Blackboard student's latest
attempt is graded, and the note says so. A roster (a CSV with a column of ids, such as
Canvas's gradebook export: Student, ID, SIS User ID, SIS Login ID, Section) names the student
from the id the LMS put in the file name. A file at the top of a class whose name no LMS gives
is not dropped: it is a submission of its own with a problem saying why it was not graded
(`unplaced`), so it has its row in the summary and the instructor sees it.

Zips are read as hostile: never extracted whole, only the one member chosen is read, and only
when its name is plain (no "..", no absolute path, no backslash, no NUL), it is no link, not
encrypted, not one of two members with the same name, and it unpacks to at most MAX_FILE bytes
(counted as it is read, whatever the zip declares); a zip larger than MAX_ZIP, or whose
central directory is larger than MAX_DIRECTORY (zipfile parses all of it before a member
can be counted), is not opened.
The member is written to a staging folder the caller owns, private to the grader.
"""

from __future__ import annotations

import csv
import datetime
import io
import os
import pathlib
import re
import stat
import unicodedata
import zipfile
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from lab.kit.counting import counted
from lab.kit.escape import file_name, shown_name

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson

HARNESS = "harness.py"   # the student's file, unless the lab's manifest names another
MAX_FILE = 4 * 1024 * 1024   # bytes a harness.py may have, inside a zip or out
MAX_ZIP = 64 * 1024 * 1024   # bytes of a zip that is opened at all
MAX_MEMBERS = 10_000         # members of a zip that are looked at
MAX_DIRECTORY = 4 * 1024 * 1024  # bytes of a zip's central directory that are read at all
SKIPPED = ("__MACOSX", "__pycache__")


@dataclass(frozen=True)
class Found:
    """One student's submission: `name` (as the batch shows it and names its result), the
    `harness` to grade (None when there is none: `problem` says why), a `note` for the student
    when the file graded is not plainly harness.py, and what the LMS said: its name for the
    student, its `student_id`, the `lms`, the `submitted` time (an aware datetime, or None when
    the LMS's names carry none), whether the LMS marked it `late`, and the `sources` (names
    of the files it came from, relative to the class folder)."""
    name: str
    harness: pathlib.Path | None
    folder: pathlib.Path
    note: str = ""
    problem: str = ""
    lms: str = ""
    student_id: str = ""
    lms_name: str = ""
    submitted: datetime.datetime | None = None
    late: bool = False
    sources: tuple[str, ...] = ()
    roster: dict[str, str] = field(default_factory=dict, compare=False)
    # a group's submission (Gradescope's export names each of its students): each one's
    # name, student_id and email; () for one student's
    members: tuple[dict[str, str], ...] = field(default=(), compare=False)

    def as_dict(self) -> dict[str, Any]:
        return {"name": shown_name(self.name), "harness": str(self.harness or ""),
                "note": self.note, "problem": self.problem, "lms": self.lms,
                "student_id": self.student_id, "lms_name": shown_name(self.lms_name),
                "submitted": self.submitted.isoformat() if self.submitted else "",
                "late": self.late, "sources": [shown_name(s) for s in self.sources],
                "roster": self.roster}


def student_file(lesson: Lesson) -> str:
    """The name of the file a student of `lesson` hands in: its manifest's `student_file`
    (doctor.py for checkpoint B, doctor_a.py for A), else harness.py. Every finding below
    takes it as `wanted`."""
    from lab.course import manifest

    return manifest.read(lesson).get("student_file", HARNESS)


# -- one student's folder ------------------------------------------------------------------

def in_folder(folder: str | os.PathLike[str], staging: str | os.PathLike[str] | None = None,
              wanted: str = HARNESS) -> tuple[pathlib.Path | None, str]:
    """(the file to grade in `folder`, or None; a sentence for the student, or "" when it is
    plainly the file wanted). `staging`: a private folder where a file found in a zip is
    written (none given: zips are not looked in); `wanted`: the file's name, harness.py unless
    the lab's manifest names another (`student_file`: doctor.py for checkpoint B)."""
    folder = pathlib.Path(folder)
    if folder.is_symlink():
        return None, (f"The submission {shown_name(folder.name)} is a symbolic link, not a "
                      "folder, and a link is not graded: its work would be whatever it points "
                      f"to. Submit the folder itself, with your {wanted} in it.")
    if not folder.is_dir():
        return None, f"{shown_name(str(folder))} is not a folder."
    top = _entries(folder)
    below = [(sub, _entries(sub)) for sub in top if _is_dir(sub)]
    files = [p for p in top if _is_file(p)]
    deeper = [p for _, entries in below for p in entries if _is_file(p)]
    links = [p for p in top + [q for _, e in below for q in e] if p.is_symlink()
             and p.name.casefold() == wanted.casefold()]
    for level, candidates in (("", files), ("folder", deeper)):
        exact = [p for p in candidates if p.name == wanted]
        named = exact or [p for p in candidates if p.name.casefold() == wanted.casefold()]
        if len(named) == 1:
            return named[0], _note_for(folder, named[0], wanted)
        if len(named) > 1:
            return None, _ambiguous(folder, named, wanted)
    if links:
        return None, (f"Your {wanted} ({_rel(folder, links[0])}) is a symbolic link, and a "
                      "link is not graded: its work would be whatever it points to. Upload "
                      "the file itself.")
    zips = [p for p in files + deeper if p.suffix.casefold() == ".zip"]
    if zips and staging is not None:
        chosen = []
        for archive in zips:
            member, said = from_zip(archive, staging, wanted)
            if member is not None:
                chosen.append((archive, member, said))
            elif said:
                return None, said
        if len(chosen) == 1:
            archive, member, said = chosen[0]
            return member, said
        if len(chosen) > 1:
            return None, _ambiguous(folder, [a for a, _, _ in chosen], wanted)
    python = [p for p in files + deeper if p.suffix.casefold() == ".py"]
    if len(python) == 1:
        return python[0], (f"Graded {_rel(folder, python[0])} as your {wanted}: it is the "
                           f"only Python file you submitted. Next time, name it {wanted}.")
    if not python:
        return None, (f"Your submission holds no Python file. Upload your {wanted} (the "
                      "file with your filled-in gaps) and submit again.")
    shown = ", ".join(_rel(folder, p) for p in python[:8])
    return None, (f"Your submission holds {len(python)} Python files ({shown}) and none called "
                  f"{wanted}, so it is not clear which one to grade. Upload your {wanted} "
                  "and submit again.")


def _entries(folder):
    """What is in `folder`, by name, less hidden and skipped names; [] if it cannot be read."""
    try:
        return sorted(p for p in folder.iterdir()
                      if not p.name.startswith(".") and p.name not in SKIPPED)
    except OSError:
        return []


def _is_dir(path):
    return not path.is_symlink() and path.is_dir()


def _is_file(path):
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _rel(folder, path):
    try:
        return shown_name(str(path.relative_to(folder)))
    except ValueError:
        return shown_name(path.name)


def _note_for(folder, path, wanted=HARNESS):
    rel = _rel(folder, path)
    if path.parent != folder:
        return (f"Graded {rel}: your {wanted} was inside a folder. Next time, upload the "
                "file itself.")
    if path.name != wanted:
        return f"Graded {rel} as your {wanted}. Next time, name it {wanted}, in lower case."
    return ""


def _ambiguous(folder, paths, wanted=HARNESS):
    shown = " and ".join(_rel(folder, p) for p in paths[:4])
    return (f"Your submission holds {shown}: more than one file could be your {wanted}, and "
            "grading the wrong one would be worse than asking. Submit just the one.")


# -- zips -----------------------------------------------------------------------------------

def from_zip(archive: str | os.PathLike[str], staging: str | os.PathLike[str],
             wanted: str = HARNESS) -> tuple[pathlib.Path | None, str]:
    """(the path in `staging` of the file named `wanted` (harness.py) read from the zip
    `archive`, or None; a sentence: a note when one was found, why not when the zip is
    refused, "" when the zip simply holds no such file)."""
    archive = pathlib.Path(archive)
    shown = shown_name(archive.name)
    try:
        if os.lstat(archive).st_size > MAX_ZIP:
            return None, (f"{shown} is larger than {MAX_ZIP // 2**20} MiB, so it was not "
                          f"opened. Upload your {wanted} itself.")
        with open(archive, "rb") as raw:  # zipfile parses every entry the directory holds
            record = zipfile._EndRecData(raw)  # type: ignore[attr-defined]  # (its size first)
        if record and record[zipfile._ECD_SIZE] > MAX_DIRECTORY:  # type: ignore[attr-defined]
            return None, (f"{shown} holds more than {counted(MAX_MEMBERS, 'file')}; "
                          "it was not opened.")
        with zipfile.ZipFile(archive) as opened:
            members = opened.infolist()[:MAX_MEMBERS + 1]
            if len(members) > MAX_MEMBERS:
                return None, (f"{shown} holds more than {counted(MAX_MEMBERS, 'file')}; "
                              "it was not opened.")
            return _member(opened, members, archive, pathlib.Path(staging), wanted)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError,
            NotImplementedError) as error:
        return None, (f"{shown} could not be read as a zip ({type(error).__name__}). Upload "
                      f"your {wanted} itself.")


def _member(opened, members, archive, staging, wanted):
    shown = shown_name(archive.name)
    names: dict[str, list[zipfile.ZipInfo]] = {}
    for info in members:
        names.setdefault(info.filename, []).append(info)
    unsafe = [n for n in names if _unsafe(n)]
    if unsafe:
        return None, (f"{shown} holds a file named {shown_name(unsafe[0])}, a path that points "
                      "outside the zip. Such a zip is not opened: zip your folder again, or "
                      f"upload your {wanted} itself.")
    found = []
    for name, infos in names.items():
        parts = [p for p in name.split("/") if p]
        if (not parts or name.endswith("/") or len(parts) > 2
                or any(p.startswith(".") or p in SKIPPED for p in parts)):
            continue
        if parts[-1].casefold() == wanted.casefold():
            found.append((len(parts), parts[-1] != wanted, name, infos))
    if not found:
        return None, ""
    found.sort(key=lambda w: w[:3])
    best = [w for w in found if w[:2] == found[0][:2]]
    if len(best) > 1 or len(best[0][3]) > 1:
        return None, (f"{shown} holds more than one {wanted} "
                      f"({', '.join(shown_name(w[2]) for w in best[:4])}), so it is not clear "
                      "which one to grade. Submit just the one.")
    name, info = best[0][2], best[0][3][0]
    kind = stat.S_IFMT(info.external_attr >> 16)
    if kind == stat.S_IFLNK:
        return None, (f"The {shown_name(name)} in {shown} is a symbolic link, and a link is "
                      f"not graded. Zip the file itself, or upload your {wanted}.")
    if info.flag_bits & 0x1:
        return None, f"{shown} is encrypted; upload your {wanted} itself."
    if info.file_size > MAX_FILE:
        return None, _too_large(name, shown, wanted)
    with opened.open(info) as member:
        data = member.read(MAX_FILE + 1)
    if len(data) > MAX_FILE:
        return None, _too_large(name, shown, wanted)
    target = _stage(staging, archive, data, wanted)
    return target, (f"Graded {shown_name(name)} from your {shown}. Next time, upload the "
                    "file itself.")


def _too_large(name, shown, wanted):
    return (f"The {shown_name(name)} in {shown} unpacks to more than {MAX_FILE // 2**20} MiB, "
            f"far more than a {wanted}: it was not unpacked.")


def _unsafe(name):
    parts = name.replace("\\", "/").split("/")
    return (name.startswith("/") or "\\" in name or "\0" in name or ".." in parts
            or re.match(r"^[A-Za-z]:", name) is not None)


def _stage(staging, archive, data, wanted=HARNESS):
    """Write `data` as `wanted` (harness.py) in a folder of its own under `staging` (made
    private), named after the zip's path, and return its path. The name is never the
    member's own."""
    staging.mkdir(parents=True, exist_ok=True, mode=0o700)
    os.chmod(staging, 0o700)
    own = staging / file_name(os.fsencode(os.path.abspath(archive)))
    own.mkdir(exist_ok=True, mode=0o700)
    target = own / wanted
    partial = own / f".{wanted}.partial"
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with open(fd, "wb") as out:
        out.write(data)
    os.replace(partial, target)
    return target


# -- a class --------------------------------------------------------------------------------

# Canvas's bulk download: "<sortable name, lower case, letters only>[_late]_<user id>_<file
# id>_<the student's file name>", as Canvas's own instances show it ("studenttest_3143_207797_
# zipsubmission.zip", instructure/canvas-lms issue 2406; "smithbob_340934_208490284_BobsWork.zip"
# in mikewesthad/canvas-unzipper's README). A file sent again gets "-1", "-2" before its
# extension (nus-cs2103-AY2223S2/forum issue 361).
CANVAS = re.compile(r"^(?P<who>[^\W_]+)(?P<late>_late)?_(?P<id>\d+)_(?P<file_id>\d+)_"
                    r"(?P<file>.+)$", re.IGNORECASE)
# Moodle's "download all submissions": a folder per participant, "<full name>_<participant
# id>_assignsubmission_file_" (the layout described in the README of a feedback tool built on
# it, and used by scripts that unpack Moodle downloads), or, without folders, the same prefix
# before each file's name.
MOODLE = re.compile(r"^(?P<who>.+?)_(?P<id>\d+)_assignsubmission_(?P<plugin>file|onlinetext)_"
                    r"(?P<file>.*)$", re.DOTALL)
# Blackboard's "Assignment File Download": "<assignment>_<user name>_attempt_<YYYY-MM-DD-HH-MM-
# SS>_<the student's file name>" and a receipt "<...>_attempt_<time>.txt" (vangef/
# BBGradebookOrganiser's organiser.py splits the names there exactly so). The student's file
# name comes last and may itself read "x_bob_attempt_2099-..._harness.py": the assignment is
# matched as short as it can be, so the user and time are the LMS's own (the leftmost), never
# a pair the student wrote to redate an attempt or hand a file to a classmate.
BLACKBOARD = re.compile(r"^(?P<assignment>.*?)_(?P<id>[^_]+)_attempt_"
                        r"(?P<when>\d{4}-\d\d-\d\d-\d\d-\d\d-\d\d)(?:_(?P<file>.+)|\.txt)$",
                        re.DOTALL)
RESENT = re.compile(r"-\d+(?=\.[^.]*$)")  # Canvas's "-1" before the extension


@dataclass
class _Group:
    lms: str
    student_id: str
    lms_name: str
    files: list[tuple[pathlib.Path, str | None, datetime.datetime | None]] = field(
        default_factory=list)   # (path, the student's own file name, when)
    late: bool = False


def in_class(folder: str | os.PathLike[str], *, staging: str | os.PathLike[str],
             roster: Roster | None = None, skip: str | os.PathLike[str] | None = None,
             timezone: datetime.tzinfo | None = None, wanted: str = HARNESS) -> list[Found]:
    """Every submission in the class folder `folder`, as Found, by name. `staging`: a private
    folder for files taken from zips; `roster`: a Roster, or None; `skip`: a path never looked
    at (the output folder); `timezone`: a tzinfo for the LMS's times that carry none (default
    UTC); `wanted`: the student's file, harness.py unless the lab names another. ValueError,
    saying what to do, when `folder` is no folder or holds nothing."""
    folder = pathlib.Path(folder)
    if not folder.is_dir():
        raise ValueError(f"{folder} is not a folder. Name the folder of the class's submissions: "
                         f"one folder per student, each with its {wanted}, or the files of an "
                         "LMS's download, unzipped.")
    skip = pathlib.Path(skip).resolve() if skip else None
    staging = pathlib.Path(staging)
    zone = timezone or datetime.timezone.utc
    groups: dict[tuple[str, str], _Group]
    found, groups, loose = [], {}, []
    exported = gradescope_export(folder, zone)
    for entry in _entries(folder):
        if skip is not None and entry.resolve() == skip:
            continue
        if entry.name == GRADESCOPE_EXPORT and exported is not None:
            continue  # the export's own index, read above
        if exported and entry.name in exported and _is_dir(entry):
            harness, said = in_folder(entry, staging / "folders", wanted)
            known = exported[entry.name]
            shown = f"{known['lms_name']} ({entry.name})" if known["lms_name"] else entry.name
            found.append(_made(shown, entry, harness, said, sources=(entry.name,), **known))
            continue
        if entry.is_symlink() or entry.is_dir():
            moodle = MOODLE.match(entry.name) if not entry.is_symlink() else None
            if moodle and moodle["file"] == "":
                key = ("moodle", moodle["id"])
                groups.setdefault(key, _Group("moodle", moodle["id"], moodle["who"]))
                groups[key].files.append((entry, None, None))
                continue
            harness, said = in_folder(entry, staging / "folders", wanted)
            found.append(_made(entry.name, entry, harness, said, sources=(entry.name,)))
            continue
        placed = _place(entry.name, zone)
        if placed is None:
            loose.append(entry)
            continue
        lms, student, who, own, when, late = placed
        group = groups.setdefault((lms, student), _Group(lms, student, who))
        group.files.append((entry, own, when))
        group.late |= late
    for (lms, student), group in sorted(groups.items()):
        found.append(_from_group(folder, group, staging, roster, wanted))
    for entry in loose:
        found.append(Found(name=entry.name, harness=None, folder=folder, sources=(entry.name,),
                           problem=unplaced(entry.name)))
    names: dict[str, list[Found]] = {}
    for one in found:
        names.setdefault(one.name, []).append(one)
    unique: list[Found] = []
    for name, same in names.items():  # two students shown alike: each keeps its id in its name
        unique += same if len(same) == 1 else [
            replace(one, name=f"{name} [{one.lms or 'folder'} {one.student_id or one.sources[0]}]")
            for one in same]
    if len(loose) == len(unique):  # nothing but files no LMS named: the wrong folder, surely
        some = ", ".join(shown_name(p.name) for p in loose[:3]) + (", ..." if len(loose) > 3
                                                                   else "")
        raise ValueError(f"{folder} holds no submission folders and no file an LMS named"
                         f"{f' (only {some})' if loose else ''}. "
                         f"Each submission is a folder with its {wanted} in it ({folder}/alice/"
                         f"{wanted}, ...), or the files of Canvas's, Moodle's or Blackboard's "
                         "download, unzipped, as they come.")
    return sorted(unique, key=lambda one: one.name)


# Gradescope's "Export Submissions" of an assignment: a folder per submission (submission_<id>/,
# the student's files inside) and, beside them, submission_metadata.yml, keyed by those folders'
# names, each with its :submitters: (:name:, :sid:, :email:), :created_at: (the submission's
# time, a YAML timestamp) and :score:. Read so by Otter Grade's GradescopeParser
# (ucbds-infra/otter-grader, otter/grade/metadata.py: yaml.safe_load, then each folder's
# [":submitters"][...][":name"]) and by course scripts that rename an export by :sid: and list
# :created_at: and :history:. (Gradescope's autograder, by contrast, is given one submission's
# submission_metadata.json: lab.release.autograder reads that.)
GRADESCOPE_EXPORT = "submission_metadata.yml"
MAX_EXPORT = 64 * 1024 * 1024  # bytes of a submission_metadata.yml that is read at all


def gradescope_export(folder: str | os.PathLike[str], zone: datetime.tzinfo = datetime.timezone.utc
                      ) -> dict[str, dict[str, Any]] | None:
    """{folder name: what Found takes of it (lms, student_id, lms_name, submitted, roster)}
    from the Gradescope export index `folder`/submission_metadata.yml; None when there is no
    such file. A file that cannot be read, or an entry that is not of the export's form, gives
    nothing for it, and its folder is then graded as any student's folder is, by its name.
    A time without an offset is read in `zone`."""
    path = pathlib.Path(folder) / GRADESCOPE_EXPORT
    if not _is_file(path):
        return None
    try:
        import yaml  # the instructor's extra (pyproject.toml): only an export needs it
    except ImportError:
        return {}
    try:
        if os.lstat(path).st_size > MAX_EXPORT:
            return {}
        with open(path, "rb") as opened:
            index = yaml.load(opened, Loader=_export_loader())
    except (OSError, yaml.YAMLError, ValueError, RecursionError):
        return {}
    read = {}
    for key, entry in (index.items() if isinstance(index, dict) else ()):
        if not isinstance(entry, dict):
            continue
        people = [p for p in entry.get(":submitters") or [] if isinstance(p, dict)] \
            if isinstance(entry.get(":submitters"), list) else []
        names = [str(p.get(":name") or "").strip() for p in people]
        ids = [str(p.get(":sid") or p.get(":email") or "").strip() for p in people]
        when = entry.get(":created_at")
        if isinstance(when, str):
            try:
                when = datetime.datetime.fromisoformat(when.strip())
            except ValueError:
                when = None
        if not isinstance(when, datetime.datetime):
            when = None
        elif when.tzinfo is None:
            when = when.replace(tzinfo=zone)
        who = " & ".join(n for n in names if n)
        members = tuple({"name": name, "student_id": sid, "email": str(
            p.get(":email") or "").strip()} for name, sid, p in zip(names, ids, people))
        read[str(key)] = dict(
            members=members if len(members) > 1 else (),
            lms="gradescope", student_id=", ".join(i for i in ids if i),
            lms_name=who, submitted=when,
            roster={"name": who, "email": ", ".join(
                str(p.get(":email") or "").strip() for p in people if p.get(":email"))}
            if who else {})
    return read


def _export_loader():
    import yaml

    class Loader(yaml.SafeLoader):
        """Safe loading, and a tag it does not know (the export's Ruby objects, as in
        `!ruby/object:...`) read as the plain value it tags, never constructed."""

    def plain(loader, suffix, node):
        if isinstance(node, yaml.MappingNode):
            return loader.construct_mapping(node, deep=True)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node, deep=True)
        return loader.construct_scalar(node)

    Loader.add_multi_constructor("!", plain)
    return Loader


def unplaced(name: str) -> str:
    return (f"The file {shown_name(name)} is in the class's folder, but its name is not one "
            "that Canvas, Moodle or Blackboard gives, so it could not be told whose it is; it "
            "was not graded. Put it in a folder named after its student (that folder is then "
            "a submission), or take it out.")


def _made(name, folder, harness, said, **more):
    if harness is None:
        return Found(name=name, harness=None, folder=folder, problem=said, **more)
    return Found(name=name, harness=harness, folder=folder, note=said, **more)


def _place(name, zone):
    """(lms, the student's id, the LMS's name for them, the student's own file name, the
    submission's time or None, marked late) for a file an LMS named; None for any other."""
    canvas = CANVAS.match(name)
    if canvas:
        return ("canvas", canvas["id"], canvas["who"], canvas["file"], None,
                bool(canvas["late"]))
    moodle = MOODLE.match(name)
    if moodle and moodle["file"]:
        return "moodle", moodle["id"], moodle["who"], moodle["file"], None, False
    board = BLACKBOARD.match(name)
    if board:
        try:
            when = datetime.datetime.strptime(board["when"], "%Y-%m-%d-%H-%M-%S")
        except ValueError:
            return None
        return ("blackboard", board["id"], board["id"], board["file"] or "",  # "": a receipt
                when.replace(tzinfo=zone), False)
    return None


def _from_group(folder, group, staging, roster, wanted=HARNESS):
    """The Found of one student's files in a flat LMS download."""
    person = roster.person(group.student_id) if roster else {}
    name = person.get("name") or _readable(group)
    sources = tuple(sorted(p.name for p, _, _ in group.files))
    common = dict(lms=group.lms, student_id=group.student_id, lms_name=group.lms_name,
                  late=group.late, sources=sources, roster=person)
    folders = [p for p, own, _ in group.files if own is None]
    # Moodle's folder a participant, a second for the online text when that is on: the files'
    folders = [p for p in folders if "_assignsubmission_file_" in p.name] or folders
    if folders:
        if len(folders) > 1:
            return Found(name=name, harness=None, folder=folder, problem=(
                f"Moodle gave this student {counted(len(folders), 'folder')}; grade one by hand."),
                **common)
        harness, said = in_folder(folders[0], staging / "folders", wanted)
        return _made(name, folders[0], harness, said, **common)
    files = [(p, own, when) for p, own, when in group.files if own]
    times = sorted({when for _, _, when in files if when})
    note = ""
    if len(times) > 1:  # Blackboard: each attempt its own files; the latest is graded
        files = [f for f in files if f[2] == times[-1]]
        note = (f"Graded your latest attempt, of {times[-1]:%Y-%m-%d %H:%M}; "
                f"{len(times) - 1} earlier one{'s' if len(times) > 2 else ''} not graded.")
    submitted = times[-1] if times else None
    harness, said = _pick([(p, own) for p, own, _ in files], staging, wanted)
    said = " ".join(s for s in (note, said) if s)
    return _made(name, folder, harness, said, submitted=submitted, **common)


def _pick(candidates, staging, wanted=HARNESS):
    """(the file to grade among one student's LMS-named files, or None; a sentence)."""
    def plain(own):
        return RESENT.sub("", own).casefold()

    exact = [(p, own) for p, own in candidates if plain(own) == wanted.casefold()]
    if len(exact) == 1:
        path, own = exact[0]
        return path, ("" if RESENT.sub("", own) == wanted else
                      f"Graded {shown_name(own)} as your {wanted}.")
    if len(exact) > 1:
        return None, (f"You handed in more than one {wanted} ("
                      f"{', '.join(shown_name(o) for _, o in exact[:4])}), so it is not clear "
                      "which one to grade. Hand in just the one.")
    zips = [(p, own) for p, own in candidates if own.casefold().endswith(".zip")]
    for path, own in zips:
        member, said = from_zip(path, staging / "zips", wanted)
        if member is not None or said:
            return member, said
    python = [(p, own) for p, own in candidates if own.casefold().endswith(".py")]
    if len(python) == 1:
        return python[0][0], (f"Graded {shown_name(python[0][1])} as your {wanted}: it is the "
                              f"only Python file you handed in. Next time, name it {wanted}.")
    if not python:
        return None, (f"You handed in no {wanted} and no other Python file "
                      f"({', '.join(shown_name(o) for _, o in candidates[:4]) or 'nothing'}).")
    return None, (f"You handed in {len(python)} Python files "
                  f"({', '.join(shown_name(o) for _, o in python[:4])}) and none called "
                  f"{wanted}, so it is not clear which one to grade.")


def _readable(group):
    if group.lms == "canvas":
        return f"{group.lms_name} ({group.student_id})"
    if group.lms == "moodle":
        return f"{unicodedata.normalize('NFC', group.lms_name)} ({group.student_id})"
    return group.lms_name


# -- a roster -------------------------------------------------------------------------------

ID_COLUMNS = ("id", "user id", "user_id", "canvas user id", "student id", "sis user id",
              "sis login id", "username", "user name", "identifier", "participant id",
              "id number", "email", "email address")
NAME_COLUMNS = ("student", "name", "full name", "student name")


class Roster:
    """A class list read from a CSV: each row's ids (any column whose header is an id's, see
    ID_COLUMNS; Moodle's "Participant 12345" counts as 12345) name that row. Ids of different
    kinds may be the same number (Canvas's user id 200, another student's SIS id 200): an id
    names the row that has it in the column first in ID_COLUMNS (Canvas's "ID" before any SIS
    column), never whichever row came first."""

    def __init__(self, rows: list[dict[str, str]]) -> None:
        self.rows = rows
        self.by_id: dict[str, dict[str, str]] = {}
        for column in ID_COLUMNS:
            for row in rows:
                for header, value in row.items():
                    if (header or "").strip().casefold() != column or not (value or "").strip():
                        continue
                    for key in {value.strip(), re.sub(r"^participant\s*", "", value.strip(),
                                                      flags=re.I)}:
                        self.by_id.setdefault(key.casefold(), row)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Roster:
        """The Roster in the CSV file `path`; ValueError saying what is wrong with it."""
        try:
            text = pathlib.Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise ValueError(f"the roster {path} could not be read ({error}).") from None
        rows = [r for r in csv.DictReader(io.StringIO(text)) if any((v or "").strip()
                                                                     for v in r.values())]
        headers = {(h or "").strip().casefold() for r in rows[:1] for h in r}
        if not headers & set(ID_COLUMNS):
            raise ValueError(f"the roster {path} has no column of ids: name one of "
                             f"{', '.join(ID_COLUMNS[:6])} ... in its first row.")
        return cls(rows)

    def person(self, student_id: object) -> dict[str, str]:
        """{"name": ..., and the row's own columns} of the student with this id, or {}."""
        row = self.by_id.get(str(student_id).casefold())
        if row is None:
            return {}
        name = next((row[h].strip() for h in row if (h or "").strip().casefold()
                     in NAME_COLUMNS and (row[h] or "").strip()), "")
        if not name:
            first = next((row[h] for h in row if (h or "").strip().casefold() == "first name"), "")
            last = next((row[h] for h in row if (h or "").strip().casefold() in
                         ("last name", "surname")), "")
            name = " ".join(p.strip() for p in (first or "", last or "") if p and p.strip())
        return {"name": name, **{(h or "").strip(): (v or "").strip() for h, v in row.items()
                                 if h is not None and isinstance(v, str)}}
