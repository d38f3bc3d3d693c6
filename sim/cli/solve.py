"""``bower solve``: double-dummy tricks of a deal, a part-played position, or every record of a file."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import (
    VariantChoice,
    _variant_help,
    complete_seats,
    complete_words,
    json_option,
    rule_option,
    scheduler_option,
    threads_option,
)


def _variants_help() -> str:
    from bower.sim.variants import all_variants

    lines = []
    for v in all_variants():
        cp = v.card_play
        counts = [str(n) for n in cp.seats_in_play]
        seats = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " or " + counts[-1]
        side = "with their partner" if v.partnerships else "alone"
        lines.append(f"  {v.name}: {seats} seats in play of {cp.hand_size} cards; the maker {side}; "
                     f"first lead: {cp.leader_note}")
    return "\n".join(lines)


class _SolveCommand(click.Command):
    """Adds each variant's seats, sides and first leader to the help (read from the variants, not spelled here)."""

    def format_help_text(self, ctx, formatter):
        super().format_help_text(ctx, formatter)
        formatter.write("\n\b\nBy variant:\n" + _variants_help() + "\n")


@click.command(cls=_SolveCommand)
@click.argument("deal", required=False)
@click.option("--variant", default=None, type=VariantChoice(),
              help=_variant_help() + " [default: ghost; with --records: the records' own]")
@click.option("--trump", default=None, metavar="SUIT", shell_complete=complete_words("C", "S", "D", "H"),
              help="Trump suit (C S D H). Without it: the table of every trump.")
@click.option("--maker", default=None, type=int, metavar="SEAT", shell_complete=complete_seats,
              help="The maker's seat (with --trump).")
@click.option("--leader", default=None, type=int, metavar="SEAT", shell_complete=complete_seats,
              help="The seat that leads the first trick (default: as the rules say, see below).")
@click.option("--dealer", default=None, type=int, metavar="SEAT", shell_complete=complete_seats,
              help="The dealer's seat, which fixes position 1 (default: the last seat, so seat 0 is position 1).")
@click.option("--alone", "alone", multiple=True, type=int, metavar="SEAT", shell_complete=complete_seats,
              help="A seat that went alone (repeatable): where the rules make that change the first leader.")
@click.option("--plays", default=None, metavar="CARDS",
              help="Cards played since the first lead, in order: solve that position and value each legal card.")
@rule_option
@json_option
@click.option("--records", "records_in", default=None, metavar="IN",
              help="Add a 'dd' object to every record of IN (.jsonl or .parquet), written to --out.")
@click.option("--out", "out_path", default=None, metavar="OUT", help="Where --records writes (.jsonl or .parquet).")
@threads_option
@scheduler_option
def solve(deal, variant, trump, maker, leader, dealer, alone, plays, rules, as_json, records_in, out_path, threads,
          scheduler):
    """Double-dummy analysis: every hand open, best play by both sides.

    DEAL gives each seat in play its cards at the first lead (after any swap,
    merge, widow or discard), e.g. "0:JH JD AH KH QH TH 1:9C TC ... 2:...";
    a seat sitting out is left out. The maker's side is the maker, with
    their partner in a partnership variant; the other side is everyone else
    in play. The first leader is the one the rules say (below; position 1 is
    the seat after --dealer), or --leader.

    \b
    Without --trump: the tricks the maker's side takes for each trump and maker.
    With --trump and --maker: the tricks of that contract; with --plays also
    the position after those cards and the value of each legal card.
    With --records IN --out OUT: every record gets dd.tricks (its contract)
    and dd.table (each trump), from the hands and the first leader as played;
    the variant and rules are the records' own.
    """
    from bower.sim import solve as S
    from bower.sim.rules import get_variant, parse_rule_args

    if records_in is not None:
        given = [name for name, x in (("DEAL", deal), ("--trump", trump), ("--maker", maker), ("--plays", plays),
                                      ("--leader", leader), ("--dealer", dealer), ("--alone", alone or None),
                                      ("--rule", rules or None)) if x is not None]
        if variant is not None:
            given.append("--variant")
        if given:
            raise click.UsageError(f"--records solves a file as its records say; leave out {', '.join(given)}")
        if not out_path:
            raise click.UsageError("--records needs --out FILE (.jsonl or .parquet)")
        _solve_file(records_in, out_path, threads, as_json, scheduler)
        return
    if out_path:
        raise click.UsageError("--out goes with --records")
    v = get_variant(variant or "ghost")
    if deal is None:
        raise click.UsageError("give a DEAL (e.g. \"0:JH JD AH KH QH TH 1:... 2:...\") or --records IN --out OUT")
    rules_d = parse_rule_args(v, rules)
    hands = S.parse_deal(v, deal)
    S.check_seats(v, hands, leader, dealer, maker, alone)
    if trump is None:
        if plays or maker is not None:
            raise click.UsageError("--maker and --plays need --trump")
        table = S.dd_table(v, hands, rules_d, dealer, leader, frozenset(alone))
        if as_json:
            click.echo(json.dumps({"variant": v.name, "table": {t: {str(m): x for m, x in row.items()}
                                                              for t, row in table.items()}}, indent=2))
        else:
            click.echo(format_table(v, hands, table, leader))
        return
    if maker is None:
        raise click.UsageError("--trump needs --maker SEAT")
    cards = []
    if plays:
        from bower.sim.cards import parse_cards

        cards = parse_cards(plays, allow_joker=v.card_play.joker)
    result = S.solve(v, hands, S.parse_suit(trump), maker, leader, cards, rules_d, dealer, frozenset(alone))
    result["variant"] = v.name
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(format_position(v, result, len(cards)))


