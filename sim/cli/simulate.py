"""``bower simulate``: play independent hands and print a summary."""

from __future__ import annotations

import json

import click

from sim.cli.options import json_option, rule_option, seed_option, strategy_option, threads_option, variant_option


@click.command()
@variant_option
@click.option("--hands", default=1_000_000, show_default=True, type=int, help="Number of hands to deal.")
@click.option("--games", default=None, type=int,
              help="Play this many whole games (to the variant's target) instead of independent hands.")
@seed_option
@threads_option
@rule_option
@strategy_option
@json_option
@click.option("--records", "records_path", default=None, metavar="FILE", help="Write every hand's record (.jsonl or .parquet).")
def simulate(variant, hands, games, seed, threads, rules, strategy, as_json, records_path):
    """Simulate independent hands (or whole games with --games) and summarise them."""
    from sim import runner
    from sim.progress import Progress
    from sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if hands <= 0:
        raise runner.RunError(f"--hands must be a positive integer, got {hands}")
    progress = Progress("games" if games is not None else "hands", enabled=None if not as_json else False)
    try:
        if games is not None:
            if games <= 0:
                raise runner.RunError(f"--games must be a positive integer, got {games}")
            if records_path:
                raise runner.RunError("--records writes independent hands; leave out --games to write records")
            summary = runner.simulate_games(
                variant=v.name, games=games, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=progress
            )
        else:
            summary = runner.simulate(
                variant=v.name, hands=hands, seed=seed, threads=threads, rules=rules_d, strategy=strategy,
                records_path=records_path, progress=progress,
            )
    finally:
        progress.close()
    if records_path:
        summary["records"] = records_path
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(format_summary(summary))


def _pct(n: int, d: int) -> str:
    return f"{100.0 * n / d:.2f}%" if d else "-"


def format_summary(s: dict) -> str:
    """The human-readable summary of a ``runner.simulate`` result."""
    from sim.rules import get_variant

    title = get_variant(s["variant"]).title
    n = s["hands"]
    rules = " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in s["rules"].items())
    lines = [
        f"{title}: {n:,} hands, seed {s['seed']}, strategy {s['strategy']}, {s['threads']} thread(s)",
        f"rules: {rules}  [{s['rules_version']}]",
    ]
    if s.get("compiled"):
        lines.append(f"compiled the kernels first ({s['warm_up_s']:.1f} s, cached for later runs)")
    lines.append("")
    if s["variant"] == "hasenpfeffer":
        from sim.hasenpfeffer import format_summary as hasenpfeffer_body

        lines.append(hasenpfeffer_body(s))
        return _finish(s, lines)
    if s["variant"] == "cutthroat":
        from sim.cutthroat import format_summary as cutthroat_body

        lines.append(cutthroat_body(s))
    else:
        lines.append(_ghost_body(s))
    ci = s["points_per_hand_ci95_by_position"]
    lines += [
        "",
        "position (1 = dealer's left, 3 = dealer)    1        2        3",
        "  mean points per hand              "
        + " ".join(f"{s['points_per_hand_by_position'][p]:>8.4f}" for p in ("1", "2", "3")),
        "    95% interval                    "
        + " ".join(f"{'±%.4f' % ((ci[p][1] - ci[p][0]) / 2):>8}" for p in ("1", "2", "3")),
        "  mean tricks per hand              "
        + " ".join(f"{s['tricks_per_hand_by_position'][p]:>8.4f}" for p in ("1", "2", "3")),
        "  hands won as maker                "
        + " ".join(f"{s['makers_by_position'][p]:>8,}" for p in ("1", "2", "3")),
    ]
    return _finish(s, lines)


def _ghost_body(s: dict) -> str:
    """The Ghost Hand part of the summary: swaps, bids, moons."""
    n = s["hands"]
    by_pos = s["swaps_by_position"]
    lines = [
        f"hands dealt      {n:>12,}",
        f"thrown in        {s['thrown_in']:>12,}  {_pct(s['thrown_in'], n):>8}",
        f"ghost swaps      {s['swaps']:>12,}  {_pct(s['swaps'], n):>8}   by position 1/2/3: "
        + " / ".join(f"{by_pos[p]:,}" for p in ("1", "2", "3")),
        "",
        "bid won       hands   share      made   make rate   (95% interval)",
    ]
    played = s["played"]
    for level, b in s["bids"].items():
        if b["make_rate"] is None:
            rate = f"{'-':>10}"
        else:
            low, high = b["make_rate_ci95"]
            rate = f"{100 * b['make_rate']:>9.2f}%   ({100 * low:.2f}-{100 * high:.2f}%)"
        lines.append(f"  {level:<6} {b['count']:>10,} {_pct(b['count'], played):>7} {b['made']:>10,} {rate}")
    lines.append(f"moons called {s['moons_called']:,}, made {s['moons_made']:,}")
    return "\n".join(lines)


def _finish(s: dict, lines: list) -> str:
    """The games block, throughput and records lines that end every summary."""
    from sim.rules import get_variant

    if "games" in s:
        ws, wci = s["win_share_by_start"], s["win_share_ci95_by_start"]
        lines += [
            "",
            f"games            {s['games']:>12,}   to {get_variant(s['variant']).target}, "
            f"{s['hands_per_game']:.2f} hands per game (95%: {s['hands_per_game_ci95'][0]:.2f}-{s['hands_per_game_ci95'][1]:.2f})",
            ("  win share by side (1 = the side of position 1 in the first hand, 2 = the dealer's side)"
             if s["variant"] == "hasenpfeffer" else "  win share by starting position (1 = dealer's left in the first hand)"),
            "    " + "   ".join(f"{p}: {100 * ws[p]:.2f}% ({100 * wci[p][0]:.2f}-{100 * wci[p][1]:.2f}%)" for p in ws),
            f"  mean final margin {s['mean_final_margin']:.2f} points; {s['tiebreak_games']:,} games "
            + ("ended with both sides past the target (the bidding side won)" if s["variant"] == "hasenpfeffer"
               else "went on past a tie at the top"),
        ]
        if s["unfinished"]:
            lines.append(f"  {s['unfinished']:,} games had no winner after {s['max_hands_per_game']:,} hands and were stopped")
    lines += [
        "",
        f"throughput: {s['hands_per_second']:,.0f} hands/s ({s['elapsed_s']:.2f} s)"
        + (f", {s['games_per_second']:,.0f} games/s" if "games" in s else ""),
    ]
    if s.get("records"):
        lines.append(f"records written to {s['records']}")
    return "\n".join(lines)
