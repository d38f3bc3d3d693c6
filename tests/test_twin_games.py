"""Per-seat strategies, score-aware bidding, the random player and whole games: kernels against the reference.

``bower.sim.runner.hand_records`` and ``bower.sim.runner.game_results`` (and the game
counters of ``run_games`` / ``simulate_games``) are compared exactly with the
plain-Python twin in ``tests/reference``: the same deal and decision streams,
the same floats, the same records and results. Strategies mix presets,
perturbed parameters, score-aware players with shifts large enough to change
calls, and the random player, seat by seat; rule options run through every
value, both tie-breaks included.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bower.kernels import games as kg
from bower.kernels.ghost import drivers as gs
from bower.kernels.ghost import strategy as kst
from bower.kernels import rng as krng
from bower.sim import runner
from bower.sim.rules import encode, resolve
from bower.sim.strategy import load_strategy, resolve_strategy, to_vector
from tests.reference import ghost as ref
from tests.reference import rng as rref
from tests.test_twin_ghost import PARAM_STRATEGIES, RULE_OPTIONS, _first_difference, _summary_from_records, rule_sets
from bower.sim.variants import get_variant

GHOST = get_variant("ghost")
# the presets the twin plays (it has no PIMC card play: pimc_worlds >= 1)
PRESETS = {n: p for n, p in get_variant("ghost").presets.items() if p["pimc_worlds"] < 1}

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
SETS = runner.GAME_CHUNK_SETS
HALF = 0.5
BELOW_HALF = float(np.nextafter(0.5, 0.0))

# ---------------------------------------------------------------- generators


def _around(x: float):
    return st.sampled_from([x, float(np.nextafter(x, np.inf)), float(np.nextafter(x, -np.inf))])


shifts = st.one_of(
    st.sampled_from([0.0, 0.4, -0.4, 1.5, -1.5, 3.0, -3.0, 10.0, -10.0]),
    st.integers(-16, 16).map(lambda k: k / 4),
    st.floats(-4.0, 4.0, allow_nan=False),
)
# near_target >= 32 puts every score of an independent hand (0) "near the target"
near_targets = st.one_of(
    st.sampled_from([0.0, 6.0, 26.0, 40.0, 0.1, 31.9]),
    _around(32.0),
    st.floats(0.0, 50.0, allow_nan=False),
)
score_aware = st.fixed_dictionaries(
    {"near_target": near_targets, "bid_shift_self_near": shifts, "bid_shift_opp_near": shifts},
    optional=PARAM_STRATEGIES,
)
random_player = st.one_of(
    st.just("random"),
    st.fixed_dictionaries({"random": st.sampled_from([1.0, HALF])}, optional=PARAM_STRATEGIES),
)
not_random = st.fixed_dictionaries({"random": st.sampled_from([0.0, BELOW_HALF])}, optional=PARAM_STRATEGIES)
one_strategy = st.one_of(
    st.sampled_from(sorted(PRESETS)),
    st.fixed_dictionaries({}, optional=PARAM_STRATEGIES),
    score_aware,
    random_player,
    not_random,
)
seat_strategies = st.one_of(one_strategy, st.lists(one_strategy, min_size=3, max_size=3))
seeds = st.one_of(st.integers(0, 2**16), st.integers(0, 2**63 - 1))

# Whole games: strategies whose shifts are large enough to turn calls on and off near the target.
NEAR_TIMID = {"near_target": 10.0, "bid_shift_self_near": 1.5, "bid_shift_opp_near": 0.0}
NEAR_BOLD = {"near_target": 8.0, "bid_shift_self_near": -1.5, "bid_shift_opp_near": -2.0, "bid_jump": 1.0}
STOPPER = {"near_target": 12.0, "bid_shift_opp_near": -3.0}
GAME_POOL = ["default", "aggressive", "cautious", "never-swap", "score-aware", "random", NEAR_TIMID, NEAR_BOLD, STOPPER]
game_strategy = st.one_of(st.sampled_from(GAME_POOL), score_aware, not_random)


def _all_random(strategies, assignment) -> bool:
    return all(ref.is_random(resolve_strategy(strategies[k])) for k in assignment)


@st.composite
def games_setup(draw):
    """(strategies, assignments): 1-3 strategies and a list of seat assignments of them."""
    n = draw(st.integers(1, 3))
    strategies = tuple(draw(st.lists(game_strategy, min_size=n, max_size=n)))
    patterns = [st.lists(st.tuples(*[st.integers(0, n - 1)] * 3).map(list), min_size=1, max_size=4)]
    if n == 3:
        patterns.append(st.just([list(p) for p in itertools.permutations(range(3))]))  # all 6 seatings
    if n >= 2:
        a, b = draw(st.permutations(range(n)))[:2]
        patterns.append(st.just([[a, b, b], [b, a, b], [b, b, a]]))  # the 3 rotations of (A, B, B)
    assignments = draw(st.one_of(*patterns))
    # a game of three random players rarely ends before 1000 hands: too slow for the reference here
    assume(not any(_all_random(strategies, a) for a in assignments))
    return strategies, assignments


def _compare_hands(kernel: list[dict], reference: list[dict]) -> None:
    assert len(kernel) == len(reference)
    for k, r in zip(kernel, reference):
        assert k == r, _first_difference(k, r)


def _compare_games(kernel: list[dict], reference: list[dict]) -> None:
    assert len(kernel) == len(reference)
    for k, r in zip(kernel, reference):
        assert k == r, f"kernel {k}\nreference {r}"


# ---------------------------------------------------------------- streams and single decisions


def test_splitmix64_known_answers():
    # Vigna's splitmix64.c from x = 0.
    assert rref.splitmix64_state(0) == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC]


@settings(max_examples=60, **SETTINGS)
@given(seed=st.integers(0, 2**64 - 1), assignment=st.integers(0, 40))
def test_game_streams_twin(seed, assignment):
    out = np.empty(4, np.uint64)
    krng.splitmix_seed(np.uint64(seed), out)
    assert [int(x) for x in out] == rref.splitmix64_state(seed)
    assert int(kg.DECISION_MIX) == rref.DECISION_MIX
    mixed = seed ^ ((0xD1B54A32D192ED03 * (assignment + 1)) % 2**64)  # the spec's decision seed
    krng.splitmix_seed(np.uint64(mixed), out)
    assert [int(x) for x in out] == rref.game_decision_rng(seed, assignment).s


@settings(max_examples=30, **SETTINGS)
@given(seed=seeds, first=st.integers(0, 10_000), n=st.integers(1, 4))
def test_decision_states_twin(seed, first, n):
    got = runner.decision_states(seed, first, n)
    assert [[int(x) for x in row] for row in got] == [rref.decision_chunk_state(seed, first + i) for i in range(n)]
    assert not np.array_equal(got, runner.chunk_states(seed, first, n)), "decision and deal streams differ"


@settings(max_examples=300, **SETTINGS)
@given(
    scores=st.lists(st.integers(-60, 60), min_size=3, max_size=3),
    seat=st.integers(0, 2),
    params=score_aware,
)
def test_score_shift_twin(scores, seat, params):
    p = resolve_strategy(params)
    got = float(kst.score_shift(np.int64(seat), np.array(scores, np.int64), np.int64(ref.TARGET), to_vector(p)))
    assert got == ref.score_shift(seat, scores, p)  # bit-identical


@settings(max_examples=300, **SETTINGS)
@given(
    hand=st.sets(st.integers(0, 23), min_size=6, max_size=6),
    standing=st.sampled_from([0, 3, 4, 5]),
    stuck=st.booleans(),
    shift=shifts,
    params=st.one_of(st.just("default"), score_aware),
)
def test_call_with_shift_twin(hand, standing, stuck, shift, params):
    stuck = stuck and standing == 0
    p = resolve_strategy(params)
    vec = to_vector(p)
    mask = sum(1 << c for c in hand)
    _, est = kst.best_trump(np.int64(mask), vec)
    got = int(kst.choose_call(est, np.int64(standing), stuck, shift, vec))
    assert got == ref.default_call(ref.cards_from_mask(mask), standing, stuck, shift, p)
    assert got in ref.legal_calls(standing, stuck)


@settings(max_examples=100, **SETTINGS)
@given(
    state=st.lists(st.integers(0, 2**64 - 1), min_size=4, max_size=4).filter(any),
    calls=st.lists(st.tuples(st.sampled_from([0, 3, 4, 5]), st.booleans()), min_size=1, max_size=30),
)
def test_random_call_twin(state, calls):
    s, buf = np.array(state, np.uint64), np.zeros(2, np.int64)
    r = rref.Xoshiro256ss(state)
    for standing, stuck in calls:
        stuck = stuck and standing == 0
        allowed = ref.legal_calls(standing, stuck)
        got = int(kst.random_call(np.int64(standing), stuck, s, buf))
        assert got == allowed[r.bounded(len(allowed))]


# ---------------------------------------------------------------- independent hands


@settings(max_examples=100, **SETTINGS)
@given(
    seed=seeds,
    chunk=st.integers(0, 1000),
    offset=st.integers(0, 30),
    count=st.integers(1, 40),
    rules=rule_sets,
    strategy=seat_strategies,
)
def test_hand_records_per_seat_twin(seed, chunk, offset, count, rules, strategy):
    start = chunk * runner.CHUNK_SIZE + offset
    _compare_hands(runner.hand_records(seed, start, count, rules, strategy),
                   ref.hand_records(seed, start, count, rules, strategy))


@pytest.mark.parametrize("seed, start, count, rules, strategy", [
    (3, runner.CHUNK_SIZE - 5, 12, {"auction": "until_passes"}, "random"),
    (2**40 + 7, runner.CHUNK_SIZE - 2, 6, {"stick_the_dealer": True, "swap": "none"},
     ["default", "random", "score-aware"]),
    (8, runner.RECORD_BATCH_CHUNKS * runner.CHUNK_SIZE - 3, 5, {}, "random"),  # across a batch of chunks too
])
def test_random_hand_records_across_a_chunk_boundary_twin(seed, start, count, rules, strategy):
    # The decision stream runs through a chunk's hands and starts afresh (empty half) in the next chunk.
    _compare_hands(runner.hand_records(seed, start, count, rules, strategy),
                   ref.hand_records(seed, start, count, rules, strategy))


MIXES = [
    "random",
    ["random", "default", "random"],
    [{"near_target": 40.0, "bid_shift_self_near": -1.0, "bid_shift_opp_near": -0.75}, "random", "cautious"],
    ["aggressive", {"random": 1.0, "bid_3": 99.0}, {"near_target": 32.0, "bid_shift_self_near": 1.0}],
]


def _random_seats(strategy) -> set[int]:
    return {s for s, p in enumerate(ref.seat_strategies(strategy)) if ref.is_random(p)}


def _coverage(rec: dict, strategy, seen: Counter) -> None:
    """Count what a hand exercised of the random player and of the auction."""
    rnd = _random_seats(strategy)
    calls = rec["calls"]
    seen["laps > 1"] += len(calls) > 3
    if rec["swap"] in rnd:
        seen["random swap"] += 1
    for seat, call in calls:
        if seat in rnd and call != "pass":
            seen[f"random bid {call}"] += 1
    if rec["maker"] in rnd:
        seen[f"random trump {rec['trump']}"] += 1
    n_calls = Counter(s for s, _ in calls)
    # a random player's later turn while the ghost was still there: no swap may be drawn then
    if rec["rules"]["swap"] == "at_turn" and rec["swap"] is None and any(n_calls[s] > 1 for s in rnd):
        seen["later turn, swap still open"] += 1
    if rec["rules"]["stick_the_dealer"] and rec["dealer"] in rnd and [c for _, c in calls[:2]] == ["pass", "pass"]:
        seen["random dealer stuck"] += 1


def test_random_players_every_rule_combination_twin():
    names = list(RULE_OPTIONS)
    seen = Counter()
    for i, values in enumerate(itertools.product(*RULE_OPTIONS.values())):
        rules = dict(zip(names, values))
        strategy = MIXES[i % len(MIXES)]
        kernel = runner.hand_records(500 + i, 0, 30, rules, strategy)
        reference = ref.hand_records(500 + i, 0, 30, rules, strategy)
        _compare_hands(kernel, reference)
        for r in reference:
            _coverage(r, strategy, seen)
    wanted = ["laps > 1", "random swap", "later turn, swap still open", "random dealer stuck"]
    wanted += [f"random bid {c}" for c in ("3", "4", "5", "moon")] + [f"random trump {s}" for s in "CSDH"]
    assert all(seen[k] for k in wanted), seen


def test_swap_after_a_first_call_would_be_caught(monkeypatch):
    # If a random player could still swap at a later turn (the ghost being still
    # there), its draws would differ from the kernel's: the twin comparison pins
    # "a swap only before the swapper's first call".
    rules = {"auction": "until_passes"}
    kernel = runner.hand_records(77, 0, 150, rules, "random")
    seen = Counter()
    for r in kernel:
        _coverage(r, "random", seen)
    assert seen["later turn, swap still open"] > 0
    _compare_hands(kernel, ref.hand_records(77, 0, 150, rules, "random"))

    def any_turn(rules, swapper, seat, has_called):
        return rules["swap"] == "at_turn" and swapper is None

    monkeypatch.setattr(ref, "swap_allowed", any_turn)
    assert ref.hand_records(77, 0, 150, rules, "random") != kernel


def test_decisions_never_move_the_deals():
    # Random players draw from their own stream: the same seed deals the same cards whoever plays.
    start, count = runner.CHUNK_SIZE - 40, 80
    deals = [r["deal"] for r in runner.hand_records(13, start, count)]
    for strategy in ("random", ["default", "random", "aggressive"]):
        assert [r["deal"] for r in runner.hand_records(13, start, count, None, strategy)] == deals


def test_score_aware_bidding_matters_in_independent_hands():
    # near_target 32 puts the zero scores of independent hands near the target, so both shifts apply.
    plain = runner.hand_records(9, 0, 200)
    for shift in ({"bid_shift_self_near": 1.0}, {"bid_shift_opp_near": -1.0}):
        strategy = {"near_target": 32.0, **shift}
        shifted = runner.hand_records(9, 0, 200, None, strategy)
        assert [r["calls"] for r in shifted] != [r["calls"] for r in plain]
        _compare_hands(shifted, ref.hand_records(9, 0, 200, None, strategy))
        # just below the line (near_target 32 - ulp) no shift applies: the plain calls
        below = {"near_target": float(np.nextafter(32.0, 0.0)), **shift}
        assert runner.hand_records(9, 0, 200, None, below) == plain


# ---------------------------------------------------------------- whole games


@settings(max_examples=20, **SETTINGS)
@given(
    seed=seeds,
    start=st.one_of(st.integers(0, 6), st.integers(SETS - 3, SETS - 1), st.integers(0, 20 * SETS)),
    count=st.integers(1, 3),
    rules=rule_sets,
    setup=games_setup(),
    duplicate=st.booleans(),
)
def test_game_results_twin(seed, start, count, rules, setup, duplicate):
    strategies, assignments = setup
    kernel = runner.game_results(seed, start, count, rules, strategies, assignments, duplicate)
    reference = ref.game_results(seed, start, count, rules, strategies, assignments, duplicate)
    _compare_games(kernel, reference)
    assert [(g["set"], g["assignment"]) for g in kernel] == [
        (s, list(a)) for s in range(start, start + count) for a in assignments
    ]


@pytest.mark.parametrize("duplicate", [True, False])
def test_game_results_across_a_chunk_boundary_twin(duplicate):
    # Sets 61..66 straddle chunks 0 and 1 of the game-seed stream.
    strategies = ("default", "random", NEAR_BOLD)
    assignments = [list(p) for p in itertools.permutations(range(3))]
    args = (12345, SETS - 3, 6, {"auction": "until_passes"}, strategies, assignments, duplicate)
    _compare_games(runner.game_results(*args), ref.game_results(*args))


def test_game_results_across_a_batch_boundary_twin():
    # The runner plays GAME_BATCH_CHUNKS chunks of sets per kernel call: sets on both sides of the first cut.
    first = runner.GAME_BATCH_CHUNKS * SETS - 2
    args = (99, first, 4, {"tiebreak": "playoff"}, ("score-aware", "random"), [[0, 1, 0], [1, 0, 0]], False)
    _compare_games(runner.game_results(*args), ref.game_results(*args))


# A fixed window of deal sets (default rules, the strategy below, pinned so that changes to the
# defaults leave the sample alone) with five ties at the top (about 2 games in 100 tie), one of
# them re-tied in the playoff and decided differently by the two tie-breaks.
TIE_SEED, TIE_START, TIE_SETS = 2, 100, 200
TIE_STRATEGY = {
    "w_trump_nine": 0.45, "w_trump_ten": 0.50, "w_trump_queen": 0.60, "w_trump_king": 0.70, "w_trump_ace": 0.85,
    "w_left": 0.95, "w_right": 1.00, "w_joker": 1.00, "w_off_ace": 0.60, "w_off_king": 0.20, "w_void": 0.35,
    "swap_below": 2.00, "bid_3": 2.80, "bid_4": 3.60, "bid_5": 4.50, "bid_moon": 5.00, "bid_jump": 0.0,
    "lead_trump_min": 2.0, "near_target": 6.0, "bid_shift_self_near": 0.0, "bid_shift_opp_near": 0.0, "random": 0.0,
}


@pytest.fixture(scope="module")
def tie_games():
    out = {}
    for tiebreak in ("highest", "playoff"):
        rules = {"tiebreak": tiebreak}
        kernel = runner.game_results(TIE_SEED, TIE_START, TIE_SETS, rules, (TIE_STRATEGY,))
        details = ref.game_details(TIE_SEED, TIE_START, TIE_SETS, rules, (TIE_STRATEGY,))
        out[tiebreak] = kernel, details
    return out


@pytest.mark.parametrize("tiebreak", ["highest", "playoff"])
def test_tied_games_twin(tie_games, tiebreak):
    kernel, details = tie_games[tiebreak]
    _compare_games(kernel, [{k: d[k] for k in ("set", "assignment", "winner", "hands", "scores")} for d in details])
    went_on = [d for d in details if d["went_on"]]
    assert len(went_on) >= 3, "the sample must hold games tied at the top"
    for d in went_on:
        assert d["winner"] is not None
    if tiebreak == "playoff":
        assert all(d["playoff"] >= 1 for d in went_on)
        assert any(d["playoff_retied"] for d in went_on), "some playoff hand must end tied again"
    else:
        assert all(d["playoff"] == 0 for d in went_on)
        # with the highest score deciding, the winner holds the unique highest score
        for d in details:
            assert sorted(d["scores"])[-1] > sorted(d["scores"])[-2] and d["scores"][d["winner"]] >= 32


def test_tiebreak_only_changes_tied_games(tie_games):
    (high_k, high_d), (play_k, play_d) = tie_games["highest"], tie_games["playoff"]
    differ = 0
    for hk, hd, pk, pd in zip(high_k, high_d, play_k, play_d):
        assert hd["went_on"] == pd["went_on"]
        if not hd["went_on"]:
            assert hk == pk
        else:
            differ += hk != pk
    assert differ, "a playoff decides some tie differently from playing on"


def test_unfinished_games_twin():
    never_bids = {"bid_3": 99.0, "bid_4": 99.0, "bid_5": 99.0, "bid_moon": 99.0}
    for rules, finished in (({}, False), ({"stick_the_dealer": True}, True)):
        args = (8, 0, 2, rules, (never_bids,), [[0, 0, 0]])
        kernel = runner.game_results(*args)
        _compare_games(kernel, ref.game_results(*args))
        for g in kernel:
            if finished:
                assert g["winner"] is not None and g["hands"] < runner.MAX_HANDS_PER_GAME
            else:
                assert g == {**g, "winner": None, "hands": runner.MAX_HANDS_PER_GAME, "scores": [0, 0, 0]}
    # three random players: often unfinished, with whatever scores they reached
    args = (1, 0, 2, {"tiebreak": "playoff"}, ("random",), [[0, 0, 0]])
    kernel = runner.game_results(*args)
    _compare_games(kernel, ref.game_results(*args))
    assert any(g["winner"] is None for g in kernel)


def test_score_aware_strategies_change_games():
    # The same deals (duplicate) with and without large shifts: some game must end differently.
    # NEAR_TIMID moves only its own thresholds, STOPPER only those against an opponent near the target.
    strategies = ("default", NEAR_TIMID, NEAR_BOLD, STOPPER)
    assignments = [[0, 0, 0], [1, 1, 1], [2, 2, 2], [3, 0, 0], [0, 3, 0], [0, 0, 3]]
    args = (21, 0, 12, None, strategies, assignments, True)
    kernel = runner.game_results(*args)
    _compare_games(kernel, ref.game_results(*args))
    strip = lambda g: (g["winner"], g["hands"], g["scores"])  # noqa: E731
    n = len(assignments)
    for a in range(1, n):  # each score-aware seating changes some game of the default one
        assert any(strip(kernel[n * s + a]) != strip(kernel[n * s]) for s in range(12)), assignments[a]


# ---------------------------------------------------------------- duplicate seeding


def test_duplicate_sets_replay_the_same_deals():
    strategies = ("default", "random", NEAR_BOLD)
    assignments = [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 0, 0]]
    for duplicate in (True, False):
        details = ref.game_details(5, SETS - 2, 4, None, strategies, assignments, duplicate, keep_records=True)
        for s in range(SETS - 2, SETS + 2):
            games = [d for d in details if d["set"] == s]
            first_deals = [d["records"][0]["deal"] for d in games]
            if duplicate:
                assert all(d == first_deals[0] for d in first_deals)
                # the deal stream never depends on decisions: every hand both games play has the same deal
                for a, b in itertools.combinations(games, 2):
                    n = min(a["hands"], b["hands"])
                    assert [r["deal"] for r in a["records"][:n]] == [r["deal"] for r in b["records"][:n]]
            else:
                assert len({str(d) for d in first_deals}) == len(first_deals)
                assert len({d["game_seed"] for d in games}) == len(games)


def test_duplicate_games_of_one_deterministic_strategy_are_equal():
    # Same deals and no draws: every seating of one deterministic strategy plays the same game.
    # With fresh deals per assignment (not duplicate) the games differ.
    strategies = ("default", "default", {"bid_jump": 0.0})
    assignments = [[0, 0, 0], [1, 1, 1], [0, 1, 2], [2, 1, 0]]
    dup = runner.game_results(6, 0, 20, None, strategies, assignments, True)
    fresh = runner.game_results(6, 0, 20, None, strategies, assignments, False)
    strip = lambda g: (g["winner"], g["hands"], g["scores"])  # noqa: E731
    for s in range(20):
        assert len({str(strip(g)) for g in dup if g["set"] == s}) == 1
    assert any(len({str(strip(g)) for g in fresh if g["set"] == s}) > 1 for s in range(20))
    # the first set of a chunk starts its first game from the chunk's first seed either way
    assert strip(dup[0]) == strip(fresh[0])
    # the random player's draws depend on the assignment even over the same deals
    rnd = runner.game_results(6, 0, 20, None, ("random", "default"), [[0, 1, 1], [0, 1, 1]], True)
    assert any(strip(a) != strip(b) for a, b in zip(rnd[::2], rnd[1::2]))


# ---------------------------------------------------------------- game counters and summaries


def _game_counters(details: list[dict], n_strategies: int) -> dict:
    """What ``run_games`` counts, recomputed from the reference's games."""
    strat = np.zeros((n_strategies, kg.ST_WIDTH), np.int64)
    game = np.zeros(kg.GA_WIDTH, np.int64)
    sets = sorted({d["set"] for d in details})
    set_wins = np.zeros((len(sets), n_strategies), np.int64)
    for d in details:
        seat_strat = d["assignment"]
        for rec in d["records"]:
            bidders = {s for s, c in rec["calls"] if c != "pass"}
            for s in range(3):
                row = strat[seat_strat[s]]
                pts = rec["points"][str(s)]
                row[kg.ST_HANDS] += 1
                row[kg.ST_POINTS] += pts
                row[kg.ST_POINTS_SQ] += pts * pts
                row[kg.ST_BIDDER] += s in bidders
                row[kg.ST_SWAPS] += rec["swap"] == s
                if rec["maker"] == s:
                    row[kg.ST_MAKER + rec["bid"] - 3] += 1
                    row[kg.ST_MADE + rec["bid"] - 3] += rec["tricks"][str(s)] >= rec["bid"]
        for s in range(3):
            strat[seat_strat[s], kg.ST_GAMES] += 1
        game[kg.GA_GAMES] += 1
        game[kg.GA_HANDS] += d["hands"]
        game[kg.GA_HANDS_SQ] += d["hands"] ** 2
        game[kg.GA_TIEBREAKS] += d["went_on"]
        if d["winner"] is None:
            game[kg.GA_UNFINISHED] += 1
            continue
        w = d["winner"]
        strat[seat_strat[w], kg.ST_WINS] += 1
        set_wins[sets.index(d["set"]), seat_strat[w]] += 1
        game[kg.GA_WINS + w] += 1
        game[kg.GA_MARGIN] += d["scores"][w] - max(d["scores"][s] for s in range(3) if s != w)
    return {"strategy": strat, "game": game, "set_wins": set_wins}


