"""The reference engine and the kernels against the shared rule vectors (RULES.md worked cases).

The vectors sit in ``shared/vectors`` beside the repository. They also cover
the other variants: tricks or hands with the joker (``JK``) belong to
Hasenpfeffer and are left out here, as are tricks of other than three cards
for the kernel (Ghost Hand tricks always have three); the reference's trick
rule is checked on the two- and four-card tricks without a joker as well,
since "highest trump, else highest card of the suit led" does not depend on
the number of cards.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from bower.kernels.ghost import hand as gk
from bower.kernels.tables import EFF_SUIT
from bower.sim import runner
from bower.sim.variants.ghost import hands as ghost_hands
from bower.sim.cards import SUITS, parse_card
from tests.reference import ghost as ref

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "vectors"


def _load(name: str) -> list[dict]:
    with open(VECTORS / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


TRICKS = _load("tricks.jsonl")
LEGAL = _load("legal.jsonl")
SCORES = _load("ghost_scores.jsonl")

GHOST_TRICKS = [v for v in TRICKS if len(v["cards"]) == 3 and "JK" not in v["cards"]]
OTHER_TRICKS = [v for v in TRICKS if len(v["cards"]) != 3 and "JK" not in v["cards"]]
GHOST_LEGAL = [v for v in LEGAL if "JK" not in v["hand"] and v["lead"] != "JK"]
BID = {"3": 3, "4": 4, "5": 5, "moon": 6}


def test_vector_files_hold_what_we_expect():
    # Guards the filters above: a vector file that shrank or changed form must not pass silently.
    assert len(GHOST_TRICKS) >= 200 and len(OTHER_TRICKS) >= 300
    assert len(GHOST_LEGAL) >= 350
    assert len(SCORES) == 448
    assert {v["bid"] for v in SCORES} == set(BID)


def _trump(v) -> int:
    return SUITS.index(v["trump"])


# ---------------------------------------------------------------- tricks


def _check_trick_reference(v):
    trump = _trump(v)
    cards = [ref.card_from_str(c) for c in v["cards"]]
    assert ref.effective_suit(cards[0], trump) == SUITS.index(v["led_suit"]), v
    assert ref.trick_winner(cards, trump) == v["winner"], v


@pytest.mark.parametrize("v", GHOST_TRICKS, ids=lambda v: f"{v['trump']}:{'-'.join(v['cards'])}")
def test_trick_winner_reference(v):
    _check_trick_reference(v)


def test_trick_winner_reference_other_sizes():
    for v in OTHER_TRICKS:
        _check_trick_reference(v)


def test_trick_winner_kernel():
    for v in GHOST_TRICKS:
        cards = np.array([parse_card(c) for c in v["cards"]], np.int64)
        trump = np.int64(_trump(v))
        assert gk.trick_winner(cards, trump) == v["winner"], v
        assert int(EFF_SUIT[trump, cards[0]]) == SUITS.index(v["led_suit"]), v


# ---------------------------------------------------------------- legal cards


def _legal_strings_reference(v) -> list[str]:
    hand = [ref.card_from_str(c) for c in v["hand"]]
    legal = ref.legal_cards(hand, ref.card_from_str(v["lead"]), _trump(v))
    return sorted(str(c) for c in legal)


@pytest.mark.parametrize("v", GHOST_LEGAL, ids=lambda v: f"{v['trump']}:{v['lead']}:{'-'.join(v['hand'])}")
def test_legal_reference(v):
    assert _legal_strings_reference(v) == sorted(v["legal"])


def test_legal_kernel():
    for v in GHOST_LEGAL:
        hand = 0
        for c in v["hand"]:
            hand |= 1 << parse_card(c)
        got = gk.legal_mask(np.int64(hand), np.int64(parse_card(v["lead"])), np.int64(_trump(v)))
        want = 0
        for c in v["legal"]:
            want |= 1 << parse_card(c)
        assert int(got) == want, v


# ---------------------------------------------------------------- scores


@pytest.mark.parametrize("v", SCORES, ids=lambda v: f"{v['bid']}:{v['tricks']}:{v['rules']}")
def test_score_reference(v):
    assert ref.score_hand(v["maker"], BID[v["bid"]], v["tricks"], v["rules"]) == v["points"]


def test_score_kernel():
    for v in SCORES:
        assert ghost_hands.score_hand(v["maker"], BID[v["bid"]], v["tricks"], v["rules"]) == v["points"], v
