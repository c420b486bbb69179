"""Wrong: dogwood's requests are all valid, so the diagnosis blames when the repair runs. It
does run before every request; what it gets wrong is where it writes.
Fails: test_dogwood_diagnosis_names_the_idea_it_is_missing
"""

DIAGNOSIS = dict(DIAGNOSIS, dogwood="repair_every_request")
