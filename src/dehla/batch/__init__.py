"""The batch simulator: thousands of hands in arrays, stepped together by a compiled kernel (docs/envs.md).

``Batch`` deals hands from seeds, gives legal-action masks, steps an array of actions, and hands back
rewards, done flags and the environments' observation vectors; ``deal_of`` gives the ``Deal`` a seed
makes, so the engine can replay any batch hand.  The kernel (``dehla.batch.kernel``) is a mirror of the
trick core and of ``Match``; tests/batch/ hold it to them.
"""

from dehla.batch.simulator import Batch, BatchResult, Reward, deal_of

__all__ = ["Batch", "BatchResult", "Reward", "deal_of"]
