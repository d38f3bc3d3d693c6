"""Replay of recorded hands: each checked against the rules, reneges found and penalised, tricks and points recomputed.

A record (``bower.sim.records``, or one a user typed in) is replayed from its
``plays``: turn order, the cards each seat held, following suit. A renege
(not following the suit led while able to) is not an error: it is named
(trick, seat, card, the suit it should have followed) and scored. The hand
is scored as played, from the tricks as they fell (the renege card counts
where it lay), and then each renege's penalty (RULES.md, per variant) is
added to those points: ``points = score + penalty``. Everything else the
rules do not allow (a card played twice or by a seat that did not hold it,
a seat out of turn, a wrong number of cards, a missing or malformed field)
is a ``ReplayError`` naming the record and the field.

With ``dd``, every play gets its double-dummy cost (``bower.sim.solve``): the
tricks the player's side (the maker's side, or the defenders) lost with
that card against the best card at that position, best play after; 0 for
a best card. A renege's cost compares it with the best legal card (it can
be negative). Consecutive records with the same ``game`` field are one
game: running scores and its winner (``variant.target``, the variant's
``game_winner``). The variant's own part is its ``CardPlay`` (``check``,
``in_play``, ``held``, ``score``, ``renege``, ``game_winner``:
``sim/variants/NAME/scoring.py``); results are plain dicts.
"""

from __future__ import annotations

import itertools
from collections import deque

from bower.sim.cards import card_str
from bower.sim.errors import UserError
from bower.sim.records_check import RecordError as ReplayError  # a record that cannot be replayed

SUITS = "CSDH"
COMMON_FIELDS = ("variant", "dealer", "plays")  # with the maker field and (for a hand played) "trump"


def fields_needed(variant) -> dict[str, tuple[str, ...]]:
    """The record fields replay reads for ``variant``: ``needed`` always, ``with_deal`` when ``deal`` is given.

    Optional everywhere: ``hand``, ``rules`` (default: the variant's
    defaults), ``tricks`` and ``points`` (compared when present), ``deal``
    (without it the hands are the cards each seat played), ``game``.
    """
    cp = variant.card_play
    needed = ("variant", "dealer", cp.maker_field, "trump", *cp.replay_fields, "plays")
    return {"needed": needed, "with_deal": cp.deal_fields,
            "optional": ("hand", "rules", "deal", "tricks", "points", "game", "start", "unknown")}


def unknown_note(fields) -> str:
    """The line that says what a record does not know (its ``unknown`` fields) and what is analysed instead."""
    names = [f"'{f}'" for f in fields]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{listed} not known: each seat's hand at the first lead is the cards it played"


# ---- reading and checking: bower.sim.records_check, the layer every reader of records shares -------------


def read_hands(path: str):
    """Yield ``(record, label)`` for each record of a ``.jsonl``, ``.parquet`` or ``.egn`` file (``.egn``: whole).

    ``label`` names it in messages: ``FILE: record N (line L)`` (N from 0).
    The reading is ``bower.sim.records_check.iter_file``: RecordsError for a
    file that cannot be read, ReplayError for a line that is not UTF-8, not
    JSON or not an object.
    """
    from bower.sim.records import own_format
    from bower.sim.records_check import iter_file

    own = own_format(path)
    yield from own.items(path) if own is not None else iter_file(path)


def _popcount(m: int) -> int:
    return bin(m).count("1")


def _cost(pos, seat: int, card: int, side: int, need_best: bool) -> tuple[int, list[str], int | None, int]:
    """(double-dummy cost of ``card`` for the side of ``seat``, the best cards, the maker side's tricks with best play,
    how many legal cards the seat had).

    At ``pos``, before ``card`` is played; ``side``: the maker's side. A
    single legal card costs nothing and is not solved (the third item is then
    None) unless ``need_best``.
    """
    from bower.sim import solve as S

    legal = S.legal_cards(pos.hands[seat], pos.trump, pos.trick)
    n_legal = _popcount(legal)
    if legal >> card & 1 and n_legal == 1 and not need_best:
        return 0, [card_str(card)], None, n_legal
    vals = S.card_values(pos, side)
    mine = side >> seat & 1
    best = max(vals.values()) if mine else min(vals.values())
    if card in vals:
        v = vals[card]
    else:  # a renege: the tricks after it is played, best play on
        after = S.Position(dict(pos.hands), pos.active, pos.trump, list(pos.trick), pos.leader, dict(pos.taken))
        w = _apply(after, seat, card)
        v = (1 if w >= 0 and side >> w & 1 else 0) + S.value(after, side)[0]
    return ((best - v if mine else v - best), [card_str(c) for c, x in sorted(vals.items()) if x == best], best,
            n_legal)


