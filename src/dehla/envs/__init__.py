"""Research environments over the engine: PettingZoo, Gymnasium and OpenSpiel (docs/envs.md).

Every environment sees the game through ``Match.observe(seat)`` only and shares one action space and
observation vector (``dehla.features.observation``).  The libraries are optional (``pip install dehla[envs]``,
``dehla[openspiel]``): ``encoding`` needs only numpy; the PettingZoo, Gymnasium and OpenSpiel modules
import their library when they are imported.
"""

from dehla.features.observation import (
    ACTIONS,
    NUM_ACTIONS,
    action_index,
    action_mask,
    action_of,
    encode,
    observation_size,
)

__all__ = ["ENV_ID", "ACTIONS", "NUM_ACTIONS", "action_index", "action_mask", "action_of", "encode", "observation_size"]

ENV_ID = "dehla/Dehla-v0"


def _register_gymnasium() -> None:
    """Make ``gymnasium.make("dehla/Dehla-v0", ...)`` work once ``dehla.envs`` is imported (if gymnasium is there).

    Only the id and the entry point's name are registered: the environment module loads on ``make``.
    """
    try:
        import gymnasium
    except ImportError:  # the envs extra is not installed: the encoding still works
        return
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="dehla.envs.gym_env:DehlaEnv")


_register_gymnasium()
