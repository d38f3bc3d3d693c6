"""Standard Euchre's game API (``bower.game("euchre")``, ``bower.sim.variants.euchre.game``) against the kernels.

The kernel check: the kernels play ``N`` hands of a run with the ``random``
preset in every seat, and record each. The kernels' random player takes
``legal[bounded(len(legal))]`` from the chunk's decision stream
(``tests.reference.rng.decision_chunk_rng``), its legal sets in the order the
API sorts its actions. The API then deals each recorded deal (dealer, hands,
kitty) through its chance nodes and plays it with a bot drawing from the same
stream the same way: a legal set of another size at any decision moves the
stream, another order or content changes the card or call chosen, and every
later decision of the chunk then differs. Every decision (calls, discard,
alone, plays), the tricks and the points must equal the kernel's record; each
legal set is also checked against the plain-Python rules reference
``tests/reference/euchre.py``, and each hand's points against the score
vectors of ``/work/shared/vectors/euchre_scores.jsonl`` (via the reference's
table when the file is absent).

``python -m tests.test_game_euchre [N]`` runs the check on ``FULL_HANDS``
(100,000) hands under each rule set and prints the time taken.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import bower
from bower.sim.cards import card_str, parse_card
from bower.sim.game import CHANCE, TERMINAL, GameError, draw_hidden
from bower.sim.variants.euchre import game as eg
from tests.reference import euchre as eu
from tests.reference.rng import decision_chunk_rng

FULL_HANDS = 100_000  # hands per rule set of the full check (``python -m tests.test_game_euchre``)
CI_HANDS = 2_000  # hands of the check in the suite (2 cores shared)
CHUNK = 4096  # hands per chunk of a run: each chunk has its own decision stream
VECTORS = Path("/work/shared/vectors/euchre_scores.jsonl")
RULE_SETS = [
    {},
    {"stick_the_dealer": True},
    {"allow_lone_defender": True},
    {"stick_the_dealer": True, "allow_lone_defender": True, "loner_lead": "loner", "fast_break": True},
    {"farmers": True, "go_under": True, "discard_up": True},
    {"canadian": True, "discard_up": True, "allow_lone_defender": True, "loner_march_score": 5,
     "loner_euchred_score": 3, "partners_best": True},
    {"farmers": True, "go_under": True, "partners_best": True, "allow_lone_defender": True},  # both exchanges
]


def _score_table() -> dict:
    """(maker_tricks, maker_alone, lone_defender) -> (makers' points, defenders' points)."""
    if VECTORS.is_file():
        rows = [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]
        return {(r["maker_tricks"], r["maker_alone"], r["lone_defender"]): (r["makers_points"], r["defenders_points"])
                for r in rows}
    return {(t, a, d): eu.score_hand(t, a, d) for t in range(6) for a in (False, True) for d in (False, True)}


SCORES = _score_table()


def expected_points(case: tuple, rules: dict) -> tuple[int, int]:
    """The score table's row ``case`` under ``rules``: a lone maker's march ``loner_march_score``, its euchre by both
    defenders ``loner_euchred_score`` (the table's 4 and 2 by default)."""
    makers, defenders = SCORES[case]
    taken, maker_alone, lone_defender = case
    if maker_alone and taken == 5:
        makers = rules.get("loner_march_score", 4)
    if maker_alone and not lone_defender and taken < 3:
        defenders = rules.get("loner_euchred_score", 2)
    return makers, defenders


# ---------------------------------------------------------------- dealing a given deal through the chance nodes


def deal_actions(dealer: int, hands: dict, kitty: list) -> list[int]:
    """The chance actions that deal ``hands`` (seat -> 5 cards) and ``kitty`` (up-card first) from ``dealer``."""
    by_seat = {int(s): [parse_card(c) if isinstance(c, str) else int(c) for c in cards] for s, cards in hands.items()}
    out = [dealer]
    for k in range(20):
        out.append(by_seat[(dealer + 1 + k % 4) % 4][k // 4])
    return out + [parse_card(c) if isinstance(c, str) else int(c) for c in kitty]


def dealt_state(game, dealer: int, hands: dict, kitty: list):
    state = game.new_initial_state()
    for a in deal_actions(dealer, hands, kitty):
        assert state.is_chance_node() and a in dict(state.chance_outcomes())
        state.apply_action(a)
    return state


# ---------------------------------------------------------------- the reference's legal sets, as action ids


def reference_legal(state, rules: dict) -> list[int]:
    """The legal actions of ``state`` by the rules reference ``tests/reference/euchre.py``."""
    up = state.up
    calls = [{eg.PASS: "pass", eg.ORDER: "order"}.get(a) or "CSDH"[a - eg.NAME] for _, a in state.calls]
    if state.phase == eg.AUCTION:
        allowed = eu.legal_calls(calls, state.dealer, up, rules)
        return sorted({"pass": eg.PASS, "order": eg.ORDER}.get(c) or eg.NAME + "CSDH".index(c) for c in allowed)
    if state.phase == eg.GIVE:  # farmers / go_under: whether, then each card it may still give
        dealt = [c for c in range(24) if state.dealt[state.current_player()] >> c & 1]
        options = [c.index for c in eu.exchange_options(dealt, rules)]
        assert options and not state.calls
        if state.ex_seat < 0:
            return [eg.KEEP, eg.EXCHANGE]
        return [c for c in options if not state.ex_given >> c & 1]
    if state.phase == eg.DISCARD:
        dealt = [c for c in range(24) if state.hands[state.dealer] >> c & 1 and c != up]
        return [c.index for c in eu.discard_options(dealt, up, rules)]
    if state.phase in (eg.MAKER_ALONE, eg.DEFEND):
        if state.phase == eg.DEFEND:
            answers = [alone for _, alone in state.answers]
            assert eu.defender_to_ask(state.dealer, state.maker, answers, rules) == state.current_player()
        if state.phase == eg.MAKER_ALONE:  # canadian's forced loner is no node
            assert not eu.canadian_loner(state.dealer, state.maker, state.round, rules)
        return [eg.WITH_PARTNER, eg.ALONE]
    if state.phase == eg.PARTNER_PASS:  # partners_best: any card of the partner's; then any of the loner's six
        assert rules["partners_best"] and state.maker_alone and state.current_player() == (state.maker + 2) % 4
        return sorted(c for c in range(24) if state.hands[state.current_player()] >> c & 1)
    if state.phase == eg.LONER_DISCARD:
        assert state.current_player() == state.maker and bin(state.hands[state.maker]).count("1") == 6
        return sorted(c for c in range(24) if state.hands[state.maker] >> c & 1)
    if state.phase == eg.PLAY:
        hand = [c for c in range(24) if state.hands[state.current_player()] >> c & 1]
        lead = state.trick[0][1] if state.trick else None
        return [c.index for c in eu.legal_cards(hand, lead, state.trump)]
    raise AssertionError(state.phase)


# ---------------------------------------------------------------- the kernel check


def kernel_check(seed: int, hands: int, rules: dict, reference: bool = True, times: dict | None = None) -> Counter:
    """Play ``hands`` hands of the run ``seed`` in the kernels (``random`` preset) and through the API with the same
    decisions; assert every record field and legal set equal. Returns the score cases met, with counts; ``times``
    gets the seconds of the kernels' records (``kernels``) and of the API's play and checks (``api``)."""
    from bower.sim import runner

    start = time.perf_counter()
    records = runner.hand_records(seed, 0, hands, rules=rules, strategy="random", variant="euchre")
    if times is not None:
        times["kernels"] = time.perf_counter() - start
    game = bower.game("euchre", rules=rules)
    rules_d = game.rules
    cases: Counter = Counter()
    stream = None
    for h, rec in enumerate(records):
        if h % CHUNK == 0:
            stream = decision_chunk_rng(seed, h // CHUNK)
        state = dealt_state(game, rec["dealer"], rec["deal"], rec["kitty"])
        while not state.is_terminal():
            legal = state.legal_actions()
            if reference:
                assert legal == reference_legal(state, rules_d), (h, str(state))
            state.apply_action(legal[stream.bounded(len(legal))])
        mine = state.to_record()
        for key in ("dealer", "deal", "kitty", "calls", "discard", "alone", "maker", "trump", "plays", "tricks",
                    "points") + (("exchange",) if "exchange" in rec else ()) + (
                        ("passed", "loner_discard") if rules_d["partners_best"] else ()):
            assert mine[key] == rec[key], f"hand {h}, {key}: api {mine[key]} kernels {rec[key]}"
        if mine.get("exchange", {}).get("seat", -1) >= 0:
            cases["exchange"] += 1
            if mine.get("passed") is not None:  # the kitty's exchange and a lone maker's in one hand
                cases["both"] += 1
        ret = state.returns()
        assert ret[0] == ret[2] and ret[1] == ret[3] and min(ret[0], ret[1]) == 0
        if state.maker >= 0:
            side = state.maker % 2
            taken = state.won[state.maker] + state.won[(state.maker + 2) % 4]
            case = (taken, state.maker_alone, state.lone >= 0)
            want = expected_points(case, rules_d)
            if rules_d["fast_break"] and taken == 3 and all(w % 2 != side for _, _, w in state.tricks[:2]):
                want = (0, 0)  # a fast break: the defenders took tricks 1 and 2
                cases["fast break"] += 1
            assert (ret[side], ret[1 - side]) == want, (h, case, ret)
            cases[case] += 1
        else:
            assert ret == [0.0] * 4 and len(state.calls) == 8
            cases["thrown in"] += 1
    if times is not None:
        times["api"] = time.perf_counter() - start - times["kernels"]
    return cases


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
def test_api_plays_as_the_kernels(rules):
    n = CI_HANDS if not rules else CI_HANDS // 4
    cases = kernel_check(seed=11, hands=n, rules=rules)
    assert sum(v for k, v in cases.items() if k not in ("fast break", "exchange", "both")) == n  # (a fast break
    # also counts as its case)
    if rules.get("allow_lone_defender"):  # a lone defender changes the euchre: both met
        assert cases[(0, False, True)] + cases[(1, False, True)] + cases[(2, False, True)] > 0
    assert cases[(5, True, False)] > 0 and cases[(3, False, False)] > 0  # a lone march, a plain make
    assert (cases["fast break"] > 0) == bool(rules.get("fast_break"))
    assert (cases["exchange"] > 0) == bool(rules.get("farmers") or rules.get("go_under"))
    assert (cases["both"] > 0) == bool((rules.get("farmers") or rules.get("go_under")) and rules.get("partners_best"))


def test_every_score_vector_is_met():
    """Across the rule sets, the hands played meet each row of the score table the rules can reach."""
    seen: Counter = Counter()
    for rules in RULE_SETS[2:]:
        seen.update(kernel_check(seed=5, hands=CI_HANDS // 2, rules=rules, reference=False))
    missing = [case for case in SCORES if case not in seen]
    assert missing == []


def test_against_openspiel_legal_counts():
    """The number of legal actions at each decision equals OpenSpiel's ``euchre`` on the same deal and decisions."""
    pyspiel = pytest.importorskip("pyspiel")
    os_suit = {0: 0, 1: 3, 2: 1, 3: 2}  # bower C S D H -> OpenSpiel C D H S

    def os_card(c: int) -> int:
        return (c % 6) * 4 + os_suit[c // 6]

    rng = random.Random(3)
    for stick in (False, True):
        ours = bower.game("euchre", rules={"stick_the_dealer": stick})
        theirs = pyspiel.load_game("euchre", {"allow_lone_defender": False, "stick_the_dealer": stick})
        for _ in range(200):
            state = ours.new_initial_state()
            while state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
            other = theirs.new_initial_state()
            other.apply_action(state.dealer)
            hands = [[c for c in range(24) if state.dealt[s] >> c & 1] for s in range(4)]
            for k in range(20):  # OpenSpiel deals card k to seat (dealer + k) % 4
                other.apply_action(os_card(hands[(state.dealer + k) % 4].pop()))
            other.apply_action(os_card(state.up))
            while not state.is_terminal():
                legal = state.legal_actions()
                assert len(legal) == len(other.legal_actions())
                a = rng.choice(legal)
                if a < 24:
                    b = os_card(a)
                elif a in (eg.ORDER, *range(eg.NAME, eg.NAME + 4)):
                    b = 25 + os_suit[state.up // 6 if a == eg.ORDER else a - eg.NAME]
                else:
                    b = {eg.PASS: 24, eg.ALONE: 29, eg.WITH_PARTNER: 30}[a]
                state.apply_action(a)
                other.apply_action(b)
            assert other.is_terminal()


# ---------------------------------------------------------------- the interface


def random_state(seed: int, decisions: int, rules=None):
    """A state after the deal of ``seed`` and ``decisions`` random decisions (fewer if the hand ends first)."""
    rng = random.Random(seed)
    state = bower.game("euchre", rules=rules).new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_the_first_nodes_and_sizes():
    game = bower.game("standard")  # an alias
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    state.apply_action(2)
    assert [a for a, _ in state.chance_outcomes()] == list(range(24))
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-12
    for c in range(23):
        state.apply_action(c)
    assert state.chance_outcomes() == [(23, 1.0)]
    state.apply_action(23)
    assert state.current_player() == 3 and state.legal_actions() == [eg.PASS, eg.ORDER]
    assert state.up == 20 and state.kitty == [20, 21, 22, 23]
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == eg.OBSERVATION_SIZE
    assert state.history() == [2, *range(24)]
    assert state.action_to_string(eg.ORDER) == "order " + card_str(20)
    assert state.action_to_string(3, eg.PASS) == "pass"


def test_a_round_two_call_and_stick_the_dealer():
    for stick, expect in ((False, [eg.PASS, 26, 27, 28]), (True, [26, 27, 28])):
        state = dealt_state(bower.game("euchre", rules={"stick_the_dealer": stick}), 0,
                            {s: list(range(5 * s, 5 * s + 5)) for s in range(4)}, [20, 21, 22, 23])
        for _ in range(7):
            state.apply_action(eg.PASS)
        assert state.current_player() == 0 and state.legal_actions() == expect  # up-card 9H: hearts may not be named
        if not stick:
            state.apply_action(eg.PASS)
            assert state.is_terminal() and state.current_player() == TERMINAL and state.returns() == [0.0] * 4


def test_illegal_actions_are_refused_in_one_line():
    state = random_state(1, 0)
    before = state.history()
    for bad in (eg.ALONE, 99, -1, "pass", 3.5):
        with pytest.raises(bower.BowerError) as e:
            state.apply_action(bad)
        assert isinstance(e.value, GameError) and "\n" not in str(e.value) and "not legal" in str(e.value)
    assert state.history() == before
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(bower.BowerError, match="the hand is over"):
        state.apply_action(0)
    with pytest.raises(bower.BowerError, match="seat 0..3"):
        state.information_state_string(4)
    with pytest.raises(bower.BowerError) as e:  # every variant has the API: only an unknown name is refused
        bower.game("nosuch")
    assert "unknown variant 'nosuch'" in str(e.value) and "\n" not in str(e.value)


def test_follow_suit_with_the_left_bower():
    """Trump hearts: the jack of diamonds is a heart; a diamond led does not call for it."""
    state = dealt_state(bower.game("euchre"), 3, {
        0: ["JD", "9D", "AC", "AS", "KS"], 1: ["TD", "QD", "9C", "TC", "9S"], 2: ["9H", "TH", "QC", "KC", "TS"],
        3: ["JH", "QH", "KH", "AH", "QS"]}, ["KD", "AD", "JC", "JS"])
    for _ in range(4):
        state.apply_action(eg.PASS)
    state.apply_action(eg.NAME + 3)  # seat 0 names hearts
    state.apply_action(eg.WITH_PARTNER)
    assert state.current_player() == 0  # position 1 leads
    state.apply_action(parse_card("9D"))
    assert [card_str(c) for c in state.legal_actions()] == ["TD", "QD"]
    state.apply_action(parse_card("TD"))
    state.apply_action(parse_card("9H"))  # seat 2 has no diamond: trumps in
    assert [card_str(c) for c in state.legal_actions()] == ["QS", "JH", "QH", "KH", "AH"]  # seat 3: no diamond
    state.apply_action(parse_card("QS"))
    assert state.tricks[-1][2] == 2 and state.voids[2] == 1 << 2 and state.voids[3] == 1 << 2
    assert [card_str(c) for c in state.legal_actions()] == ["QC", "KC", "TS", "TH"]  # by card number
    state.apply_action(parse_card("TH"))  # trump led: the jack of diamonds must follow
    state.apply_action(parse_card("JH"))
    assert [card_str(c) for c in state.legal_actions()] == ["JD"]


def test_clones_are_independent():
    state = random_state(4, 6)
    copy = state.clone()
    text, history, tensor = str(state), state.history(), state.observation_tensor(1)
    while not copy.is_terminal():
        copy.apply_action(copy.legal_actions()[-1])
    assert str(state) == text and state.history() == history and state.observation_tensor(1) == tensor
    again = state.clone()
    for a in copy.history()[len(history):]:
        again.apply_action(a)
    assert again.history() == copy.history() and again.returns() == copy.returns() and str(again) == str(copy)


def test_information_state_hides_the_other_hands():
    state = random_state(8, 12, rules={"allow_lone_defender": True})
    for p in range(4):
        text = state.information_state_string(p)
        seen = {card_str(c) for c in range(24) if state.hands[p] >> c & 1 or state.played >> c & 1} | {card_str(state.up)}
        if p == state.dealer and state.discard >= 0:
            seen.add(card_str(state.discard))
        shown = {w.split(":")[-1] for w in text.split() if len(w.split(":")[-1]) == 2 and w.split(":")[-1][1] in "CSDH"}
        assert shown <= seen, (p, shown - seen)
        t = state.observation_tensor(p)
        assert [i for i in range(8, 32) if t[i]] == [8 + c for c in range(24) if state.hands[p] >> c & 1]
        assert sum(t[0:4]) == 1 and t[p] == 1


# ---------------------------------------------------------------- resampling


def _known(state, p: int) -> dict:
    played = {(s, c) for _, cards, _ in state.tricks for s, c in cards} | set(state.trick)
    return {"hand": state.hands[p], "played": played, "up": state.up, "calls": state.calls, "history_len":
            len(state.history()), "answers": state.answers, "maker_alone": state.maker_alone,
            "discard": state.discard if p == state.dealer else None, "voids": list(state.voids),
            "info": state.information_state_string(p)}


def _consistent(world, state, p: int) -> None:
    assert _known(world, p) == _known(state, p)
    for s in range(4):  # no seat holds a card of a suit it showed void in
        if state.trump >= 0:
            assert not any(state.voids[s] >> eg.EFFECTIVE[state.trump][c] & 1 for c in range(24) if world.hands[s] >> c & 1)
        assert bin(world.hands[s]).count("1") == bin(state.hands[s]).count("1")


@pytest.mark.parametrize("seed,decisions", [(1, 3), (2, 9), (3, 14), (6, 17), (7, 20)])
def test_resampled_worlds_keep_what_the_player_knows(seed, decisions):
    state = random_state(seed, decisions, rules={"allow_lone_defender": True})
    rng = random.Random(seed)
    for p in range(4):
        for _ in range(30):
            world = state.resample_from_infostate(p, rng)
            _consistent(world, state, p)
            copy = world.clone()  # and the world plays on
            while not copy.is_terminal():
                copy.apply_action(copy.legal_actions()[0])


def _with_voids():
    """A state in the third trick where two seats have shown voids (found by search over fixed seeds)."""
    for seed in range(500):
        rng = random.Random(seed)
        state = random_state(seed, 0)
        while not state.is_terminal() and len(state.tricks) < 2:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.phase == eg.PLAY and sum(1 for v in state.voids if v) >= 2 and state.active == 15:
            return state
    raise AssertionError("no state with two voids")


def test_resampling_is_uniform_where_no_void_shows():
    """At the first lead, each unseen card lands in each hidden place in proportion to its room (5 sigma)."""
    state = random_state(12, 0)
    while state.phase != eg.PLAY:  # position 1 orders up, the dealer discards its lowest card, nobody alone
        legal = state.legal_actions()
        state.apply_action(legal[-1] if state.phase == eg.AUCTION else legal[0])
    p = state.current_player()
    n = 3000
    counts = Counter()
    rng = random.Random(1)
    for _ in range(n):
        world = state.resample_from_infostate(p, rng)
        for s in range(4):
            for c in range(24):
                if world.hands[s] >> c & 1:
                    counts[c, s] += 1
    assert p != state.dealer and state.round == 1
    unseen = [c for c in range(24) if not (state.hands[p] | 1 << state.up) >> c & 1]  # the discard among them
    rooms = {s: bin(state.hands[s] & ~(1 << state.up)).count("1") for s in range(4) if s != p}
    places = sum(rooms.values()) + 3 + (state.round == 1 and p != state.dealer)
    for c in unseen:
        for s, room in rooms.items():
            share = room / places
            sd = (n * share * (1 - share)) ** 0.5
            assert abs(counts[c, s] - n * share) < 5 * sd, (card_str(c), s, counts[c, s], n * share)


def test_resampling_with_voids_matches_the_exact_distribution():
    """Two seats showed voids: the draw's frequencies against the exact count of consistent deals (5 sigma), by
    the shuffle-and-reject path and by the exact path alone."""
    state = _with_voids()
    p = state.current_player()
    others = [s for s in range(4) if s != p]
    known = state.hands[p] | state.played | 1 << state.up
    if p == state.dealer and state.discard >= 0:
        known |= 1 << state.discard
    unseen = [c for c in range(24) if not known >> c & 1]
    slots = [(bin(state.hands[s] & ~known).count("1"), frozenset(x for x in range(4) if state.voids[s] >> x & 1))
             for s in others]
    slots.append((len(unseen) - sum(n for n, _ in slots), frozenset()))
    group = eg.EFFECTIVE[state.trump].__getitem__
    exact = Counter()
    total = 0
    for perm_sizes in _assignments(unseen, slots, group):
        total += 1
        for i, cards in enumerate(perm_sizes):
            for c in cards:
                exact[c, i] += 1
    assert total > 1
    for tries in (64, 0):
        rng = random.Random(tries)
        n = 3000
        counts = Counter()
        for _ in range(n):
            for i, cards in enumerate(draw_hidden(unseen, group, slots, rng, tries=tries)):
                assert not any(group(c) in slots[i][1] for c in cards)
                for c in cards:
                    counts[c, i] += 1
        for (c, i), k in exact.items():
            share = k / total
            sd = max((n * share * (1 - share)) ** 0.5, 1.0)
            assert abs(counts[c, i] - n * share) < 5 * sd, (tries, card_str(c), i, counts[c, i], n * share)
        assert all((c, i) in exact for c, i in counts)


def _assignments(cards, slots, group):
    """Every assignment of ``cards`` to the slots (as sets) that no slot refuses: brute force."""
    def rec(rest, i):
        if i == len(slots):
            yield []
            return
        size, bad = slots[i]
        for pick in itertools.combinations(rest, size):
            if any(group(c) in bad for c in pick):
                continue
            left = [c for c in rest if c not in pick]
            for tail in rec(left, i + 1):
                yield [list(pick), *tail]
    yield from rec(list(cards), 0)


def test_resample_accepts_the_usual_random_sources():
    import numpy as np

    state = random_state(9, 15)
    worlds = [state.resample_from_infostate(0, r) for r in (random.Random(1), np.random.default_rng(1), 5, None,
                                                                random.Random(2).random)]
    assert all(w.information_state_string(0) == state.information_state_string(0) for w in worlds)
    assert state.resample_from_infostate(0, 5).hands == state.resample_from_infostate(0, 5).hands  # seeded: repeatable
    with pytest.raises(bower.BowerError, match="rng must be"):
        state.resample_from_infostate(0, "seed")
    with pytest.raises(bower.BowerError, match="needs the deal done"):
        bower.game("euchre").new_initial_state().resample_from_infostate(0, 1)


def test_the_guide_prints_what_it_shows(capsys):
    """docs/guides/game-api.md: each Python example followed by "prints" prints exactly the block after it."""
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "guides" / "game-api.md").read_text(encoding="utf-8")
    pairs = re.findall(r"```python\n((?:(?!```).)*)```\n\nprints\n\n```\n(.*?)```", text, re.S)
    assert len(pairs) >= 2  # the Euchre examples first, then each other variant's
    for code, shown in pairs:
        exec(compile(code, "game-api.md", "exec"), {"__name__": "guide"})
        assert capsys.readouterr().out == shown


# ---------------------------------------------------------------- the full check


def main(argv: list[str]) -> None:
    hands = int(argv[0]) if argv else FULL_HANDS
    total = 0.0
    for rules in RULE_SETS:
        times: dict = {}
        cases = kernel_check(seed=2026, hands=hands, rules=rules, times=times)
        took = times["kernels"] + times["api"]
        total += took
        print(f"{hands:,} hands, rules {rules or 'defaults'}: the API plays as the kernels "
              f"({cases['thrown in']:,} thrown in), {took:.1f} s (kernels' records {times['kernels']:.1f} s, "
              f"API with its checks {times['api']:.1f} s)", flush=True)
    print(f"all rule sets: {total:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
