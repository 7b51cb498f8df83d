"""What positions look like as numbers: the one specification of each vector dehla makes.

* ``observation`` — the fixed action space (``ACTIONS``) and the observation vector of one seat's view
  (``encode``), for every environment; ``dehla.batch`` builds the same vector in compiled code, and its tests
  hold it to this specification.
* ``position`` — the position vector the value model reads (``encode_raw``): a position between tricks with
  every card known, for the solver's labels and the model's estimates, never for a player.
"""

from dehla.features.observation import (
    ACTIONS,
    NUM_ACTIONS,
    action_index,
    action_mask,
    action_of,
    encode,
    layout,
    observation_size,
)

__all__ = ["ACTIONS", "NUM_ACTIONS", "action_index", "action_mask", "action_of", "encode", "layout", "observation_size"]