def _apply(pos, seat: int, card: int) -> int:
    """Play ``card`` for ``seat`` at ``pos`` (unchecked); the trick's winner when it completes it, else -1."""
    from bower.sim.solve import trick_winner

    pos.hands[seat] &= ~(1 << card)
    pos.trick.append((seat, card))
    if len(pos.trick) == _popcount(pos.active):
        w = trick_winner(pos.trump, pos.trick)
        pos.taken[w] = pos.taken.get(w, 0) + 1
        pos.trick, pos.leader = [], w
        return w
    return -1


def _play_out(pos, plays, side: int, where: str, dd: bool, lead_note: str = ""):
    """Play ``plays`` from ``pos`` in turn: (trick winners, reneges, costs with ``dd``, maker side's dd tricks)."""
    from bower.kernels.tables import EFF_SUIT
    from bower.sim.solve import legal_cards

    winners, reneges, costs, dd_tricks = [], [], [], None
    for k, (seat, card) in enumerate(plays):
        n_trick = len(winners) + 1
        turn = pos.to_play
        if seat != turn:
            raise ReplayError(f"{where}: field 'plays' entry {k}: seat {seat} plays {card_str(card)} out of turn "
                              f"(trick {n_trick}: seat {turn} to {'lead' if not pos.trick else 'play'}"
                              f"{'; ' + lead_note if k == 0 and lead_note else ''})")
        if dd:
            cost, best, value, n_legal = _cost(pos, seat, card, side, k == 0)
            if k == 0:
                dd_tricks = value
            costs.append({"trick": n_trick, "seat": seat, "card": card_str(card), "cost": cost, "best": best,
                          "legal": n_legal})
        if not legal_cards(pos.hands[seat], pos.trump, pos.trick) >> card & 1:
            led = SUITS[EFF_SUIT[pos.trump, pos.trick[0][1]]]
            reneges.append({"trick": n_trick, "seat": seat, "card": card_str(card), "follow": led, "play": k})
        w = _apply(pos, seat, card)
        if w >= 0:
            winners.append(w)
    return winners, reneges, costs, dd_tricks


def _sum(a: dict, b: dict) -> dict:
    return {k: a.get(k, 0) + b.get(k, 0) for k in a}


def _replay(rec: dict, where: str, dd: bool):
    """(result dict, variant, rules, checked record) of one record."""
    from bower.sim import solve as S

    from bower.sim.records_check import check_play, check_record, check_start, recorded as recorded_part

    variant, rules, rec, maker = check_record(rec, where)
    cp = variant.card_play
    plays, trump, active, hands = check_play(variant, rec, maker, where, turns=False)  # _play_out follows them
    out = {
        "variant": variant.name, "hand": rec.get("hand"), "dealer": rec["dealer"], "maker": maker,
        "thrown_in": maker is None,
    }
    if rec.get("unknown"):
        out["unknown"] = list(rec["unknown"])
    start = check_start(rec, where, variant)  # (checked with the record: every reader checks it)
    if start is not None:
        out["start"] = start
    seat_keys = [str(s) for s in range(variant.players)]
    tricks = {s: 0 for s in range(variant.players)}
    reneges: list[dict] = []
    costs: list[dict] = []
    if maker is None:
        out.update(contract=None, need=None, trump=None, leader=None, in_play=[], side=[], trick_winners=[])
    else:
        mask = sum(1 << s for s in active)
        alone = frozenset(rec.get("alone") or ())
        leader = cp.first_leader(maker, rec["dealer"], mask, rules, alone)
        label, need = cp.contract(rec)
        side = variant.maker_side(maker, mask)
        out.update(contract=label, need=need, trump=SUITS[trump], leader=leader, in_play=sorted(active),
                   side=[s for s in sorted(active) if side >> s & 1])
        if "alone" in rec:
            out["alone"] = list(rec["alone"])
        pos = S.Position(dict(hands), mask, trump, [], leader, {s: 0 for s in active})
        out["trick_winners"], reneges, costs, dd_tricks = _play_out(pos, plays, side, where, dd, cp.leader_note)
        tricks.update(pos.taken)
        if dd:
            out["dd_tricks"] = dd_tricks
    score = cp.score(rec, tricks, rules)
    penalty = {k: 0 for k in score}
    for r in reneges:
        r["penalty"] = cp.renege(rec, r["seat"], rules)
        penalty = _sum(penalty, r["penalty"])
    out.update(tricks={seat_keys[s]: n for s, n in tricks.items()}, score=score, penalty=penalty,
               points=_sum(score, penalty), reneges=reneges,
               plays=[[s, card_str(c)] for s, c in plays])
    if dd:
        out["costs"] = costs
    recorded = {k: x for k in ("tricks", "points") if (x := recorded_part(rec, k, where, variant)) is not None}
    if recorded:
        out["recorded"] = recorded
        out["matches"] = all(recorded[k] == out[k] for k in recorded)
    return out, variant, rules, rec


