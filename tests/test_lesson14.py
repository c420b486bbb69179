"""Lesson 14's part of the student kit: a note the harness keeps in the record for the model
(role "note") is shown and drawn as the harness's own, and the strict provider never takes one
as it is stored, so only the view's sealed form of it can reach a model.

The lesson itself (its tests telling right answers from wrong, its notebook on a real kernel,
its anatomy) is proved with every other lab, in tests/test_labs.py.
"""

import lab


def test_a_note_kept_in_the_record_is_shown_as_the_harnesss_own():
    entry = {"role": "note", "content": "The user attached the file notes.md."}

    assert lab.shape([entry, lab.user("What does it say?")]) == "N U"
    assert lab.show([entry]) == 'note -> "The user attached the file notes.md."'
    assert lab.validate([entry]) != []  # never a message a provider takes as it is


def test_a_figure_draws_a_note_in_its_own_colour_and_names_it_the_harnesss():
    entry = {"role": "note", "content": "The user attached the file notes.md."}

    svg = lab.draw(lab.Panel("the record", [entry, lab.user("Go on.")], check=False))._repr_svg_()

    assert "note, by the harness" in svg
    assert "#fbf6ea" in svg and "not a message" not in svg
