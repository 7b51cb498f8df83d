"""Seeds for every deal, match and bot, derived from the arena's seed and the item's index alone.

Results must not depend on which worker (or which machine of a Ray cluster)
plays an item, nor in which order, so no random state is ever carried from one
item to the next: each item's chance and each bot's seed come from hashing the
arena seed with the item's coordinates.
"""

from __future__ import annotations

import hashlib

__all__ = ["derive_seed"]


def derive_seed(seed: int, *parts: object) -> int:
    """A 64-bit seed from the arena seed and an item's coordinates (stable across processes and machines)."""
    text = ":".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")
