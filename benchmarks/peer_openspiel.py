"""Peer benchmark: OpenSpiel's euchre, whole hands played by its C++ uniform random bots.

Usage: ``python benchmarks/peer_openspiel.py [--hands N] [--repeats R] [--json]``
(needs the ``bench`` extra: ``pip install -e '.[bench]'``, which ``make bench`` does).

Each hand is one ``pyspiel.evaluate_bots(state, bots, seed)`` call from a
fresh initial state: OpenSpiel deals (chance nodes sampled with ``seed``),
then four ``make_uniform_random_bot`` bots bid and play to the end, all in
C++; only the loop over hands is Python. Single-threaded; median of
``repeats`` timed runs after a warm-up.

OpenSpiel's euchre is standard four-handed euchre (4 players in two
partnerships, 5 cards each from 24, up-card bidding with a second round,
going alone): a different game from Ghost Hand, so a ratio of hands per
second compares the engines, not identical work.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

GAME = "euchre"
NOTE = (
    "OpenSpiel plays standard four-handed euchre (4 players, 5 cards each, up-card bidding, going alone), "
    "not Ghost Hand (3 players + ghost, 6 cards, bids of 3-5 or moon): the ratio compares engines, not identical work."
)
INSTALL_HINT = "install the bench extra: .venv/bin/python -m pip install -e '.[bench]' (make bench does it)"


def available() -> tuple[bool, str]:
    """(whether pyspiel imports, its version or the import error)."""
    try:
        import pyspiel  # noqa: F401
    except ImportError as e:
        return False, str(e)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return True, version("open_spiel")
    except PackageNotFoundError:
        return True, "unknown"


def play_hands(game, bots, n: int, first_seed: int = 0) -> float:
    """Play ``n`` whole hands of ``game`` with ``bots``; seconds taken."""
    import pyspiel

    t0 = time.perf_counter()
    for i in range(n):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, first_seed + i)
    return time.perf_counter() - t0


def measure(hands: int = 50_000, repeats: int = 5, seed: int = 0) -> dict:
    """OpenSpiel euchre hands per second with uniform random bots: median of ``repeats`` runs of ``hands`` hands."""
    import pyspiel

    _, ver = available()
    game = pyspiel.load_game(GAME)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    play_hands(game, bots, min(hands, 2000), seed)  # warm-up
    times = [play_hands(game, bots, hands, seed + (r + 1) * hands) for r in range(repeats)]
    med = statistics.median(times)
    return {
        "engine": "OpenSpiel",
        "version": ver,
        "game": GAME,
        "parameters": {k: v for k, v in game.get_parameters().items()},
        "players": game.num_players(),
        "bots": "uniform random (C++)",
        "threads": 1,
        "hands": hands,
        "repeats": repeats,
        "seconds": med,
        "hands_per_second": hands / med,
        "us_per_hand": 1e6 * med / hands,
        "note": NOTE,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=50_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    ok, why = available()
    if not ok:
        raise SystemExit(f"open_spiel is not importable ({why}); {INSTALL_HINT}")
    r = measure(args.hands, args.repeats)
    if args.json:
        print(json.dumps(r, indent=2))
        return
    print(f"OpenSpiel {r['version']} {r['game']} {r['parameters']}: {r['hands']:,} hands x {r['repeats']}, "
          f"{r['bots']} bots, 1 thread")
    print(f"{r['hands_per_second']:,.0f} hands/s ({r['us_per_hand']:.2f} us/hand)")
    print(NOTE)


if __name__ == "__main__":
    main()
