"""Forced decisions (should-bid, the paired swap analysis): ``bower.sim.runner.play_forced`` against the reference.

A force is ``(seat, at, swap, call, trump)``, -1 meaning "as the strategy
does": at the seat's first turn (``at`` -1) or at the turn taken after
exactly ``at`` calls (if the seat takes it), the swap (when open) and the call
are imposed; if the seat wins the auction, so is the trump it names. Forces
are built from the unforced auction's prefix, so that an imposed call is
legal at its turn: pass unless the dealer is stuck, a bid above the standing
one, or the moon. Every comparison is exact: the whole record.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower.sim import runner
from bower.sim.variants.ghost import hands as ghost_hands
from tests.reference import ghost as ref
from tests.test_twin_games import seat_strategies
from tests.test_twin_ghost import RULE_OPTIONS, _first_difference, rule_sets

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
CALL_VALUE = {"pass": 0, "3": 3, "4": 4, "5": 5, "moon": 6}
CALL_NAME = {v: k for k, v in CALL_VALUE.items()}
ALL_CALLS = (0, 3, 4, 5, 6)
MAX_CALLS = 8  # one more than the longest auction (4 rising bids, 3 passes)

# ---------------------------------------------------------------- the rules a force must respect


def _standing(prefix) -> int:
    """The standing bid after the calls ``prefix`` ([seat, name] pairs): 0 if nobody has bid."""
    return max((CALL_VALUE[c] for _, c in prefix), default=0)


def _stuck(prefix, seat: int, dealer: int, rules: dict) -> bool:
    """Stick the dealer: the dealer's turn with no bid made and both other players passed."""
    others = {s for s in range(3) if s != dealer}
    passed = {s for s, c in prefix if c == "pass"}
    return bool(rules["stick_the_dealer"]) and seat == dealer and _standing(prefix) == 0 and others <= passed


def _legal_calls(prefix, seat: int, dealer: int, rules: dict) -> list[int]:
    """The calls ``seat`` may make after ``prefix``: pass (unless stuck), each bid above the standing one, moon."""
    standing = _standing(prefix)
    calls = [] if _stuck(prefix, seat, dealer, rules) else [0]
    return calls + [b for b in (3, 4, 5) if b > standing] + [6]


def _swap_open(rules: dict, unforced: dict, k: int, seat: int) -> bool:
    """Whether the swap is open at turn ``k`` (the first turn of ``seat``) of the unforced auction."""
    if rules["swap"] != "at_turn":
        return False
    if any(s == seat for s, _ in unforced["calls"][:k]):
        return False
    swapper = unforced["swap"]
    if swapper is None:
        return True
    first_of_swapper = next(i for i, (s, _) in enumerate(unforced["calls"]) if s == swapper)
    return first_of_swapper >= k


# ---------------------------------------------------------------- generators

deal_from_perm = st.permutations(range(24)).map(lambda p: [sum(1 << c for c in p[6 * i: 6 * i + 6]) for i in range(4)])
deal_from_stream = st.tuples(st.integers(0, 2**20), st.integers(0, 300)).map(
    lambda t: ghost_hands.deal_masks(t[0], t[1], 1)[0].tolist()
)
deals = st.one_of(deal_from_perm, deal_from_stream)
score_sets = st.one_of(
    st.just((0, 0, 0)),
    st.tuples(*[st.sampled_from([0, 10, 25, 26, 27, 31, -6, -24])] * 3),
)


@st.composite
def setups(draw):
    """(deal, dealer, rules, strategy, scores, decision seed) and the reference's unforced record."""
    deal = draw(deals)
    dealer = draw(st.integers(0, 2))
    rules = draw(rule_sets)
    strategy = draw(seat_strategies)
    scores = draw(score_sets)
    seed = draw(st.integers(0, 2**16))
    unforced = ref.play_forced(deal, dealer, None, rules, strategy, scores, seed)
    return (deal, dealer, rules, strategy, scores, seed), unforced


