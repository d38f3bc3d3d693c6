"""The PIMC player's auction in Cutthroat: the searched calls, exchange and merge; worlds weighed by the auction.

- **World weights** (``pimc_infer``). A card-play world is completed into a
  deal as dealt (``hand.complete_deal``): a partition of the deck that keeps
  the player's own cards, the up-card and the record's public facts. With
  the auction model sharp (``pimc_tau`` 0, ``pimc_eps`` 0) its weight is 1
  exactly when the default strategy, dealt that deal, makes every call, the
  dealer's exchange, the going alone and the merge of the hand (replayed by
  the plain-Python twin ``tests/reference/cutthroat_play.py``), else 0; with
  the tremble every weight is positive. ``pimc_infer`` 0 and ``pimc_bid`` 0
  change no record.
- **The true deal.** With ``pimc_sees_all`` and ``pimc_bid`` every searched
  call (with going alone), every searched exchange, every searched merge and
  every searched defender's going alone is the double-dummy best among its
  candidates (a defender's ties: its strategy's choice): each candidate's points are
  worked out here with the twin's strategy finishing the hand, the plain
  solver (``solve_position``) and the rules' score (``tests/reference/cutthroat.py``);
  the points, or with ``pimc_bid_margin`` the margin.
- **Seeds.** The same records on 1 and 2 threads with searching and
  inferring seats; the search changes the auction.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower.kernels.cutthroat import hand as ck
from bower.kernels.cutthroat.strategy import Q_VOID, best_keep, card_weights
from bower.kernels.rng import splitmix_seed
from bower.kernels.solve import new_table, solve_position
from bower.sim import runner
from bower.sim.rules import encode, resolve
from bower.sim.variants import get_variant
from tests.chunks import records_on_one_and_two_threads
from tests.reference import cutthroat as ct
from tests.reference import cutthroat_play as cp
from tests.reference.ghost import SUIT_LETTERS

V = get_variant("cutthroat")
DECK = (1 << 24) - 1
RULE_SETS = [{}, {"dealer_pickup": "mandatory", "stick_the_dealer": True},
             {"maker_alone": "disabled", "allow_turned_down_suit": True}, {"lone_defender_points": "lone_only"}]


def _rows(hands: int, seed: int, strategy, rules=None) -> np.ndarray:
    out = []
    runner.rows_run("cutthroat", hands, seed, 1, rules or {}, strategy, out.append)
    return np.concatenate(out)


def _stream(seed: int):
    dstate = np.empty(4, np.uint64)
    splitmix_seed(np.uint64(seed), dstate)
    return dstate, np.zeros(2, np.int64)


def _cards(mask: int) -> list[int]:
    return [c for c in range(24) if (int(mask) >> c) & 1]


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << (c.index if hasattr(c, "index") else int(c))
    return m


def _word(code: int, position: int) -> str:
    """A kernel call code as the twin's record writes it."""
    if code == ck.CALL_PASS:
        return ct.PASS
    if code == ck.CALL_ACCEPT:
        return ct.ROUND_ONE_ACCEPT[position]
    return SUIT_LETTERS[code - ck.CALL_SUIT]


# ---------------------------------------------------------------- world weights

