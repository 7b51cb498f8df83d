"""The learned value: what the exact solver would say about a position, learned from its answers.

* ``value`` — the model (``ValueModel``, numpy only; weights shipped in ``models/``) and the trick search
  with its leaves valued by it (``trick_values``), for the search bots, analysis and hints.
* ``data`` — labelled positions (``Dataset``) and the hand histories that rebuild them.
* ``labels`` — labelling: played hands valued by the exact solver, or backwards by a model.
* ``fit`` — fitting the networks (scikit-learn, the ``train`` extra) and measuring them.

Nothing is imported here: the bots need ``value`` alone, without the training code.
"""
