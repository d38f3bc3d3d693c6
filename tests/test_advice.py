"""``should-bid``: situations checked, exact answers where they are exact, agreement with plain play."""

import json

import numpy as np
import pytest

from bower.analysis.intervals import Z999, wilson
from bower.sim.advice import AdviceError, ImpossibleAuction
from bower.sim.variants.ghost.advice import advise, open_actions, parse_calls, replay_turns
from bower.sim.cards import CardError, parse_cards
from bower.sim.cli import main
from bower.sim.rules import resolve
from tests.reference import ghost as ref
from bower.sim.variants import get_variant

GHOST = get_variant("ghost")
GHOST_DEFAULTS = get_variant("ghost").defaults

RULES = resolve(GHOST)
UNTIL = resolve(GHOST, {"auction": "until_passes"})
STICK = resolve(GHOST, {"stick_the_dealer": True})


def _action(r, name):
    return next(a for a in r["actions"] if a["action"] == name)


def test_six_highest_hearts_moon_makes_with_certainty():
    r = advise("JH JD AH KH QH TH", position=1, samples=3000, seed=1)
    moon = _action(r, "moon H")
    assert moon["make_prob"] == 1.0 and moon["wins_auction"] == 1.0
    assert moon["expected_points"] == 24.0 and moon["points_ci95"] == [24.0, 24.0]
    assert moon["mean_tricks"] == 6.0
    assert r["recommendation"]["action"] == "moon H" and r["recommendation"]["clear"]
    # every other trump loses the moon: the five other hearts can't all be beaten... but JS/JC are not held
    assert _action(r, "moon C")["make_prob"] == 0.0


def test_nines_and_tens_do_not_bid():
    r = advise("9C TC 9S TS 9D TD", position=1, seed=2)
    rec = r["recommendation"]
    assert rec["action"] in ("swap, then the strategy's call", "pass") and rec["clear"]
    assert rec["action"] == "swap, then the strategy's call"
    for a in r["actions"]:
        if a["call"] in ("4", "5", "moon"):
            assert a["make_prob"] == 0.0  # nothing in this hand can take four tricks without the swap
    r = advise("9C TC 9S TS 9D TD", position=3, calls="pass,pass", swapped="1", seed=2, samples=2000)
    assert r["recommendation"]["action"] == "pass"


def test_question_answer_and_json_fields(capsys):
    with pytest.raises(SystemExit) as e:
        main(["should-bid", "JH JD AH KH 9S TC", "--position", "3", "--calls", "pass,3", "--swapped", "1",
              "--bid", "4", "--samples", "3000", "--json"])
    assert e.value.code == 0
    r = json.loads(capsys.readouterr().out)
    q = r["question"]
    assert q["bid"] == "4" and q["trump"] == "H" and q["verdict"].startswith("yes")
    assert q["ev_vs_pass_ci95"][0] > 0 and 0.99 < q["make_prob"] <= 1
    # the softmax model weighs every deal, Russian roulette plays the light ones at the chunk's mean weight or
    # skips them: the effective sample size reaches the samples asked for
    assert 0.2 < r["acceptance_rate"] < 1 and r["ess"] >= 3000 and r["samples"] > r["ess"]
    assert r["model"] == {"kind": "softmax", "tau": 0.25, "epsilon": 0.01}
    assert {a["action"] for a in r["actions"]} >= {"pass", "4 H", "5 C", "moon S"}
    assert "3 H" not in {a["action"] for a in r["actions"]}  # a 3 cannot beat the standing 3
    assert set(r["recommendation"]) >= {"action", "clear", "runner_up", "diff_points", "diff_ci95"}


def test_text_answer_states_question_first(capsys):
    with pytest.raises(SystemExit):
        main(["should-bid", "JH JD AH KH 9S TC", "--position", "3", "--calls", "pass,3", "--swapped", "1",
              "--bid", "4", "--samples", "2000"])
    out = capsys.readouterr().out
    assert out.startswith("Should you bid 4?  yes: bid 4 in H")
    assert "Recommendation: 4 H" in out


def test_same_seed_same_answer_for_any_thread_count():
    a = advise("AS KS QS JC 9D TH", position=2, calls="pass", swapped="1", samples=4000, seed=5, threads=1)
    b = advise("AS KS QS JC 9D TH", position=2, calls="pass", swapped="1", samples=4000, seed=5, threads=2)
    drop = ("elapsed_s", "threads", "compiled")
    assert {k: v for k, v in a.items() if k not in drop} == {k: v for k, v in b.items() if k not in drop}
    c = advise("AS KS QS JC 9D TH", position=2, calls="pass", swapped="1", samples=4000, seed=6, threads=1)
    assert c["actions"] != a["actions"]


