"""``bower should-bid HAND``: what to do at this turn, with odds."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import (
    CommaChoice,
    Count,
    complete_words,
    Position,
    Real,
    bot_timeout_option,
    json_option,
    rule_option,
    scheduler_option,
    seed_option,
    strategy_option,
    threads_option,
    variant_option,
)
from bower.sim.advice import DEFAULT_CAP, LOW_ESS_DRAW, MIN_ESS
from bower.sim.limits import MAX_SAMPLES
from bower.sim.text import call_word, limit_text

# every word a variant's auction knows (each variant checks its own and says why a call cannot come before a
# turn: Ghost Hand pass 3 4 5 moon; Cutthroat and Euchre passes only, as any other call ends the auction;
# Hasenpfeffer pass 1-6 or, under pepper bidding, 1-5 little-pepper big-pepper)
CALLS = ("pass", "p", "1", "2", "3", "4", "5", "6", "moon", "little-pepper", "big-pepper", "order", "assist", "take")


def _most_seats() -> int:
    from bower.sim.variants import all_variants

    return max(v.players for v in all_variants())


def _dealers() -> str:
    """Which position is the dealer's in each variant, for the help: ``3 in ghost, cutthroat; ...``."""
    from bower.sim.variants import all_variants

    by: dict[int, list[str]] = {}
    for v in all_variants():
        by.setdefault(v.players, []).append(v.name)
    return "; ".join(f"{n} in {', '.join(titles)}" for n, titles in sorted(by.items()))


@click.command(name="should-bid")
@click.argument("hand")
@click.option("--position", default=1, show_default=True, type=Position(_most_seats()),
              help="Your position: 1 = dealer's left, the last position is the dealer (" + _dealers() + ").")
@click.option("--calls", default=None, type=CommaChoice(CALLS, "call", normalise=call_word, split_spaces=True),
              help='Calls made before your turn, in order, e.g. "pass,3" (Cutthroat and Euchre: passes only).')
@click.option("--swapped", default="none", show_default=True, type=click.Choice(["none", "1", "2", "3"]),
              help="Ghost Hand: position that already swapped for the ghost, or none.")
@click.option("--bid", default=None, shell_complete=complete_words(*(c for c in CALLS if c not in ("pass", "p"))),
              help="Answer this question first: should I bid (or call) this?")
@click.option("--scores", default=None,
              help="Game scores, each from 0 to the target less 1: your side's then the other side's in Euchre and "
                   "Hasenpfeffer (e.g. 8,9), by position in Ghost Hand and Cutthroat (e.g. 20,25,28). Each action "
                   "is then also valued as the change in your chance to win the game (the variant's equity table, "
                   "computed once and cached), and the recommendation is by that chance.")
@click.option("--upcard", default=None, help="Cutthroat and Euchre: the turned card of the kitty, e.g. JS.")
@strategy_option
@click.option("--model", "model_kind", default="softmax", show_default=True, type=click.Choice(["softmax", "exact"]),
              help="How the other players called: softmax (the strategy's preferences, with temperature --tau and "
                   "tremble --epsilon: every legal auction is possible) or exact (exactly as the strategy would).")
@click.option("--tau", default=None, type=Real(), help="The softmax temperature, in tricks of estimate [default: 0.25].")
@click.option("--epsilon", default=None, type=Real(),
              help="The tremble: the share of each call spread evenly over the legal calls [default: 0.01].")
@click.option("--playout", default="strategy", show_default=True,
              type=click.Choice(["strategy", "dd", "both", "pimc"]),
              help="Score each deal by the strategy playing it out, by double-dummy play of the contract, both, or "
                   "by the strategy's calls with every seat playing its cards by PIMC (8 worlds a card unless the "
                   "strategy sets pimc_worlds).")
@click.option("--samples", default=None, type=Count(high=MAX_SAMPLES),
              help=f"Effective deals per action, at most {limit_text(MAX_SAMPLES)} (default: adaptive, until "
                   f"clear or precise). Sampling draws up to {DEFAULT_CAP:,} deals of positive weight, or N when "
                   f"more are asked for, and {LOW_ESS_DRAW} times that while the effective sample is below "
                   f"{MIN_ESS:.0f}; the answer says so when the model's weights leave it short.")
@seed_option
@threads_option
@scheduler_option
@rule_option
@variant_option
@bot_timeout_option("a Python bot as --strategy")
@json_option
def should_bid(hand, position, calls, swapped, bid, scores, upcard, strategy, model_kind, tau, epsilon, playout, samples,
               seed, threads, scheduler, rules, variant, bot_timeout, as_json):
    """Evaluate every action open at your turn on the same sampled deals and recommend one.

    --strategy path.py:Class (or greedy) plays each sampled deal out with that
    Python bot at every seat (--playout strategy only), on the deals
    the default strategy's auction model weighs.
    """
    from bower.sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    question = {"position": position, "calls": calls, "swapped": None if str(swapped).lower() == "none" else swapped,
                "bid": bid, "scores": scores, "upcard": upcard,
                "model": {"kind": model_kind, "tau": tau, "epsilon": epsilon}, "playout": playout,
                "bot_timeout": bot_timeout}
    from bower.sim.advice import advise

    r = advise(v.name, hand, question, scheduler=scheduler, strategy=strategy, samples=samples, seed=seed,
               threads=threads, rules=rules_d)
    click.echo(json.dumps(r, indent=2) if as_json else v.format_advice(r))
