"""Euchre's rule options ``farmers`` (EGN's farmer's hand) and ``go_under``: one exchange with the kitty before the
first call.

Exact crafted deals through the kernels and the plain-Python twin
(``tests/reference/euchre_play.py``): a hand of exactly three 9s and 10s
exchanges, a hand of two may not, a hand without jack, queen or king goes
under, and of two eligible seats only the first exchanges. The kernels
against the twin with the options on (hypothesis, fixed seeds); the chance
that a hand is eligible, counted over all C(24, 5) hands against its
combinatorial value; with both options off the records are unchanged.
"""

from __future__ import annotations

import itertools
import json
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from bower.kernels.euchre import hand as ek
from bower.sim import runner
from bower.sim.strategy import resolve_strategy
from bower.sim.variants.euchre.hands import play_order, rules_vector
from tests.cli_run import one_error, run
from tests.euchre_cases import order_of, twin_params
from tests.reference import euchre as eu
from tests.reference import euchre_play as ep

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
FARMERS = {"farmers": True}
UNDER = {"go_under": True}
BOTH = {"farmers": True, "go_under": True}


# dealer 0: position 1 (seat 1) holds exactly three 9s and 10s; no other seat may exchange
FARM = order_of({1: "9C TC 9D QS KH", 2: "JH AH KC 9S QC", 3: "JC AC KD AD KS", 4: "JS QD TS AS JD"},
                "9H QH TH TD")
# the same seats, position 1 with only two 9s and 10s: nobody may exchange
TWO = order_of({1: "9C TC QD QS KH", 2: "JH AH KC 9S QC", 3: "JC AC KD AD KS", 4: "JS 9D TS AS JD"},
               "9H QH TH TD")
# position 1 holds no jack, queen or king (two 9s and 10s, three aces): it may go under, not farm
UNDER_DEAL = order_of({1: "9C AC AS AD TH", 2: "JH AH KC 9S QC", 3: "JC TC KD QD KS", 4: "JS 9D TS QS JD"},
                      "9H QH KH TD")
# positions 1 and 3 both hold three 9s and 10s: only position 1 (first in turn) exchanges
TWICE = order_of({1: "9C TC 9D QS KH", 2: "JH AH KC AS QC", 3: "9S TS TD KD JC", 4: "AC AD JS QD JD"},
                 "9H QH TH KS")


# ---------------------------------------------------------------- exact cases


def test_a_farmers_hand_of_exactly_three_gives_them_for_the_kitty():
    got = play_order(FARM, 0, FARMERS)
    assert got["exchange"] == {"seat": 1, "gave": ["9C", "TC", "9D"], "took": ["TD", "TH", "QH"]}
    assert got["deal"]["1"] == ["9C", "TC", "QS", "9D", "KH"]  # as dealt
    played = {c for s, c in got["plays"] if s == 1}
    assert played <= {"QS", "KH", "QH", "TH", "TD"} and not played & {"9C", "TC", "9D"}
    assert got == ep.play_order(FARM, 0, FARMERS, twin_params("default"), 0)
    plain = play_order(FARM, 0)
    assert "exchange" not in plain and plain["deal"] == got["deal"]
    assert play_order(FARM, 0, UNDER)["exchange"] == {"seat": -1, "gave": [], "took": []}  # QS, KH: no going under


def test_a_hand_of_two_nines_and_tens_may_not_exchange():
    for rules in (FARMERS, UNDER, BOTH):
        got = play_order(TWO, 0, rules)
        assert got["exchange"] == {"seat": -1, "gave": [], "took": []}
        assert {k: v for k, v in got.items() if k not in ("exchange", "rules")} == \
            {k: v for k, v in play_order(TWO, 0).items() if k != "rules"}
        assert play_order(TWO, 0, rules, "random", 5) == ep.play_order(TWO, 0, rules, twin_params("random"), 5)
    with pytest.raises(ValueError, match="may not exchange"):
        eu.kitty_exchange(["9C", "TC", "QD", "QS", "KH"], ["9H", "QH", "TH", "TD"], ["9C", "TC", "QD"], FARMERS)