def _plain_play(hand, n, seed):
    """Position 1 holds ``hand``; the other 18 cards dealt at random; the reference engine plays."""
    rng = np.random.default_rng(seed)
    mine = [ref.card_from_index(c) for c in parse_cards(hand)]
    rest = [c for c in ref.DECK if c not in mine]
    seats = [dict(GHOST_DEFAULTS)] * 3
    out = []
    for _ in range(n):
        perm = rng.permutation(18)
        others = [[rest[perm[i]] for i in range(k, 18, 3)] for k in range(3)]
        deal = [mine, others[0], others[1], others[2]]  # position 1, 2, 3, ghost; dealer seat 2
        out.append(ref.play_hand(deal, 2, RULES, seats))
    return out


def test_estimate_agrees_with_plain_play_of_the_same_hand():
    # a hand the strategy bids 3 in hearts on (no swap): the make rate and mean points of "3 H" in should-bid
    # must agree with the same hand played out by the reference engine on independently dealt cards
    hand = "JH KH TH 9H AS 9C"
    r = advise(hand, position=1, samples=20000, seed=3)
    three = _action(r, "3 H")
    recs = _plain_play(hand, 3000, seed=11)
    assert all(x["calls"][0] == [0, "3"] and x["swap"] != 0 for x in recs)  # the strategy bids 3 itself, no swap
    won = [x for x in recs if x["maker"] == 0]
    made = sum(x["tricks"]["0"] >= 3 for x in won)
    lo, hi = wilson(made, len(won), Z999)
    assert lo - 1e-9 <= three["make_prob"] <= hi + 1e-9
    pts = np.array([x["points"]["0"] for x in recs])
    half = Z999 * pts.std(ddof=1) / np.sqrt(len(pts))
    assert abs(pts.mean() - three["expected_points"]) < half + (three["points_ci95"][1] - three["points_ci95"][0]) / 2
    lo, hi = wilson(len(won), len(recs), Z999)
    assert lo < three["wins_auction"] < hi


def test_swap_action_agrees_with_plain_play_of_a_weak_hand():
    hand = "9C TC 9S QD 9H TH"
    r = advise(hand, position=1, samples=20000, seed=4)
    swap = _action(r, "swap, then the strategy's call")
    recs = _plain_play(hand, 3000, seed=12)
    assert all(x["swap"] == 0 for x in recs)  # the strategy swaps this hand itself
    pts = np.array([x["points"]["0"] for x in recs])
    half = Z999 * pts.std(ddof=1) / np.sqrt(len(pts))
    assert abs(pts.mean() - swap["expected_points"]) < half + (swap["points_ci95"][1] - swap["points_ci95"][0]) / 2


def test_turn_order_and_open_actions():
    s = replay_turns(3, parse_calls("pass,3"), RULES)
    assert s["prefix"] == [(0, 0), (1, 3)] and s["standing"] == 3
    acts = [a["action"] for a in open_actions(s, False)]
    assert acts[0] == "pass" and "3 H" not in acts and "4 H" in acts and "moon C" in acts
    # until_passes: the first bidder gets another turn once outbid
    s = replay_turns(1, parse_calls("3,4,pass"), UNTIL)
    assert s["standing"] == 4 and s["called"] == {1, 2, 3}
    # a stuck dealer may not pass
    s = replay_turns(3, parse_calls("pass,pass"), STICK)
    assert s["forced"] and [a["action"] for a in open_actions(s, True)][0] == "3 C"