def _twin_reproduces(deal, rec, rules) -> bool:
    """Whether the default strategy (the twin), dealt ``deal`` (hands by seat, dummy, discard, keep), makes the
    record's calls, exchange, going alone and merge."""
    dealer, up = int(rec[ck.R_DEALER]), int(rec[ck.R_KITTY])
    dealt, dummy, disc, kept = [int(x) for x in deal[:3]], int(deal[3]), int(deal[4]), int(deal[5])
    rest = DECK & ~(dealt[0] | dealt[1] | dealt[2] | dummy | (1 << up))
    packets = [_cards(dealt[(dealer + p) % 3]) for p in (1, 2, 3)] + [_cards(dummy)]
    order = [packets[j][i] for i in range(5) for j in range(4)] + [up] + _cards(rest)
    n = int(rec[ck.R_NCALLS])
    calls = [[int(rec[ck.R_CALLS + 2 * i]), _word(int(rec[ck.R_CALLS + 2 * i + 1]), i % 3 + 1)] for i in range(n)]
    # the twin's auction first, then (the same calls) its hand through the merge: no world's weight asks for its
    # card play, and a world of other calls needs no exchange, going alone or merge
    if cp.play_order(order, dealer, rules, "default", stop="calls")["calls"] != calls:
        return False
    r = cp.play_order(order, dealer, rules, "default", stop="merge")
    if r["discards"]["dealer"] != (None if disc < 0 else str(ct.as_card(disc))):
        return False
    alone = int(rec[ck.R_ALONE])
    if r["alone"] != [s for s in range(3) if (alone >> s) & 1]:
        return False
    maker = int(rec[ck.R_MAKER])
    if not (alone >> maker) & 1:
        post = dealt[maker] if disc < 0 or maker != dealer else (dealt[maker] & ~(1 << disc)) | (1 << up)
        if (post | dummy) & ~_mask(ct.as_cards(r["discards"]["maker"])) != kept:
            return False
    return True


def _check_world(deal, rec, seat, n):
    """A completed world is a deal of the whole deck that keeps what ``seat`` knows."""
    dealt, dummy, disc = [int(x) for x in deal[:3]], int(deal[3]), int(deal[4])
    up, dealer = int(rec[ck.R_KITTY]), int(rec[ck.R_DEALER])
    parts = dealt + [dummy]
    assert all(bin(p).count("1") == 5 for p in parts)
    assert sum(parts) == (dealt[0] | dealt[1] | dealt[2] | dummy) and not (1 << up) & sum(parts)
    assert dealt[seat] == rec[ck.R_DEAL + seat]
    assert (disc >= 0) == (rec[ck.R_DEALER_DISCARD] >= 0)
    if disc >= 0:
        assert (dealt[dealer] >> disc) & 1
        if seat == dealer:
            assert disc == rec[ck.R_DEALER_DISCARD]
    maker = int(rec[ck.R_MAKER])
    if seat == maker and not (rec[ck.R_ALONE] >> maker) & 1:
        assert dummy == rec[ck.R_DUMMY]
    # every card a seat played in the first ``n`` plays is its own (in its hand at the first lead)
    for i in range(n):
        s, c = int(rec[ck.R_PLAYS + 2 * i]), int(rec[ck.R_PLAYS + 2 * i + 1])
        if s == seat:
            continue
        held = dealt[s] | dummy if s == maker else dealt[s]
        held |= (1 << up) if s == dealer else 0
        assert (held >> c) & 1


def _weights(recs, rules, tau, eps, seed, n_worlds=48):
    """(world, record, seat, plays, weight) for every seat after 0 and 7 plays of every played hand."""
    rules_vec = encode(V, resolve(V, rules))
    dstate, dbuf = _stream(seed)
    out = np.zeros((n_worlds, 6), np.int64)
    weights = np.zeros(n_worlds)
    for rec in recs:
        if rec[ck.R_MAKER] < 0:
            continue
        for seat in range(3):
            _, params = runner.seat_params([{**V.presets["default"], "pimc_worlds": 8.0, "pimc_infer": 1.0,
                                             "pimc_tau": tau, "pimc_eps": eps} if s == seat else "default"
                                            for s in range(3)], "cutthroat")
            for n in (0, 7):
                if n >= rec[ck.R_NPLAYS]:
                    continue
                lone = int(rec[ck.R_ALONE]) & ~(1 << int(rec[ck.R_MAKER]))
                if lone and seat == 3 - int(rec[ck.R_MAKER]) - (lone.bit_length() - 1):
                    continue  # the seat sits out: it plays no card
                assert ck.pimc_world_weights(rec, np.int64(seat), np.int64(n), params, rules_vec, np.int64(n_worlds),
                                             dstate, dbuf, out, weights)
                for w in range(n_worlds):
                    yield out[w].copy(), rec, seat, n, float(weights[w])


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**20), rules=st.sampled_from(RULE_SETS))
def test_sharp_weights_reproduce_the_auction(seed, rules):
    recs = _rows(24, seed, "default", rules)
    ones = zeros = 0
    for i, (deal, rec, seat, n, w) in enumerate(_weights(recs, rules, 0.0, 0.0, seed)):
        _check_world(deal, rec, seat, n)
        assert w in (0.0, 1.0), w
        if i % 6:
            continue  # the twin replays every sixth world (about 1,100 an example): it is most of the test's time
        assert (w == 1.0) == _twin_reproduces(deal, rec, rules), (rec.tolist(), seat, deal.tolist(), w)
        ones += w == 1.0
        zeros += w == 0.0
    assert ones > 20 and zeros > 20


