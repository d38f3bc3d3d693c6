"""Ghost Hand's game API (``bower.game("ghost")``, ``bower.sim.variants.ghost.game``) against the kernels.

The kernel check: the kernels play ``N`` hands of a run with the ``random``
preset in every seat, and record each. The kernels' random player
(``kernels/ghost/hand.py``: ``auction_core`` and ``play_core``) draws from the
chunk's decision stream (``tests.reference.rng.decision_chunk_rng``):
``bounded(2)`` for the swap (1: swap), ``bounded(n)`` over pass and the bids
upward to the moon (no pass for a stuck dealer), ``bounded(4)`` for trump
(C S D H), ``bounded(n)`` over the legal cards ascending: each is
``legal[bounded(len(legal))]`` over the legal set in the order the API sorts
its actions. The API deals each recorded deal (dealer, hands, ghost) through
its chance nodes and plays it with a bot drawing from the same stream the
same way: a legal set of another size at any decision moves the stream,
another order or content changes the choice, and every later decision of the
chunk then differs. Every decision (swap, calls, trump, plays), the tricks
and the points must equal the kernel's record; each legal set is also checked
against the plain-Python rules reference ``tests/reference/ghost.py``, and
each hand's points against the score vectors of
``/work/shared/vectors/ghost_scores.jsonl`` (via the reference's
``score_hand`` when the file is absent).

``python -m tests.test_game_ghost [N]`` runs the check on ``FULL_HANDS``
(100,000) hands under the default rules (``--all``: under each rule set) and
prints the time taken.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import bower
from bower.sim.cards import card_str, parse_card
from bower.sim.game import CHANCE, TERMINAL, GameError
from bower.sim.variants.ghost import game as gg
from tests.reference import ghost as gr
from tests.reference.rng import decision_chunk_rng

FULL_HANDS = 100_000  # hands of the full check (``python -m tests.test_game_ghost``)
CI_HANDS = 2_000  # hands of the check in the suite (2 cores shared)
CHUNK = 4096  # hands per chunk of a run: each chunk has its own decision stream
VECTORS = Path("/work/shared/vectors/ghost_scores.jsonl")
RULE_SETS = [
    {},
    {"auction": "until_passes"},
    {"swap": "none", "stick_the_dealer": True},
    {"auction": "until_passes", "stick_the_dealer": True, "moon_set_penalty": 24, "set_keeps_tricks": True},
]
LEVELS = {"3": 3, "4": 4, "5": 5, "moon": 6}


def _score_table() -> dict:
    """(bid, tricks from the maker round, moon_set_penalty, set_keeps_tricks) -> points from the maker round."""
    if VECTORS.is_file():
        rows = [json.loads(line) for line in VECTORS.read_text().splitlines() if line.strip()]
        return {(LEVELS[r["bid"]], tuple(r["tricks"]), r["rules"]["moon_set_penalty"], r["rules"]["set_keeps_tricks"]):
                tuple(r["points"]) for r in rows}
    table = {}
    for pen in (6, 24):
        for keeps in (False, True):
            for bid in (3, 4, 5, 6):
                for a in range(7):
                    for b in range(7 - a):
                        t = (a, b, 6 - a - b)
                        table[bid, t, pen, keeps] = tuple(gr.score_hand(
                            0, bid, list(t), {"moon_set_penalty": pen, "set_keeps_tricks": keeps}))
    return table


SCORES = _score_table()


# ---------------------------------------------------------------- dealing a given deal through the chance nodes


def deal_actions(dealer: int, hands: dict, ghost: list) -> list[int]:
    """The chance actions that deal ``hands`` (seat -> 6 cards) and the ``ghost`` from ``dealer``."""
    def ints(cards):
        return [parse_card(c) if isinstance(c, str) else int(c) for c in cards]

    by_pos = [ints(hands[str((dealer + 1 + i) % 3)] if str((dealer + 1 + i) % 3) in hands
                   else hands[(dealer + 1 + i) % 3]) for i in range(3)] + [ints(ghost)]
    return [dealer] + [by_pos[k % 4][k // 4] for k in range(24)]


def dealt_state(game, dealer: int, hands: dict, ghost: list):
    state = game.new_initial_state()
    for a in deal_actions(dealer, hands, ghost):
        assert state.is_chance_node() and a in dict(state.chance_outcomes())
        state.apply_action(a)
    return state


# ---------------------------------------------------------------- the reference's legal sets, as action ids


def reference_legal(state, rules: dict) -> list[int]:
    """The legal actions of ``state`` by the rules reference ``tests/reference/ghost.py``."""
    seat = state.current_player()
    has_called = {s for s, _ in state.calls}
    swapper = state.swapper if state.swapper >= 0 else None
    if state.phase == gg.SWAP_TURN:
        assert gr.swap_allowed(rules, swapper, seat, has_called)
        return [gg.KEEP, gg.SWAP]
    if state.phase == gg.AUCTION:
        passed = {s for s, a in state.calls if a == gg.PASS}
        maker = state.maker if state.maker >= 0 else None
        assert gr.still_bidding(seat, passed, maker)
        if state.history()[-1] not in (gg.KEEP, gg.SWAP):  # no swap decision skipped
            assert not gr.swap_allowed(rules, swapper, seat, has_called)
        stuck = (rules["stick_the_dealer"] and seat == state.dealer and maker is None
                 and all(s in passed for s in range(3) if s != seat))
        return [gg.PASS if c == gr.PASS else gg.MOON if c == gr.MOON else gg.BID + c - 3
                for c in gr.legal_calls(state.standing, stuck)]
    if state.phase == gg.NAMING:
        return [gg.TRUMP + s for s in range(4)]
    if state.phase == gg.PLAY:
        hand = gr.cards_from_mask(state.hands[seat])
        lead = gr.card_from_index(state.trick[0][1]) if state.trick else None
        return [c.index for c in gr.legal_cards(hand, lead, state.trump)]
    raise AssertionError(state.phase)


# ---------------------------------------------------------------- the kernel check


def kernel_check(seed: int, hands: int, rules: dict, reference: bool = True, times: dict | None = None) -> Counter:
    """Play ``hands`` hands of the run ``seed`` in the kernels (``random`` preset) and through the API with the same
    decisions; assert every record field and legal set equal. Returns the cases met (bid and made or not, swaps,
    hands thrown in), with counts; ``times`` gets the seconds of the kernels' records (``kernels``) and of the API's
    play and checks (``api``)."""
    from bower.sim import runner

    start = time.perf_counter()
    records = runner.hand_records(seed, 0, hands, rules=rules, strategy="random", variant="ghost")
    if times is not None:
        times["kernels"] = time.perf_counter() - start
    game = bower.game("ghost", rules=rules)
    rules_d = game.rules
    pen, keeps = rules_d["moon_set_penalty"], rules_d["set_keeps_tricks"]
    cases: Counter = Counter()
    stream = None
    for h, rec in enumerate(records):
        if h % CHUNK == 0:
            stream = decision_chunk_rng(seed, h // CHUNK)
        state = dealt_state(game, rec["dealer"], rec["deal"], rec["deal"]["ghost"])
        while not state.is_terminal():
            legal = state.legal_actions()
            if reference:
                assert legal == reference_legal(state, rules_d), (h, str(state))
            state.apply_action(legal[stream.bounded(len(legal))])
        mine = state.to_record()
        for key in ("dealer", "deal", "swap", "calls", "maker", "bid", "trump", "plays", "tricks", "points"):
            assert mine[key] == rec[key], f"hand {h}, {key}: api {mine[key]} kernels {rec[key]}"
        ret = state.returns()
        if state.swapper >= 0:
            cases["swap"] += 1
        if state.maker >= 0:
            m = state.maker
            order = [m, (m + 1) % 3, (m + 2) % 3]
            key = (state.bid, tuple(state.won[s] for s in order), pen, keeps)
            assert tuple(ret[s] for s in order) == SCORES[key], (h, key, ret)
            cases[state.bid, state.won[m] >= state.bid] += 1
        else:
            assert ret == [0.0] * 3 and not rules_d["stick_the_dealer"]
            cases["thrown in"] += 1
    if times is not None:
        times["api"] = time.perf_counter() - start - times["kernels"]
    return cases


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
def test_api_plays_as_the_kernels(rules):
    n = CI_HANDS if not rules else CI_HANDS // 4
    cases = kernel_check(seed=11, hands=n, rules=rules)
    assert sum(v for k, v in cases.items() if k != "swap") == n
    assert (cases["swap"] > 0) == (rules.get("swap") != "none")
    assert cases[3, True] > 0 and cases[3, False] > 0 and cases[6, False] > 0  # a bid made, a bid set, a moon set


def test_score_vectors():
    """Each row of the score vectors, scored by the API's state at the end of a hand with those tricks."""
    game = {(pen, keeps): bower.game("ghost", rules={"moon_set_penalty": pen, "set_keeps_tricks": keeps})
            for pen in (6, 24) for keeps in (False, True)}
    for (bid, tricks, pen, keeps), points in SCORES.items():
        for maker in range(3):
            state = game[pen, keeps].new_initial_state()
            state.maker, state.bid = maker, bid
            state.won = [tricks[(s - maker) % 3] for s in range(3)]
            state._score()
            assert state.is_terminal()
            assert tuple(state.returns()[(maker + i) % 3] for i in range(3)) == points, (bid, tricks, pen, keeps)