@pytest.mark.parametrize("rules, duplicate", [({"tiebreak": "playoff"}, True), ({"auction": "until_passes"}, False)])
def test_run_games_counters_twin(rules, duplicate):
    strategies = ("default", "random", NEAR_TIMID)
    assignments = [list(p) for p in itertools.permutations(range(3))]
    n_sets = 12
    v = GHOST
    resolved = resolve(v, rules)
    params = np.stack([to_vector(load_strategy(s)[1]) for s in strategies])
    got = {}

    def on_batch(first, out):
        got.update(out)

    runner.run_games(31, n_sets, np.array(assignments), params, duplicate, encode(v, resolved), on_batch)
    details = ref.game_details(31, 0, n_sets, rules, strategies, assignments, duplicate, keep_records=True)
    want = _game_counters(details, len(strategies))
    for key in ("strategy", "game", "set_wins"):
        assert got[key].tolist() == want[key].tolist(), key
    records = [r for d in details for r in d["records"]]
    summary = get_variant("ghost").summarize(got["hand"], resolved, "mix", 31, 1, 1.0)
    summary["bids"] = {b: {"count": x["count"], "made": x["made"]} for b, x in summary["bids"].items()}
    want_summary = _summary_from_records(records)
    assert {k: summary[k] for k in want_summary} == want_summary