def test_tremble_keeps_every_world():
    weights = [w for _, _, _, _, w in _weights(_rows(30, 5, "default"), {}, 0.25, 0.01, 5, n_worlds=16)]
    assert len(weights) > 500 and min(weights) > 0.0 and max(weights) <= 1.0


def test_pimc_infer_and_bid_off_change_nothing():
    a = _rows(150, 3, ["pimc-fast", "default", "random"])
    b = _rows(150, 3, [{**V.presets["pimc-fast"], "pimc_tau": 0.0, "pimc_eps": 0.5}, "default", "random"])
    assert np.array_equal(a, b)
    c = _rows(150, 3, [{**V.presets["pimc-fast"], "pimc_infer": 1.0}, "default", "random"])
    assert not np.array_equal(a, c)
    d = _rows(300, 3, ["default", "random", "default"])
    e = _rows(300, 3, [{**V.presets["default"], "pimc_bid": 1.0}, "random", "default"])  # no worlds: no search
    assert np.array_equal(d, e)


# ---------------------------------------------------------------- the true deal: double-dummy best

class _Twin:
    """The default strategy finishing a hand from imposed decisions (the twin's rules and strategy), solved
    double dummy from the first lead: seat 0's points, or with ``margin`` its points less the mean of the
    others'."""

    def __init__(self, rec, rules, margin=False):
        self.margin = margin
        self.rules = ct.resolve_rules(rules)
        self.params = cp.resolve_params("default")
        self.dealer, self.up = int(rec[ck.R_DEALER]), ct.as_card(int(rec[ck.R_KITTY]))
        self.dealt = [ct.as_cards(_cards(rec[ck.R_DEAL + s])) for s in range(3)]
        self.dummy = ct.as_cards(_cards(rec[ck.R_DUMMY]))
        self.keys, self.tags, self.bounds = new_table()
        self.nodes = np.zeros(1, np.int64)

    def points(self, calls, alone=-1, discard="strategy", lone="strategy", keep=None):
        """``calls``: the first calls imposed (kernel codes by turn; seat 0's alone as ``alone``), the rest the
        strategy's; ``discard``: the dealer's exchange (None or a card index); ``lone``: the lone defender (None
        or a seat); ``keep``: the maker's five (mask)."""
        P, R, dealer, up = self.params, self.rules, self.dealer, self.up
        hands = [list(h) for h in self.dealt]
        maker = trump = None
        suits = cp.allowed_suits(up, R)
        for i in range(6):
            pos = i % 3 + 1
            seat = (dealer + pos) % 3
            if i < len(calls):
                code = calls[i]
                named = None if code == ck.CALL_PASS else (up.suit if code == ck.CALL_ACCEPT else code - ck.CALL_SUIT)
            elif i < 3:
                named = up.suit if cp.round_one_accepts(pos, hands[seat], up, P) else None
            else:
                named = cp.round_two_call(hands[seat], suits, R["stick_the_dealer"] and pos == 3, P)
            if named is not None:
                maker, trump, round_one = seat, named, i < 3
                break
        if maker is None:
            return 0.0
        if round_one:
            d = cp.dealer_discard(hands[dealer], up, R, P) if discard == "strategy" else (
                None if discard is None or discard < 0 else ct.as_card(discard))
            hands[dealer], _ = ct.dealer_exchange(hands[dealer], up, d, R)
        maker_alone = False
        if R["maker_alone"] == "allowed":
            if maker == 0 and alone >= 0:
                maker_alone = alone == 1
            else:
                maker_alone = cp.estimate(hands[maker], trump, P) >= P["alone_min"]
        if lone == "strategy":
            lone = None
            for d in ((maker + 1) % 3, (maker + 2) % 3):
                if cp.estimate(hands[d], trump, P) >= P["defend_alone_min"]:
                    lone = d
                    break
        if not maker_alone:
            ten = hands[maker] + list(self.dummy)
            kept = cp.best_keep_cards(ten, trump, P) if keep is None else ct.as_cards(_cards(keep))
            hands[maker], _ = ct.merge_dummy(hands[maker], self.dummy, kept)
        active = ct.active_seats(maker, lone)
        leader = ct.first_leader(dealer, maker, maker_alone, lone)
        masks = np.array([_mask(hands[s]) if s in active else 0 for s in range(3)] + [0], np.int64)
        act = sum(1 << s for s in active)
        mt = solve_position(masks, np.int64(act), np.int64(trump), np.zeros(4, np.int64), np.int64(0),
                            np.int64(leader), np.int64(1 << maker), self.keys, self.tags, self.bounds, self.nodes)
        p = ct.score_hand(maker, int(mt), maker_alone, lone, R)
        return p[0] - (p[1] + p[2]) / 2 if self.margin else float(p[0])