# ---------------------------------------------------------------- the interface


def random_state(seed: int, decisions: int, rules=None):
    """A state after the deal of ``seed`` and ``decisions`` random decisions (fewer if the hand ends first)."""
    rng = random.Random(seed)
    state = bower.game("ghost", rules=rules).new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


FIXED = {0: ["9C", "TC", "JC", "QC", "KC", "AC"], 1: ["9S", "TS", "JS", "QS", "KS", "AS"],
         2: ["9D", "TD", "JD", "QD", "KD", "AD"]}
FIXED_GHOST = ["9H", "TH", "JH", "QH", "KH", "AH"]


def test_the_first_nodes_and_sizes():
    game = bower.game("ghost-hand")  # an alias
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(2)
    assert [a for a, _ in state.chance_outcomes()] == list(range(24))
    for c in range(23):
        state.apply_action(c)
    assert state.chance_outcomes() == [(23, 1.0)]
    state.apply_action(23)
    # card k to position k % 4 + 1, the ghost fourth: dealer 2, position 1 is seat 0
    assert state.dealt[0] == sum(1 << c for c in range(0, 24, 4))
    assert state.ghost == sum(1 << c for c in range(3, 24, 4))
    assert state.current_player() == 0 and state.legal_actions() == [gg.KEEP, gg.SWAP]
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == gg.OBSERVATION_SIZE
    assert state.history() == [2, *range(24)]
    assert state.action_to_string(gg.SWAP) == "swap" and state.action_to_string(1, gg.MOON) == "bid moon"
    assert game.num_distinct_actions() == gg.NUM_DISTINCT_ACTIONS and game.num_players() == 3


