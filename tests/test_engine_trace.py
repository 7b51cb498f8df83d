"""The engine's behaviour, byte for byte: a digest of a trace of seeded random matches (see ``tests/engine_trace``).

``EXPECTED`` holds the digests of the engine before the trick-core refactor of
issue 17 (2026-12-02): every preset and option variant, with actions, events,
observations as JSON, the watcher's view, clones and illegal attempts with
their error texts.  A refactor must leave every digest as it is; a deliberate
change of behaviour refreshes them with ``python -m tests.engine_trace`` (and
says why in its commit).
"""

from __future__ import annotations

import pytest
from tests.engine_trace import digest
from tests.helpers import ALL_RULES, rules_id

EXPECTED = {
    'pagat':
        '9e6e2432784d59a23f1e42231e84725b51af2a39e1c854e7d8a4d4f35acaed6f',
    'pagat-cut':
        '4fd43a1e72dba76d530cc0ca2b93bf4e776a4fec2225505c06538e2b4d75517a',
    'taash':
        'ed4234d425b1ca908f28cf4d5aff59442c4478a3a3a35a1e2a0a998631faa054',
    'taash-b2b':
        'eb47e5f94d2119f4573c537c240d3903b3381ab92e04ab1c6eac0c9140aa2f32',
    'mendikot':
        '1917b97f5b8a5ddf8ed2c9dcc95d96a78acb3dddef8465c673b889954f6959bb',
    'mendikot-band':
        'dcdb843d877ffa4dd125faaea2c8c573d48ee99321f331e89a28e49c4ce9f144',
    'mendikot-band-auto':
        'b68e577488d24b0f82442160a0952fb5c62129d887a6c008afaf095368caa2bf',
    'mendikot-open':
        'f24f5ef3ba045dcf057f291764ff9863d61122537dcf898a2c3977609607c54b',
    'mendikot-6':
        '4974dbb5a99a35ff75a0133037c77a84f3275cdff88e702b94098ee674d5eba3',
    'mendikot-8':
        '045566d39ece60bf31811f21c3a6782d5b984c3544ac5f2c3a834ef63fc044ea',
    '{"preset":"pagat","streak_resets":false,"target":2}':
        '24fe6651ba3322ba722d405a6f75fa9fe434605cf3c3e198bfa5df972faf5f16',
    '{"preset":"pagat","rotation":"simple"}':
        '734ab33e395f665f118af54a9e704f02b47d9ac96b04caa2e8026cf7fbf6b40d',
    '{"preset":"pagat-cut","target":2}':
        '333c312f50b5f6bd321afcfe424a58fb456b5442aaac586204a884aac1d75a23',
    '{"preset":"taash","trick_minimum":true}':
        '264f022947098206949b74ff1e9eb26033719bec0890c107da350e5c23b4aba8',
    '{"preset":"taash","sweep_bonus":"double"}':
        'db33b89ed234953fac062e2b59a04b9b63bbffff0077afc83e225862a3bda777',
    '{"preset":"taash","sweep_bonus":"match","target":200}':
        'c2817d335d22803042f6c92e84bb1a6aa98b728fe901063f3d54aa414e3b6bb1',
    '{"preset":"taash-b2b","streak_resets":false}':
        '7603ff4b2df3af5e60c23b67099c2b2d66f9ad109f82b2cd284d464f2306e5da',
    '{"preset":"taash-b2b","trick_minimum":true,"target":60}':
        '0e4ca0f167afe616c3308d88fd7d5ca0396e18d27497b3c72e1dab2281ff802f',
    '{"preset":"mendikot","after_whitewash":"next"}':
        '2656df54b824b5d0033b404439e1fb38444bcdef7a7cd0e03c402d2034b4fa3d',
    '{"preset":"mendikot","rotation":"simple","target":3}':
        '798e34c8d4ba550f96616b453fee13a9ae190993096045626ba3f926038325d3',
    '{"preset":"mendikot-band","collection":"centre"}':
        '7fa706da758c0364c6a28fcc06900c8b98d26ead5cd23660d418a7d878a19ea3',
    '{"preset":"mendikot-open","direction":"anticlockwise"}':
        '725f61fa9062d63f21b36c24c98b36d7b569ffed8e308d07c28829f11bf888b6',
    '{"preset":"mendikot-6","trump":"hidden"}':
        '05b15a24f6beb30c9e1b08d29b2b0e15db47797cc2fb1d20996edbd88329520b',
    '{"preset":"mendikot-8","trump":"open_draw"}':
        '762c2c1ccdc8ec6fc0e208f59b1f01a495fb8c1906e9ec38987a378388fb3caa',
    '{"preset":"mendikot-6","trump":"hidden_auto","after_whitewash":"next"}':
        'f6326c3bd2f4f1dd21cdd4651b0002eaca4e87928d462a1fd981cab23356aeaa',
}


@pytest.mark.parametrize("rules", ALL_RULES, ids=rules_id)
def test_trace_unchanged(rules: object) -> None:
    assert digest(rules) == EXPECTED[rules_id(rules)], (
        f"the engine's behaviour changed for {rules_id(rules)}: diff `python -m tests.engine_trace NAME` "
        "against the code before the change"
    )