@pytest.mark.parametrize("rules, margin", [(RULE_SETS[0], False), (RULE_SETS[1], False), (RULE_SETS[2], False),
                                           (RULE_SETS[0], True)])
def test_searched_auction_with_the_true_deal_is_double_dummy_best(rules, margin):
    seer = {**V.presets["default"], "pimc_worlds": 1.0, "pimc_sees_all": 1.0, "pimc_bid": 1.0,
            "pimc_bid_margin": float(margin)}
    _, params = runner.seat_params([seer, "default", "default"], "cutthroat")
    wt = np.zeros((3, 4, 24))
    order = np.zeros((3, 5, 7), np.int64)
    card_weights(params, wt, order)
    lone_ok = rules.get("maker_alone", "allowed") == "allowed"
    turns = calls_made = exchanges = merges = 0
    for rec in _rows(240, 17, [seer, "default", "default"], rules):
        twin = _Twin(rec, rules, margin)
        dealer, up = int(rec[ck.R_DEALER]), int(rec[ck.R_KITTY])
        u = up // 6
        n_calls = int(rec[ck.R_NCALLS])
        codes = [int(rec[ck.R_CALLS + 2 * i + 1]) for i in range(n_calls)]
        maker = int(rec[ck.R_MAKER])
        alone = int(rec[ck.R_ALONE])
        mine_alone = (alone & 1) if maker == 0 and lone_ok else (0 if maker == 0 else -1)
        for k in range(n_calls):
            if (dealer + 1 + k) % 3 != 0:
                continue
            flags = (0, 1) if lone_ok else (0,)
            stuck = k == 5 and rules.get("stick_the_dealer")
            cands = ([] if stuck else [(ck.CALL_PASS, -1)]) + (
                [(ck.CALL_ACCEPT, a) for a in flags] if k < 3 else
                [(ck.CALL_SUIT + t, a) for t in range(4) if t != u or rules.get("allow_turned_down_suit")
                 for a in flags])
            values = {c: twin.points([ck.CALL_PASS] * k + [c[0]], alone=c[1]) for c in cands}
            chosen = (codes[k], -1) if codes[k] == ck.CALL_PASS else (codes[k], mine_alone)
            assert chosen in values and values[chosen] == max(values.values()), (rec.tolist(), k, values)
            turns += 1
            calls_made += codes[k] != ck.CALL_PASS
        if maker < 0:
            continue
        round_one = codes[-1] == ck.CALL_ACCEPT
        disc = int(rec[ck.R_DEALER_DISCARD])
        if round_one and dealer == 0:
            options = ([] if rules.get("dealer_pickup") == "mandatory" else [-1]) + _cards(rec[ck.R_DEAL])
            values = {d: twin.points(codes, alone=mine_alone, discard=d) for d in options}
            assert values[disc] == max(values.values()), (rec.tolist(), values)
            exchanges += 1
        if maker == 0 and not alone & 1:
            lone = alone & ~1
            lone = None if lone == 0 else lone.bit_length() - 1
            post = int(rec[ck.R_DEAL])
            if round_one and dealer == 0 and disc >= 0:
                post = (post & ~(1 << disc)) | (1 << up)
            ten = post | int(rec[ck.R_DUMMY])
            kept = ten & ~int(rec[ck.R_MAKER_DISCARDS])
            trump = int(rec[ck.R_TRUMP])
            pw, pm = np.zeros((4, 8)), np.zeros((4, 8), np.int64)
            mine = best_keep(np.int64(ten), np.int64(trump), wt, order, np.int64(0), params[0, Q_VOID], pw, pm)
            keeps = np.zeros(ck.MAX_KEEPS + 1, np.int64)
            n = ck.keep_candidates(np.int64(ten), np.int64(trump), wt, np.int64(0), params[0, Q_VOID], mine, keeps)
            options = [int(x) for x in keeps[:n]]
            assert kept in options and int(mine) in options and len(set(options)) == n
            assert all(bin(x).count("1") == 5 and x & ~ten == 0 for x in options)
            values = {m: twin.points(codes, alone=0, discard=disc if round_one else "strategy", lone=lone, keep=m)
                      for m in options}
            assert values[kept] == max(values.values()), (rec.tolist(), values)
            merges += 1
    counts = (turns, calls_made, exchanges, merges)
    assert turns > 100 and calls_made > 25 and merges > 20 and exchanges > 10, counts


