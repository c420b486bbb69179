"""Wrong: crane's run stops with a reply's call answered and no request after it, so the
diagnosis blames the loop. But crane loops through every call that succeeds; it stops only
after a result with is_error set, which is lesson 04's idea, not lesson 03's.
Fails: test_crane_diagnosis_names_the_idea_it_is_missing
"""

DIAGNOSIS = dict(DIAGNOSIS, crane="loop_until_it_stops_asking")