def test_swap_then_call_and_the_auctions():
    state = dealt_state(bower.game("ghost"), 0, FIXED, FIXED_GHOST)
    assert state.current_player() == 1 and state.legal_actions() == [gg.KEEP, gg.SWAP]
    state.apply_action(gg.SWAP)  # seat 1 takes the ghost (hearts), spades are dead
    assert state.current_player() == 1 and state.legal_actions() == [gg.PASS, 25, 26, 27, gg.MOON]
    assert state.hands[1] == sum(1 << parse_card(c) for c in FIXED_GHOST) and state.swapper == 1
    state.apply_action(gg.BID + 1)  # bids 4
    assert state.current_player() == 2 and state.legal_actions() == [gg.PASS, 27, gg.MOON]  # no swap left
    state.apply_action(gg.PASS)
    assert state.current_player() == 0 and state.legal_actions() == [gg.PASS, 27, gg.MOON]
    state.apply_action(gg.PASS)  # one lap: seat 1 names trump and leads
    assert state.current_player() == 1 and state.legal_actions() == [29, 30, 31, 32]
    state.apply_action(gg.TRUMP + 3)
    assert state.current_player() == 1 and state.legal_actions() == [parse_card(c) for c in FIXED_GHOST]
    text = state.information_state_string(1)
    assert "dead 9S TS JS QS KS AS" in text and "dead" not in state.information_state_string(0)
    assert "swap 1" in state.information_state_string(2)
    # until_passes: round again past the high bidder; stick_the_dealer: the dealer may not pass
    until = dealt_state(bower.game("ghost", rules={"auction": "until_passes", "swap": "none"}), 0, FIXED, FIXED_GHOST)
    for a in (gg.BID, gg.BID + 1, gg.PASS, gg.BID + 2):  # 1: 3, 2: 4, 0: pass, 1: 5, then 2 again
        until.apply_action(a)
    assert until.current_player() == 2 and until.legal_actions() == [gg.PASS, gg.MOON]
    until.apply_action(gg.PASS)
    assert until.current_player() == 1 and until.phase == gg.NAMING and until.bid == 5
    stuck = dealt_state(bower.game("ghost", rules={"stick_the_dealer": True, "swap": "none"}), 0, FIXED, FIXED_GHOST)
    stuck.apply_action(gg.PASS)
    stuck.apply_action(gg.PASS)
    assert stuck.current_player() == 0 and stuck.legal_actions() == [25, 26, 27, gg.MOON]
    thrown = dealt_state(bower.game("ghost", rules={"swap": "none"}), 0, FIXED, FIXED_GHOST)
    for _ in range(3):
        thrown.apply_action(gg.PASS)
    assert thrown.is_terminal() and thrown.current_player() == TERMINAL and thrown.returns() == [0.0] * 3
    moon = dealt_state(bower.game("ghost", rules={"auction": "until_passes"}), 0, FIXED, FIXED_GHOST)
    moon.apply_action(gg.KEEP)
    moon.apply_action(gg.MOON)  # a moon ends the auction
    assert moon.phase == gg.NAMING and moon.current_player() == 1 and moon.bid == 6