def replay_hand(rec: dict, where: str = "record", dd: bool = False) -> dict:
    """One record replayed: ``tricks`` by seat, ``score`` (as played), ``penalty``, ``points``, ``reneges``, ...

    Also ``contract``, ``need``, ``trump``, ``leader``, ``trick_winners``,
    ``in_play`` and ``side`` (the seats in play, the maker side's),
    ``plays``, the record's own ``recorded`` tricks/points with ``matches``
    (when it has them) and, with ``dd``, ``costs`` (one per play: ``trick``,
    ``seat``, ``card``, ``cost``, ``best`` cards, ``legal``: how many legal cards the seat had) and ``dd_tricks`` (the
    maker side's double-dummy tricks at the first lead: the tricks it took
    are ``dd_tricks`` less its own plays' costs plus the defenders'). A
    reneges entry: ``trick``, ``seat``, ``card``, ``follow`` (the suit led,
    which it held), ``play`` (its index in ``plays``), ``penalty``.
    ReplayError names ``where`` and the field.
    """
    return _replay(rec, where, dd)[0]


REPLAY_BATCH = 2048  # records a Dask task replays


def replay_job(job) -> tuple[list, tuple | None]:
    """Replay a batch ``(items, dd)`` wherever it runs: ``(results, error)``.

    ``results``: ``(result, variant name, rules, checked record, game label, where)`` of the
    records up to the first that cannot be replayed; ``error``: that
    record's ReplayError as (module, class, message), or None.
    """
    items, dd = job
    done = []
    for rec, where in items:
        try:
            out, variant, rules, checked = _replay(rec, where, dd)
        except UserError as e:
            return done, (type(e).__module__, type(e).__qualname__, e.format_message())
        done.append((out, variant.name, rules, checked, rec.get("game"), where))
    return done, None


def _replayed(items, dd: bool, ex):
    """``_replay`` of each item in order: here one by one, or in batches as Dask tasks (errors in the same order)."""
    if ex.kind == "local":
        for rec, where in items:
            yield (*_replay(rec, where, dd), rec.get("game"), where)
        return
    from bower.sim import distributed as dist
    from bower.sim.variants import get_variant

    faults: deque = deque()  # per batch sent: the error met reading the records after it, or None

    def jobs():
        batch: list = []
        it = iter(items)
        while True:
            try:
                item = next(it)
            except StopIteration:
                break
            except UserError as e:
                faults.append(e)
                yield batch, dd
                return
            batch.append(item)
            if len(batch) == REPLAY_BATCH:
                faults.append(None)
                yield batch, dd
                batch = []
        if batch:
            faults.append(None)
            yield batch, dd

    if dd:
        from bower.sim import solve as S

        ex.warm(S.solve_rows_job, ("solve",), S.sample_deals(get_variant("ghost"), 1))
    for done, err in ex.map(replay_job, jobs()):
        for out, name, rules, checked, label, where in done:
            yield out, get_variant(name), rules, checked, label, where
        if err is not None:
            dist._reraise(("user", *err))
        fault = faults.popleft()
        if fault is not None:
            raise fault


