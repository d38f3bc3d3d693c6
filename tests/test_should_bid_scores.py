"""``should-bid --scores`` in every variant: each action valued as the change in the chance to win the game.

The equity tables here are small (``SMALL``: 20,000 hands, one redraw; Ghost
Hand's with its floor at 0, so its cube is 33 scores a side) and kept in a
temporary cache for the module, so each is computed once. The advice
kernels add up, per action, the table's equity after each sampled hand's
outcome; the first test takes those sums apart outcome by outcome.

The advice kernels take an equity table with or without ``--scores``
(``advice.eqt_arg``: empty without one), so these questions run the kernels
other tests compile. The module is one ``xdist_group``, so under
``pytest -n 2`` one worker builds each small table once
(``tests/conftest.py`` makes such a group hold on pytest 9). Every variant's kernel answers with the strategy
play-out (row 0 of its equity sums, under the softmax and the exact model)
and the double-dummy one (row 1); ``--playout pimc`` (row 0
again, the cards played by PIMC: ``playout_params``, the same for every
variant) is asked once with a two-side table (Hasenpfeffer:
``side_equity``) and once with a three-player one (Cutthroat:
``seat_equity``). Euchre's and Ghost Hand's advice kernels play out by PIMC
in ``tests/test_pimc_bid.py`` (``test_should_bid_pimc_playout``).
"""

from __future__ import annotations

import json
import math

import numba
import numpy as np
import pytest

from bower.kernels import advice as ka
from bower.kernels.euchre import advice as ea
from bower.sim.variants.euchre import hands as eh
from bower.sim import advice as sa
from bower.sim import equity as E
from bower.sim import runner
from bower.sim.advice import advise
from bower.sim.cards import parse_card
from bower.sim.rules import get_variant
from tests.cli_run import one_error

SMALL = {"hands": 20_000, "resamples": 1}
TABLES = {"euchre": SMALL, "hasenpfeffer": SMALL, "cutthroat": SMALL, "ghost": {**SMALL, "floor": 0}}
SITUATIONS = {  # a hand, its question, a score, for each variant
    "euchre": ("JH JD AH KH 9C", {"upcard": "TH", "position": 1}, "3,4"),
    "hasenpfeffer": ("JK JH JD AH KH 9S", {"position": 1}, "6,8"),
    "cutthroat": ("JC AS KS 9H TD", {"upcard": "JS", "position": 1}, "6,8,3"),
    "ghost": ("JH JD AH KH 9S TC", {"position": 1}, "20,25,28"),
}


pytestmark = pytest.mark.xdist_group("should-bid-scores")  # one worker builds the small tables (above)


