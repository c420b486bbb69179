"""Wrong: egret's request holds an assistant turn the record does not, so the diagnosis blames
how the failure was stored. The record holds the failure exactly as the finished harness's
does; it is the view that puts a stand-in where nothing should be.
Fails: test_egret_diagnosis_names_the_idea_it_is_missing
"""

DIAGNOSIS = dict(DIAGNOSIS, egret="failed_reply_kept")