def replay(items, dd: bool = False, scheduler=None, hand=None, flag: str = "--hand", source: str = "the file",
           start=None):
    """Yield the replay of each ``(record, label)`` (as ``read_hands`` gives), with games scored along.

    A record with a ``game`` field belongs to that game; its hands must be
    consecutive and stop at the winner. Such a result also has ``game``,
    ``game_hand`` (1, 2, ...), ``scores`` (running, keyed as ``points``) and
    ``winner`` (the winning seat, or side with partnerships, on the hand
    that decides; else None). Under a rule of game points outside the
    hands' (``CardPlay.game_bonus``: Euchre's ``four_trick_tokens``) a game's
    result also has ``tokens`` (each side's tokens after the hand, 0 at a
    game's first hand, ``--start`` or not) and ``token_points`` (the points
    the hand's tokens turned in, in ``scores``: ``points`` stays the hand's).
    Every result has ``record`` (its index).
    ``scheduler``: replay the records in batches as Dask tasks
    (``bower.sim.distributed``); the results are the same. ``hand``: only
    these records (``parse_hands``: ``N``, ``"N:M"`` or ``(N, M)``, numbered
    from 0, M not included); the earlier hands of a game the first of them
    belongs to are replayed too (for its running scores) but not yielded,
    and records past the range are not read. ReplayError (naming ``flag``
    and ``source``) when the first record asked for is past the last.
    ``start``: every game's score before its first hand (``--start``:
    ``"4,9"`` or a sequence, by side or by seat, ``runner.check_start``) in
    place of the records' own ``start`` fields, which are then not read; a
    record of no game is then a RunError (--start scores games).
    """
    from bower.sim import distributed as dist

    first = lead = 0
    if hand is not None:
        lo, hi = parse_hands(hand, flag)
        items, first, lead = _select(items, lo, hi, f"{flag} {hand_text(hand)}", source)
    with dist.session(scheduler) as ex:
        yield from _games(_replayed(items, dd, ex), first, lead, start)


MAX_RECORD = 10**15  # record numbers --hand takes: past any file's count


def hand_text(value) -> str:
    """``value`` as the user wrote it, cut to 40 characters: for messages."""
    if isinstance(value, (tuple, list)) and len(value) == 2:
        text = ":".join("" if x is None else str(x) for x in value) if all(
            x is None or isinstance(x, int) and abs(x) < 10**40 for x in value) else repr(value)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        text = "a number too large"
    elif isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "...")
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_hands(value, flag: str = "--hand") -> tuple[int, int | None]:
    """The records to replay: ``N`` -> ``(N, N + 1)``; ``"N:M"`` or ``(N, M)`` -> ``(N, M)``, M not included;
    ``"N:"`` or ``(N, None)`` -> ``(N, None)`` (to the end). Records are numbered from 0, as replay's output and
    messages number them. ReplayError naming ``flag`` for anything else (not whole numbers, negative numbers,
    M not above N).
    """
    shown = hand_text(value)
    form = (f"{flag} {shown} is not a record number N or a range N:M (records are numbered from 0, "
            "as replay names them; M is not included)")

    def number(x) -> int:
        if isinstance(x, bool):
            raise ReplayError(form)
        if isinstance(x, int):
            n = x
        else:
            t = str(x).strip()
            if not (t.isascii() and t.isdigit()):
                raise ReplayError(form)
            if len(t) > 16:
                raise ReplayError(f"{flag} {shown}: past any file's records")
            n = int(t)
        if n < 0:
            raise ReplayError(form)
        if n > MAX_RECORD:
            raise ReplayError(f"{flag} {shown}: past any file's records")
        return n

    if isinstance(value, int) and not isinstance(value, bool):
        lo = number(value)
        return lo, lo + 1
    if isinstance(value, (tuple, list)) and len(value) == 2:
        lo, hi = value
    elif isinstance(value, str) and value.count(":") <= 1:
        head, sep, tail = value.partition(":")
        lo, hi = head, (tail if tail.strip() else None) if sep else "one"
    else:
        raise ReplayError(form)
    lo = number(lo)
    if hi == "one":
        return lo, lo + 1
    if hi is None:
        return lo, None
    hi = number(hi)
    if hi <= lo:
        raise ReplayError(f"{flag} {shown}: the range N:M needs M above N (M is not included)")
    return lo, hi


