"""bower's ``greedy`` bot against OpenSpiel's ISMCTS bot in OpenSpiel's own ``euchre``, seats swapped.

Each deal (OpenSpiel's chance outcomes drawn from ``seed`` and the deal's
number) is played twice: bower's bot in partnership 0 (seats 0 and 2) and
ISMCTS (``--sims`` simulations, a one-rollout random evaluator, UCT c=2) in
partnership 1, then the partnerships swapped. Stops after ``--games`` games
or when ``--seconds`` have passed, at the end of a pair. Reports bower's
win rate (hands its side scored in) and points a hand (OpenSpiel's
zero-sum returns of its side), each with a 95% normal interval over the
deals (the pair of games of a deal is one observation, so the seat swap's
pairing is kept), and writes a JSON summary with ``--out``.

    PYTHONPATH=... python benchmarks/openspiel_bots.py --seconds 540 --sims 100 --seed 1
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import platform
import time

import numpy as np


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games at most (two a deal)")
    ap.add_argument("--seconds", type=float, default=600.0, help="stop after a pair once this much time has passed")
    ap.add_argument("--sims", type=int, default=100, help="ISMCTS simulations a decision")
    ap.add_argument("--bot", default="greedy", help="bower's bot (bower.bot name)")
    ap.add_argument("--inconsistent-sets", action="store_true",
                    help="ISMCTS's allow_inconsistent_action_sets: a node's legal actions may differ between the "
                         "worlds it samples (deeper searches meet it in OpenSpiel's euchre and stop otherwise)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None, help="write the summary as JSON here")
    a = ap.parse_args(argv)

    import bower
    from bower.sim.openspiel import pyspiel
    from bower.sim.variants import get_variant

    ps = pyspiel()
    from open_spiel.python.algorithms import ismcts, mcts

    adapter = importlib.import_module(get_variant("euchre").game.rsplit(".", 1)[0] + ".openspiel")
    game = ps.load_game("euchre")
    t0 = time.perf_counter()
    pair_points, pair_wins, games = [], [], 0
    deal = 0
    while games + 2 <= a.games and time.perf_counter() - t0 < a.seconds:
        rng = np.random.RandomState([a.seed, deal])
        start = game.new_initial_state()
        while start.is_chance_node():
            outcomes, probs = zip(*start.chance_outcomes())
            start.apply_action(int(rng.choice(outcomes, p=probs)))
        pts, wins = 0.0, 0
        for side in (0, 1):
            ours = adapter.openspiel_bot(bower.bot(a.bot, variant="euchre", seed=a.seed * 100003 + deal), game)
            rs = np.random.RandomState([a.seed, deal, 7])
            theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, a.sims, random_state=rs,
                                      allow_inconsistent_action_sets=a.inconsistent_sets)
            state = start.clone()
            while not state.is_terminal():
                p = state.current_player()
                bot = ours if p % 2 == side else theirs
                action = bot.step(state)
                if action not in state.legal_actions():
                    raise SystemExit(f"illegal action {action} by {'bower' if bot is ours else 'ISMCTS'}")
                state.apply_action(action)
            r = state.returns()[side]
            pts += r
            wins += r > 0
            games += 1
        pair_points.append(pts / 2)
        pair_wins.append(wins / 2)
        deal += 1
    elapsed = time.perf_counter() - t0

    def ci(xs):
        n = len(xs)
        m = sum(xs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else float("nan")
        h = 1.96 * sd / math.sqrt(n)
        return m, m - h, m + h

    w, p = ci(pair_wins), ci(pair_points)
    out = {"bot": a.bot, "sims": a.sims, "inconsistent_sets": a.inconsistent_sets, "seed": a.seed, "games": games, "deals": deal, "seconds": round(elapsed, 1),
           "seconds_a_game": round(elapsed / games, 3), "win_rate": w, "points_a_hand": p,
           "cpu": platform.processor() or platform.machine(), "openspiel": getattr(ps, "__version__", "")}
    print(f"{a.bot} vs ISMCTS({a.sims}) in OpenSpiel euchre: {games} games ({deal} deals, seats swapped) "
          f"in {elapsed:.0f} s ({elapsed / games:.2f} s a game)")
    print(f"win rate {w[0]:.3f} [{w[1]:.3f}, {w[2]:.3f}]; points a hand {p[0]:+.3f} [{p[1]:+.3f}, {p[2]:+.3f}]")
    if a.out:
        with open(a.out, "w") as f:
            json.dump(out, f, indent=1)
    return out


if __name__ == "__main__":
    main()