def where_run(s: dict) -> str:
    """``4 thread(s)``, or ``2 Dask worker(s) (local:2)``."""
    from bower.sim.cli.simulate import where_run as where

    return where(s)


def _solve_file(records_in, out_path, threads, as_json, scheduler=None):
    from bower.sim import solve as S
    from bower.sim.progress import Progress
    from bower.sim.records_check import check_input

    check_input(records_in)  # a FIFO would be waited on without end
    progress = Progress("records", enabled=None if not as_json else False)
    try:
        s = S.solve_records(records_in, out_path, threads, progress, scheduler=scheduler)
    finally:
        progress.close()
    if as_json:
        click.echo(json.dumps(s, indent=2))
    else:
        click.echo(f"{s['records']:,} records, {s['solved']:,} hands played, each solved for 4 trumps "
                   f"on {where_run(s)} in {s['elapsed_s']:.2f} s ({s['solves_per_second']:,.0f} solves/s); "
                   f"written to {s['out']}")
        from bower.sim.replay import unknown_note

        for u in s.get("unknown") or []:
            click.echo(f"{u['records']:,} record(s) with {unknown_note(u['fields'])}")


def format_table(v, hands: dict, table: dict, leader) -> str:
    """The double-dummy table as text: a row per trump, a column per maker."""
    seats = sorted(hands)
    n = len(next(iter(hands.values())))
    lead = f"seat {leader} leads" if leader is not None else f"first lead: {v.card_play.leader_note}"
    side = "with their partner" if v.partnerships else "alone"
    lines = [f"{v.title}: double-dummy tricks of the maker's side ({side}), of {n}; {lead}",
             "trump " + "".join(f"{'maker ' + str(m):>9}" for m in seats)]
    for t, row in table.items():
        lines.append(f"{t:<6}" + "".join(f"{row[m]:>9}" for m in seats))
    return "\n".join(lines)


def format_position(v, r: dict, n_plays: int) -> str:
    """One solved contract or position as text, with each legal card's value."""
    side = ", ".join(str(s) for s in r["side"])
    total = r["tricks_taken"] + r["tricks_left"] if n_plays == 0 else None
    lines = [f"{v.title}: trump {r['trump']}, maker seat {r['maker']} (side: seat {side}), "
             f"seat {r['leader']} leads the first trick"]
    if n_plays:
        lines.append(f"after {n_plays} card(s): the maker's side has taken {r['tricks_taken']}, "
                     f"{r['tricks_left']} trick(s) to play")
    lines.append(f"double dummy: the maker's side takes {r['tricks']} trick(s)"
                 + (f" of {total}" if total is not None else " in all"))
    if r.get("values"):
        best = max(r["values"].values()) if r["to_play"] in r["side"] else min(r["values"].values())
        role = "the maker's side" if r["to_play"] in r["side"] else "a defender"
        lines.append(f"seat {r['to_play']} ({role}) to play; the maker's side's tricks after each card:")
        for c, x in r["values"].items():
            lines.append(f"  {c:<3} {x}" + ("   best" if x == best else ""))
    return "\n".join(lines)