def _select(items, lo: int, hi: int | None, what: str, source: str):
    """(the items ``lo`` .. ``hi - 1`` led by the earlier records of item ``lo``'s game, the record number of the
    first item, how many lead); ReplayError when ``lo`` is past the last record."""
    it = iter(items)
    lead: list = []
    label = None
    for i in range(lo + 1):
        item = next(it, None)
        if item is None:
            raise ReplayError(f"{what}: {source} has {i:,} record(s), numbered from 0"
                              + (f" to {i - 1:,}" if i else ""))
        g = item[0].get("game") if isinstance(item[0], dict) else None
        if i == lo:
            if g is None or not lead or not _same(label, g):
                lead = []
            break
        if g is None:
            lead = []
        elif lead and _same(label, g):
            lead.append(item)
        else:
            lead, label = [item], g
    rest = it if hi is None else itertools.islice(it, hi - lo - 1)
    return itertools.chain(lead, [item], rest), lo - len(lead), len(lead)


def _same(a, b) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _games(replayed, first: int = 0, lead: int = 0, start=None):
    """The replays with the games scored along (``replay``): the records from number ``first``, the first ``lead``
    of them replayed for their game's scores only (not yielded); ``start``: every game's starting scores in place
    of the records' ``start`` (``replay``)."""
    from bower.sim import runner

    game = None
    seen: set = set()
    given: dict = {}  # variant name -> --start as its scores (checked once a variant)
    for i, (out, variant, rules, checked, label, where) in enumerate(replayed, first):
        show = i >= first + lead
        out["record"] = i
        if out["hand"] is None:
            out["hand"] = i
        if start is not None:
            if label is None:
                raise runner.RunError(f"--start gives a game's starting score: {where} is of no game "
                                      "(no 'game' field)")
            if variant.name not in given:
                given[variant.name] = runner.start_dict(runner.check_start(start, variant))
            out.pop("start", None)  # the records' own start is not read
            if game is None or game["label"] != label:
                out["start"] = dict(given[variant.name])
        if label is None:
            game = None
            if show:
                yield out
            continue
        if isinstance(label, (list, dict)):
            raise ReplayError(f"{where}: field 'game' is {label!r}, not a name or number")
        if game is None or game["label"] != label:
            if label in seen:
                raise ReplayError(f"{where}: field 'game': the hands of game {label!r} are not consecutive")
            seen.add(label)
            game = {"label": label, "variant": variant.name, "scores": {k: 0 for k in out["points"]},
                    "state": None, "winner": None, "hands": 0}
            if "start" in out:
                game["from"] = dict(game["scores"], **out["start"])
        elif game["winner"] is not None:
            raise ReplayError(f"{where}: field 'game': game {label!r} was already won (record {game['won_at']})")
        if variant.name != game["variant"]:
            raise ReplayError(f"{where}: field 'variant': game {label!r} is {game['variant']}, not {variant.name}")
        game["hands"] += 1
        if "start" in out:  # the game's score before this hand, as the record says (a game joined part way)
            game["scores"] = dict(game["scores"], **out["start"])
        game["scores"] = _sum(game["scores"], out["points"])
        cp = variant.card_play
        if cp.game_bonus is not None and rules.get(cp.bonus_rule):  # Euchre's four_trick_tokens
            extra, game["bonus"] = cp.game_bonus(out, rules, game.get("bonus"))
            game["scores"] = _sum(game["scores"], extra)
            out.update(tokens=dict(game["bonus"]), token_points=extra)
        winner, game["state"] = variant.card_play.game_winner(dict(game["scores"]), out["points"], checked, rules,
                                                              variant.target, game["state"])
        if winner is not None:
            game["winner"], game["won_at"] = winner, i
        out.update(game=label, game_hand=game["hands"], scores=dict(game["scores"]), winner=winner)
        if "from" in game:
            out["game_start"] = dict(game["from"])
        if show:
            yield out


def replay_file(path: str, dd: bool = False, scheduler=None, hand=None, flag: str = "--hand", start=None):
    """Yield the replay of every record of ``path`` (``read_hands`` then ``replay``); ``hand``: only those;
    ``start``: every game's starting scores (``replay``)."""
    yield from replay(read_hands(path), dd, scheduler, hand, flag, str(path), start)