def test_impossible_auction_is_reported_under_the_exact_model_only():
    # under the default strategy a player who keeps their hand (estimate >= 3.0) always bids
    with pytest.raises(ImpossibleAuction, match="impossible"):
        advise("JH JD AH KH 9S TC", position=2, calls="pass", samples=100, model={"kind": "exact"})
    r = advise("JH JD AH KH 9S TC", position=2, calls="pass", samples=100)  # the softmax model answers
    assert r["ess"] >= 100 and r["actions"]


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        (dict(hand="JH JD AH KH QH"), AdviceError, "6 cards"),
        (dict(hand="JH JD AH KH QH QH"), CardError, "duplicate"),
        (dict(hand="JH JD AH KH QH ZZ"), CardError, "malformed"),
        (dict(hand="JH JD AH KH QH JK"), CardError, "joker"),
        (dict(hand="JH JD AH KH QH TH", position=3, calls="4,3"), AdviceError, "does not beat the standing bid 4"),
        (dict(hand="JH JD AH KH QH TH", position=3, calls="moon,pass"), AdviceError, "after the auction ended"),
        (dict(hand="JH JD AH KH QH TH", position=2, calls="pass,3"), AdviceError, "position 3's turn"),
        (dict(hand="JH JD AH KH QH TH", position=4), AdviceError, "1, 2 or 3"),
        (dict(hand="JH JD AH KH QH TH", position=0), AdviceError, "1, 2 or 3"),
        (dict(hand="JH JD AH KH QH TH", calls="pass,maybe", position=3), AdviceError, "unknown call"),
        (dict(hand="JH JD AH KH QH TH", position=2, calls="pass", swapped="3"), AdviceError, "has not had a turn"),
        (dict(hand="JH JD AH KH QH TH", position=2, calls="pass", swapped="2"), AdviceError, "own swap"),
        (dict(hand="JH JD AH KH QH TH", bid="2"), AdviceError, "--bid"),
        (dict(hand="JH JD AH KH QH TH", position=3, calls="pass,4", bid="4"), AdviceError, "does not beat"),
        (dict(hand="JH JD AH KH QH TH", scores="1,2"), AdviceError, "--scores"),
        (dict(hand="JH JD AH KH QH TH", samples=0), AdviceError, "--samples"),
    ],
)
def test_bad_situations(kwargs, error, words):
    with pytest.raises(error, match=words):
        advise(**kwargs)


def test_bad_input_on_the_command_line(capsys):
    for args in (["should-bid", "JH JD AH"], ["should-bid", "JH JD AH KH QH TH", "--calls", "4,3", "--position", "3"],
                 ["should-bid", "JH JD AH KH 9S TC", "--position", "2", "--calls", "pass", "--samples", "50",
                  "--model", "exact"],
                 ["should-bid", "JH JD AH KH 9S TC", "--tau", "-1"],
                 ["should-bid", "JH JD AH KH 9S TC", "--epsilon", "1"]):
        with pytest.raises(SystemExit) as e:
            main(args)
        out, err = capsys.readouterr()
        assert e.value.code == 2 and out == "" and len(err.strip().splitlines()) == 1
        assert err.startswith("bower: error:")


# ---------------------------------------------------------------- sampling when the weight sits on few deals


def _fake_chunks(heavy: bool):
    """A stand-in for a variant's advice kernel: every drawn deal kept, one action, weights as asked.

    ``heavy``: one deal of weight 1 per chunk and the rest 1e-9, so each chunk adds about 1 to the ESS;
    else every deal weight 1 with points 0 or 1 alternating (a precise answer soon).
    """
    from bower.kernels import advice as ka

    def run(states, dstates, targets, draws, kept, wsum, acc, pxy, mxy, infer, eacc=None, exy=None):
        for i, t in enumerate(targets):
            draws[i] = kept[i] = t
            ws = np.full(t, 1e-9) if heavy else np.ones(t)
            ws[0] = 1.0
            pts = np.arange(t) % 2
            wsum[i] = (ws.sum(), (ws * ws).sum())
            acc[i, 0, 0, ka.W_N] = ws.sum()
            acc[i, 0, 0, ka.W_N2] = (ws * ws).sum()
            acc[i, 0, 0, ka.W_PTS] = (ws * pts).sum()
            acc[i, 0, 0, ka.W_PTS_SQ] = (ws * pts * pts).sum()
            pxy[i, 0, 0, 0] = (ws * pts * pts).sum()
    return run


def _est(acc, pxy, mxy, ess):
    from bower.sim.advice import weighted_action_stats

    return [dict(weighted_action_stats(acc[0], "maker_share", ess), action="pass")]


def test_a_low_ess_draws_more_then_says_so():
    """Weight on one deal in 1,024: sampling goes on past the cap (``LOW_ESS_DRAW`` times it), then stops as
    ``low-ess``, and the answer's warning says a useful sample could not be reached."""
    from bower.sim import advice as sa

    sums = sa.sample_weighted(_fake_chunks(True), 1, 3, None, 19 * sa.CHUNK_SAMPLES, 0, _est)
    assert sums["kept"] == sa.LOW_ESS_DRAW * 19 * sa.CHUNK_SAMPLES
    assert sums["stopped"] == "low-ess"
    assert 94 < sums["ess"] < 96  # about one effective deal per chunk of 1,024: 95 chunks
    w = sa.model_fields({"kind": "softmax"}, sums, "strategy", [])["warning"]
    assert "could not be reached" in w and f"{sums['draws']:,} draws" in w


