"""``bower replay``: recorded hands checked against the rules, reneges penalised, tricks and points recomputed."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import scheduler_option, start_option


def _fields_help() -> str:
    from bower.sim.replay import fields_needed
    from bower.sim.variants import all_variants

    lines = []
    for v in all_variants():
        f = fields_needed(v)
        lines.append(f"  {v.name}: {', '.join(f['needed'])}; with deal: {', '.join(f['with_deal'])}")
        lines.append(f"    renege: {v.card_play.renege_note}")
    return "\n".join(lines)


class HandRange(click.ParamType):
    """``--hand N`` or ``N:M`` (records numbered from 0, M not included): checked here, passed on as written."""

    name = "hands"

    def get_metavar(self, param, ctx=None) -> str:
        """``N[:M]`` in the help."""
        return "N[:M]"

    def convert(self, value, param, ctx):
        """``value`` once ``bower.sim.replay.parse_hands`` reads it; BadParameter with its words otherwise."""
        from bower.sim.replay import ReplayError, parse_hands

        try:
            parse_hands(value, "--hand")
        except ReplayError as e:
            self.fail(e.format_message().removeprefix("--hand "), param, ctx)
        return value


class _ReplayCommand(click.Command):
    """Adds the per-variant list of record fields to the help (read from the variants, not spelled here)."""

    def format_help_text(self, ctx, formatter):
        super().format_help_text(ctx, formatter)
        formatter.write("\n\b\nFields each record needs, and the renege penalty, by variant:\n" + _fields_help() + "\n")


@click.command(cls=_ReplayCommand)
@click.argument("file", metavar="FILE")
@click.option("--dd", "dd", is_flag=True,
              help="Add each play's double-dummy cost: tricks its side lost against the best card there.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per hand (JSON lines).")
@click.option("--hand", "hand", default=None, type=HandRange(),
              help="Replay only record N, or records N to M-1 with N:M (N: to the end). Records are numbered "
                   "from 0, as the output and messages name them (record N); the summary counts these alone.")
@click.option("--top", "top", default=10, show_default=True, type=click.IntRange(min=0),
              help="With --dd over more than one hand: how many of the costliest cards to list.")
@click.option("--plot", "plot_path", default=None, metavar="FILE.png",
              help="With --dd: draw the mean cost per card by trick number, one line per player (PNG).")
@start_option("Score every game from these scores, in place of the records' own start (and where they have "
              "none), each below the target: two side scores where partners play (the side of seats 0 & 2 "
              "first, e.g. 4,9), else one score per player by seat.")
@scheduler_option
def replay(file, dd, as_json, hand, scheduler, top, plot_path, start):
    """Replay the hands of FILE (.jsonl or .parquet records, a .egn game, or a folder of them) against the rules.

    Each hand is replayed from its plays: turn order, the cards each seat
    held (from 'deal' when the record has it, else the cards each seat
    played) and following suit. A renege (not following the suit led while
    able to) is named: trick, seat, card and the suit it should have
    followed. The hand is scored as played, from the tricks as they fell
    (the renege card counts where it lay); then each renege's penalty (the
    variant's, listed below) is added: points = as played + penalties.

    \b
    A record is one JSON object per line, as `bower simulate --records`
    writes, or typed in, e.g. (Euchre):
      {"variant": "euchre", "dealer": 3, "maker": 1, "trump": "S",
       "alone": [], "plays": [[0, "AH"], [1, "9H"], [2, "KH"], ...]}
    Optional: hand; rules (default: the variant's defaults); deal (with
    the fields below: then each card played must have been held); tricks
    and points (compared with the replay); game and start (see below);
    unknown (the fields a real game's record does not know, null: the
    hands are then the cards each seat played, and the output says so). A hand
    thrown in has its maker field (maker or bidder, below) null, no plays.

    \b
    --dd: every play's cost, double dummy: the tricks the player's side
    (the maker's side, or the defenders) lost with that card against the
    best card at that position, best play after (0 for a best card; a
    renege is compared with the best legal card).
    Games: consecutive records with the same 'game' field are one game,
    with running scores and the winner (first to the variant's target;
    partnerships by side); a record's start (keyed as points) is the
    game's score before it (an EGN file's initialScore), else the running
    score, 0 at the game's first hand; --start A,B gives every game's
    score before its first hand instead (the records' start is then not
    read; a record of no game is refused). A record the rules do not
    allow (not JSON, a missing field, an unknown card, a card played
    twice, a seat out of turn, a card the seat did not hold, a wrong
    number of cards) stops the replay with one line naming the record and
    the field (status 2).
    --json prints one JSON object per hand: hand, tricks, points (with
    the penalties), score (as played), penalty, reneges, costs (--dd), ...
    Over more than one hand, --dd adds a table by player (the names an
    EGN file gives its seats, else seat numbers): cards played, cards with
    a choice (more than one legal card), cards that cost at least one
    trick, tricks lost (the costs summed) as the maker's side and as
    defenders; then the --top costliest cards with file, record, hand and
    trick (--json: one more JSON object, with "players" and "costliest").
    --plot FILE.png draws the mean cost per card by trick number. A FOLDER
    is replayed file by file (its .jsonl, .parquet and .egn files, in
    sorted name order; each file named), and its table counts them all.
    --hand 5 replays record 5 alone, --hand 5:8 records 5, 6 and 7 (M not
    included), --hand 5: from record 5 to the end; the earlier hands of a
    game record 5 belongs to are replayed too, for the game's running
    scores, but not shown. A record number past the file's last is one
    line and status 2.
    """
    from bower.sim.records_check import check_input
    from bower.sim.replay import ReplayError, replay_file
    from bower.sim import replay_table as RT
    from bower.sim.variants import get_variant

    check_input(file)  # a FIFO would be waited on without end
    files, folder = RT.record_files(file)
    if plot_path is not None:
        if not dd:
            raise ReplayError("--plot draws the double-dummy costs: it needs --dd")
        RT.check_plot_path(plot_path)
    if folder and hand is not None:
        raise ReplayError(f"--hand picks records of one file; {file} is a folder")
    table = RT.PlayerTable() if dd else None

    def results():
        for f in files:
            names = RT.player_names(f) if dd else None
            for r in replay_file(f, dd, scheduler, hand, start=start):
                if folder:
                    r["file"] = f
                if table is not None:
                    table.add(r, f, names)
                yield f, r

    games: dict = {}
    n = played = renege_count = differ = 0
    unknown: dict = {}
    shown = None
    # a folder is replayed whole before anything is printed: a bad file stops it with nothing written
    for f, r in (list(results()) if folder else results()):
        n += 1
        played += not r["thrown_in"]
        renege_count += len(r["reneges"])
        differ += r.get("matches") is False
        if r.get("unknown"):
            unknown[tuple(r["unknown"])] = unknown.get(tuple(r["unknown"]), 0) + 1
        if "game" in r:
            games[(f, r["game"])] = r
        if as_json:
            click.echo(json.dumps(r, separators=(",", ":")))
        else:
            if folder and f != shown:
                click.echo(f"file {f}:")
                shown = f
            click.echo(format_hand(get_variant(r["variant"]), r, dd))
    if plot_path is not None:
        RT.draw_plot(table, plot_path)
    many = table is not None and table.hands > 1
    if as_json and many:
        click.echo(json.dumps(table.as_json(top), separators=(",", ":")))
    if not as_json:
        tail = [f"{n:,} hand(s) replayed: {played:,} played, {n - played:,} thrown in; {renege_count:,} renege(s)"]
        for fields, k in unknown.items():
            from bower.sim.replay import unknown_note

            tail.append(f"{k:,} hand(s) with {unknown_note(fields)}")
        if differ:
            tail.append(f"the record's own tricks or points differ from the replay on {differ:,} hand(s)")
        for (_, label), r in games.items():
            if r["winner"] is None:
                v = get_variant(r["variant"])
                tail.append(f"game {label}: no winner after {r['game_hand']} hand(s) ({_units(v, r['scores'], False)})")
        if many:
            tail.append(table.text(top))
        click.echo("\n".join(tail))


def _unit(v, key, short: bool = False) -> str:
    k = int(key)
    if not v.partnerships:
        return f"seat {k}"
    return f"side {k}" if short else f"side {k} (seats {k} & {k + 2})"


def _units(v, points: dict, signed: bool = True, short: bool = False) -> str:
    fmt = "{:+d}" if signed else "{:d}"
    return ", ".join(f"{_unit(v, k, short)} {fmt.format(x) if x else '0'}" for k, x in sorted(points.items()))


def format_hand(v, r: dict, dd: bool = False) -> str:
    """One replayed hand as text: contract, tricks by seat, points, reneges, (--dd) the tricks with costs, the game."""
    cp = v.card_play
    head = f"record {r['record']}, hand {r['hand']} ({v.title}, dealer seat {r['dealer']})"
    if r["thrown_in"]:
        lines = [f"{head}: thrown in, no points"]
    else:
        lone = [s for s in r.get("alone") or [] if s != r["maker"]]
        extra = f", seat {lone[0]} defends alone" if lone else ""
        lines = [f"{head}: {cp.maker_field} seat {r['maker']}, contract {r['contract']} (needs {r['need']} tricks), "
                 f"trump {r['trump']}{extra}; seat {r['leader']} leads",
                 "  tricks: " + ", ".join(f"seat {s} {t if int(s) in r['in_play'] else '-'}"
                                          for s, t in r["tricks"].items())]
        if dd:
            lines.extend(_tricks_text(r))
        points = "  points: " + _units(v, r["points"])
        if r["reneges"]:
            points += (f"  (as played: {_units(v, r['score'], short=True)}; "
                       f"renege penalty: {_units(v, r['penalty'], short=True)})")
        lines.append(points)
    if r.get("unknown"):
        from bower.sim.replay import unknown_note

        lines.insert(1, "  " + unknown_note(r["unknown"]))
    if not r["thrown_in"]:
        for x in r["reneges"]:
            lines.append(f"  renege: trick {x['trick']}, seat {x['seat']} played {x['card']} but could follow "
                         f"{x['follow']}: {_units(v, {k: p for k, p in x['penalty'].items() if p}, short=True)}")
    if r.get("matches") is False:
        rec = r["recorded"]
        parts = []
        if "tricks" in rec and rec["tricks"] != r["tricks"]:
            parts.append("tricks " + ", ".join(f"seat {s} {t}" for s, t in rec["tricks"].items()))
        if "points" in rec and rec["points"] != r["points"]:
            parts.append("points " + _units(v, rec["points"]))
        lines.append("  the record says: " + "; ".join(parts))
    if "game" in r:
        line = f"  game {r['game']}, hand {r['game_hand']}: {_units(v, r['scores'], False, True)}"
        if r["game_hand"] == 1 and any((r.get("game_start") or {}).values()):
            line += f" (from {_units(v, r['game_start'], False, True)} before it)"
        if "tokens" in r:  # four_trick_tokens
            line += f"; tokens {_units(v, r['tokens'], False, True)}"
            if any(r["token_points"].values()):
                line += f", 4 tokens turned in: {_units(v, r['token_points'], True, True)}"
        if r["winner"] is not None:
            line += f"; won by {_unit(v, r['winner'])}"
        lines.append(line)
    return "\n".join(lines)


def _tricks_text(r: dict) -> list[str]:
    """The tricks as played with each card's double-dummy cost, and the costs summed by side."""
    lines = []
    costs = r["costs"]
    side = set(r["side"])
    by_trick: dict[int, list] = {}
    for c in costs:
        by_trick.setdefault(c["trick"], []).append(c)
    renege = {(x["trick"], x["seat"]) for x in r["reneges"]}
    for t, plays in sorted(by_trick.items()):
        cells = []
        for c in plays:
            cell = f"{c['seat']}:{c['card']}"
            if (t, c["seat"]) in renege:
                cell += "!"
            if c["cost"]:
                cell += f" (cost {c['cost']}, best {' '.join(c['best'])})"
            cells.append(cell)
        won = r["trick_winners"][t - 1] if t - 1 < len(r["trick_winners"]) else None
        lines.append(f"  trick {t}: " + "  ".join(cells) + (f"  -> seat {won}" if won is not None else ""))
    mine = sum(c["cost"] for c in costs if c["seat"] in side)
    theirs = sum(c["cost"] for c in costs if c["seat"] not in side)
    lines.append(f"  double dummy: the maker's side could take {r['dd_tricks']}; its own plays cost it {mine}, "
                 f"the defenders' plays cost them {theirs}" + (" (! marks a renege)" if renege else ""))
    return lines