@pytest.fixture(scope="module", autouse=True)
def equity_cache(tmp_path_factory):
    """The equity cache on, in a folder of this module's own: each small table is computed once."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BOWER_EQUITY_CACHE", "1")
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("equity_cache")))
        yield


def _ask(variant, scores, samples=200, seed=3, playout="strategy", model="softmax", hand=None, **q):
    h, base, _ = SITUATIONS[variant]
    question = {**base, **q, "scores": scores, "equity": TABLES[variant], "model": {"kind": model},
                "playout": playout}
    return advise(variant, hand or h, question, samples=samples, seed=seed, threads=1)


# ---------------------------------------------------------------- the kernel's sums, outcome by outcome

def _euchre_kernel(eqt, hand="JH JD AH KH 9C", up="TH", samples=200, seed=11):
    """The Euchre advice kernel, position 2 after a pass, the softmax model (the pass weighs each deal), the
    strategy play-out, one chunk: (wsum, acc, eacc, eq_xy) of row 0."""
    up_c = parse_card(up)
    mask = sum(1 << parse_card(c) for c in hand.split())
    actions = ea.open_actions(1, up_c, False)
    a = len(actions)
    acc, pxy, mxy = np.zeros((1, 2, a, ka.W_WIDTH)), np.zeros((1, 2, a, a)), np.zeros((1, 2, a, a))
    eacc, exy = np.zeros((1, 2, a, ka.E_WIDTH)), np.zeros((1, 2, a, a))
    wsum = np.zeros((1, 2))
    eqt = eqt if eqt.ndim == 4 else sa.kernel_table(eqt, [])  # the kernel's form: a cell of chances per outcome
    ea.advice_chunks(runner.chunk_states(seed, 0, 1), runner.decision_states(seed, 0, 1),
                     np.array([samples], np.int64), 100_000, np.int64(mask), np.int64(up_c), np.int64(1),
                     eh.rules_vector(None), eh.seat_params("default"), np.int64(1), actions,
                     np.array([float(ka.MODEL_SOFTMAX), 0.25, 0.01]), np.int64(ka.PLAY_STRATEGY), None, None, eqt,
                     np.zeros(1, np.int64), np.zeros(1, np.int64), wsum, acc, pxy, mxy, np.zeros((1, 4, 2)), eacc, exy)
    return wsum[0], acc[0, 0], eacc[0, 0], exy[0, 0]


def test_an_actions_equity_is_the_weighted_mean_of_the_table_over_its_outcomes():
    table = E.compute("euchre", **SMALL)
    eqt, now = sa.side_outcome_table(table, 1, ea.ADVICE_DEALER, (3, 4))  # position 2: seat 1, side 1
    wsum, acc, eacc, exy = _euchre_kernel(eqt)
    assert len(set(np.round(acc[:, ka.W_N], 9))) == 1 and wsum[0] != wsum[1]  # weighted deals, every action on each
    # one outcome at a time (a table that is 1 there, 0 elsewhere): the weight of the deals on which it came out
    support = [(p0, p1, c) for p0 in (0, 1, 2, 4) for p1 in (0, 1, 2, 4) for c in (0, 1)]
    counts = {}
    for o in support:
        one = np.zeros_like(eqt)
        one[o[0] + ka.EQ_OFF, o[1] + ka.EQ_OFF, o[2]] = 1.0
        _, _, e1, _ = _euchre_kernel(one)
        counts[o] = e1[:, ka.E_SUM]
    total = sum(counts.values())
    np.testing.assert_allclose(total, acc[:, ka.W_N], rtol=1e-12)  # every outcome is in the support
    for i in range(len(acc)):  # plain Python: the weighted mean of the table over the outcomes
        mean = sum(counts[o][i] * eqt[o[0] + ka.EQ_OFF, o[1] + ka.EQ_OFF, o[2]] for o in support) / total[i]
        sq = sum(counts[o][i] * eqt[o[0] + ka.EQ_OFF, o[1] + ka.EQ_OFF, o[2]] ** 2 for o in support) / total[i]
        assert eacc[i, ka.E_SUM] / acc[i, ka.W_N] == pytest.approx(mean, rel=1e-12)
        assert eacc[i, ka.E_SQ] / acc[i, ka.W_N] == pytest.approx(sq, rel=1e-12)
        assert exy[i, i] == pytest.approx(eacc[i, ka.E_SQ], rel=1e-12)  # the products' diagonal: the squares
    # the answer's fields are those sums: the mean after the hand, less the equity now
    est = [{"action": str(i), "expected_points": 0.0} for i in range(len(acc))]
    ess = wsum[0] ** 2 / wsum[1]
    sa.equity_answer(est, eacc, exy, float(wsum[0]), ess, now)
    for i, e in enumerate(est):
        assert e["game_equity"] == pytest.approx(eacc[i, ka.E_SUM] / wsum[0], rel=1e-12)
        assert e["equity_change"] == pytest.approx(e["game_equity"] - now, abs=1e-15)
        assert e["equity_change_ci95"][0] < e["equity_change"] < e["equity_change_ci95"][1]


@pytest.mark.parametrize("variant", sorted(TABLES))
def test_a_question_with_scores_runs_the_kernel_compiled_for_one_without(variant):
    v = get_variant(variant)
    game = sa.game_equity(variant, SITUATIONS[variant][2], rules=None, seat=0, dealer=v.players - 1,
                          table_args=TABLES[variant], who="--scores")
    assert game["eqt"].size > 0 and ka.NO_EQUITY.size == 0
    assert numba.typeof(ka.eqt_arg(game)) == numba.typeof(ka.eqt_arg(None))  # one specialization, not two


def test_the_outcome_table_follows_the_game_rules():
    table = E.compute("euchre", **SMALL)
    off = ka.EQ_OFF
    # side 1 asks (seat 1) at 9-8: any point of its own wins, two of the other side's lose, the score reads mirrored
    eqt, now = sa.side_outcome_table(table, 1, ea.ADVICE_DEALER, (9, 8))
    assert eqt[off, off + 1, 1] == eqt[off, off + 4, 0] == 1.0
    assert eqt[off + 2, off, 0] == 0.0
    assert eqt[off + 1, off, 0] == pytest.approx(1.0 - table["equity"][0][9][9])  # 9-9, seat 0 deals next
    assert now == pytest.approx(1.0 - table["equity"][3][8][9])
    t3 = E.compute("cutthroat", **SMALL)
    e3, now3 = sa.seat_outcome_table(t3, 1, 2, (9, 8, 3))
    assert e3[off, off + 2, off] == 1.0 and e3[off + 1, off, off] == 0.0  # 9+1 alone at the top: seat 0 wins
    assert e3[off, off, off] == pytest.approx(t3["equity"][0][1][9, 8, 3])  # thrown in: the deal passes
    assert now3 == pytest.approx(t3["equity"][2][1][9, 8, 3])


@pytest.mark.parametrize("variant,scores", [("ghost", (23, 31, 31)), ("cutthroat", (7, 9, 9))])
def test_a_tie_at_or_past_the_target_is_valued_at_the_target_row(variant, scores):
    # a tie at the top at or past the target plays on: it is read from the table's own tie at the target (the
    # cube's target row), every score shifted down alike, never from the tie one point below
    table = E.compute(variant, **TABLES[variant])
    f, t, off = table["floor"], table["target"], ka.EQ_OFF
    cube, eq = np.asarray(table["cube"]), np.asarray(table["equity"])
    assert cube.shape == (3,) + (t - f + 1,) * 3
    for d in range(3):  # below the target the cube is the table by seat, turned for each dealer
        for seat in range(3):
            pos = [(d + i) % 3 for i in range(3)]  # position i is seat (d + i) % 3
            x = (3, 5, 1)
            assert eq[d, seat][x] == cube[(seat - d) % 3][x[pos[0]] - f, x[pos[1]] - f, x[pos[2]] - f]
    seat, dealer = 0, 1
    nd = (dealer + 1) % 3
    eqt, _ = sa.seat_outcome_table(table, seat, dealer, scores)
    ties = 0
    for pts in [(a, b, c) for a in range(-5, 6) for b in range(0, 6) for c in range(0, 6)]:
        y = [s + p for s, p in zip(scores, pts)]
        top = max(y)
        if top < t or y.count(top) < 2:
            continue
        ties += 1
        z = [max(v - (top - t), f) - f for v in y]  # shifted so that the tie is at the target
        exact = cube[(seat - nd) % 3][z[nd], z[(nd + 1) % 3], z[(nd + 2) % 3]]
        assert eqt[pts[0] + off, pts[1] + off, pts[2] + off] == exact
    assert ties > 20
    if variant == "ghost":  # (23, 31, 31) and 4, 1, 1 points: 27-32-32, seat 0 well behind a tie at the target
        at_target = cube[(seat - nd) % 3][32 - f, 27 - f, 32 - f]
        assert eqt[4 + off, 1 + off, 1 + off] == at_target
        one_below = eq[nd, seat][26 - f, 31 - f, 31 - f]  # what the lookup used to read
        assert at_target < one_below - 0.004  # it matters: from the tie at 32 the leaders need only outscore
        assert eqt[4 + off, 3 + off, 3 + off] == cube[(seat - nd) % 3][32 - f, 25 - f, 32 - f]  # 27-34-34


# ---------------------------------------------------------------- what the answer says

def test_at_0_0_the_winning_action_wins_in_points_and_in_games():
    r = _ask("euchre", "0,0", samples=2000)
    rec, pts = r["recommendation"], r["recommendation_points"]
    assert rec["by"] == "game equity" and rec["action"] == pts["action"] == "order it up, alone"
    by = {e["action"]: e for e in r["actions"]}
    best, passing = by[rec["action"]], by["pass"]
    assert np.sign(best["equity_change"] - passing["equity_change"]) == np.sign(
        best["expected_points"] - passing["expected_points"]) == 1
    assert rec["clear"] and rec["diff_ci95"][0] > 0


def test_one_point_from_the_target_a_safe_make_beats_a_bigger_risky_one():
    # at 9-8 the table makes every make a won game and every euchre a lost one (checked here from the table), so
    # going alone's bigger march is worth nothing and only its more frequent euchres count
    table = E.compute("euchre", **SMALL)
    eqt, _ = sa.side_outcome_table(table, 0, ea.ADVICE_DEALER, (9, 8))
    off = ka.EQ_OFF
    assert eqt[off + 1, off, 0] == eqt[off + 2, off, 0] == eqt[off + 4, off, 0] == 1.0
    assert eqt[off, off + 2, 1] == eqt[off, off + 4, 1] == 0.0
    r = _ask("euchre", "9,8", samples=2000, hand="JH AH KH QC AS")
    by = {e["action"]: e for e in r["actions"]}
    partner, alone = by["order it up, with partner"], by["order it up, alone"]
    assert alone["expected_points"] > partner["expected_points"]
    assert partner["game_equity"] > alone["game_equity"]
    assert alone["make_prob"] < partner["make_prob"]
    assert r["recommendation_points"]["action"] == "order it up, alone"
    assert r["recommendation"]["action"] == "order it up, with partner"
    # ordering makes the asker's side the maker: each make is a won game, each euchre a lost one, so the chance to
    # win after ordering is the make chance
    assert partner["game_equity"] == pytest.approx(partner["make_prob"], abs=1e-12)


def test_the_same_seed_gives_the_same_answer():
    a, b = _ask("hasenpfeffer", "6,8"), _ask("hasenpfeffer", "6,8")
    assert json.dumps(a["actions"]) == json.dumps(b["actions"])


# ---------------------------------------------------------------- every variant, every play-out

# every variant with each play-out row (strategy: row 0, dd: row 1) and each model; PIMC (row 0, cards by search)
# once with each kind of table: side_equity (Hasenpfeffer) and seat_equity (Cutthroat)
PLAY_OUTS = ([(v, p, m) for p, m in (("strategy", "softmax"), ("dd", "softmax"), ("strategy", "exact"))
              for v in SITUATIONS] + [("hasenpfeffer", "pimc", "softmax"), ("cutthroat", "pimc", "softmax")])


@pytest.mark.parametrize("variant,playout,model", PLAY_OUTS, ids=lambda x: str(x))
def test_every_variant_and_play_out(variant, playout, model):
    samples = 30 if playout == "pimc" else 100
    r = _ask(variant, SITUATIONS[variant][2], samples=samples, playout=playout, model=model)
    g = r["game"]
    assert g["target"] == {"euchre": 10, "hasenpfeffer": 10, "cutthroat": 10, "ghost": 32}[variant]
    assert 0.0 < g["equity_now"] < 1.0
    rows = [("actions", "recommendation")] + ([("actions_dd", "recommendation_dd")] if "actions_dd" in r else [])
    for akey, rkey in rows:
        for e in r[akey]:
            assert 0.0 <= e["game_equity"] <= 1.0
            assert e["equity_change"] == pytest.approx(e["game_equity"] - g["equity_now"], abs=1e-12)
            lo, hi = e["equity_change_ci95"]
            assert lo <= e["equity_change"] <= hi and math.isfinite(lo) and math.isfinite(hi)
        best = max(r[akey], key=lambda e: e["game_equity"])
        assert r[rkey]["action"] == best["action"] and r[rkey]["by"] == "game equity"
        assert rkey + "_points" in r
    text = get_variant(variant).format_advice(r)
    assert "game equity: scores" in text and "recommendation (by game equity)" in text.lower()


def test_without_scores_the_answer_is_in_points_as_before():
    h, base, _ = SITUATIONS["cutthroat"]
    r = advise("cutthroat", h, {**base, "model": {"kind": "softmax"}}, samples=100, seed=3, threads=1)
    assert "game" not in r and "recommendation_points" not in r and "game_equity" not in r["actions"][0]


# ---------------------------------------------------------------- bad input: one line, status 2, nothing dealt

@pytest.mark.parametrize("args,words", [
    (["--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--scores", "3,10"], "at or past the target 10"),
    (["--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--scores", "-1,4"], "negative"),
    (["--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--scores", "3.5,4"], "whole numbers"),
    (["--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--scores", "3,4,5"], "needs 2 scores"),
    (["--variant", "hasenpfeffer", "JK JH JD AH KH 9S", "--scores", "4"], "needs 2 scores"),
    (["--variant", "hasenpfeffer", "JK JH JD AH KH 9S", "--scores", "four,2"], "whole numbers"),
    (["--variant", "cutthroat", "JC AS KS 9H TD", "--upcard", "JS", "--scores", "1,2"], "needs 3 scores"),
    (["--variant", "cutthroat", "JC AS KS 9H TD", "--upcard", "JS", "--scores", "1,12,2"], "at or past the target 10"),
    (["JH JD AH KH 9S TC", "--scores", "31,32,0"], "at or past the target 32"),
    (["JH JD AH KH 9S TC", "--scores", "0,-3,5"], "negative"),
    (["JH JD AH KH 9S TC", "--scores", "1,2"], "three whole numbers"),
])
def test_bad_scores_are_one_line_and_status_2_before_any_hand(capsys, monkeypatch, args, words):
    def refuse(*a, **k):
        raise AssertionError("a hand was dealt or a table computed")

    monkeypatch.setattr(runner, "chunk_states", refuse)
    monkeypatch.setattr(E, "compute_cached", refuse)
    assert words in one_error(capsys, "should-bid", *args)


BIDS = {"euchre": "order", "hasenpfeffer": "4", "ghost": "4"}  # a --bid open at each SITUATIONS turn


@pytest.mark.parametrize("variant", sorted(BIDS))
def test_a_bid_question_is_answered_in_games_won(variant):
    """``--bid`` with ``--scores``: the verdict weighs the asked action against its alternative by the chance to win
    the game (the paired difference of the two actions' game equity, hence exactly the difference of their means),
    and keeps the verdict in points as ``verdict_points``."""
    r = _ask(variant, SITUATIONS[variant][2], samples=2000, bid=BIDS[variant])
    q = r["question"]
    by_name = {e["action"]: e for e in r["actions"]}
    asked, against = by_name[q["action"]], by_name[q["against"]]
    assert q["against"] == "pass"
    assert q["equity_diff"] == pytest.approx(asked["game_equity"] - against["game_equity"], abs=1e-12)
    lo, hi = q["equity_diff_ci95"]
    assert lo < q["equity_diff"] < hi
    word = "yes" if lo > 0 else ("no" if hi < 0 else "close call")
    assert q["verdict"].startswith(f"{word}: ") and "percentage points" in q["verdict"]
    assert f"{100 * abs(q['equity_diff']):.2f}" in q["verdict"]
    assert q["verdict_points"].startswith(("yes: ", "no: ", "close call: ")) and "points a hand" in q["verdict_points"]


def test_a_stuck_dealers_bid_question_gives_its_chance_to_win():
    """Ghost Hand's dealer stuck with the bid (stick the dealer, two passes): no alternative to weigh, so the
    verdict gives the asked bid's chance to win the game."""
    question = {"position": 3, "calls": "pass,pass", "bid": "3", "scores": "20,25,28", "equity": TABLES["ghost"],
                "model": {"kind": "softmax"}, "playout": "strategy"}
    r = advise("ghost", SITUATIONS["ghost"][0], question, samples=2000, seed=3, threads=1,
               rules={"stick_the_dealer": True})
    q = r["question"]
    assert q["against"] is None and q["equity_diff"] is None
    ge = next(e["game_equity"] for e in r["actions"] if e["action"] == q["action"])
    assert q["verdict"] == f"the dealer is stuck: {q['action']} leaves you a {100 * ge:.1f}% chance to win the game"
    assert q["verdict_points"].startswith("the dealer is stuck: bid 3 in ")


# ---------------------------------------------------------------- the equity table's own error in the intervals

def test_the_tables_error_widens_the_intervals_in_quadrature_and_leaves_the_estimates():
    """A table with redraws carries them into the answer: each action's interval is the sampled deals' one widened
    by the table's standard error (the spread of the same weighted mean over the redraws) in quadrature; the
    estimates are those of the same table without redraws, to the last digit."""
    h, base, sc = SITUATIONS["euchre"]

    def ask(tab):
        return advise("euchre", h, {**base, "scores": sc, "equity": tab, "model": {"kind": "softmax"}},
                      samples=300, seed=3, threads=1)

    plain, wide = ask({"hands": 20_000, "resamples": 1}), ask({"hands": 20_000, "resamples": 30})
    assert wide["game"]["table"]["redraws"] == ka.EQ_DRAWS and plain["game"]["table"]["redraws"] == 1
    for p, w in zip(plain["actions"], wide["actions"]):
        assert p["game_equity"] == w["game_equity"] and p["equity_change"] == w["equity_change"]
        assert p["game_equity_table_se"] == p["equity_change_table_se"] == 0.0  # one redraw: no error to add
        for key in ("game_equity", "equity_change"):
            half_p = (p[key + "_ci95"][1] - p[key + "_ci95"][0]) / 2
            half_w = (w[key + "_ci95"][1] - w[key + "_ci95"][0]) / 2
            se = w[key + "_table_se"]
            assert se > 0
            assert half_w == pytest.approx(math.hypot(half_p, 1.959963984540054 * se), rel=1e-9)
    rp, rw = plain["recommendation"], wide["recommendation"]
    assert rp["diff_equity"] == rw["diff_equity"] and rw["diff_table_se"] > 0 == rp["diff_table_se"]
    assert (rw["diff_ci95"][1] - rw["diff_ci95"][0]) > (rp["diff_ci95"][1] - rp["diff_ci95"][0])


def test_the_estimates_are_those_before_the_tables_error_was_carried():
    # the same question as before the kernels carried the table's redraws: the same chances, to the last digit
    r = _ask("euchre", "3,4", samples=300)
    assert [e["game_equity"] for e in r["actions"]] == pytest.approx(
        [0.5200317910091157, 0.5763048154011932, 0.680052947341495], rel=1e-14)
    assert r["game"]["equity_now"] == pytest.approx(0.4033468693496908, rel=1e-14)


def test_a_small_table_gives_wider_intervals_than_a_large_one_by_its_standard_error():
    """The table's error falls as one over the square root of its hands: 64 times the hands, an eighth of the
    standard error (each from 10 redraws, so within 0.55 to 1.8 times that), and the small table's intervals are
    the wider."""
    h, base, sc = SITUATIONS["hasenpfeffer"]

    def ask(hands):
        return advise("hasenpfeffer", h, {**base, "scores": sc, "equity": {"hands": hands, "resamples": 10},
                                          "model": {"kind": "exact"}}, samples=300, seed=3, threads=1)

    small, large = ask(5_000), ask(320_000)
    ratios = []
    for s, lg in zip(small["actions"], large["actions"]):
        assert s["action"] == lg["action"]
        if lg["game_equity_table_se"] < 1e-6:  # an action whose every outcome ends the game: no table error
            continue
        ratios.append(s["game_equity_table_se"] / lg["game_equity_table_se"])
        ws, wl = (np.diff(x["game_equity_ci95"])[0] for x in (s, lg))
        assert ws > wl
    assert ratios and all(8 * 0.55 < r < 8 * 1.8 for r in ratios), ratios


def test_the_tables_error_of_the_estimates_matches_answers_from_tables_of_other_seeds():
    """An action's stated table error against the spread of its game equity over tables from 24 seeds (the same
    deals: the sampling seed is fixed, so only the table moves): the variance ratio, summed over the actions,
    within 0.5 to 1.8 (a chi-square with about 23 degrees of freedom over 23, as the actions move together; each
    stated error from the table's 10 redraws, averaged over the 24 tables)."""
    h, base, sc = SITUATIONS["euchre"]
    answers = [advise("euchre", h, {**base, "scores": sc, "equity": {"hands": 20_000, "resamples": 10, "seed": s},
                                    "model": {"kind": "exact"}}, samples=300, seed=3, threads=1)
               for s in range(20, 44)]
    ge = np.array([[e["game_equity"] for e in r["actions"]] for r in answers])
    se = np.array([[e["game_equity_table_se"] for e in r["actions"]] for r in answers])
    ratio = ge.var(axis=0, ddof=1).sum() / (se ** 2).mean(axis=0).sum()
    assert 0.5 < ratio < 1.8, ratio
