"""``bower should-bid HAND``: what to do at this turn, with odds."""

from __future__ import annotations

import json

import click

from sim.cli.options import json_option, rule_option, seed_option, strategy_option, threads_option, variant_option


@click.command(name="should-bid")
@click.argument("hand")
@click.option("--position", default=1, show_default=True, type=int, help="Your position: 1 = dealer's left, 3 = dealer.")
@click.option("--calls", default=None, help='Calls made before your turn, in order, e.g. "pass,3".')
@click.option("--swapped", default="none", show_default=True, help="Position that already swapped for the ghost, or none.")
@click.option("--bid", default=None, help="Answer this question first: should I bid 3, 4, 5 or moon?")
@click.option("--scores", default=None, help="Game scores by position, e.g. 20,25,28 (for score-aware strategies).")
@click.option("--upcard", default=None, help="Cutthroat: the turned card of the kitty, e.g. JS.")
@strategy_option
@click.option("--samples", default=None, type=int, help="Deals per action (default: adaptive, until clear or precise).")
@seed_option
@threads_option
@rule_option
@variant_option
@json_option
def should_bid(hand, position, calls, swapped, bid, scores, upcard, strategy, samples, seed, threads, rules, variant,
               as_json):
    """Evaluate every action open at your turn on the same sampled deals and recommend one."""
    from sim.advice import AdviceError, advise
    from sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if v.name == "hasenpfeffer":
        from sim import hasenpfeffer_advice as hpa

        for flag, value in (("--scores", scores), ("--upcard", upcard)):
            if value is not None:
                raise AdviceError(f"{flag} is not a Hasenpfeffer question; it takes the hand, --position, --calls, --bid")
        if str(swapped).lower() != "none":
            raise AdviceError("--swapped is a Ghost Hand question; Hasenpfeffer has no ghost hand")
        r = hpa.advise(hand, position=position, calls=calls, bid=bid, strategy=strategy, samples=samples, seed=seed,
                       threads=threads, rules=rules_d)
        click.echo(json.dumps(r, indent=2) if as_json else hpa.format_advice(r))
        return
    if v.name == "cutthroat":
        from sim import cutthroat_advice as cta

        for flag, value in (("--bid", bid), ("--scores", scores)):
            if value is not None:
                raise AdviceError(f"{flag} is a Ghost Hand question; Cutthroat takes the hand, --upcard, --position, --calls")
        if str(swapped).lower() != "none":
            raise AdviceError("--swapped is a Ghost Hand question; Cutthroat has no ghost hand")
        r = cta.advise(hand, upcard, position=position, calls=calls, strategy=strategy, samples=samples, seed=seed,
                       threads=threads, rules=rules_d)
        click.echo(json.dumps(r, indent=2) if as_json else cta.format_advice(r))
        return
    if upcard is not None:
        raise AdviceError("--upcard is a Cutthroat question (use --variant cutthroat)")
    r = advise(hand, position=position, calls=calls, swapped=swapped, bid=bid, scores=scores, strategy=strategy,
               samples=samples, seed=seed, threads=threads, rules=rules_d)
    if as_json:
        click.echo(json.dumps(r, indent=2))
    else:
        click.echo(format_advice(r))


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def format_advice(r: dict) -> str:
    """The human-readable answer of ``sim.advice.advise``."""
    calls = ", ".join(f"position {p}: {c}" for p, c in r["calls"]) or "none"
    lines = []
    q = r.get("question")
    if q:
        lines += [
            f"Should you bid {q['bid']}?  {q['verdict']}",
            f"  bid {q['bid']} in {q['trump']}: makes {_pct(q['make_prob'])}"
            + (f" (95%: {_pct(q['make_ci95'][0])}-{_pct(q['make_ci95'][1])})" if q["make_ci95"] else "")
            + (f", expected value against passing {q['ev_vs_pass']:+.3f} points "
               f"({q['ev_vs_pass_ci95'][0]:+.3f} to {q['ev_vs_pass_ci95'][1]:+.3f})" if "ev_vs_pass" in q else ""),
            "",
        ]
    lines += [
        f"Hand {' '.join(r['hand'])} at position {r['position']} (1 = dealer's left, 3 = dealer); calls so far: {calls}; "
        + ("the ghost is still there" if r["swap_open"] else "no swap open"),
        f"{r['samples']:,} sampled deals per action (acceptance {_pct(r['acceptance_rate'])} of {r['draws']:,} drawn), "
        f"strategy {r['strategy']} for everyone afterwards, seed {r['seed']}",
    ]
    if r.get("compiled"):
        lines.append("(compiled the advice kernel first; cached for later calls)")
    lines += [
        "",
        f"{'action':<32} {'wins bid':>8} {'makes':>7} {'tricks':>7} {'points':>8} {'(95% interval)':>18} {'margin':>8}",
    ]
    best = r["recommendation"]["action"]
    for a in sorted(r["actions"], key=lambda a: -a["expected_points"]):
        lo, hi = a["points_ci95"]
        lines.append(
            f"{a['action'][:32]:<32} {_pct(a['wins_auction']):>8} {_pct(a['make_prob']):>7} {a['mean_tricks']:>7.2f} "
            f"{a['expected_points']:>+8.3f} {f'({lo:+.3f} to {hi:+.3f})':>18} {a['expected_margin']:>+8.3f}"
            + ("  <- best" if a["action"] == best else "")
        )
    rec = r["recommendation"]
    lines.append("")
    if "runner_up" in rec:
        lo, hi = rec["diff_ci95"]
        kind = "clearly best" if rec["clear"] else "a close call"
        lines.append(
            f"Recommendation: {rec['action']} ({kind}: {rec['diff_points']:+.3f} points over {rec['runner_up']}, "
            f"95% {lo:+.3f} to {hi:+.3f})"
        )
    else:
        lines.append(f"Recommendation: {rec['action']} (the only legal action)")
    lines.append("'makes' is the chance of making the contract when you win the auction; 'margin' is your points "
                 "minus the mean of the two opponents'.")
    return "\n".join(lines)
