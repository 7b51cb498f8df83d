"""The compiled rules core shared by the solver and the batch simulator.

``layout`` names every word of a row (one hand) and of the parameter vector; ``rules`` holds the rules of
a trick as numba functions inlined into their callers (legal cards, a card played, the end of a trick,
the band-hukum reveal, the staged deal); ``scoring`` tabulates ``engine.scoring`` for the compiled code;
``codec`` turns an ``engine.tricks.HandState`` into a row and back.  ``tests/kernel/test_core.py`` holds
the compiled rules to ``engine.tricks`` move by move.
"""
