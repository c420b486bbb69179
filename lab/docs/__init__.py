"""The project's generated text: every block of README.md and docs/ that is made, not written.

A generated block sits between two comments, `<!-- generated: NAME (...) -->` and
`<!-- end: NAME -->`, and holds exactly what its maker returns: the course map (as
`lab-check --course` prints it in a fresh copy), the options reference (from lab-check's own
parser) and the benchmark tables (from the figures bench/ last measured, kept in
bench/figures/). `python -m lab.docs` rewrites every block that is stale; `--check` writes
nothing and exits 1 naming each stale one, and the suite runs that check.

    blocks.py    finding and replacing a marked block in a file
    options.py   the options reference, from lab.lab_check.parser()
    tables.py    a benchmark table as Markdown, and the figures it is made from
    made.py      which block lives in which file, and what makes it
"""