def _turn_force(draw, setup, unforced):
    """A force at a turn that comes: (force, k = its index in the calls)."""
    _, dealer, rules, *_ = setup
    calls = unforced["calls"]
    k = draw(st.integers(0, len(calls) - 1))
    seat = calls[k][0]
    first = all(s != seat for s, _ in calls[:k])
    at = draw(st.sampled_from([-1, k])) if first else k
    legal = [c for c in _legal_calls(calls[:k], seat, dealer, rules) if c in ALL_CALLS]
    call = draw(st.sampled_from([-1] + legal))
    swap = draw(st.sampled_from([-1, 0, 1]))
    trump = draw(st.sampled_from([-1, 0, 1, 2, 3]))
    return (seat, at, swap, call, trump), k


def _missed_force(draw, unforced, trump=None):
    """A force at a turn that never comes (past the end, another seat's turn, or the first turn of a silent seat)."""
    calls = unforced["calls"]
    silent = [s for s in range(3) if all(c[0] != s for c in calls)]
    others = [(k, s) for k, (t, _) in enumerate(calls) for s in range(3) if s != t]
    kinds = ["past the end", "another seat's turn"] + (["silent seat"] if silent else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "past the end":
        seat, at = draw(st.integers(0, 2)), draw(st.integers(len(calls), MAX_CALLS))
    elif kind == "another seat's turn":
        at, seat = draw(st.sampled_from(others))
    else:
        seat, at = draw(st.sampled_from(silent)), -1
    swap = draw(st.sampled_from([-1, 0, 1]))
    call = draw(st.sampled_from([-1, *ALL_CALLS]))
    if trump is None:
        trump = draw(st.sampled_from([-1, 0, 1, 2, 3]))
    return seat, at, swap, call, trump


def _both(setup, force) -> dict:
    """The record from the kernels and from the reference, which must be equal."""
    deal, dealer, rules, strategy, scores, seed = setup
    kernel = ghost_hands.play_forced(deal, dealer, force, rules, strategy, scores, seed)
    reference = ref.play_forced(deal, dealer, force, rules, strategy, scores, seed)
    assert kernel == reference, f"force {force}\n" + _first_difference(kernel, reference)
    return reference


# ---------------------------------------------------------------- kernels against the reference


@settings(max_examples=150, **SETTINGS)
@given(data=st.data())
def test_unforced_twin(data):
    setup, unforced = data.draw(setups())
    assert _both(setup, None) == unforced
    assert unforced["hand"] == 0


@settings(max_examples=400, **SETTINGS)
@given(data=st.data())
def test_forced_turn_twin(data):
    setup, unforced = data.draw(setups())
    _, dealer, rules, *_ = setup
    force, k = _turn_force(data.draw, setup, unforced)
    seat, at, swap, call, trump = force
    rec = _both(setup, force)
    calls = rec["calls"]
    # nothing before the forced turn changes; the forced turn is the seat's
    assert calls[:k] == unforced["calls"][:k]
    assert calls[k][0] == seat
    if call >= 0:
        assert calls[k][1] == CALL_NAME[call]
    else:
        assert calls[k][1] in {CALL_NAME[c] for c in _legal_calls(calls[:k], seat, dealer, rules)}
    if swap >= 0 and _swap_open(rules, unforced, k, seat):
        assert (rec["swap"] == seat) == (swap == 1)
    if rec["maker"] == seat and trump >= 0:
        assert rec["trump"] == ref.SUIT_LETTERS[trump]
    if at == -1:  # the seat's first turn: the same as naming its index
        assert _both(setup, (seat, k, swap, call, trump)) == rec


@settings(max_examples=150, **SETTINGS)
@given(data=st.data())
def test_missed_turn_twin(data):
    # Any trump: a seat that wins the auction still names the forced trump.
    setup, unforced = data.draw(setups())
    force = _missed_force(data.draw, unforced)
    rec = _both(setup, force)
    assert rec["calls"] == unforced["calls"] and rec["swap"] == unforced["swap"]
    if rec["maker"] == force[0] and force[4] >= 0:
        assert rec["trump"] == ref.SUIT_LETTERS[force[4]]


@settings(max_examples=150, **SETTINGS)
@given(data=st.data())
def test_forcing_a_turn_that_never_comes_changes_nothing(data):
    setup, unforced = data.draw(setups())
    seat, at, swap, call, _ = _missed_force(data.draw, unforced, trump=-1)
    assert _both(setup, (seat, at, swap, call, -1)) == unforced
    # with a trump too, as long as the seat does not win the auction
    if unforced["maker"] != seat:
        assert _both(setup, (seat, at, swap, call, data.draw(st.integers(0, 3)))) == unforced


STRATEGY_CYCLE = ["default", "aggressive", "random", ["random", "cautious", "score-aware"], "never-swap",
                  ["default", "random", "aggressive"]]


def test_every_rule_combination_and_every_forced_call_twin():
    # For each rule set, a few deals; at every turn of the unforced auction, every legal
    # call (and the strategy's), the three swap choices and the trumps in turn.
    names = list(RULE_OPTIONS)
    deal_list = ghost_hands.deal_masks(77, 0, 64 * 3).tolist()
    n = 0
    for i, values in enumerate(itertools.product(*RULE_OPTIONS.values())):
        rules = dict(zip(names, values))
        for j in range(3):
            deal = deal_list[3 * i + j]
            setup = (deal, (i + j) % 3, rules, STRATEGY_CYCLE[(i + j) % len(STRATEGY_CYCLE)], (0, 0, 0), i)
            unforced = _both(setup, None)
            dealer = setup[1]
            for k, (seat, _) in enumerate(unforced["calls"]):
                first = all(s != seat for s, _ in unforced["calls"][:k])
                for c, call in enumerate([-1] + _legal_calls(unforced["calls"][:k], seat, dealer, rules)):
                    swap = (-1, 0, 1)[(c + k) % 3]
                    trump = (-1, 0, 1, 2, 3)[(c + j) % 5]
                    _both(setup, (seat, -1 if first and c % 2 else k, swap, call, trump))
                    n += 1
    assert n > 64 * 3 * 3


# ---------------------------------------------------------------- what a force must do


def _turn_cases(n_deals: int, rules: dict, strategy, seed: int = 5):
    """(setup, unforced record) for deals 0.. of ``seed``, the dealer turning."""
    for h, deal in enumerate(ghost_hands.deal_masks(seed, 0, n_deals).tolist()):
        setup = (deal, h % 3, rules, strategy, (0, 0, 0), h)
        yield setup, ref.play_forced(*setup[:2], None, *setup[2:])


@pytest.mark.parametrize("auction", ["one_lap", "until_passes"])
def test_a_forced_moon_ends_the_auction(auction):
    rules = {"auction": auction}
    n = 0
    for setup, unforced in _turn_cases(60, rules, ["default", "random", "cautious"]):
        for k, (seat, _) in enumerate(unforced["calls"]):
            rec = _both(setup, (seat, k, -1, 6, -1))
            assert rec["calls"][:k] == unforced["calls"][:k]
            assert rec["calls"][k:] == [[seat, "moon"]]
            assert (rec["maker"], rec["bid"]) == (seat, 6)
            assert sum(rec["tricks"].values()) == 6
            n += 1
    assert n >= 100


def test_a_stuck_dealer_is_never_forced_to_pass():
    # Cautious players pass a lot, so the dealer is often stuck. Where the rule says stuck,
    # the engines agree (the dealer bids, unforced), the generated calls leave out the pass,
    # every generated call plays the same in both, and the reference refuses a forced pass.
    rules = {"stick_the_dealer": True, "auction": "until_passes"}
    stuck_turns = 0
    for setup, unforced in _turn_cases(150, rules, ["cautious", "random", "cautious"]):
        dealer = setup[1]
        for k, (seat, call) in enumerate(unforced["calls"]):
            prefix = unforced["calls"][:k]
            allowed = _legal_calls(prefix, seat, dealer, rules)
            if not _stuck(prefix, seat, dealer, rules):
                assert 0 in allowed
                continue
            stuck_turns += 1
            assert call != "pass" and 0 not in allowed and allowed == [3, 4, 5, 6]
            for c in [-1, *allowed]:
                rec = _both(setup, (seat, k, -1, c, -1))
                assert rec["maker"] == dealer
            with pytest.raises(AssertionError):
                ref.play_forced(setup[0], dealer, (seat, k, -1, 0, -1), *setup[2:])
            # without stick the dealer, the same turn may pass
            free = dict(rules, stick_the_dealer=False)
            assert 0 in _legal_calls(prefix, seat, dealer, free)
    assert stuck_turns >= 10


def test_a_forced_swap_draws_nothing_and_a_forced_call_draws_nothing():
    # Three random players: forcing the first player's swap or call to what it drew anyway
    # keeps that decision but skips its draw, so the engines agree on the shifted stream
    # and the later random decisions usually change.
    n = 0
    for setup, unforced in _turn_cases(80, {}, "random"):
        dealer = setup[1]
        first = (dealer + 1) % 3
        swapped = unforced["swap"] == first
        call = CALL_VALUE[unforced["calls"][0][1]]
        forces = [(first, -1, int(swapped), -1, -1), (first, -1, -1, call, -1), (first, -1, int(swapped), call, -1)]
        for force in forces:
            rec = _both(setup, force)
            assert (rec["swap"] == first) == swapped
            if force[3] >= 0:
                assert rec["calls"][0] == unforced["calls"][0]
            n += rec != unforced
    assert n > 0  # not drawing shifts the stream, so later random decisions change


# ---------------------------------------------------------------- the mirrored deal (swap analysis)


def _mirror(deal: list[int]) -> list[int]:
    """The deal with the dealer's hand (position 3) and the ghost exchanged."""
    return [deal[0], deal[1], deal[3], deal[2]]


MIRROR_STRATEGIES = ["default", "aggressive", "random", ["random", "default", "cautious"], "score-aware", "never-swap",
                     ["never-swap", "random", "never-swap"]]


@pytest.mark.parametrize("auction", ["one_lap", "until_passes"])
@pytest.mark.parametrize("stick", [False, True])
def test_mirrored_deal_identity_for_the_dealer(auction, stick):
    # The dealer swapping on a deal and keeping on its mirror hold the same cards with the
    # same dead hand, after the same auction so far (nobody before saw either hand), so the
    # whole hand is the same, given the swap is still open at the dealer's first turn.
    rules = {"auction": auction, "stick_the_dealer": stick, "swap": "at_turn"}
    checked = 0
    deal_list = ghost_hands.deal_masks(2024, 0, 3000).tolist()
    for h, deal in enumerate(deal_list):
        dealer = h % 3
        strategy = MIRROR_STRATEGIES[h % len(MIRROR_STRATEGIES)]
        seed = h // 7
        swap = ghost_hands.play_forced(deal, dealer, (dealer, -1, 1, -1, -1), rules, strategy, seed=seed)
        keep = ghost_hands.play_forced(_mirror(deal), dealer, (dealer, -1, 0, -1, -1), rules, strategy, seed=seed)
        if swap["swap"] != dealer:  # someone swapped before, or a moon ended the auction first
            continue
        assert keep["swap"] is None
        assert swap["points"][str(dealer)] == keep["points"][str(dealer)], (h, deal, strategy)
        for key in ("calls", "maker", "bid", "trump", "plays", "tricks", "points"):
            assert swap[key] == keep[key], (h, key)
        if h % 10 == 0:
            assert ref.play_forced(deal, dealer, (dealer, -1, 1, -1, -1), rules, strategy, seed=seed) == swap
            assert ref.play_forced(_mirror(deal), dealer, (dealer, -1, 0, -1, -1), rules, strategy, seed=seed) == keep
        checked += 1
    assert checked >= 500
