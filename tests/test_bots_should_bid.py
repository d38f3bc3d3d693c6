"""should-bid with a Python bot (Euchre): the kernel path's deals and weights, the bot's play-outs, bad bots."""

from __future__ import annotations

import math

import numpy as np
import pytest

import bower
from bower.analysis.intervals import Z95
from bower.kernels import advice as ka
from bower.kernels.euchre import advice as ea
from bower.sim import bots, runner
from bower.sim.advice import CHUNK_SAMPLES, DRAWS_PER_SAMPLE, N_INFER, N_PLAYOUTS, model_vector
from bower.sim.game import game as make_game
from bower.sim.variants.euchre import advice as va
from bower.sim.variants.euchre import advice_bots as ab
from tests.cli_run import one_error, run

HAND, UP = "JH JD AH 9S 9C", "TH"


class FirstLegal:
    """Deterministic: the first legal action; remembers each play-out's deal (``restart_at``)."""

    name = "first-legal"

    def __init__(self):
        self.deals = []

    def restart_at(self, state):
        self.deals.append(([int(m) for m in state.dealt], list(state.kitty)))

    def step(self, state):
        return state.legal_actions()[0]


def _numbers(r: dict) -> dict:
    return {k: v for k, v in r.items() if k not in ("elapsed_s", "threads", "compiled")}


@pytest.mark.parametrize("kind,position,calls", [("softmax", 2, "pass"), ("exact", 3, "pass,pass"),
                                                 ("softmax", 1, "pass,pass,pass,pass")])
def test_the_twin_draws_the_kernels_deals(kind, position, calls):
    """The plain-Python draw loop keeps the kernel's deals: the same draws, kept deals, weights and the weighted
    inference features of every seat, exactly, chunk by chunk."""
    _, rules_d, rules_vec = runner.resolve_run("euchre", 0, None)
    sit = va.parse_situation("9S TS 9C TC 9D", "JH", position, calls, rules_d)  # the others often order hearts
    actions = va.open_actions(sit, rules_d, position)
    act = np.array([[a["call"], a["alone"]] for a in actions], np.int64)
    mvec, _ = model_vector({"kind": kind})
    _, params = runner.seat_params("default", "euchre")
    nc, n_act = 3, len(actions)
    targets = np.array([40, 40, 17], np.int64)

    def outs():
        return (np.zeros(nc, np.int64), np.zeros(nc, np.int64), np.zeros((nc, 2)),
                np.zeros((nc, N_PLAYOUTS, n_act, ka.W_WIDTH)), np.zeros((nc, N_PLAYOUTS, n_act, n_act)),
                np.zeros((nc, N_PLAYOUTS, n_act, n_act)), np.zeros((nc, 4, N_INFER)),
                np.zeros((nc, N_PLAYOUTS, n_act, ka.E_WIDTH)), np.zeros((nc, N_PLAYOUTS, n_act, n_act)))

    states, dstates = runner.chunk_states(5, 3, nc), runner.decision_states(5, 3, nc)
    args = (DRAWS_PER_SAMPLE * CHUNK_SAMPLES, np.int64(sit["mask"]), np.int64(sit["up"]), np.int64(position - 1),
            rules_vec, params, np.int64(sit["passes"]), act, mvec, np.int64(ka.PLAY_STRATEGY), None, None,
            ka.NO_EQUITY)
    k = outs()
    ea.advice_chunks(states, dstates, targets, *args, *k)
    b = outs()
    player = bots.SeatPlayer(FirstLegal(), "first-legal")
    ab.bot_chunks(states, dstates, targets, *args, *b, game=make_game("euchre", rules_d), player=player,
                  labels=[a["action"] for a in actions])
    assert k[0].tolist() == b[0].tolist() and k[1].tolist() == b[1].tolist() == targets.tolist()
    assert np.array_equal(k[2], b[2]) and np.array_equal(k[6], b[6])
    assert player.kept == targets.sum() and len(player.obj.deals) == targets.sum() * n_act
    assert k[0].sum() > k[1].sum()  # some deals were rejected (or roulette-skipped) on the way


def _ask(strategy, **kw):
    args = dict(variant="euchre", upcard=UP, position=3, calls=["pass", "pass"], samples=60, seed=4)
    args.update(kw)
    return bower.should_bid(HAND, strategy=strategy, **args).summary