def test_a_healthy_ess_stops_when_precise_not_before_min_ess():
    """Equal weights: the answer is precise after a few batches and sampling stops there (``narrow``), never
    before the ESS reaches ``MIN_ESS``, and far below the cap."""
    from bower.sim import advice as sa

    sums = sa.sample_weighted(_fake_chunks(False), 1, 3, None, sa.DEFAULT_CAP, 0, _est)
    assert sums["stopped"] in ("narrow", "clear")
    assert sums["ess"] >= sa.MIN_ESS and sums["kept"] < sa.DEFAULT_CAP
    assert "warning" not in sa.model_fields({"kind": "softmax"}, sums, "strategy", [])


def test_an_ess_asked_for_and_not_reached_is_said():
    """``--samples N`` beyond what the cap of deals gives: the answer says how far it got, at which size the
    intervals are."""
    from bower.sim import advice as sa

    sums = sa.sample_weighted(_fake_chunks(True), 1, 3, 500, 200 * sa.CHUNK_SAMPLES, 0, _est)
    assert sums["stopped"] == "cap" and sa.MIN_ESS <= sums["ess"] < 500
    w = sa.model_fields({"kind": "softmax"}, sums, "strategy", [])["warning"]
    assert w.startswith("an effective sample of 500 was asked for") and f"{sums['kept']:,} deals" in w


def test_samples_above_the_cap_are_all_drawn():
    """``--samples N`` above the adaptive mode's cap is not cut to it: with weights 1 it gets exactly N deals
    (here a cap of 4 chunks and 11 chunks and a half asked for); the adaptive mode still stops at the cap."""
    from bower.sim import advice as sa

    cap = 4 * sa.CHUNK_SAMPLES
    asked = 11 * sa.CHUNK_SAMPLES + 512
    sums = sa.sample_weighted(_fake_chunks(False), 1, 3, asked, cap, 0, _est)
    assert sums["kept"] == asked and sums["ess"] == pytest.approx(asked) and sums["stopped"] == "samples"
    assert "warning" not in sa.model_fields({"kind": "softmax"}, sums, "strategy", [])
    # the same cap without samples, on weights that keep the ESS low: stopped at LOW_ESS_DRAW times the cap
    sums = sa.sample_weighted(_fake_chunks(True), 1, 3, None, cap, 0, _est)
    assert sums["kept"] == sa.LOW_ESS_DRAW * cap and sums["stopped"] == "low-ess"


def test_samples_above_the_cap_with_a_low_ess_draw_up_to_five_times_samples():
    """Weight on one deal in 1,024 and ``samples`` above the cap: while the ESS is below ``MIN_ESS`` the limit is
    ``LOW_ESS_DRAW`` times ``samples`` (not the cap), and once it is reached the limit is ``samples``; sampling
    stops there and the warning says what the weights gave."""
    from bower.sim import advice as sa

    cap = 4 * sa.CHUNK_SAMPLES
    asked = 30 * sa.CHUNK_SAMPLES
    sums = sa.sample_weighted(_fake_chunks(True), 1, 3, asked, cap, 0, _est)
    # ESS about 1 a chunk: drawn in batches of 8 chunks until it passes 100, at 104 chunks (before: 20, low-ess)
    assert sums["kept"] == 104 * sa.CHUNK_SAMPLES
    assert sums["stopped"] == "cap" and 100 <= sums["ess"] < 106
    w = sa.model_fields({"kind": "softmax"}, sums, "strategy", [])["warning"]
    assert w.startswith(f"an effective sample of {asked:,} was asked for") and "106,496 deals" in w
    # where even LOW_ESS_DRAW times samples leaves the ESS below MIN_ESS: low-ess, at that many deals
    asked = 12 * sa.CHUNK_SAMPLES
    sums = sa.sample_weighted(_fake_chunks(True), 1, 3, asked, cap, 0, _est)
    assert sums["kept"] == sa.LOW_ESS_DRAW * asked and sums["stopped"] == "low-ess" and sums["ess"] < sa.MIN_ESS