def test_follow_suit_with_the_left_bower_and_scoring():
    """Trump hearts: the jack of diamonds is a heart; a diamond led does not call for it."""
    state = dealt_state(bower.game("ghost", rules={"swap": "none"}), 2, {
        "0": ["9H", "TH", "JD", "9D", "AC", "AS"], "1": ["JH", "QH", "KH", "TD", "9C", "9S"],
        "2": ["AH", "QD", "KD", "AD", "TC", "TS"]}, ["JC", "QC", "KC", "JS", "QS", "KS"])
    state.apply_action(gg.BID)  # seat 0 bids 3
    state.apply_action(gg.PASS)
    state.apply_action(gg.PASS)
    state.apply_action(gg.TRUMP + 3)
    state.apply_action(parse_card("9D"))
    assert [card_str(c) for c in state.legal_actions()] == ["TD"]
    state.apply_action(parse_card("TD"))
    state.apply_action(parse_card("QD"))  # seat 2 wins with the queen of diamonds
    assert state.tricks[-1][2] == 2 and state.current_player() == 2
    state.apply_action(parse_card("AH"))  # trump led: seat 0 must follow, the jack of diamonds included
    assert [card_str(c) for c in state.legal_actions()] == ["JD", "9H", "TH"]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    t = state.won
    mine = t[0] if t[0] >= 3 else -3
    assert state.returns() == [float(mine), float(t[1]), float(t[2])]