@pytest.mark.parametrize("rules, margin, edge", [(RULE_SETS[0], False, 0.0), (RULE_SETS[1], False, 0.0),
                                                 (RULE_SETS[2], False, 0.0), (RULE_SETS[3], False, 0.0),
                                                 (RULE_SETS[0], True, 0.0), (RULE_SETS[0], False, 1.0)])
def test_searched_defender_alone_with_the_true_deal_is_double_dummy_best(rules, margin, edge):
    """Seat 0 searching on the true deal, as a defender asked to go alone: its choice has the higher of the two
    values (alone, or not with the other defender still to be asked deciding by its strategy), each worked out
    with the twin; on a tie it is the strategy's own choice; with ``pimc_bid_edge`` it departs from the
    strategy's choice exactly when the other beats it by more than the edge."""
    seer = {**V.presets["default"], "pimc_worlds": 1.0, "pimc_sees_all": 1.0, "pimc_bid": 1.0,
            "pimc_bid_margin": float(margin), "pimc_bid_edge": edge}
    P = cp.resolve_params("default")
    asked = departed = went = 0
    for rec in _rows(300, 23, [seer, "default", "default"], rules):
        maker = int(rec[ck.R_MAKER])
        if maker <= 0:
            continue
        alone = int(rec[ck.R_ALONE])
        first, second = (maker + 1) % 3, (maker + 2) % 3
        if second == 0 and (alone >> first) & 1:
            continue  # the first defender went: seat 0 was not asked
        twin = _Twin(rec, rules, margin)
        n_calls = int(rec[ck.R_NCALLS])
        codes = [int(rec[ck.R_CALLS + 2 * i + 1]) for i in range(n_calls)]
        disc = int(rec[ck.R_DEALER_DISCARD]) if codes[-1] == ck.CALL_ACCEPT else "strategy"
        trump = int(rec[ck.R_TRUMP])
        held = {s: ct.as_cards(_cards(ck.held_at_lead(rec, np.int64(s)))) for s in (first, second)}
        other = None
        if first == 0 and cp.estimate(held[second], trump, P) >= P["defend_alone_min"]:
            other = second
        values = {False: twin.points(codes, discard=disc, lone=other), True: twin.points(codes, discard=disc, lone=0)}
        mine = cp.estimate(held[0], trump, P) >= P["defend_alone_min"]
        chosen = bool(alone & 1)
        assert chosen == (not mine if values[not mine] > values[mine] + edge else mine), (rec.tolist(), values)
        asked += 1
        departed += chosen != mine
        went += chosen
    assert asked > 100 and departed > 0 and went > 0, (asked, departed, went)