def test_go_under_eligibility_and_the_heuristic_gift():
    assert play_order(UNDER_DEAL, 0, FARMERS)["exchange"]["seat"] == -1  # two 9s and 10s: no farmer's hand
    got = play_order(UNDER_DEAL, 0, UNDER)
    # 9s, then 10s, then aces; the aces of spades and diamonds (one card of the suit) before the ace of clubs
    assert got["exchange"] == {"seat": 1, "gave": ["9C", "AS", "TH"], "took": ["TD", "QH", "KH"]}
    assert got == ep.play_order(UNDER_DEAL, 0, UNDER, twin_params("default"), 0)
    assert eu.exchange_options(["9C", "AC", "AS", "AD", "TH"], UNDER) == eu.as_cards(["9C", "AC", "AS", "AD", "TH"])
    assert eu.exchange_options(["9C", "AC", "AS", "AD", "TH"], FARMERS) == []
    assert eu.exchange_options(["9C", "TC", "9D", "QS", "KH"], BOTH) == eu.as_cards(["9C", "TC", "9D"])
    with pytest.raises(ValueError, match="may not be given"):
        eu.kitty_exchange(["9C", "TC", "9D", "QS", "KH"], ["9H", "QH", "TH", "TD"], ["9C", "TC", "QS"], FARMERS)


def test_at_most_one_exchange_a_deal():
    got = play_order(TWICE, 0, FARMERS)
    assert got["exchange"] == {"seat": 1, "gave": ["9C", "TC", "9D"], "took": ["KS", "TH", "QH"]}
    assert got == ep.play_order(TWICE, 0, FARMERS, twin_params("default"), 0)
    # a random seat 1 that declines leaves the exchange to seat 3, in some decision streams
    seats = {play_order(TWICE, 0, FARMERS, ["default", "random", "default", "default"], s)["exchange"]["seat"]
             for s in range(12)}
    assert seats == {1, 3}


def test_eligibility_counted_over_every_hand_is_the_combinatorial_chance():
    """P(3+ of the 8 nines and tens) = sum_{k>=3} C(8,k) C(16,5-k) / C(24,5) = 7,896 / 42,504; P(no jack, queen or
    king) = C(12,5) / C(24,5) = 792 / 42,504; either: their union (both: 3+ nines and tens and two aces or fewer
    among the 12 cards 9, 10, A)."""
    farm = sum(comb(8, k) * comb(16, 5 - k) for k in range(3, 6))
    under = comb(12, 5)
    both = sum(comb(8, k) * comb(4, 5 - k) for k in range(3, 6))
    assert (farm, under, both, comb(24, 5)) == (7896, 792, 672, 42504)
    counts = {}
    for name, rules in (("farmers", FARMERS), ("go_under", UNDER), ("both", BOTH)):
        vec = rules_vector(eu.resolve_rules(rules))
        counts[name] = sum(1 for cards in itertools.combinations(range(24), 5)
                           if ek.exchange_choices(np.int64(sum(1 << c for c in cards)), vec) != 0)
    assert counts == {"farmers": farm, "go_under": under, "both": farm + under - both}


# ---------------------------------------------------------------- kernels against the twin

STRATEGIES = st.one_of(st.sampled_from(["default", "random", "aggressive"]),
                       st.lists(st.sampled_from(["default", "random"]), min_size=4, max_size=4))
ON = [FARMERS, UNDER, BOTH, {"farmers": True, "discard_up": True, "canadian": True},
      {"go_under": True, "stick_the_dealer": True, "allow_lone_defender": True}]


@seed(351)
@settings(max_examples=40, **SETTINGS)
@given(order=st.permutations(range(24)), dealer=st.integers(0, 3), rules=st.sampled_from(ON), strategy=STRATEGIES,
       run_seed=st.integers(0, 2**32))
def test_play_order_twin_with_the_exchange(order, dealer, rules, strategy, run_seed):
    assert play_order(list(order), dealer, rules, strategy, run_seed) == \
        ep.play_order(list(order), dealer, rules, twin_params(strategy), run_seed)


@seed(352)
@settings(max_examples=6, **SETTINGS)
@given(run_seed=st.integers(0, 2**40), start=st.integers(0, 5000), rules=st.sampled_from(ON), strategy=STRATEGIES)
def test_hand_records_twin_with_the_exchange(run_seed, start, rules, strategy):
    kernel = runner.hand_records(run_seed, start, 40, rules, strategy, variant="euchre")
    assert kernel == ep.hand_records(run_seed, start, 40, rules, twin_params(strategy))


def test_the_options_exchange_and_the_defaults_do_not():
    base = runner.hand_records(7, 0, 300, {}, "random", variant="euchre")
    off = runner.hand_records(7, 0, 300, {"farmers": False, "go_under": False}, "random", variant="euchre")
    assert base == off and all("exchange" not in r for r in base)
    on = runner.hand_records(7, 0, 300, BOTH, "default", variant="euchre")
    done = [r for r in on if r["exchange"]["seat"] >= 0]
    def index(c):
        return eu.as_card(c).index

    assert done and all(len(r["exchange"]["gave"]) == 3
                        and sorted(r["exchange"]["took"], key=index) == sorted(r["kitty"][1:], key=index)
                        for r in done)


