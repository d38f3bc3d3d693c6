"""``bower simulate``: play independent hands and print a summary."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import (
    Count,
    json_option,
    rule_option,
    scheduler_option,
    seed_option,
    start_option,
    strategy_option,
    threads_option,
    variant_option,
)
from bower.sim.limits import MAX_GAMES, MAX_HANDS
from bower.sim.text import limit_text


@click.command()
@variant_option
@click.option("--hands", default=1_000_000, show_default=True, type=Count(high=MAX_HANDS),
              help=f"Number of hands to deal (1e6 and 1_000_000 are read too; at most {limit_text(MAX_HANDS)}).")
@click.option("--games", default=None, type=Count(high=MAX_GAMES),
              help="Play this many whole games (to the variant's target) instead of independent hands "
                   f"(at most {limit_text(MAX_GAMES)}).")
@seed_option
@threads_option
@scheduler_option
@rule_option
@strategy_option
@json_option
@click.option("--records", "records_path", default=None, metavar="FILE", help="Write every hand's record (.jsonl or .parquet).")
@start_option("With --games: start every game at these scores, each below the target: two side scores where "
              "partners play (the side of seats 0 & 2 first, e.g. 4,9), else one score per player by seat "
              "(e.g. 20,0,0); the first dealer is the same.")
def simulate(variant, hands, games, seed, threads, scheduler, rules, strategy, as_json, records_path, start):
    """Simulate independent hands (or whole games with --games) and summarise them."""
    from bower.sim import runner
    from bower.sim.progress import Progress
    from bower.sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if records_path is not None and not records_path.strip():
        raise runner.RunError("--records needs a file name ending in .jsonl or .parquet")
    if start is not None:
        runner.check_start(start, v)
        if games is None:
            raise runner.RunError("--start is the starting score of whole games: give --games too")
    progress = Progress("games" if games is not None else "hands", enabled=None if not as_json else False)
    try:
        if games is not None:
            if records_path is not None:
                raise runner.RunError("--records writes independent hands; leave out --games to write records")
            summary = runner.simulate_games(
                variant=v.name, games=games, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=progress,
                scheduler=scheduler, start=start,
            )
        else:
            summary = runner.simulate(
                variant=v.name, hands=hands, seed=seed, threads=threads, rules=rules_d, strategy=strategy,
                records_path=records_path, progress=progress, scheduler=scheduler,
                command=records_command(v, hands, seed, rules_d, strategy, records_path) if records_path else None,
            )
    finally:
        progress.close()
    if records_path:
        summary["records"] = records_path
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(format_summary(summary))


def records_command(v, hands: int, seed: int, rules: dict, strategy, records_path: str) -> str:
    """The ``bower simulate`` command line that writes these records again: seed, strategy and every rule spelled out."""
    import shlex

    from bower.sim.rules import resolve

    args = ["bower", "simulate", "--variant", v.name, "--hands", str(hands), "--seed", str(seed),
            "--strategy", str(strategy)]
    for name, value in resolve(v, rules).items():
        args += ["--rule", f"{name}={str(value).lower() if isinstance(value, bool) else value}"]
    return shlex.join(args + ["--records", str(records_path)])


def format_summary(s: dict) -> str:
    """The human-readable summary of a ``runner.simulate`` result: header, the variant's block, games, throughput."""
    from bower.sim.rules import get_variant

    v = get_variant(s["variant"])
    n = s["hands"]
    rules = " ".join(f"{k}={str(x).lower() if isinstance(x, bool) else x}" for k, x in s["rules"].items())
    lines = [
        f"{v.title}: {n:,} hands, seed {s['seed']}, strategy {s['strategy']}, " + where_run(s),
        f"rules: {rules}  [{s['rules_version']}]",
    ]
    if s.get("compiled"):
        lines.append(f"compiled the kernels first ({s['warm_up_s']:.1f} s, cached for later runs)")
    lines.append("")
    lines.append(v.format_summary(s))
    return _finish(s, lines)


def start_text(start: dict) -> str:
    """Starting scores as typed for ``--start``: ``4,9`` (by side or by seat)."""
    return ",".join(str(start[k]) for k in sorted(start, key=int))


def where_run(s: dict) -> str:
    """``4 thread(s)``, or ``2 Dask worker(s) (local:2)`` for a run that went through Dask."""
    if s.get("workers") is not None:
        return f"{s['workers']} Dask worker(s) ({s['scheduler']})"
    return f"{s['threads']} thread(s)"


def _finish(s: dict, lines: list) -> str:
    """The games block, throughput and records lines that end every summary."""
    from bower.sim.rules import get_variant

    v = get_variant(s["variant"])
    if "games" in s:
        ws, wci = s["win_share_by_start"], s["win_share_ci95_by_start"]
        lines += [
            "",
            f"games            {s['games']:>12,}   to {v.target}, "
            f"{s['hands_per_game']:.2f} hands per game (95%: {s['hands_per_game_ci95'][0]:.2f}-{s['hands_per_game_ci95'][1]:.2f})",
            *([f"  every game started at {start_text(s['start'])} (--start, by {'side' if v.partnerships else 'seat'})"]
              if s.get("start") else []),
            f"  win share by {v.win_units_note}",
            "    " + "   ".join(f"{p}: {100 * ws[p]:.2f}% ({100 * wci[p][0]:.2f}-{100 * wci[p][1]:.2f}%)" for p in ws),
            f"  mean final margin {s['mean_final_margin']:.2f} points; {s['tiebreak_games']:,} games "
            + v.tiebreak_note,
        ]
        if "tokens_earned" in s:
            lines.append(f"  four_trick_tokens: {s['tokens_earned']:,} tokens earned, {s['token_points']:,} points for "
                         f"tokens turned in ({s['token_points_per_game']:.3f} a game, in the scores)")
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