def test_alone_seen_weighs_only_the_decisions_made():
    """``world_weight``'s ``alone_seen`` counts the going-alone decisions weighed: on the true deal with the sharp
    model, the first defender's own turn (the maker's decision seen) always weighs 1; with every decision seen
    and none of the defenders gone, the weight is 0 exactly when the record's second defender went alone."""
    from bower.kernels.cutthroat.model import world_weight

    _, params = runner.seat_params(["default"] * 3, "cutthroat")
    wt = np.zeros((3, 4, 24))
    order = np.zeros((3, 5, 7), np.int64)
    card_weights(params, wt, order)
    rules_vec = encode(V, resolve(V, {}))
    pw, pm, dist = np.zeros((4, 8)), np.zeros((4, 8), np.int64), np.zeros(12)
    seconds = 0
    for rec in _rows(2000, 29, "default"):
        maker = int(rec[ck.R_MAKER])
        if maker < 0:
            continue
        first, second = (maker + 1) % 3, (maker + 2) % 3
        alone = int(rec[ck.R_ALONE])
        if (alone >> first) & 1:
            continue
        dealt = np.array([rec[ck.R_DEAL + s] for s in range(3)], np.int64)
        maker_bit = alone & (1 << maker)
        args = (dealt, rec[ck.R_DUMMY], rec[ck.R_KITTY], rec[ck.R_DEALER], np.int64(first),
                rec[ck.R_CALLS:ck.R_CALLS + 2 * ck.MAX_CALLS], rec[ck.R_NCALLS], True, rec[ck.R_DEALER_DISCARD])
        tail = (False, np.int64(0), rules_vec, params, wt, order, 0.0, 0.0, pw, pm, dist)
        assert world_weight(*args, np.int64(1), np.int64(maker_bit), *tail) == 1.0
        w3 = world_weight(*args, np.int64(3), np.int64(maker_bit), *tail)
        assert (w3 == 0.0) == bool((alone >> second) & 1), rec.tolist()
        seconds += (alone >> second) & 1
    assert seconds > 0


def test_searched_auction_same_seed_same_games_for_one_and_two_threads():
    k = V.hand_kernels
    strategy = [{**V.presets["pimc-fast"], "pimc_bid": 1.0, "pimc_infer": 1.0}, "random",
                {**V.presets["pimc-fast"], "pimc_bid": 1.0}]
    _, params = runner.seat_params(strategy, "cutthroat")
    got = records_on_one_and_two_threads(V, params)
    assert np.array_equal(got[0][0], got[1][0]) and np.array_equal(got[0][1], got[1][1])
    # the search changes the auction: the searching seats call differently from the strategy on some deals
    _, params0 = runner.seat_params(["pimc-fast", "random", "pimc-fast"], "cutthroat")
    plain = records_on_one_and_two_threads(V, params0)[0][0]
    assert not np.array_equal(plain[:, k.R_CALLS:k.R_MAKER], got[0][0][:, k.R_CALLS:k.R_MAKER])