# ---------------------------------------------------------------- records and replay


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_records_jsonl_and_parquet_carry_the_exchange_and_replay(capsys, tmp_path):
    from bower.sim.records_check import iter_file

    for name in ("h.jsonl", "h.parquet"):
        code, _, err = run(capsys, "simulate", "--variant", "euchre", "--hands", "300", "--seed", "4", "--rule",
                           "farmers=true", "--rule", "go_under=true", "--records", str(tmp_path / name))
        assert code == 0, err
    want = runner.hand_records(4, 0, 300, BOTH, "default", variant="euchre")
    assert [r for r, _ in iter_file(str(tmp_path / "h.jsonl"))] == want
    got = [r for r, _ in iter_file(str(tmp_path / "h.parquet"))]
    assert [r["exchange"] for r in got] == [r["exchange"] for r in want]
    assert any(r["exchange"]["seat"] >= 0 for r in want)
    for name in ("h.jsonl", "h.parquet"):
        code, out, err = run(capsys, "replay", str(tmp_path / name))
        assert code == 0, err
        assert "300 hand(s) replayed" in out


def test_replay_refuses_an_exchange_the_rules_do_not_allow(capsys, tmp_path):
    rec = play_order(FARM, 0, FARMERS)
    good = tmp_path / "good.jsonl"
    _write(good, [rec])
    code, _, err = run(capsys, "replay", str(good))
    assert code == 0, err
    cases = [
        (dict(rec, rules=dict(rec["rules"], farmers=False)), "rules farmers and go_under are false"),
        (dict(rec, exchange=dict(rec["exchange"], gave=["9C", "TC", "QS"])), "may not give QS"),
        (dict(rec, exchange=dict(rec["exchange"], seat=2)), "seat 2 may not exchange"),
        (dict(rec, exchange=dict(rec["exchange"], took=["TD", "TH", "9H"])), "kitty's three face-down cards"),
        (dict(rec, exchange={"seat": -1, "gave": [], "took": []}), "did not hold"),  # plays the kitty's cards
    ]
    for k, (bad, words) in enumerate(cases):
        path = tmp_path / f"bad{k}.jsonl"
        _write(path, [bad])
        line = one_error(capsys, "replay", str(path))
        assert words in line, (k, line)


# ---------------------------------------------------------------- EGN: the ruleset's farmers and go_under


def test_egn_reads_and_writes_the_exchange_back(tmp_path):
    from bower.sim.variants.euchre.egn import EgnError, read_egn, write_egn

    recs = [play_order(FARM, 0, BOTH)] + runner.hand_records(5, 1, 40, BOTH, "default", variant="euchre")
    path = tmp_path / "x.egn"
    write_egn(path, recs)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["metadata"]["ruleset"]["farmers"] is True and doc["metadata"]["ruleset"]["go_under"] is True
    bid = next(ph for ph in doc["deals"][0]["phases"] if ph["type"] == "EUCHRE_BIDDING")
    assert bid["cardExchanges"] == [{"sender": 1, "receiver": 4, "cards": ["9c", "Tc", "9d"]},
                                    {"sender": 4, "receiver": 1, "cards": ["Td", "Th", "Qh"]}]
    back = read_egn(path)
    assert back.records == recs and back.meta["rules"]["farmers"] is True
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parent / "data" / "egn" / "egn-schema-v1.json").read_text(encoding="utf-8"))
    jsonschema.validate(doc, schema)
    # a file of the other rules says nothing of the exchange
    plain = tmp_path / "p.egn"
    write_egn(plain, runner.hand_records(5, 1, 5, {}, "default", variant="euchre"))
    ruleset = json.loads(plain.read_text(encoding="utf-8"))["metadata"]["ruleset"]
    assert "farmers" not in ruleset and "go_under" not in ruleset
    # an exchange without the rules, or by a seat the rules do not allow: one line naming the deal and the field
    doc["metadata"]["ruleset"]["farmers"] = doc["metadata"]["ruleset"]["go_under"] = False
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match="deal 0: field 'cardExchanges'.*neither farmers nor go_under"):
        read_egn(path)
    doc["metadata"]["ruleset"]["farmers"] = True
    bid["cardExchanges"][0]["cards"] = ["9c", "Tc", "Qs"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match="deal 0: field 'tricks' entry 2: seat 1 plays Qs, a card it does not hold"):
        read_egn(path)  # (it gave the queen away)
    bid["cardExchanges"] = bid["cardExchanges"][:1]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match="deal 0: field 'cardExchanges' is not two entries"):
        read_egn(path)


