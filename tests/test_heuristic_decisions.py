"""The heuristic bot's decisions, unchanged: digests of ``tests/heuristic_trace.py`` over every rule set.

``EXPECTED`` holds the digests of the bot as of issue 17 (2026-12-02), before its tuned numbers moved into
``Weights`` and its endgame got a state of its own.  A refactor must leave every digest as it is; a deliberate
change of play refreshes them with ``python -m tests.heuristic_trace`` (and says why in its commit).
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.helpers import ALL_RULES, rules_id
from tests.heuristic_trace import digest

EXPECTED = {
    "pagat": "4c2ef6b84ea0294495bf119931c507549b926aabb633d91ecd6ad907b1ba4306",
    "pagat-cut": "21244030f953524a731963b5be8a3c96b9483dcd1715355ae0ff000ec967308b",
    "taash": "6ca77f1164dc148f6635abe9b114b73bc38b072b2fd4e7ec56bc9a5660141c18",
    "taash-b2b": "0244cd9c40104aaca21dce5eb10c50a6521650d0533c3cd387ac98022fb694a6",
    "mendikot": "ece4f4fc9299c2e16aed1f1d750522394b208f4173eb624a9ca32e3f6da250f8",
    "mendikot-band": "1e4cf004257d0709164540062fa1fcb6b384f5c23e2780d26ba4dd0fb722b22e",
    "mendikot-band-auto": "d97891e4cf023710367f87be10710d1c8c990dc61702b3ea3b09b11bc83466f6",
    "mendikot-open": "60db18a98c222ac3787c718f74a992c106c9ac8073298fbb5434a30046d6300e",
    "mendikot-6": "83e9feaf1c0b036129016485f0573169057d79d5e1a41ce6e520c9f5081ffb57",
    "mendikot-8": "e0582473b70691bf07756ae66fefd63a2b1ccc5b7e5c8d2089bc063e1761aabc",
    '{"preset":"pagat","streak_resets":false,"target":2}': "f6b112539dac47fec90c4c6eee58a838f64ea0c97e85b921dad8f4032185b926",
    '{"preset":"pagat","rotation":"simple"}': "7f78866e20273a3f3a3baed72c66e50f39e02648d73f00ba1acdc067df1c2936",
    '{"preset":"pagat-cut","target":2}': "d03fb960a026dcee52e1ea157ba7a22d468416439605507b5dcc0ffc0ba9a167",
    '{"preset":"taash","trick_minimum":true}': "c42d602f1e82cebe8513bf5bae04a9ed80a9fa6e303305e137220ad3d19f2c84",
    '{"preset":"taash","sweep_bonus":"double"}': "5546218289af69bf55f1d18ca74a1b023006a01de54231f54473d5b754e5f597",
    '{"preset":"taash","sweep_bonus":"match","target":200}': "c292d6535a8cc4588e1ba01f5ca15adacbfa6f323c64ac00d7ca87a350e077ce",
    '{"preset":"taash-b2b","streak_resets":false}': "37c8de9410710b6d26634bdd70cb2f813c49ad55f94d2141133c13c15c6d0f3d",
    '{"preset":"taash-b2b","trick_minimum":true,"target":60}': "2eee01817aea248f6ff2407a17ad817a8abc0816298ef2eb398e7a9b0f562b95",
    '{"preset":"mendikot","after_whitewash":"next"}': "db2d06da51ec21bf8aa593946be7dafe1450a42b38f03be480df9e1d7a9ff032",
    '{"preset":"mendikot","rotation":"simple","target":3}': "17358641cd6cf5f17704a0d4633333059a19706d48062855813ec00c5c6a241b",
    '{"preset":"mendikot-band","collection":"centre"}': "38ee7f23b789db67249d35ff197ce989b3581634d1bf204c5f7da4b0c234fd39",
    '{"preset":"mendikot-open","direction":"anticlockwise"}': "b6d8fe5b81cf924d67d55b4baf167f85ee2229ca387aaee1cbded07c44dd4471",
    '{"preset":"mendikot-6","trump":"hidden"}': "8f26d1c0abad047cf7b431cd5c54a60582cebe683c73e63d7f359075033ec4e7",
    '{"preset":"mendikot-8","trump":"open_draw"}': "dcb7ec398ecac3b540d6af08b42f9332366f6156ea9fb096c7fc491605590c86",
    '{"preset":"mendikot-6","trump":"hidden_auto","after_whitewash":"next"}': "c00ded71e02f978fb3934ce91a8ac04fd50d6317100b38d60019fb99ea5409c2",
}


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_decisions_unchanged(rules: str | dict[str, Any]) -> None:
    assert digest(rules) == EXPECTED[rules_id(rules)], (
        f"the heuristic's play changed for {rules_id(rules)}: compare `python -m tests.heuristic_trace` "
        "with the code before the change"
    )
