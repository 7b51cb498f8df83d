"""The engine's behaviour, byte for byte: a digest of a trace of seeded random matches (see ``tests/engine_trace``).

``EXPECTED`` holds the digests of the engine before the trick-core refactor of
issue 17 (2026-12-02): every preset and option variant, with actions, events,
observations as JSON, the watcher's view, clones and illegal attempts with
their error texts.  A refactor must leave every digest as it is; a deliberate
change of behaviour refreshes them with ``python -m tests.engine_trace`` (and
says why in its commit).

Refreshed for issue 20 part 8, when observations gained fields for bot authors
(``options``, ``tricks_per_hand``, ``trick_winner``, ``events``, ``cut_open``, a
``trump`` mark per trick card, ``seats`` per finished trick): the trace with exactly those
fields removed from every ``obs`` and ``watch`` line hashed to the previous
digests for every rules, so nothing else changed.
"""

from __future__ import annotations

import pytest
from tests.engine_trace import digest
from tests.helpers import ALL_RULES, rules_id

EXPECTED = {
    "pagat": "2e0c70a432165c3a397368e45c406e5f493352f7578f19dfb80a46b1c526d95f",
    "pagat-cut": "2aabe1dc9c8a4ada1efd204a3b4c3fcd4853b3efdb1a981ef256d9d6619d2f37",
    "taash": "bfaf3f92dc83e719ec457ddfe66929ef533b5324ccaf36785f6d3206d914ba1b",
    "taash-b2b": "a9bf63737de90a82efac671f2329bc7d2472b21cf5f4ed8b0816644e51ff9158",
    "mendikot": "d65371a40fb4b29703a24cde091321cceac736ecbf63fca8223e38cc1cfec45a",
    "mendikot-band": "09e9dbd12cb9256ead9ffab837f8d889ca6ca2f8a9449ef3b6718874d8924097",
    "mendikot-band-auto": "a34966a83f6372b5abed2ea562f10e2183454ba068ccb9ae28b804464b9b7a1f",
    "mendikot-open": "8258b116fb0206408ec2c0bdef4c9128d2589aa404794bfc738d2df97642af29",
    "mendikot-6": "b117b7756585c4e0a9b3c437ee767c6c69c35ecaf1a6e8629f4a595aa7de694f",
    "mendikot-8": "c24933cc3eef435af6f68078895c389e0ca9da906250a4aa1ae7f828f5b3b8a5",
    '{"preset":"pagat","streak_resets":false,"target":2}': "f4ad9970a4ab02e84692ae1b458833a9e1fd9ecc285a2c262ad23c3fd7599824",
    '{"preset":"pagat","rotation":"simple"}': "6bdb7c60c6915942e7c6d3aed8cbfb19627a93dc34dbec770ed614c041680a1f",
    '{"preset":"pagat-cut","target":2}': "960a54322cc92c85d256d4046916a2853b8371186de128b1012ec6cf7a58c338",
    '{"preset":"taash","trick_minimum":true}': "1b753ad1559e82eeac86ec9bf671f52e26e36b6a44ddd969a0c4a2129ba3c80a",
    '{"preset":"taash","sweep_bonus":"double"}': "eb179497d3d383e5821dd23e92f47f3e2d90bf719811e8fbdeb630dc5be44b0b",
    '{"preset":"taash","sweep_bonus":"match","target":200}': "226c87ae00fe5e0c87f30c25da451344bb1be0627fe8b2163c2ad1f268143342",
    '{"preset":"taash-b2b","streak_resets":false}': "0dfbfc4be235a9997eccae7fb30a48ef2fbd7a84f05c6f6748c15755ef73f932",
    '{"preset":"taash-b2b","trick_minimum":true,"target":60}': "08cc5a95618e6197349dae8cde90351f261e4d7d6c1ab406e38c3af48364f69c",
    '{"preset":"mendikot","after_whitewash":"next"}': "1b0d9f855059756f5d8f37722b64966c1fa9f7a892cac03e03f0cdabcd47c6a0",
    '{"preset":"mendikot","rotation":"simple","target":3}': "77cabe514b82af4e1daaeb876a087f6d6855bb21566732a7e937bfd0102464b3",
    '{"preset":"mendikot-band","collection":"centre"}': "e27dd5c816948cc33bbab7a22b6caebbfabdaf105af5263bdfadfdd64f1216fe",
    '{"preset":"mendikot-open","direction":"anticlockwise"}': "01d94e160b8562793ea0469dd8f429c3352f8bacb078de5417a20d08269f11a0",
    '{"preset":"mendikot-6","trump":"hidden"}': "ab9b7dd19e88c642bea906f3dc808a630a41a96b7326466194de864bd39b4b31",
    '{"preset":"mendikot-8","trump":"open_draw"}': "6db3c54e046f7ba728f9463fecf231887f89e42a4c47be07359a21cc47be44b5",
    '{"preset":"mendikot-6","trump":"hidden_auto","after_whitewash":"next"}': "72c4fe35153f1eed5cd31d65aa071331065dbbf85cd913d76e2792addc18a25b",
}


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_trace_unchanged(rules: object) -> None:
    assert digest(rules) == EXPECTED[rules_id(rules)], (
        f"the engine's behaviour changed for {rules_id(rules)}: diff `python -m tests.engine_trace NAME` "
        "against the code before the change"
    )
