"""Python bots through the game API: hands a second of a whole ``bower.experiment`` of two random bots, per variant.

Issue 37's speed target is random bots at 10,000 hands a second on one
core. Each variant's experiment (``--games`` games, seed 0, the default
``bot_timeout`` of 60 s, so the bots' clock runs) is timed by the process's
CPU clock around ``bower.experiment`` alone, for ``bower.bot("random")``
(bower's own: it gets the state itself) and for a user's class doing the
same (it gets a copy-on-write view of the state at every decision, as any
user's bot, ``bower.sim.game.StateView``). Best of
``--repeats``.

``--bot NAME`` times two ``bower.bot(NAME)`` instead (``default``: the
kernels' strategy as a bot, ``bower.sim.preset_bots``; ``greedy``), and adds
the bot's own cost a decision: its ``step`` alone, timed over every decision
of the same number of hands played through the game API with the bot at
every seat.

    python benchmarks/bot_speed.py --games 600 --repeats 3
    python benchmarks/bot_speed.py --bot default --games 600 --repeats 3
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks.run, run as a script


class UserRandom:
    """A user's random bot: what ``bower.bot("random")`` does, as a class of the user's own."""

    def __init__(self, seed=0):
        import random

        self.rng = random.Random(seed)

    def step(self, state):
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


def run(variant: str, games: int, kind: str) -> tuple[int, float]:
    """(hands, CPU seconds) of one experiment of two random bots of ``kind`` (``bower`` or ``user``)."""
    import bower

    if kind == "bower":
        bots = [bower.bot("random", variant=variant, seed=1), bower.bot("random", variant=variant, seed=2)]
    elif kind == "user":
        bots = [UserRandom(1), UserRandom(2)]
    else:  # a bot name: two of bower's bots of that name
        bots = [bower.bot(kind, variant=variant, seed=1), bower.bot(kind, variant=variant, seed=2)]
    t = time.process_time()
    r = bower.experiment(bots, variant=variant, games=games, seed=0)
    return int(r.summary["hands"]), time.process_time() - t


def step_cost(variant: str, name: str, hands: int) -> tuple[int, float]:
    """(decisions, CPU seconds in the bot's ``step`` alone) over ``hands`` hands dealt from ``random.Random(h)``
    and played through the game API with ``bower.bot(name)`` at every seat."""
    import random

    import bower

    game = bower.game(variant)
    b = bower.bot(name, variant=variant, seed=1)
    n, spent = 0, 0.0
    for h in range(hands):
        rng = random.Random(h)
        st = game.new_initial_state()
        st.apply_action(rng.randrange(game.num_players()))
        st.deal_random(rng)
        while not st.is_terminal():
            t = time.process_time()
            a = b.step(st)
            spent += time.process_time() - t
            n += 1
            st.apply_action(a)
    return n, spent


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--variants", default="ghost,cutthroat,hasenpfeffer,euchre")
    ap.add_argument("--bot", default=None, help="time two bower.bot(BOT) (default, greedy ...) instead of random ones")
    a = ap.parse_args(argv)
    kinds = [a.bot] if a.bot else ["bower", "user"]
    from benchmarks.run import machine

    m = machine()
    print(f"bot speed: {m['cpu']} (family {m['cpu_family']}, model {m['cpu_model']}), Python {m['python']}, "
          f"commit {m['commit']}, {m['date']}, 1 thread, {a.games} games, best of {a.repeats}", flush=True)
    print(f"{'variant':<14} {'bot':<8} {'hands':>8} {'hands/s':>9}" + (f" {'us/decision':>12}" if a.bot else ""),
          flush=True)
    for v in a.variants.split(","):
        for kind in kinds:
            run(v, 6, kind)  # imports and first calls out of the timing (6: whole deal sets in every variant)
            best = min((run(v, a.games, kind) for _ in range(a.repeats)), key=lambda hc: hc[1])
            line = f"{v:<14} {kind:<8} {best[0]:>8,} {best[0] / best[1]:>9,.0f}"
            if a.bot:
                n, spent = step_cost(v, kind, best[0])
                line += f" {1e6 * spent / n:>12.1f}"
            print(line, flush=True)


if __name__ == "__main__":
    main()