def test_illegal_actions_are_refused_in_one_line():
    state = random_state(1, 0)
    before = state.history()
    for bad in (gg.PASS, 99, -1, "keep", 3.5):
        with pytest.raises(bower.BowerError) as e:
            state.apply_action(bad)
        assert isinstance(e.value, GameError) and "\n" not in str(e.value) and "not legal" in str(e.value)
    assert state.history() == before
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(bower.BowerError, match="the hand is over"):
        state.apply_action(0)
    with pytest.raises(bower.BowerError, match="seat 0..2"):
        state.information_state_string(3)


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
    for seed in range(20):
        state = random_state(seed, 12)
        for p in range(3):
            text = state.information_state_string(p)
            seen = {card_str(c) for c in range(24) if state.hands[p] >> c & 1 or state.played >> c & 1}
            if state.swapper == p:
                seen |= {card_str(c) for c in range(24) if state.dead >> c & 1}
            shown = {w.split(":")[-1] for w in text.split() if len(w.split(":")[-1]) == 2
                     and w.split(":")[-1][1] in "CSDH" and w.split(":")[-1][0] in "9TJQKA"}
            assert shown <= seen, (p, shown - seen)
            t = state.observation_tensor(p)
            assert [i for i in range(6, 30) if t[i]] == [6 + c for c in range(24) if state.hands[p] >> c & 1]
            assert sum(t[0:3]) == 1 and t[p] == 1
            assert any(t[30:54]) == (state.swapper == p)


# ---------------------------------------------------------------- resampling


def _known(state, p: int) -> dict:
    played = {(s, c) for _, cards, _ in state.tricks for s, c in cards} | set(state.trick)
    return {"hand": state.hands[p], "played": played, "calls": state.calls, "history_len": len(state.history()),
            "swapper": state.swapper, "dead": state.dead if state.swapper == p else None,
            "ghost": state.ghost if state.swapper == p else None, "voids": list(state.voids), "trump": state.trump,
            "info": state.information_state_string(p)}


def _consistent(world, state, p: int) -> None:
    assert _known(world, p) == _known(state, p)
    for s in range(3):  # no seat holds a card of a suit it showed void in
        if state.trump >= 0:
            assert not any(state.voids[s] >> gg.EFFECTIVE[state.trump][c] & 1 for c in range(24)
                           if world.hands[s] >> c & 1)
        assert bin(world.hands[s]).count("1") == bin(state.hands[s]).count("1")
    live = world.hands[0] | world.hands[1] | world.hands[2] | world.played
    out = world.dead if world.swapper >= 0 else world.ghost
    assert bin(live).count("1") == 18 and live & out == 0 and (live | out) == (1 << 24) - 1


def _swapped_states():
    """States at several points of hands where someone swapped, found over fixed seeds."""
    out = []
    for seed in range(200):
        rng = random.Random(seed)
        state = random_state(seed, 0)
        first = rng.choice(state.legal_actions())
        state.apply_action(first)
        marks = (3, 8, 14)
        k = 1
        while not state.is_terminal() and k <= max(marks):
            if k in marks and state.swapper >= 0 and state.maker >= 0:
                out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
            k += 1
        if len(out) >= 8:
            return out
    return out


def test_resampled_worlds_keep_what_the_player_knows():
    states = _swapped_states()
    assert len(states) >= 6 and any(s.trick or s.tricks for s in states)
    rng = random.Random(3)
    for state in states:
        for p in range(3):
            for _ in range(20):
                world = state.resample_from_infostate(p, rng)
                _consistent(world, state, p)
                copy = world.clone()
                while not copy.is_terminal():
                    copy.apply_action(copy.legal_actions()[0])


def test_resampling_varies_only_what_is_hidden():
    """Before any swap, the ghost is hidden from everyone; after one, the swapper knows both hands it saw."""
    state = dealt_state(bower.game("ghost"), 0, FIXED, FIXED_GHOST)
    rng = random.Random(5)
    ghosts = {state.resample_from_infostate(1, rng).ghost for _ in range(50)}
    assert len(ghosts) > 1
    state.apply_action(gg.SWAP)
    worlds = [state.resample_from_infostate(1, rng) for _ in range(50)]
    assert {w.ghost for w in worlds} == {state.ghost} and {w.dead for w in worlds} == {state.dead}
    others = [state.resample_from_infostate(2, rng) for _ in range(50)]
    assert len({w.ghost for w in others}) > 1 and all(w.swapper == 1 for w in others)
    assert all(w.hands[2] == state.hands[2] for w in others)


