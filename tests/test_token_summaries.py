"""Euchre's ``four_trick_tokens`` in the summaries of Python bots' experiments and of sweeps (kernel and bot).

The bot experiment's counts are checked against a count made apart from the
scorer: every hand of every game is kept (the game API's states, through a
wrapped ``bower.sim.game.game``), the hands its makers made with partner
taking exactly 4 tricks are counted, and each side's tokens turned in are
worked out from them game by game.
"""

from __future__ import annotations

import json
from pathlib import Path

from bower.sim import bots, runner
from bower.sim import experiment as ex
from bower.sim import game as game_module
from tests.cli_run import run
from tests.euchre_cases import earns_token

TOKENS = {"four_trick_tokens": True}
HIGH_CARD = f"{Path(__file__).resolve().parents[1] / 'examples' / 'bots' / 'high_card.py'}:HighCard"
KEYS = {"tokens_earned", "token_points", "token_points_per_game"}


def _kept_games(monkeypatch) -> list:
    """Patch the game API's ``game`` so each game made keeps the states it deals: returns the list they go in (one
    list of states a game object's ``new_initial_state`` calls, in order)."""
    kept = []
    real = game_module.game

    def keeping(variant, rules=None):
        g = real(variant, rules)
        made = g.new_initial_state

        def new_initial_state(*a, **k):
            st = made(*a, **k)
            kept.append(st)
            return st

        g.new_initial_state = new_initial_state
        return g

    monkeypatch.setattr(game_module, "game", keeping)
    return kept


def test_a_bot_experiments_tokens_are_the_hands_made_with_partner_taking_four(monkeypatch):
    kept = _kept_games(monkeypatch)
    real_play = bots.play_game
    games = []  # the states of each game, in order

    def play(game, *a, **k):
        start = len(kept)
        out = real_play(game, *a, **k)
        games.append(kept[start:])
        return out

    monkeypatch.setattr(bots, "play_game", play)
    r = bots.run_bot_experiment([HIGH_CARD, "default"], games=40, seed=2, rules=TOKENS, variant="euchre")
    assert r["games"] == len(games) == 40
    earned = points = 0
    for states in games:
        tokens = {0: 0, 1: 0}
        for st in states:
            rec = st.to_record()
            if earns_token(rec):
                earned += 1
                tokens[rec["maker"] % 2] += 1
                if tokens[rec["maker"] % 2] == 4:
                    tokens[rec["maker"] % 2] = 0
                    points += 1
    assert r["tokens_earned"] == earned > 0
    assert r["token_points"] == points > 0  # 40 games of a weak bot against default: some side turns 4 in
    assert r["token_points_per_game"] == points / 40
    plain = bots.run_bot_experiment([HIGH_CARD, "default"], games=40, seed=2, variant="euchre")
    assert not KEYS & set(plain)


def test_a_bot_experiments_scores_count_the_tokens_points(monkeypatch):
    # a game's end under tokens: the winner's score is its hands' points plus its tokens' points, checked through
    # play_game's own scores against the kept hands
    kept = _kept_games(monkeypatch)
    from bower.sim.rules import get_variant

    v = get_variant("euchre")
    g = game_module.game(v, TOKENS)
    bot = bots.load_bot(HIGH_CARD)
    where = bots._Where(1, 0, 0)
    winner, hands, pts, dealer0, scores, (earned, bonus_points) = bots.play_game(
        g, v, [bot, bots.bot("default", v, seed="s:1")] * 2, ["a", "b"] * 2, "7:0", where)
    assert len(kept) == hands
    recs = [st.to_record() for st in kept]
    assert earned == sum(earns_token(r) for r in recs)
    by_side = {"0": 0, "1": 0}
    for p in pts:
        by_side["0"] += p[0]
        by_side["1"] += p[1]
    assert sum(scores.values()) - sum(by_side.values()) == bonus_points
    assert winner is not None and scores[str(winner)] >= 10


def test_a_sweeps_rows_carry_the_tokens(capsys):
    got = ex.run_sweep(["order_min_1=2:3:1"], games=60, seed=3, rules=TOKENS, variant="euchre")
    one = ex.run_experiment([dict(ex.load_strategy("default", "euchre")[1], order_min_1=2.0),
                             ex.load_strategy("default", "euchre")[1]], games=60, seed=3, rules=TOKENS,
                            assignments=runner.get_variant("euchre").sweep_assignments(),
                            names=["candidate", "default"], variant="euchre", notify=False)
    row = got["rows"][0]
    assert {k: row[k] for k in KEYS} == {k: one[k] for k in KEYS} and row["tokens_earned"] > 0
    plain = ex.run_sweep(["order_min_1=2:3:1"], games=60, seed=3, variant="euchre")
    assert not any(KEYS & set(r) for r in plain["rows"])
    code, out, err = run(capsys, "sweep", "--variant", "euchre", "--param", "order_min_1=2:3:1", "--games", "60",
                         "--seed", "3", "--rule", "four_trick_tokens=true")
    assert code == 0 and "tok pts" in out and f"{row['tokens_earned']:>9,}" in out, err
    code, out, err = run(capsys, "sweep", "--variant", "euchre", "--param", "order_min_1=2:3:1", "--games", "60",
                         "--seed", "3")
    assert code == 0 and "tok pts" not in out, err


def test_a_bot_sweeps_rows_carry_the_tokens(capsys):
    code, out, err = run(capsys, "sweep", "--variant", "euchre", "--base", "greedy", "--param", "samples=2",
                         "--games", "8", "--seed", "3", "--rule", "four_trick_tokens=true", "--json")
    got = json.loads(out)
    assert code == 0 and got["bots"] is True and KEYS <= set(got["rows"][0]), err
    assert got["rows"][0]["tokens_earned"] >= 4 * got["rows"][0]["token_points"]
