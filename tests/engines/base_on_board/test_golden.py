"""The engine behaves byte for byte as before it was made fast (issue 14).

Stored games are rebuilt from their commands and seed, so every dice draw, event, view, legal
action list (content and order), pitch record and ``to_json`` must stay exactly the same. The
digests below were computed with the engine of commit 90146ef, before any speed work; see
``golden_games.py`` for what each digest covers.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from app.sim.base_on_board import simulate
from tests.engines.base_on_board.golden_games import cases, game_digest

GOLDEN: tuple[str, ...] = (
    "6170cfe0591aba81e6460113831c133769c4a295cce86ade5322b10200166376",
    "7f59ff07f48656b45909f98c3b455d0bfebac55cde34aba7d8356cc78e57565c",
    "6db86d69819dd0ed3cc50cd63f9d610c808335d3872b6a9ea4ea5446b1b68a5f",
    "784b127be954b34b778279d98a0b91bd10af36e309fb8f8894b22b401066cfa9",
    "e5a480a6cbda5aa232011d7f31daa60037525f4982c84f16ac7207622d4d649a",
    "4ff42b0ee6b9bb1a7355c0cbd1241e568e539a70a983c7880b14c642d07c014f",
    "a01327418398be32572ba8f92363ae8d09b6fdd9b5a065da9fceba87dc34885d",
    "d96733cbd1aadc257bdef0b17c8642c16bb2ec1958b483687f35052e22eb15a0",
    "a06f18afb950861b6a7d6f6553831a550e4c64c1a3bd5a70d6faf450a61ccc38",
    "8d849dc6a4e2813c45f0aa23b970cabe47ff785be9308cbf42c02b7d65c66a12",
    "f31ea191d173e5165d429f006a106ef0c0d06d3d14e74e6d16d90d8816f8ae6a",
    "2e2d8e6cb64111f80735637b39cbaab689b79a3501c8239c335888b00ae57668",
    "4c90b1ae254c692140e2699d472ca3a07fa0bf72fb8049ead672fc5b27d99a24",
    "c4b651e24393b2001d5c2297ebf59611f43b441024bf2c56eb2138feb8df9dfe",
    "55ef2304dfd6d112e9dee3f5d7c12b22237dbec5869c31079c1263d296d0621d",
    "cd8bdad354332d638b90bbda228c2cb9d499fe331553423ac7f74d8aac8b7a67",
    "b4a37c831482a3e963b83c8e1a2d04068bf6bdaa5dbb65744f789e4f183ac5b3",
    "cee6bf55823720f306b3499e52fde88691eb2bfe2bfe3d2902f843a98438b95c",
    "1817cfecde794c5cde9f5bca9d9a70b761f61b251b3291d11422e94d9aa29d3e",
    "260eb1eaaddce78438d70fa58183f3db4029b89b52b6e0668d0c08d5345256e9",
    "747eb14744c0ea3011336485a3d2246948953d3eecc67dcc7afe1ad44622fd22",
    "a0a4cc8b82a74f26f71c2db3c4bb1d5680370e41bd4660eea68673af14596880",
    "0fecd4f33043fcd8127b01c186c212faef9538322b3dc4082d0d8d108fe8560d",
    "c732ca5576e5ddf11ce98a08370f4b20cbb5bc21ff8b02251ade7cbe5985bc61",
    "d8749a5bb5763cc69f83c6dcf405b71484073baf6f204dd3c652deaf6041215e",
    "2985d60e8fe679bec27dde0e3386e37ba0f314febbccc153d20d040fe0e68918",
    "6b084370aa8fe71fca8e6ec81b3079708d6c61007ab7c0cf2b86b30f90936079",
    "9eabce7d4bcdd820d0b34c59863bdef769d00284dc34d501c1ed93d54c904e22",
    "da7a004e432a0d9e477d81e44b9c0baa223fd0a9ab76c1027da45093f7101669",
    "1852200e19e7764049bc09ccbe687af2d3c585e9db7b1402484acbdbcf05c513",
)
SIMULATE_GOLDEN = "a91e56e6ff51f3a1e60bef0e7fdb047f8dcca1aa167569a20795a231d50aed80"


@pytest.mark.parametrize("index", range(len(GOLDEN)))
def test_game_matches_the_original_engine(index: int) -> None:
    seed, options, policy, hmac = cases(len(GOLDEN))[index]
    assert game_digest(seed, options, policy, hmac=hmac) == GOLDEN[index]


def test_simulate_matches_the_original_engine() -> None:
    out = []
    for seed, tier, innings in ((1, "pro", 9), (2, "lite", 5), (3, "lite-extended", 7)):
        report = simulate(games=25, seed=seed, tier=tier, innings=innings)
        report.pop("games_per_sec")
        out.append(report)
    assert hashlib.sha256(json.dumps(out).encode()).hexdigest() == SIMULATE_GOLDEN