def test_resample_accepts_the_usual_random_sources():
    import numpy as np

    state = random_state(9, 15)
    worlds = [state.resample_from_infostate(0, r) for r in (random.Random(1), np.random.default_rng(1), 5, None,
                                                                random.Random(2).random)]
    assert all(w.information_state_string(0) == state.information_state_string(0) for w in worlds)
    assert state.resample_from_infostate(0, 5).hands == state.resample_from_infostate(0, 5).hands
    with pytest.raises(bower.BowerError, match="rng must be"):
        state.resample_from_infostate(0, "seed")
    with pytest.raises(bower.BowerError, match="needs the deal done"):
        bower.game("ghost").new_initial_state().resample_from_infostate(0, 1)


def test_resampling_is_uniform_before_the_swap():
    """At the first turn, each unseen card lands in each other seat and in the ghost 1/3 of the time (5 sigma)."""
    state = random_state(12, 0)
    p = state.current_player()
    n = 3000
    counts = Counter()
    rng = random.Random(1)
    for _ in range(n):
        world = state.resample_from_infostate(p, rng)
        for c in range(24):
            place = next((s for s in range(3) if world.hands[s] >> c & 1), 3)
            counts[c, place] += 1
    sd = (n * (1 / 3) * (2 / 3)) ** 0.5
    for c in range(24):
        if state.hands[p] >> c & 1:
            assert counts[c, p] == n
            continue
        for place in [s for s in range(3) if s != p] + [3]:
            assert abs(counts[c, place] - n / 3) < 5 * sd, (card_str(c), place, counts[c, place])


def test_the_guide_prints_what_it_shows(capsys):
    """docs/guides/game-api.md, its Ghost Hand section: the example prints exactly the block after it."""
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "guides" / "game-api.md").read_text(encoding="utf-8")
    section = text.split("\n## Ghost Hand\n", 1)[1].split("\n## ", 1)[0]
    pairs = re.findall(r"```python\n((?:(?!```).)*)```\n\nprints\n\n```\n(.*?)```", section, re.S)
    assert len(pairs) == 1
    for code, shown in pairs:
        exec(compile(code, "game-api.md", "exec"), {"__name__": "guide"})
        assert capsys.readouterr().out == shown


# ---------------------------------------------------------------- the full check


def main(argv: list[str]) -> None:
    every = "--all" in argv
    args = [a for a in argv if a != "--all"]
    hands = int(args[0]) if args else FULL_HANDS
    total = 0.0
    for rules in RULE_SETS if every else RULE_SETS[:1]:
        times: dict = {}
        cases = kernel_check(seed=2026, hands=hands, rules=rules, times=times)
        took = times["kernels"] + times["api"]
        total += took
        print(f"{hands:,} hands, rules {rules or 'defaults'}: the API plays as the kernels "
              f"({cases['swap']:,} swaps, {cases['thrown in']:,} thrown in), {took:.1f} s (kernels' records "
              f"{times['kernels']:.1f} s, API with its checks {times['api']:.1f} s)", flush=True)
    print(f"all rule sets: {total:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])


def test_a_keep_is_public_and_counted_in_the_game_length():
    """Every seat may keep at its first turn before one swaps: the keeps show in every seat's text (so the text
    changes with the legal actions, as OpenSpiel's searches need) and the longest hand fits ``max_game_length``."""
    game = bower.game("ghost")
    state = game.new_initial_state()
    state.apply_action(2)  # dealer seat 2: seat 0 first
    for c in range(24):
        state.apply_action(c)
    before = state.information_state_string(1)
    state.apply_action(gg.KEEP)
    assert state.legal_actions() != [gg.KEEP, gg.SWAP]
    assert "kept 0" in state.information_state_string(1) and state.information_state_string(1) != before
    assert game.max_game_length() == 3 + 3 + 1 + 18