def test_searching_seats_play_after_the_exchange_and_replay(capsys, tmp_path):
    """PIMC seats (cards, calls, inference) play the hands after the exchange; the exchanger's worlds leave out the
    cards it gave. Their records are legal hands: replayed cleanly."""
    from bower.sim.variants import get_variant

    presets = get_variant("euchre").presets
    infer = {**presets["pimc-fast"], "pimc_infer": 1.0, "pimc_bid": 1.0}
    recs = runner.hand_records(8, 0, 24, BOTH, [infer, "default", presets["pimc-fast"], "random"],
                               variant="euchre")
    assert any(r["exchange"]["seat"] in (0, 2) for r in recs)
    path = tmp_path / "p.jsonl"
    _write(path, recs)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "24 hand(s) replayed" in out


def test_only_the_exchanging_seat_knows_the_cards_it_gave():
    rec = np.zeros(ek.R_WIDTH, np.int64)
    rec[ek.R_DEALER], rec[ek.R_KITTY], rec[ek.R_DISCARD] = 0, 5, -1  # AC turned down
    rec[ek.R_EXCHANGE], rec[ek.R_GIVEN] = 1, 0b111 << 6
    rec[ek.R_PASSED] = rec[ek.R_LONER_DISCARD] = -1  # no lone maker's exchange (rule partners_best)
    for seat in range(4):
        _, _, known, _, _ = ek.pimc_facts(rec, np.int64(seat), False)
        known4, _, _ = ek.infer_facts(rec, np.int64(seat), False)
        want = (1 << 5) | ((0b111 << 6) if seat == 1 else 0)
        assert known == want and known4 == want
    rec[ek.R_DEAL + 1] = (0b111 << 6) | (1 << 20) | (1 << 21)
    rec[ek.R_KITTY + 1], rec[ek.R_KITTY + 2], rec[ek.R_KITTY + 3] = 0, 1, 2
    assert ek.held_dealt(rec, np.int64(1)) == 0b111 | (1 << 20) | (1 << 21)  # the given three out, the kitty's in
    assert ek.held_dealt(rec, np.int64(2)) == rec[ek.R_DEAL + 2]


@pytest.mark.parametrize("preset", ["default", "pimc-fast", "pimc-bid"])
def test_preset_bots_exchange_as_the_kernels(preset):
    """The presets as bots (``bower.bot``) through the game API under both options: every decision, the exchange
    included, is the kernels' record (a PIMC bot seeded with the run's seed draws the kernels' worlds)."""
    from tests.test_preset_bots import play_records

    played = play_records("euchre", preset, {"default": 120, "pimc-fast": 40, "pimc-bid": 10}[preset], BOTH, seed=9)
    assert played > 0


def test_analyze_tables_estimate_the_hand_after_the_kitty_exchange():
    # the trick estimate of a maker that exchanged with the kitty is of the hand its calls saw: dealt, less the
    # three it gave, with the kitty's three it took (then the dealer's up-card), worked out here from the record
    from bower.kernels.euchre.strategy import estimates
    from bower.sim.cards import SUITS, mask_of_names
    from bower.sim.strategy import to_vector
    from bower.sim.variants.euchre import tables as et

    params = resolve_strategy("default", "euchre")
    recs = runner.hand_records(1, 0, 400, FARMERS, "default", variant="euchre")
    feats = et.hand_features(et.rows_from_records(recs), params)
    vec = to_vector(params, "euchre")

    def est(cards, trump):
        return estimates(np.array([mask_of_names(sorted(cards))], np.int64), np.array([trump], np.int64), vec)[0]

    checked = changed = 0
    for i, r in enumerate(recs):
        m = r["maker"]
        if m is None or r["exchange"]["seat"] != m:
            continue
        t = SUITS.index(r["trump"])
        cards = (set(r["deal"][str(m)]) - set(r["exchange"]["gave"])) | set(r["exchange"]["took"])
        if m == r["dealer"] and r["discard"] is not None:
            cards = (cards - {r["discard"]}) | {r["kitty"][0]}
        assert feats["est"][i] == est(cards, t)
        checked += 1
        changed += m != r["dealer"] and est(r["deal"][str(m)], t) != feats["est"][i]
    assert checked >= 40 and changed > 0  # (seed 1) the exchange is what the tables now read, not the dealt hand
