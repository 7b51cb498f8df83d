"""Analysis of played records, in the double-dummy view, and how it is shown.

* ``record`` — ``analyse_record``: each decision of a record against the best one the exact solver finds
  (or, where it cannot answer, the learned value's estimate, kept apart).
* ``findings`` — what it finds (``RecordAnalysis``: decisions, hands, seats) and their JSON.
* ``render`` — the analysis as text (``dehla analyse``) and as one hand's reply (the web replay).

Nothing is imported here: the web server reads ``render``'s types without loading the solver.
"""
