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

import json
from collections import deque

from bower.sim.cards import JOKER, CardError, card_str, parse_card
from bower.sim.errors import UserError

SUITS = "CSDH"
COMMON_FIELDS = ("variant", "dealer", "plays")  # with the maker field and (for a hand played) "trump"


class ReplayError(UserError, ValueError):
    """A record that cannot be replayed: not JSON, a missing or malformed field, a play the rules do not allow."""


def fields_needed(variant) -> dict[str, tuple[str, ...]]:
    """The record fields replay reads for ``variant``: ``needed`` always, ``with_deal`` when ``deal`` is given.

    Optional everywhere: ``hand``, ``rules`` (default: the variant's
    defaults), ``tricks`` and ``points`` (compared when present), ``deal``
    (without it the hands are the cards each seat played), ``game``.
    """
    cp = variant.card_play
    needed = ("variant", "dealer", cp.maker_field, "trump", *cp.replay_fields, "plays")
    return {"needed": needed, "with_deal": cp.deal_fields,
            "optional": ("hand", "rules", "deal", "tricks", "points", "game")}


# ---- reading -------------------------------------------------------------------------------------


def read_hands(path: str):
    """Yield ``(record, label)`` for each record of a ``.jsonl`` or ``.parquet`` file, streaming.

    ``label`` names it in messages: ``FILE: record N (line L)`` (N from 0).
    RecordsError for a file that cannot be read, ReplayError for a line that
    is not UTF-8, not JSON or not an object.
    """
    from bower.sim.records import RecordsError

    lower = str(path).lower()
    if not lower.endswith((".jsonl", ".parquet")):
        raise RecordsError(f"records file {path} must end in .jsonl or .parquet")
    n = 0
    try:
        if lower.endswith(".parquet"):
            import pyarrow.parquet as pq

            try:
                pf = pq.ParquetFile(path)
                batches = pf.iter_batches(batch_size=4096)
            except FileNotFoundError:
                raise
            except (OSError, ValueError) as e:  # pyarrow's errors for a file that is not Parquet
                raise RecordsError(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
            while True:
                try:
                    batch = next(batches, None)
                except (OSError, ValueError) as e:
                    raise RecordsError(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
                if batch is None:
                    break
                for rec in batch.to_pylist():
                    yield rec, f"{path}: record {n}"
                    n += 1
        else:
            with open(path, "rb") as fh:
                for lineno, raw in enumerate(fh, 1):
                    try:
                        line = raw.decode("utf-8-sig" if lineno == 1 else "utf-8")
                    except UnicodeDecodeError:
                        raise ReplayError(f"{path}: record {n} (line {lineno}) is not UTF-8 text") from None
                    if not line.strip():
                        continue
                    where = f"{path}: record {n} (line {lineno})"
                    try:
                        rec = json.loads(line)
                    except ValueError as e:
                        raise ReplayError(f"{where} is not JSON ({getattr(e, 'msg', e)})") from None
                    if not isinstance(rec, dict):
                        raise ReplayError(f"{where} is not a JSON object")
                    yield rec, where
                    n += 1
    except FileNotFoundError:
        raise RecordsError(f"no records file {path}") from None
    except IsADirectoryError:
        raise RecordsError(f"cannot read records from {path}: it is a directory") from None
    except OSError as e:
        if isinstance(e, UserError):
            raise
        raise RecordsError(f"cannot read records from {path}: {e.strerror or e}") from None
    if n == 0:
        raise RecordsError(f"{path} holds no records")


# ---- one hand ------------------------------------------------------------------------------------


def _seat(value, n: int):
    """``value`` as a seat 0..n-1 (an int, or its digits as a string), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, int) and 0 <= value < n:
        return value
    return None


def _field(rec: dict, name: str, where: str):
    if name not in rec:
        raise ReplayError(f"{where}: missing field {name!r}")
    return rec[name]


def _variant_part(call, where: str, *args, deal_fields=()):
    """A variant's ``check`` / ``held`` with its KeyError and ValueError as ReplayError naming the record."""
    try:
        return call(*args)
    except KeyError as e:
        name = e.args[0]
        hint = " (needed with 'deal'; without 'deal' the hands are the cards played)" if name in deal_fields else ""
        raise ReplayError(f"{where}: missing field {name!r}{hint}") from None
    except (ValueError, TypeError) as e:
        raise ReplayError(f"{where}: {e}") from None


def _popcount(m: int) -> int:
    return bin(m).count("1")


def _checked(rec: dict, where: str):
    """(variant, rules, checked record, maker) of a record, its common fields checked."""
    from bower.sim.rules import RuleError, resolve
    from bower.sim.variants import get_variant

    name = _field(rec, "variant", where)
    try:
        variant = get_variant(str(name)) if isinstance(name, str) else get_variant(repr(name))
    except RuleError:
        raise ReplayError(f"{where}: field 'variant' is {name!r}, not a known variant") from None
    cp = variant.card_play
    if cp.score is None:
        raise ReplayError(f"{where}: {variant.title} hands cannot be replayed")
    overrides = rec.get("rules") or {}
    if not isinstance(overrides, dict):
        raise ReplayError(f"{where}: field 'rules' is {overrides!r}, not an object of rule options")
    try:
        rules = resolve(variant, {k: v for k, v in overrides.items() if v is not None})
    except RuleError as e:
        raise ReplayError(f"{where}: field 'rules': {e}") from None
    dealer = _seat(_field(rec, "dealer", where), variant.players)
    if dealer is None:
        raise ReplayError(f"{where}: field 'dealer' is {rec['dealer']!r}, not a seat (0..{variant.players - 1})")
    maker = _field(rec, cp.maker_field, where)
    if maker is not None:
        m = _seat(maker, cp.seats)
        if m is None:
            raise ReplayError(f"{where}: field {cp.maker_field!r} is {maker!r}, not a seat (0..{cp.seats - 1}) or null")
        maker = m
    rec = dict(rec, dealer=dealer, **{cp.maker_field: maker})
    rec = _variant_part(cp.check, where, rec, rules)
    return variant, rules, rec, maker


def _plays(variant, rec: dict, where: str) -> list[tuple[int, int]]:
    """The ``plays`` as (seat, card), each entry checked; a card played twice is an error."""
    cp = variant.card_play
    plays = _field(rec, "plays", where)
    if plays is None:
        plays = []
    if not isinstance(plays, (list, tuple)):
        raise ReplayError(f"{where}: field 'plays' is {plays!r}, not a list of [seat, card]")
    out, first = [], {}
    for k, pair in enumerate(plays):
        try:
            seat_raw, name = pair
            card = parse_card(name)
        except (TypeError, ValueError, AttributeError, CardError):
            raise ReplayError(f"{where}: field 'plays' entry {k} is {pair!r}, not [seat, card]") from None
        seat = _seat(seat_raw, cp.seats)
        if seat is None:
            raise ReplayError(f"{where}: field 'plays' entry {k} names seat {seat_raw!r}, not a seat in play "
                              f"(0..{cp.seats - 1})")
        if card == JOKER and not cp.joker:
            raise ReplayError(f"{where}: field 'plays' entry {k} is the joker, not in the {variant.title} deck")
        if card in first:
            raise ReplayError(f"{where}: field 'plays' entry {k}: {card_str(card)} is played twice "
                              f"(entries {first[card]} and {k})")
        first[card] = k
        out.append((seat, card))
    return out


def _hands(variant, rec: dict, plays, active: frozenset, where: str) -> dict[int, int]:
    """Seat -> mask of the cards held at the first lead (from ``deal`` when given), checked against the plays."""
    cp = variant.card_play
    count = {s: 0 for s in active}
    for k, (s, c) in enumerate(plays):
        if s not in active:
            raise ReplayError(f"{where}: field 'plays' entry {k}: seat {s} plays {card_str(c)} but does not play "
                              f"this hand (seats in play: {', '.join(map(str, sorted(active)))})")
        count[s] += 1
    for s in sorted(active):
        if count[s] != cp.hand_size:
            raise ReplayError(f"{where}: field 'plays': seat {s} plays {count[s]} card(s), not {cp.hand_size}")
    held = _variant_part(cp.held, where, rec, deal_fields=cp.deal_fields)
    if held is None:
        return {s: sum(1 << c for t, c in plays if t == s) for s in active}
    seen: dict[int, int] = {}
    for s, cards in held.items():
        if len(set(cards)) != cp.hand_size:
            raise ReplayError(f"{where}: field 'deal': seat {s} holds {len(set(cards))} card(s) at the first lead, "
                              f"not {cp.hand_size}")
        for c in cards:
            if c == JOKER and not cp.joker:
                raise ReplayError(f"{where}: field 'deal' has the joker, not in the {variant.title} deck")
            if c in seen:
                raise ReplayError(f"{where}: field 'deal': {card_str(c)} is held by seats {seen[c]} and {s}")
            seen[c] = s
    masks = {s: sum(1 << c for c in held[s]) for s in active}
    for k, (s, c) in enumerate(plays):
        if not masks[s] >> c & 1:
            cards = " ".join(card_str(x) for x in sorted(held[s]))
            raise ReplayError(f"{where}: field 'plays' entry {k}: seat {s} plays {card_str(c)}, which it did not "
                              f"hold (its cards at the first lead, from 'deal': {cards})")
    return masks


def _cost(pos, seat: int, card: int, side: int, need_best: bool) -> tuple[int, list[str], int | None]:
    """(double-dummy cost of ``card`` for the side of ``seat``, the best cards, the maker side's tricks with best play).

    At ``pos``, before ``card`` is played; ``side``: the maker's side. A
    single legal card costs nothing and is not solved (the last item is then
    None) unless ``need_best``.
    """
    from bower.sim import solve as S

    legal = S.legal_cards(pos.hands[seat], pos.trump, pos.trick)
    if legal >> card & 1 and _popcount(legal) == 1 and not need_best:
        return 0, [card_str(card)], None
    vals = S.card_values(pos, side)
    mine = side >> seat & 1
    best = max(vals.values()) if mine else min(vals.values())
    if card in vals:
        v = vals[card]
    else:  # a renege: the tricks after it is played, best play on
        after = S.Position(dict(pos.hands), pos.active, pos.trump, list(pos.trick), pos.leader, dict(pos.taken))
        w = _apply(after, seat, card)
        v = (1 if w >= 0 and side >> w & 1 else 0) + S.value(after, side)[0]
    return (best - v if mine else v - best), [card_str(c) for c, x in sorted(vals.items()) if x == best], best


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
            cost, best, value = _cost(pos, seat, card, side, k == 0)
            if k == 0:
                dd_tricks = value
            costs.append({"trick": n_trick, "seat": seat, "card": card_str(card), "cost": cost, "best": best})
        if not legal_cards(pos.hands[seat], pos.trump, pos.trick) >> card & 1:
            led = SUITS[EFF_SUIT[pos.trump, pos.trick[0][1]]]
            reneges.append({"trick": n_trick, "seat": seat, "card": card_str(card), "follow": led, "play": k})
        w = _apply(pos, seat, card)
        if w >= 0:
            winners.append(w)
    return winners, reneges, costs, dd_tricks


def _sum(a: dict, b: dict) -> dict:
    return {k: a.get(k, 0) + b.get(k, 0) for k in a}


def _recorded(rec: dict, where: str) -> dict:
    """The record's own ``tricks`` and ``points`` (those present) with string keys and int values."""
    out = {}
    for name in ("tricks", "points"):
        v = rec.get(name)
        if v is None:
            continue
        if isinstance(v, list):
            v = {str(i): x for i, x in enumerate(v)}
        if not isinstance(v, dict) or any(isinstance(x, bool) or not isinstance(x, int) for x in v.values()):
            raise ReplayError(f"{where}: field {name!r} is {v!r}, not an object of numbers")
        out[name] = {str(k): int(x) for k, x in v.items()}
    return out


def _replay(rec: dict, where: str, dd: bool):
    """(result dict, variant, rules, checked record) of one record."""
    from bower.sim import solve as S

    variant, rules, rec, maker = _checked(rec, where)
    cp = variant.card_play
    plays = _plays(variant, rec, where)
    out = {
        "variant": variant.name, "hand": rec.get("hand"), "dealer": rec["dealer"], "maker": maker,
        "thrown_in": maker is None,
    }
    seat_keys = [str(s) for s in range(variant.players)]
    tricks = {s: 0 for s in range(variant.players)}
    reneges: list[dict] = []
    costs: list[dict] = []
    if maker is None:
        if plays:
            raise ReplayError(f"{where}: field 'plays': a hand thrown in ({cp.maker_field} null) has no plays")
        out.update(contract=None, need=None, trump=None, leader=None, in_play=[], side=[], trick_winners=[])
    else:
        trump_raw = _field(rec, "trump", where)
        try:
            trump = S.parse_suit(trump_raw)
        except (S.DealError, AttributeError):
            raise ReplayError(f"{where}: field 'trump' is {trump_raw!r}, not a suit (C S D H)") from None
        active = _variant_part(cp.in_play, where, rec)
        if maker not in active:
            raise ReplayError(f"{where}: field {cp.maker_field!r}: seat {maker} does not play this hand")
        hands = _hands(variant, rec, plays, active, where)
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
    recorded = _recorded(rec, where)
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
    ``seat``, ``card``, ``cost``, ``best`` cards) and ``dd_tricks`` (the
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


def replay(items, dd: bool = False, scheduler=None):
    """Yield the replay of each ``(record, label)`` (as ``read_hands`` gives), with games scored along.

    A record with a ``game`` field belongs to that game; its hands must be
    consecutive and stop at the winner. Such a result also has ``game``,
    ``game_hand`` (1, 2, ...), ``scores`` (running, keyed as ``points``) and
    ``winner`` (the winning seat, or side with partnerships, on the hand
    that decides; else None). Every result has ``record`` (its index).
    ``scheduler``: replay the records in batches as Dask tasks
    (``bower.sim.distributed``); the results are the same.
    """
    from bower.sim import distributed as dist

    with dist.session(scheduler) as ex:
        yield from _games(_replayed(items, dd, ex))


def _games(replayed):
    """The replays with the games scored along (``replay``)."""
    game = None
    seen: set = set()
    for i, (out, variant, rules, checked, label, where) in enumerate(replayed):
        out["record"] = i
        if out["hand"] is None:
            out["hand"] = i
        if label is None:
            game = None
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
        elif game["winner"] is not None:
            raise ReplayError(f"{where}: field 'game': game {label!r} was already won (record {game['won_at']})")
        if variant.name != game["variant"]:
            raise ReplayError(f"{where}: field 'variant': game {label!r} is {game['variant']}, not {variant.name}")
        game["hands"] += 1
        game["scores"] = _sum(game["scores"], out["points"])
        winner, game["state"] = variant.card_play.game_winner(dict(game["scores"]), out["points"], checked, rules,
                                                              variant.target, game["state"])
        if winner is not None:
            game["winner"], game["won_at"] = winner, i
        out.update(game=label, game_hand=game["hands"], scores=dict(game["scores"]), winner=winner)
        yield out


def replay_file(path: str, dd: bool = False, scheduler=None):
    """Yield the replay of every record of ``path`` (``read_hands`` then ``replay``)."""
    yield from replay(read_hands(path), dd, scheduler)