def test_same_numbers_for_one_or_two_threads_and_on_repeat():
    a = _ask(bower.bot("random", variant="euchre", seed=3), threads=1)
    b = _ask(bower.bot("random", variant="euchre", seed=3), threads=2)
    c = _ask(bower.bot("random", variant="euchre", seed=3), threads=1)
    assert _numbers(a) == _numbers(b) == _numbers(c)
    d = _ask(bower.bot("random", variant="euchre", seed=3), seed=5)
    assert [e["expected_points"] for e in d["actions"]] != [e["expected_points"] for e in a["actions"]]


@pytest.mark.parametrize("model", ["exact", "softmax"])
def test_the_kernel_path_and_the_bot_path_sample_the_same_deals(model):
    """The same seed and question: the same draws, kept deals, effective size and inference as the kernel's."""
    k = _ask("default", model=model)
    b = _ask(FirstLegal(), model=model)
    for key in ("samples", "draws", "ess", "stopped", "inference"):
        assert k[key] == b[key], key
    assert b["bot"] == "first-legal" and b["strategy"] == "first-legal" and b["model_strategy"] == "default"


def _deal(game, dealt, kitty):
    """A plain deal through the chance nodes: dealer seat 3, card k to seat k % 4, then the kitty."""
    st = game.new_initial_state()
    st.apply_action(3)
    cards = [sorted(c for c in range(24) if dealt[s] >> c & 1) for s in range(4)]
    for k in range(20):
        st.apply_action(cards[k % 4][k // 4])
    for c in kitty:
        st.apply_action(c)
    return st


def test_exact_agreement_with_a_plain_loop_over_the_game_api():
    """The exact model (weights 1): each action's mean net points and interval, and the paired difference, are a
    plain loop's over the deals the bot saw: two passes, the asked call forced, the first legal action after."""
    bot = FirstLegal()
    r = _ask(bot, model="exact", samples=50)
    n_act = len(r["actions"])
    deals = bot.deals[::n_act]
    assert bot.deals == [d for d in deals for _ in range(n_act)] and len(deals) == r["samples"] == 50
    g = make_game("euchre")
    forced = {"pass": [24], "order it up, with partner": [25, "with"], "order it up, alone": [25, "alone"]}
    net = {}
    for e in r["actions"]:
        col = []
        for dealt, kitty in deals:
            st = _deal(g, dealt, kitty)
            st.apply_action(24)
            st.apply_action(24)
            todo = list(forced[e["action"]])
            st.apply_action(todo.pop(0))
            while not st.is_terminal():
                if todo and st.current_player() == 2 and st.phase == 4:  # the maker's alone decision
                    st.apply_action(31 if todo.pop() == "alone" else 30)
                else:
                    st.apply_action(st.legal_actions()[0])
            col.append(st.points[0] - st.points[1])  # seat 2 (position 3) is side 0
        net[e["action"]] = col
        n = len(col)
        mean = sum(col) / n
        var = (sum(x * x for x in col) / n - mean * mean) * n / (n - 1)
        assert e["expected_points"] == pytest.approx(mean, abs=1e-12)
        assert e["points_ci95"] == pytest.approx([mean - Z95 * math.sqrt(var / n), mean + Z95 * math.sqrt(var / n)],
                                                 abs=1e-12)
    rec = r["recommendation"]
    d = [x - y for x, y in zip(net[rec["action"]], net[rec["runner_up"]])]
    assert rec["diff_points"] == pytest.approx(sum(d) / len(d), abs=1e-12)


def test_game_scores_are_the_plain_loops_table_cells():
    """``--scores`` with a bot: each action's game equity is the mean, over the bot's deals, of the equity table's
    cell for the hand's points (side 0, side 1, the maker's side), as a plain loop reads it."""
    from bower.sim.advice import game_equity
    from bower.sim.variants.euchre.advice import advise

    bot = FirstLegal()
    table = {"hands": 20_000}
    r = advise(HAND, UP, position=3, calls="pass,pass", strategy=bot, samples=30, seed=4, model={"kind": "exact"},
               scores="8,9", equity=table)
    eqt = game_equity("euchre", "8,9", rules=None, seat=2, dealer=3, table_args=table, who="scores")["eqt"]
    n_act = len(r["actions"])
    g = make_game("euchre")
    for i, e in enumerate(r["actions"]):
        cells = []
        for dealt, kitty in bot.deals[i::n_act]:
            st = _deal(g, dealt, kitty)
            st.apply_action(24)
            st.apply_action(24)
            st.apply_action(24 if i == 0 else 25)
            while not st.is_terminal():
                if i and st.current_player() == 2 and st.phase == 4:
                    st.apply_action(31 if i == 2 else 30)
                else:
                    st.apply_action(st.legal_actions()[0])
            side = st.maker % 2 if st.maker >= 0 else 0
            cells.append(eqt[st.points[0] + ka.EQ_OFF, st.points[1] + ka.EQ_OFF, side][0])
        assert len(cells) == 30
        assert e["game_equity"] == pytest.approx(sum(cells) / len(cells), abs=1e-12)
    assert r["recommendation"]["by"] == "game equity"


def test_greedy_orders_a_good_hand_where_random_play_would_not():
    """Three top trumps: played by ``greedy`` at every seat, ordering up with partner beats passing clearly (its
    paired interval above 0); played by random bots, passing does as well (random opponents call into the
    player's trumps), so greedy's gain from ordering exceeds random's by more than 0.5 points a hand (seed 2, 100
    deals; measured: +0.60 and -0.17)."""
    def gain(strategy):
        r = bower.should_bid(HAND, variant="euchre", upcard=UP, position=1, strategy=strategy, samples=100,
                             seed=2, bid="order").summary
        q = r["question"]
        assert q["against"] == "pass"
        return q["ev_diff"], q["ev_diff_ci95"]

    greedy, greedy_ci = gain("greedy")
    rand, _ = gain(bower.bot("random", variant="euchre", seed=1))
    assert greedy_ci[0] > 0
    assert greedy - rand > 0.5


def _bot_file(tmp_path, body: str) -> str:
    p = tmp_path / "b.py"
    p.write_text(body)
    return str(p)


ARGS = ("should-bid", HAND, "--variant", "euchre", "--upcard", UP, "--samples", "20")


@pytest.mark.parametrize("body,words", [
    ("class A:\n    def step(self, s):\n        raise KeyError('bad')\n",
     r"bot 'A' raised KeyError: 'bad' at seat \d \(should-bid deal 1, action 'pass', decision \d\)"),
    ("class A:\n    def step(self, s):\n        return 99\n",
     r"bot 'A' returned 99, not a legal action, at seat \d \(should-bid deal 1, action 'pass', decision \d; legal: .*"),
    ("import time\nclass A:\n    def step(self, s):\n        time.sleep(600)\n",
     r"bot 'A' took longer than 0\.3 s \(the bot timeout\) to choose an action at seat \d \(should-bid deal 1, .*"),
    ("class A:\n    pass\n", r"bot '.*:A': A object has no step\(state\) method"),
])
def test_bad_bots_are_one_line_exit_2(capsys, tmp_path, body, words):
    import re

    line = one_error(capsys, *ARGS, "--strategy", f"{_bot_file(tmp_path, body)}:A", "--bot-timeout", "0.3")
    assert re.fullmatch("bower: error: " + words, line), line


def test_what_a_bot_cannot_do_is_one_line(capsys, tmp_path):
    path = _bot_file(tmp_path, "class A:\n    def step(self, s):\n        return s.legal_actions()[0]\n")
    for playout in ("dd", "both", "pimc"):
        line = one_error(capsys, *ARGS, "--strategy", f"{path}:A", "--playout", playout)
        assert f"--playout {playout} with a bot strategy" in line
    line = one_error(capsys, "should-bid", "JH JD AH KH 9S TC", "--strategy", f"{path}:A")
    assert "not available for Ghost Hand Euchre yet" in line
    line = one_error(capsys, *ARGS, "--strategy", f"{path}:A", "--bot-timeout", "0")
    assert "--bot-timeout" in line
    with pytest.raises(bower.BowerError, match="bot_timeout is a positive number"):
        bower.should_bid(HAND, variant="euchre", upcard=UP, strategy=FirstLegal(), bot_timeout=-1)
    with pytest.raises(bower.BowerError, match="runs in this process"):
        bower.should_bid(HAND, variant="euchre", upcard=UP, strategy=FirstLegal(), scheduler="local:2")


def test_cli_with_a_bot_from_a_file(capsys, tmp_path):
    path = _bot_file(tmp_path, "class A:\n    name = 'lowest'\n    def step(self, s):\n"
                               "        return s.legal_actions()[0]\n")
    code, out, _ = run(capsys, *ARGS, "--strategy", f"{path}:A", "--seed", "1")
    assert code == 0
    assert "play-out: the bot lowest at every seat after your call (the deals weighed by the default" in out
    assert "recommendation: " in out