GAME_SUMMARY_RUNS = [
    ("default", {"tiebreak": "playoff"}, 150),
    (NEAR_BOLD, {"auction": "until_passes", "stick_the_dealer": True}, 120),
]


@pytest.mark.parametrize("strategy, rules, games", GAME_SUMMARY_RUNS)
def test_simulate_games_summary_twin(strategy, rules, games):
    details = ref.game_details(17, 0, games, rules, (strategy,), [[0, 0, 0]], True, keep_records=True)
    want = _summary_from_records([r for d in details for r in d["records"]])
    finished = [d for d in details if d["winner"] is not None]
    wins = {str(p + 1): sum(d["winner"] == p for d in details) for p in range(3)}
    want.update({
        "games": games,
        "unfinished": games - len(finished),
        "tiebreak_games": sum(d["went_on"] for d in details),
        "hands_per_game": sum(d["hands"] for d in details) / games,
        "wins_by_start": wins,
        "win_share_by_start": {p: w / games for p, w in wins.items()},
        "mean_final_margin": sum(
            d["scores"][d["winner"]] - max(x for s, x in enumerate(d["scores"]) if s != d["winner"]) for d in finished
        ) / len(finished),
    })
    for threads in sorted({1, min(2, runner.max_threads())}):
        got = runner.simulate_games(games=games, seed=17, threads=threads, rules=rules, strategy=strategy)
        got["bids"] = {b: {"count": x["count"], "made": x["made"]} for b, x in got["bids"].items()}
        assert {k: got[k] for k in want} == want


def test_strategy_by_seat_forms():
    # One strategy is every seat's; a list names seat 0, 1, 2; another length is refused by both.
    one = runner.hand_records(4, 10, 20, None, "score-aware")
    assert runner.hand_records(4, 10, 20, None, ["score-aware"] * 3) == one
    assert ref.hand_records(4, 10, 20, None, ("score-aware",) * 3) == one
    with pytest.raises(runner.RunError):
        runner.hand_records(4, 0, 1, None, ["default", "random"])
    with pytest.raises(ValueError):
        ref.hand_records(4, 0, 1, None, ["default", "random"])
