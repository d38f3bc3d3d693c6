"""Euchre Game Notation (``.egn``, version 1.4): real Standard Euchre games in and out as bower records.

``read_egn`` turns an EGN file into bower's Standard Euchre records (the
dict form of a JSONL record, ``bower.sim.variants.euchre.records``), one per
deal whose cards played are all known; ``write_egn`` writes records as an EGN file (given ``read_egn``'s
``meta``, the deals left out too, as the file wrote them, so every record's ``start`` reads back the same).

Seats: EGN seat i is bower seat i. Both number the seats clockwise from the
same seat 0 (EGN's ``players`` list "starting with Player 0 and proceeding
clockwise"; RULES.md: "Seats are numbered clockwise"), both start the
bidding and the first lead at the dealer's left (bower's position 1, seat
``(dealer + 1) % 4``; EGN's ``calls`` index 0), and both pair seats 0 & 2
against 1 & 3 (bower's side 0 is EGN's team 0). So ``dealer`` and every seat
carry over unchanged; EGN call ``i`` is seat ``(dealer + 1 + i) % 4``.

What EGN leaves out is deduced as the rules do: the seat of each card (the
first lead at the dealer's left, or with ruleset ``loner_lead:
"LEFT_OF_LONER"`` (bower's ``loner_lead=loner``) after a lone maker at the
maker's left, skipping a seat that sits out; each later
trick led by the winner of the one before), the maker (the one non-pass
call), trump, who plays alone (``isAlone``: the maker; ``aloneDefender``).
A deal's hands are ``initialState.playerCards`` when it gives them, else
each seat's cards played (the dealer's with the up-card swapped back for its
``discard``). The kitty is the up-card, then the three cards no seat holds
(in the order of a fifth ``playerCards`` list when one gives them, as
``write_egn`` writes it, else in bower's card order). When the dealer took
the up-card and the file gives neither its ``discard`` nor its hand, the
dealer's dealt hand, the discard and the kitty are not known: the record
gives ``deal``, ``discard`` and ``kitty`` as null and lists them in
``unknown`` (a deal thrown in without its hands: ``deal`` and ``kitty``);
each seat's hand at the first lead is then the cards it played, which is
what replay and the double-dummy solver read. A deal whose cards played
are not all known (a seat that sits out plays none and its cards are not
given; an unknown card such as ``Xx``; a deal cut short) is left out of the
records and named in ``EgnFile.left_out``: no card is made up.

A file with a winning score (the ruleset's default, 10) is one game: each
record carries ``game`` (the ``gameId``, else the title, else the file's
name) and ``start``, the game's score by side before the deal
(``initialScore`` plus the points of every deal before it, those left out
included when their tricks are known), from which ``bower replay`` scores
the game.

The ruleset's ``loner_march_score`` and ``loner_euchred_score`` (1 to 8)
and ``fast_break`` are bower's rule options of the same names: a deal's
points follow them. ``four_trick_tokens`` is bower's option of the same
name, a rule of whole games: a deal's points are the hand's; replaying the
file's deals in order as one game (``bower replay``) adds a point for each
fourth token of a side. ``partners_best`` is bower's option of the same name:
the card a lone maker's partner passes it is the bidding phase's
``cardExchanges`` (``{"sender": partner, "receiver": loner, "cards":
[card]}``; without it, the one card the loner played that it was not dealt),
and the loner's discard, which EGN has no field for, is the one card of its
five and the card passed that it did not play: such a deal needs the loner's
and its partner's hands given, and one whose card passed cannot be told (the
loner discarded it, no ``cardExchanges``) is left out, named.

The ruleset's ``farmers`` and ``go_under`` are bower's rule options of the
same names. The one exchange with the kitty they allow is the bidding
phase's ``cardExchanges``, with the kitty as player 4 (as the fifth list of
``initialState.playerCards`` is the kitty): ``{"sender": seat, "receiver":
4, "cards": [the three given]}`` then ``{"sender": 4, "receiver": seat,
"cards": [the kitty's three face-down cards]}``; a deal without it had no
exchange. ``playerCards`` are the hands as dealt, before the exchange. A
deal under both kinds of rule may hold both exchanges in its
``cardExchanges``: the kitty's two entries (sender or receiver 4) first,
then the partner's card to the loner; each is told from the other by its
sender and receiver.

A file bower cannot represent (a ruleset value such as ``joker: true`` or
``loner_march_score: 9``)
or that breaks the format or the rules (not UTF-8 or JSON, a malformed card,
a card played twice, a trick of the wrong size, a renege, an impossible call
sequence) is an ``EgnError``: one line naming the file, the deal and the field.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field

from bower.sim.records import RecordsError, _AtomicFile, bower_version
from bower.sim.rules import RULES_VERSION
from bower.sim.variants.euchre.scoring import defenders_first_two, game_bonus, hand_points
from bower.sim.text import WrittenFloat, written_float

FILE_TYPE = "Euchre Game Notation"
VERSION = "1.4"
READ_VERSIONS = ("1.2", "1.3", "1.4")  # the schema family: 1.2 to 1.4, with or without a patch number

SUITS = "CSDH"  # bower's suit order (bower.sim.cards)
RANKS = "9TJQKA"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}
ROUND_ONE = {"Order", "PickUp", "Alone", "Call"}  # the spellings of ordering the up-card up

SCORES = tuple(range(1, 9))  # the points bower's loner_march_score and loner_euchred_score take
# ruleset key -> (the values bower can represent, what the default is)
RULESET = {
    "std": ((True, False), True),
    "defend_alone": ((True, False), False),
    "canadian": ((True, False), False),
    "loner_lead": (("LEFT_OF_DEALER", "LEFT_OF_LONER"), "LEFT_OF_DEALER"),
    "loner_march_score": (SCORES, 4),  # bower's rule options of the same names, 1 to 8 points
    "loner_euchred_score": (SCORES, 2),
    "min_rank": ((9,), 9),
    "num_players": ((4,), 4),
    "farmers": ((True, False), False),  # bower's rule option of the same name (the exchange: ``cardExchanges``)
    "partners_best": ((True, False), False),  # bower's rule option of the same name
    "go_under": ((True, False), False),  # bower's rule option of the same name
    "joker": ((False,), False),
    "allow_no_trump": ((False,), False),
    "fast_break": ((True, False), False),  # bower's rule option of the same name
    "four_trick_tokens": ((True, False), False),  # bower's rule option of the same name (a rule of whole games)
}
MAX_DEALS = 100  # the notation's schema holds at most 100 deals a file
# ``read_egn``'s ``meta`` key of the deals left out: ``{"after": hand of the record before it or None, "deal": the
# deal as the file wrote it}``; ``egn_document`` writes each back after that record, so their points stay counted
DEALS_LEFT_OUT = "deals_left_out"
LONER_LEAD = {"LEFT_OF_DEALER": "dealer", "LEFT_OF_LONER": "loner"}  # EGN ruleset loner_lead -> bower's option
# EGN's ruleset has no key for bower's ``discard_up`` (and the schema allows no other key there): a file written
# under it says so in its ``metadata.description``, the one free text of the metadata, and reads back with it.
DISCARD_UP_NOTE = "bower rule discard_up=true"
# A deal whose play stops before its fifth trick (a claim, a partial game): EGN records no result of a deal (its
# score is counted from the five tricks), so the points are not known and the deal is left out, named.
CUT_SHORT = "EGN records no result, so its points are not known"
DESCRIPTION_MAX = 1024  # the schema's longest ``description``
PLAY_FREE = ("winning_score", "num_deals")  # keys that do not change how a deal is played: any integer


class EgnError(RecordsError):
    """An EGN file bower cannot read or write: one line naming the file, the deal and the field."""


@dataclass
class EgnFile:
    """What ``read_egn`` returns.

    ``records``: the bower records, one per deal with all its cards played known, in
    file order (``hand`` is the EGN ``dealNumber``). ``meta``: the file's
    ``metadata`` as written (``title``, ``players``, ``initialScore``,
    ``ruleset``...), with ``rules`` (the bower rule options it maps to) and,
    when deals were left out, ``deals_left_out`` (``DEALS_LEFT_OUT``: each
    such deal as written, after the record it followed; ``write_egn`` given
    this ``meta`` writes them back, so no score is lost).
    ``left_out``: ``(dealNumber, reason)`` of each deal left out.
    """

    records: list[dict]
    meta: dict
    left_out: list[tuple[int, str]] = field(default_factory=list)


class _LeftOut(Exception):
    """A deal that cannot be a record: left out, not an error. ``points``: its points by side when its tricks are
    known (a game's score goes on past it), else None."""

    def __init__(self, reason: str, points: dict | None = None):
        super().__init__(reason)
        self.points = points


# ---- cards ---------------------------------------------------------------------------------------


def _order(card: str) -> int:
    """A bower card's place in bower's card order (suits C S D H, ranks 9 to A)."""
    return SUITS.index(card[1]) * 6 + RANKS.index(card[0])


def _sorted(cards) -> list[str]:
    return sorted(cards, key=_order)


def to_egn_card(card: str) -> str:
    """A bower card (``"9C"``) in EGN's spelling (``"9c"``)."""
    return card[0] + card[1].lower()


def _card(text, where: str, trump: str | None = None) -> str:
    """An EGN card as a bower card; ``_LeftOut`` for an unknown one (``Xx``, a generic suit), EgnError if malformed.

    ``R`` / ``L`` (the bowers) need ``trump``.
    """
    if not isinstance(text, str) or not 1 <= len(text) <= 2:
        raise EgnError(f"{where}: {_shown(text)} is not a card")
    if text in ("R", "L"):
        if trump is None:
            raise EgnError(f"{where}: {text} (a bower) where trump is not known")
        return "J" + (trump if text == "R" else SAME_COLOUR[trump])
    if text == "B":
        raise EgnError(f"{where}: B (the joker) is not a Standard Euchre card")
    if len(text) != 2:
        raise EgnError(f"{where}: {_shown(text)} is not a card")
    rank, suit = text[0], text[1]
    rank = "9" if rank == "N" else rank
    if rank in "78":
        raise EgnError(f"{where}: {text} is not in the 24-card deck")
    if rank not in RANKS + "X" or suit not in "schdSCHDxtng":
        raise EgnError(f"{where}: {_shown(text)} is not a card")
    if rank == "X" or suit in "xtng":
        raise _LeftOut(f"card {text} is not known")
    return rank + suit.upper()


def _written(value):
    """``value`` with each number past a float's range (``WrittenFloat``) as a marked string of its text."""
    if isinstance(value, WrittenFloat):
        return f"\0{value.text}\0"
    if isinstance(value, list):
        return [_written(x) for x in value]
    if isinstance(value, dict):
        return {k: _written(x) for k, x in value.items()}
    return value


def _shown(value) -> str:
    """``value`` as a message shows it: JSON (a number past a float's range as the file wrote it, ``1e400``, not
    ``Infinity``), a string in quotes; cut to 40 characters."""
    if isinstance(value, str):
        text = repr(value)
    else:
        text = re.sub(r'"\\u0000(.*?)\\u0000"', r"\1", json.dumps(_written(value), ensure_ascii=False))
    return text if len(text) <= 40 else text[:37] + "..."


def _suit(card: str, trump: str) -> str:
    """A card's effective suit (the left bower is trump)."""
    if card[0] == "J" and card[1] == SAME_COLOUR[trump]:
        return trump
    return card[1]


def _strength(card: str, led: str, trump: str) -> int:
    if card == "J" + trump:
        return 100
    if card == "J" + SAME_COLOUR[trump]:
        return 99
    if card[1] == trump:
        return 80 + RANKS.index(card[0])
    if card[1] == led:
        return 40 + RANKS.index(card[0])
    return 0


def trick_winner(cards: list[str], trump: str) -> int:
    """The index in ``cards`` (bower cards, in the order played) of the card that wins the trick."""
    led = _suit(cards[0], trump)
    values = [_strength(c, led, trump) for c in cards]
    return values.index(max(values))


# ---- rules ---------------------------------------------------------------------------------------


def rules_of(ruleset, where: str) -> dict:
    """bower's Euchre rule options for an EGN ``ruleset``; EgnError naming the key a value bower cannot play."""
    if ruleset is None:
        ruleset = {}
    if not isinstance(ruleset, dict):
        raise EgnError(f"{where}: field 'metadata.ruleset' is not an object")
    for key, value in ruleset.items():
        if key in PLAY_FREE:
            if type(value) is not int or value < 0:
                raise EgnError(f"{where}: field 'metadata.ruleset.{key}' is {_shown(value)}, not a whole number")
            continue
        if key not in RULESET:
            raise EgnError(f"{where}: field 'metadata.ruleset' has key {_shown(key)}, not an EGN ruleset key")
        ok, _ = RULESET[key]
        if value not in ok or type(value) is not type(ok[0]):
            raise EgnError(f"{where}: ruleset {key} = {json.dumps(value)} is not a rule bower plays "
                           f"(Standard Euchre: {key} = {json.dumps(RULESET[key][1])})")
    return {"stick_the_dealer": ruleset.get("std", True), "allow_lone_defender": ruleset.get("defend_alone", False),
            "loner_lead": LONER_LEAD[ruleset.get("loner_lead", "LEFT_OF_DEALER")],
            "canadian": ruleset.get("canadian", False), "discard_up": False,
            "loner_march_score": ruleset.get("loner_march_score", 4),
            "loner_euchred_score": ruleset.get("loner_euchred_score", 2),
            "fast_break": ruleset.get("fast_break", False),
            "four_trick_tokens": ruleset.get("four_trick_tokens", False),
            "partners_best": ruleset.get("partners_best", False),
            "farmers": ruleset.get("farmers", False), "go_under": ruleset.get("go_under", False)}


def _buries_up(deal, rules: dict) -> bool:
    """Whether an EGN deal's dealer discards the up-card itself (EGN's base rules let the dealer discard any card;
    bower's option ``discard_up``): its ``discard`` is the up-card, or (no ``discard`` given) the up-card was
    ordered up, the dealer plays, and five whole tricks never show it. False for anything malformed or not
    known: ``_deal`` reports or leaves out that."""
    try:
        dealer = deal["initialState"]["dealer"]
        up = _card(deal["initialState"]["upCard"], "")
        bid, play = _phases(deal, "")
        if bid.get("discard") is not None:
            return _card(bid["discard"], "", up[-1]) == up
        _, maker, trump, ordered = _calls(bid, dealer, up, rules, "")
        if not ordered or (bid.get("isAlone") and maker == (dealer + 2) % 4) or play is None:
            return False
        tricks = play["tricks"]
        size = 3 if bid.get("isAlone") or bid.get("aloneDefender", -1) != -1 else 4
        if len(tricks) != 5 or any(len(t) < size - (bid.get("aloneDefender", -1) != -1) for t in tricks):
            return False
        return all(_card(c, "", trump) != up for t in tricks for c in t)
    except (EgnError, _LeftOut, KeyError, TypeError, AttributeError, StopIteration, IndexError, ValueError):
        return False


def ruleset_of(rules: dict, game: bool = True) -> dict:
    """The EGN ``ruleset`` of bower's Euchre rule options: ``winning_score`` 10 (bower's game) for one ``game``'s
    deals; for deals of no game (simulated hands) ``num_deals`` (their number) and no winning score."""
    lead = next(k for k, v in LONER_LEAD.items() if v == rules.get("loner_lead", "dealer"))
    out = {"std": bool(rules.get("stick_the_dealer", False)), "canadian": bool(rules.get("canadian", False)),
           "loner_lead": lead,
           "defend_alone": bool(rules.get("allow_lone_defender", False)),
           "loner_march_score": int(rules.get("loner_march_score", 4)),
           "loner_euchred_score": int(rules.get("loner_euchred_score", 2)),
           "fast_break": bool(rules.get("fast_break", False)),
           "four_trick_tokens": bool(rules.get("four_trick_tokens", False)),
           "partners_best": bool(rules.get("partners_best", False))}
    for key in ("farmers", "go_under"):  # written when on only: files of the other rules stay as they were
        if rules.get(key):
            out[key] = True
    if game is True:
        out["winning_score"] = 10
    else:
        out["num_deals"] = max(1, int(game or 1))
    return out


# ---- reading -------------------------------------------------------------------------------------


def _load(path) -> dict:
    try:
        with open(path, "rb") as fh:
            raw = fh.read()
    except FileNotFoundError:
        raise EgnError(f"no EGN file {path}") from None
    except IsADirectoryError:
        raise EgnError(f"cannot read {path}: it is a directory") from None
    except OSError as e:
        from bower.sim.errors import os_reason

        raise EgnError(f"cannot read {path}: {os_reason(e)}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise EgnError(f"{path} is not UTF-8 text") from None
    try:
        doc = json.loads(text, parse_float=written_float)  # 1e400 named as written, not Infinity
    except RecursionError:
        raise EgnError(f"{path} is not JSON (too deep)") from None
    except ValueError as e:
        if not hasattr(e, "colno"):  # Python's limit on the digits of a whole number, not a fault of the JSON
            raise EgnError(f"{path} holds a whole number of more than {sys.get_int_max_str_digits():,} digits "
                           "(no field holds one so long)") from None
        raise EgnError(f"{path} is not JSON ({e.msg})") from None
    if not isinstance(doc, dict) or doc.get("fileType") != FILE_TYPE:
        raise EgnError(f"{path} is not an EGN file (field 'fileType' is not {FILE_TYPE!r})")
    version = doc.get("version")
    if not isinstance(version, str) or ".".join(version.split(".")[:2]) not in READ_VERSIONS:
        raise EgnError(f"{path}: field 'version' is {_shown(version)}, not an EGN version bower reads "
                       f"({', '.join(READ_VERSIONS)})")
    if not isinstance(doc.get("metadata"), dict):
        raise EgnError(f"{path}: field 'metadata' is missing or not an object")
    if not isinstance(doc.get("deals"), list):
        raise EgnError(f"{path}: field 'deals' is missing or not a list")
    return doc


def read_egn(path) -> EgnFile:
    """The records of an EGN file (``EgnFile``): one per deal whose cards played are all known (``unknown`` marks
    the fields not known); the others in ``left_out``.

    Each record passes bower's record check. EgnError (one line: the file,
    the deal, the field) for a file bower cannot read or play.
    """
    doc = _load(path)
    meta = dict(doc["metadata"])
    rules = rules_of(meta.get("ruleset"), str(path))
    if isinstance(doc["deals"], list) and any(isinstance(d, dict) and _buries_up(d, rules) for d in doc["deals"]):
        rules["discard_up"] = True  # a dealer of the file discards the up-card: bower's option discard_up
    if isinstance(meta.get("description"), str) and DISCARD_UP_NOTE in meta["description"]:
        rules["discard_up"] = True  # written by bower under discard_up (``egn_document``)
    meta["rules"] = rules
    records, left_out = [], []
    kept: list[dict] = []  # the deals left out, as written, each after the record it followed (``DEALS_LEFT_OUT``)
    game = _game_label(meta, path)
    score = _initial_score(meta.get("initialScore"), str(path)) if game is not None else None
    tokens = None  # four_trick_tokens: each side's tokens (``scoring.game_bonus``), none before the file's first deal
    for i, deal in enumerate(doc["deals"]):
        if isinstance(deal, str):
            raise EgnError(f"{path}: deal {i} is bitpacked (a .egnb form); bower reads the JSON form only")
        number = deal.get("dealNumber", i) if isinstance(deal, dict) else i
        where = f"{path}: deal {number}"
        if not isinstance(deal, dict):
            raise EgnError(f"{where} is not an object")
        if type(number) is not int or number < 0:
            raise EgnError(f"{path}: deal {i}: field 'dealNumber' is {_shown(number)}, not a whole number")
        try:
            rec = _deal(deal, number, rules, where)
            points = rec["points"]
            if game is not None:
                rec["game"] = game
                if score is not None:
                    rec["start"] = dict(score)
            records.append(rec)
            if rules["four_trick_tokens"] and points is not None:  # a fourth token's point, in the next 'start'
                extra, tokens = game_bonus(rec, rules, tokens)
                points = {k: points[k] + extra[k] for k in points}
        except _LeftOut as e:  # (its points, when known, are a lone hand's: no token)
            left_out.append((number, str(e)))
            kept.append({"after": records[-1]["hand"] if records else None, "deal": deal})
            points = e.points
        if score is not None:  # the game's score goes on; past a deal whose points are not known it is not known
            score = None if points is None else {k: score[k] + points[k] for k in score}
    if records:
        _check(records, str(path))
    if kept:
        meta[DEALS_LEFT_OUT] = kept
    return EgnFile(records, meta, left_out)


def _game_label(meta: dict, path) -> str | None:
    """The ``game`` of a file's records: its ``gameId``, else its title, else its file name; None when its ruleset
    has no winning score (``num_deals`` without ``winning_score``, or ``winning_score: 0``: a number of deals, as
    ``write_egn`` writes records of no game)."""
    import os

    ruleset = meta.get("ruleset") or {}
    if ruleset.get("winning_score", 0 if ruleset.get("num_deals") else 10) == 0:
        return None
    for key in ("gameId", "title"):
        if isinstance(meta.get(key), str) and meta[key].strip():
            return meta[key]
    return os.path.splitext(os.path.basename(str(path)))[0]


def _initial_score(value, where: str) -> dict:
    """EGN ``initialScore`` (``[team 0, team 1]``) as bower's score by side; EgnError when malformed."""
    if value is None:
        return {"0": 0, "1": 0}
    if not isinstance(value, list) or len(value) != 2 or any(type(x) is not int for x in value):
        raise EgnError(f"{where}: field 'metadata.initialScore' is {_shown(value)}, not two whole numbers")
    return {"0": value[0], "1": value[1]}


def _check(records: list[dict], path: str) -> None:
    """bower's own record check of every record (``bower.sim.records_check``)."""
    from bower.sim.records_check import checked

    for _ in checked(((r, f"{path}: deal {r['hand']}") for r in records)):
        pass


def _phases(deal: dict, where: str) -> tuple[dict, dict | None]:
    phases = deal.get("phases")
    if not isinstance(phases, list):
        raise EgnError(f"{where}: field 'phases' is missing or not a list")
    bid = play = None
    for k, ph in enumerate(phases):
        kind = ph.get("type") if isinstance(ph, dict) else None
        if kind == "EUCHRE_BIDDING" and bid is None and play is None:
            bid = ph
        elif kind == "TRICK_PLAY" and bid is not None and play is None:
            play = ph
        else:
            raise EgnError(f"{where}: field 'phases' entry {k} is not a bidding phase then a trick-play phase")
    if bid is None:
        raise _LeftOut("it has no bidding")
    return bid, play


def _calls(bid: dict, dealer: int, up: str, rules: dict, where: str):
    """(bower calls, maker or None, trump or None, ordered up); EgnError for an impossible sequence."""
    calls = bid.get("calls")
    if not isinstance(calls, list):
        raise EgnError(f"{where}: field 'calls' is missing or not a list")
    out, maker, trump, ordered = [], None, None, False
    for i, c in enumerate(calls):
        seat = (dealer + 1 + i) % 4
        w = f"{where}: field 'calls' entry {i} (seat {seat})"
        if maker is not None:
            raise EgnError(f"{w}: a call after seat {maker} made trump")
        if i >= 8:
            raise EgnError(f"{w}: more than two rounds of calls")
        if c == "Pass":
            if i == 7 and rules["stick_the_dealer"]:
                raise EgnError(f"{w}: the dealer passes in round two under stick the dealer (std)")
            out.append([seat, "pass"])
        elif i < 4 and c in ROUND_ONE:
            out.append([seat, "order"])
            maker, trump, ordered = seat, up[1], True
        elif i >= 4 and isinstance(c, str) and c in "shdc" and len(c) == 1:
            if c.upper() == up[1]:
                raise EgnError(f"{w}: names {c}, the turned-down up-card's suit")
            out.append([seat, c.upper()])
            maker, trump = seat, c.upper()
        elif c == "n":
            raise EgnError(f"{w}: no trump (n) is not a call bower plays")
        else:
            raise EgnError(f"{w}: {_shown(c)} is not a call in round {1 + (i >= 4)}")
    if maker is None and len(calls) < 8:
        raise _LeftOut(f"the bidding stops after {len(calls)} call(s)")
    return out, maker, trump, ordered


def _hand_lists(state: dict, where: str):
    """``initialState.playerCards`` as 4 hands (None for a seat not given) and the kitty order given (or None)."""
    pc = state.get("playerCards")
    if pc is None:
        return [None] * 4, None
    if not isinstance(pc, list) or len(pc) not in (0, 4, 5) or not all(isinstance(h, list) for h in pc):
        raise EgnError(f"{where}: field 'playerCards' is not a list of 4 card lists")
    if not pc:
        return [None] * 4, None
    hands = []
    for s in range(4):
        h = pc[s]
        if not h:
            hands.append(None)
            continue
        if len(h) != 5:
            raise EgnError(f"{where}: field 'playerCards' entry {s} holds {len(h)} cards, not 5")
        try:
            hands.append([_card(c, f"{where}: field 'playerCards' entry {s}") for c in h])
        except _LeftOut:
            hands.append(None)
    kitty = None
    if len(pc) == 5 and len(pc[4]) == 4:
        try:
            kitty = [_card(c, f"{where}: field 'playerCards' entry 4") for c in pc[4]]
        except _LeftOut:
            kitty = None
    return hands, kitty


def _deal(deal: dict, number: int, rules: dict, where: str) -> dict:
    """One EGN deal as a bower record; _LeftOut when its cards are not all known."""
    state = deal.get("initialState")
    if not isinstance(state, dict):
        raise EgnError(f"{where}: field 'initialState' is missing or not an object")
    dealer = state.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < 4:
        raise EgnError(f"{where}: field 'dealer' is {_shown(dealer)}, not a seat 0 to 3")
    up = _card(state.get("upCard"), f"{where}: field 'upCard'")
    given, kitty_given = _hand_lists(state, where)
    bid, play = _phases(deal, where)
    calls, maker, trump, ordered = _calls(bid, dealer, up, rules, where)
    kitty_ex, lone_ex = _split_exchanges(bid, where)
    exchange = _exchange(kitty_ex, rules, where)

    alone = []
    is_alone = bid.get("isAlone", False)
    if not isinstance(is_alone, bool):
        raise EgnError(f"{where}: field 'isAlone' is {_shown(is_alone)}, not true or false")
    defender = bid.get("aloneDefender", -1)
    if type(defender) is not int:
        raise EgnError(f"{where}: field 'aloneDefender' is {_shown(defender)}, not a seat")
    if maker is None:
        if is_alone or defender != -1:
            raise EgnError(f"{where}: field 'isAlone': nobody made trump, so nobody plays alone")
    else:
        if is_alone:
            alone.append(maker)
        if defender != -1:
            if not rules["allow_lone_defender"]:
                raise EgnError(f"{where}: field 'aloneDefender' is set but the ruleset has no defend_alone")
            if defender not in ((maker + 1) % 4, (maker + 3) % 4):
                raise EgnError(f"{where}: field 'aloneDefender' is {defender}, not a defender of seat {maker}'s call")
            alone.append(defender)
    if rules.get("canadian") and ordered and maker == (dealer + 2) % 4 and not is_alone:
        raise EgnError(f"{where}: field 'isAlone' is false but the ruleset has canadian: the dealer's partner, "
                       f"seat {maker}, ordered the up-card up and must play alone")
    alone.sort()
    sitting = {(s + 2) % 4 for s in alone}
    active = [s for s in range(4) if s not in sitting]
    passed = _passed(lone_ex, rules, maker, is_alone, trump, where)

    discard = bid.get("discard")
    if discard is not None:
        if not ordered:
            raise EgnError(f"{where}: field 'discard' is given but nobody ordered the up-card up")
        discard = _card(discard, f"{where}: field 'discard'", trump)
        if discard == up and not rules.get("discard_up"):  # cannot happen: read_egn sets discard_up then
            raise EgnError(f"{where}: field 'discard' is the up-card {to_egn_card(up)}, which may not be discarded")

    # the plays: seats deduced from the lead and each trick's winner
    plays, tricks = [], {str(s): 0 for s in range(4)}
    seen = {}
    if maker is not None:
        if play is None:
            raise _LeftOut("it has no trick play")
        raw = play.get("tricks")
        if not isinstance(raw, list):
            raise EgnError(f"{where}: field 'tricks' is missing or not a list")
        if len(raw) > 5:
            raise EgnError(f"{where}: field 'tricks' holds {len(raw)} tricks, not 5")
        start = maker if rules["loner_lead"] == "loner" and is_alone else dealer
        lead = next(s for s in ((start + 1 + k) % 4 for k in range(4)) if s not in sitting)
        for t, trick in enumerate(raw):
            w = f"{where}: field 'tricks' entry {t}"
            if not isinstance(trick, list) or len(trick) > len(active) or (
                    len(trick) < len(active) and t < len(raw) - 1) or not trick:
                n = len(trick) if isinstance(trick, list) else _shown(trick)
                raise EgnError(f"{w} holds {n} cards, not {len(active)} (one per seat in play)")
            cards = []
            order = [s for s in ((lead + k) % 4 for k in range(4)) if s not in sitting]
            for k, c in enumerate(trick):
                card = _card(c, f"{w} card {k}", trump)
                if card in seen:
                    raise EgnError(f"{w}: {to_egn_card(card)} is played twice")
                seen[card] = order[k]
                cards.append(card)
                plays.append([order[k], card])
            if len(trick) < len(active):
                raise _LeftOut(f"field 'tricks' stops in trick {t + 1}; {CUT_SHORT}")
            lead = order[trick_winner(cards, trump)]
            tricks[str(lead)] += 1
        if len(raw) < 5:
            raise _LeftOut(f"field 'tricks' stops after {len(raw)} trick(s); {CUT_SHORT}")
        if discard is not None and discard in seen:
            raise EgnError(f"{where}: field 'discard' {to_egn_card(discard)} is played in the tricks")
    elif play is not None and play.get("tricks"):
        raise EgnError(f"{where}: field 'tricks': cards played in a deal nobody made trump in")
    points = points_of(maker, alone, tricks, rules, plays)  # every trick is known from here

    lone_swap = rules.get("partners_best") and is_alone  # the lone maker's exchange (partners_best)
    if lone_swap and (given[maker] is None or given[(maker + 2) % 4] is None):
        raise _LeftOut(f"the lone maker's and its partner's hands are not both given (ruleset partners_best: the "
                       f"exchange is not known)", points)

    # the hands dealt; when a card of them is not known (a hand not given to a deal thrown in, the dealer's
    # discard not given), the record marks 'deal', 'kitty' (and 'discard') unknown: each seat holds what it played
    hands, unknown = {}, []
    for s in range(4):
        if given[s] is not None:
            hands[s] = given[s]
            continue
        if s in sitting:
            raise _LeftOut(f"seat {s} sits out and its cards are not given", points)
        if maker is None:
            unknown = ["deal", "kitty"]
            continue
        held = [c for c, seat in seen.items() if seat == s]
        if s == dealer and ordered:
            if up not in held and rules.get("discard_up") and discard in (None, up):
                discard = up  # buried (discard_up): the cards it played are the five it was dealt
                hands[s] = held
                continue
            if up not in held:
                raise EgnError(f"{where}: field 'tricks': the dealer (seat {s}) never plays the up-card "
                               f"{to_egn_card(up)} it took")
            if discard is None:  # its hand at the first lead: the cards it played (the up-card among them)
                unknown = ["deal", "discard", "kitty"]
                hands[s] = held
                continue
            held = [c for c in held if c != up] + [discard]
        hands[s] = held
    if unknown and lone_swap:
        raise _LeftOut(f"the dealer's discard is not given (ruleset partners_best: the lone maker's hand at the "
                       "first lead is not known)", points)
    if unknown and exchange is not None:
        raise _LeftOut("a seat exchanged with the kitty and the hands dealt are not given", points)
    if unknown:
        return _unknown_record(number, rules, dealer, up, calls, alone, maker, trump, plays, tricks, points, hands,
                               unknown, where)
    if ordered and discard is None:
        d = hands[dealer]
        if dealer in sitting or up in d:
            raise _LeftOut("the dealer's discard is not given")
        played = {c for c, seat in seen.items() if seat == dealer}
        rest = [c for c in d if c not in played]
        if not rest and up not in played and rules.get("discard_up") and len(played) == len(d):
            rest = [up]  # it played the five it was dealt: it buried the up-card (discard_up)
        if len(rest) != 1:
            raise _LeftOut("the dealer's discard is not given")
        discard = rest[0]
    owner = {}
    for s in range(4):
        for c in hands[s]:
            if c in owner or c == up:
                raise EgnError(f"{where}: field 'playerCards': {to_egn_card(c)} is dealt twice")
            owner[c] = s
    if discard is not None and discard != up and owner.get(discard) != dealer and not (
            exchange is not None and exchange["seat"] == dealer and discard in exchange["took"]):
        raise EgnError(f"{where}: field 'discard' {to_egn_card(discard)} is not a card the dealer held")
    # each card played by the seat that held it, following suit
    in_hand = {s: set(hands[s]) for s in range(4)}
    if exchange is not None:  # rules farmers / go_under: the exchange with the kitty, before the first call
        x = exchange["seat"]
        if not set(exchange["gave"]) <= in_hand[x]:
            raise EgnError(f"{where}: field 'cardExchanges': seat {x} gives a card it was not dealt")
        if set(exchange["took"]) & set(owner) or up in exchange["took"]:
            raise EgnError(f"{where}: field 'cardExchanges': seat {x} takes a card that is not in the kitty")
        in_hand[x] = (in_hand[x] - set(exchange["gave"])) | set(exchange["took"])
        if ordered and x == dealer and discard not in in_hand[x] and discard != up:
            raise EgnError(f"{where}: field 'discard' {to_egn_card(discard)} is not a card the dealer held")
    if ordered:
        in_hand[dealer] = (in_hand[dealer] | {up}) - {discard}
    loner_discard = None
    if lone_swap:  # ruleset partners_best: the partner's card to the lone maker, which then discards one
        partner = (maker + 2) % 4
        mine = {c for c, seat in seen.items() if seat == maker}
        if passed is None:  # not given: the one card the loner played that it did not hold
            extra = mine - in_hand[maker]
            if len(extra) != 1:
                raise _LeftOut("the card the lone maker's partner passed (ruleset partners_best) is not given",
                               points)
            passed = extra.pop()
        if passed not in in_hand[partner]:
            raise EgnError(f"{where}: field 'cardExchanges': seat {partner} passes {to_egn_card(passed)}, a card "
                           "it does not hold")
        rest = (in_hand[maker] | {passed}) - mine
        if len(rest) != 1:
            raise EgnError(f"{where}: field 'tricks': the lone maker, seat {maker}, plays "
                           f"{len(mine)} card(s) of its own five and the card passed")
        loner_discard = rest.pop()
        in_hand[partner].discard(passed)
        in_hand[maker] = (in_hand[maker] | {passed}) - {loner_discard}
    for t in range(len(plays) // max(1, len(active))):
        trick = plays[t * len(active):(t + 1) * len(active)]
        led = _suit(trick[0][1], trump)
        for seat, card in trick:
            w = f"{where}: field 'tricks' entry {t}: seat {seat}"
            if card not in in_hand[seat]:
                raise EgnError(f"{w} plays {to_egn_card(card)}, a card it does not hold")
            if _suit(card, trump) != led and any(_suit(c, trump) == led for c in in_hand[seat]):
                raise EgnError(f"{w} plays {to_egn_card(card)} but could follow the suit led (a renege)")
            in_hand[seat].discard(card)
    rest = _sorted(set(RANKS_SUITS) - set(owner) - {up})
    if kitty_given is not None and kitty_given[0] == up and set(kitty_given[1:]) == set(rest):
        kitty = kitty_given
    else:
        kitty = [up] + rest
    rec = {
        "variant": "euchre", "rules_version": RULES_VERSION, "rules": dict(rules), "hand": number,
        "dealer": dealer, "deal": {str(s): _sorted(hands[s]) for s in range(4)}, "kitty": kitty, "upcard": up,
        "calls": calls, "discard": discard, "alone": alone, "maker": maker, "trump": trump, "plays": plays,
        "tricks": tricks, "points": points_of(maker, alone, tricks, rules, plays),
    }
    if rules.get("farmers") or rules.get("go_under"):
        rec["exchange"] = exchange or {"seat": -1, "gave": [], "took": []}
    if rules.get("partners_best"):
        rec["passed"], rec["loner_discard"] = passed if lone_swap else None, loner_discard
    return rec


def _split_exchanges(bid: dict, where: str) -> tuple[list, list]:
    """The bidding phase's ``cardExchanges`` told apart by sender and receiver: (the entries with the kitty,
    player ``KITTY``, as sender or receiver: rules ``farmers`` / ``go_under``; the others: a lone maker's partner's
    card, rule ``partners_best``), each in the file's order."""
    ex = bid.get("cardExchanges")
    if ex is None or ex == []:
        return [], []
    if not isinstance(ex, list) or not all(isinstance(e, dict) for e in ex):
        raise EgnError(f"{where}: field 'cardExchanges' is {_shown(ex)}, not a list of exchanges")
    kitty = [KITTY in (e.get("sender"), e.get("receiver")) for e in ex]
    return [e for e, k in zip(ex, kitty) if k], [e for e, k in zip(ex, kitty) if not k]


def _passed(ex: list, rules: dict, maker, is_alone: bool, trump, where: str):
    """The card a lone maker's partner passed it (ruleset ``partners_best``), from the bidding's
    ``cardExchanges`` not with the kitty (``ex``: one entry, the partner to the maker, one card), or None when not
    given; EgnError for an exchange the rules do not make."""
    if not ex:
        return None
    w = f"{where}: field 'cardExchanges'"
    if not (rules.get("partners_best") and is_alone and maker is not None):
        raise EgnError(f"{w}: cards are exchanged but only a lone maker under ruleset partners_best gets its "
                       "partner's card")
    if not isinstance(ex, list) or len(ex) != 1 or not isinstance(ex[0], dict):
        raise EgnError(f"{w} is {_shown(ex)}, not one exchange (the partner's card to the lone maker)")
    e = ex[0]
    partner = (maker + 2) % 4
    if e.get("receiver") != maker or e.get("sender", partner) != partner:
        raise EgnError(f"{w}: {_shown(e)} is not seat {partner}'s card to the lone maker, seat {maker}")
    cards = e.get("cards")
    if not isinstance(cards, list) or len(cards) != 1:
        raise EgnError(f"{w}: field 'cards' is {_shown(cards)}, not one card")
    try:
        return _card(cards[0], f"{w} card 0", trump)
    except _LeftOut:
        return None


KITTY = 4  # ``cardExchanges``' player for the kitty (the fifth list of ``initialState.playerCards``)


def _exchange(ex: list, rules: dict, where: str) -> dict | None:
    """The record's ``exchange`` from the bidding phase's ``cardExchanges`` with the kitty (``ex``: the entries
    with player ``KITTY``), or None; EgnError for exchanges the ruleset does not allow or bower does not read."""
    if not ex:
        return None
    w = f"{where}: field 'cardExchanges'"
    if not (rules.get("farmers") or rules.get("go_under")):
        raise EgnError(f"{w}: an exchange, but the ruleset has neither farmers nor go_under")
    if not isinstance(ex, list) or len(ex) != 2 or not all(isinstance(e, dict) for e in ex):
        raise EgnError(f"{w} is not two entries (a seat's three cards to the kitty, player {KITTY}, and the "
                       "kitty's three to it)")
    give, take = ex
    seat = give.get("sender")
    if type(seat) is not int or not 0 <= seat < 4 or give.get("receiver") != KITTY \
            or take.get("sender") != KITTY or take.get("receiver") != seat:
        raise EgnError(f"{w}: entry 0 is a seat's cards to the kitty (receiver {KITTY}), entry 1 the kitty's "
                       "to that seat")
    cards = []
    for k, e in enumerate(ex):
        c = e.get("cards")
        if not isinstance(c, list) or len(c) != 3:
            raise EgnError(f"{w} entry {k}: field 'cards' is not three cards")
        cards.append([_card(x, f"{w} entry {k}") for x in c])
    if len(set(cards[0])) != 3 or len(set(cards[1])) != 3:
        raise EgnError(f"{w}: a card twice")
    return {"seat": seat, "gave": _sorted(cards[0]), "took": _sorted(cards[1])}


def _unknown_record(number, rules, dealer, up, calls, alone, maker, trump, plays, tricks, points, hands, unknown,
                    where) -> dict:
    """The record of a deal whose ``unknown`` fields are not known (null): ``hands`` are each seat's cards at the
    first lead (its cards played; none for a deal thrown in), checked as the deal's play."""
    owner = {}
    for s, cards in hands.items():
        for c in cards:
            if c in owner or (c == up and not (s == dealer and "discard" in unknown)):
                raise EgnError(f"{where}: field 'playerCards': {to_egn_card(c)} is dealt twice")
            owner[c] = s
    in_hand = {s: set(cards) for s, cards in hands.items()}
    n = 4 - len(alone)
    for t in range(len(plays) // max(1, n)):
        trick = plays[t * n:(t + 1) * n]
        led = _suit(trick[0][1], trump)
        for seat, card in trick:
            w = f"{where}: field 'tricks' entry {t}: seat {seat}"
            if card not in in_hand[seat]:
                raise EgnError(f"{w} plays {to_egn_card(card)}, a card it does not hold")
            if _suit(card, trump) != led and any(_suit(c, trump) == led for c in in_hand[seat]):
                raise EgnError(f"{w} plays {to_egn_card(card)} but could follow the suit led (a renege)")
            in_hand[seat].discard(card)
    return {
        "variant": "euchre", "rules_version": RULES_VERSION, "rules": dict(rules), "hand": number,
        "dealer": dealer, "deal": None, "kitty": None, "upcard": up, "calls": calls, "discard": None,
        "alone": alone, "maker": maker, "trump": trump, "plays": plays, "tricks": tricks, "points": points,
        "unknown": sorted(unknown),
    }


RANKS_SUITS = [r + s for s in SUITS for r in RANKS]  # the 24 cards


def points_of(maker: int | None, alone: list[int], tricks: dict, rules: dict, plays: list = ()) -> dict:
    """Points by side under ``rules`` (RULES.md 4, ``scoring.hand_points``): makers 3-4 tricks +1, 5 +2 (alone
    ``loner_march_score``); euchred: defenders +2 (a lone defender +4; against a lone maker
    ``loner_euchred_score``); under ``fast_break`` 0 to both when the seats leading tricks 2 and 3 in ``plays``
    (``[seat, card]`` in turn) are defenders and the makers took 3."""
    points = {"0": 0, "1": 0}
    if maker is None:
        return points
    side = maker % 2
    won = tricks[str(maker)] + tricks[str((maker + 2) % 4)]
    n = 4 - len(alone)
    leaders = [plays[k * n][0] for k in (1, 2) if k * n < len(plays)]
    makers, defenders = hand_points(won, maker in alone, any(s % 2 != side for s in alone), rules,
                                    defenders_first_two(maker, leaders))
    points[str(side)], points[str(1 - side)] = makers, defenders
    return points


# ---- writing -------------------------------------------------------------------------------------


def egn_document(records: list[dict], meta: dict | None = None) -> dict:
    """The EGN 1.4 document of bower Euchre records (``write_egn`` writes it).

    ``meta``: ``title``, ``description``, ``players``, ``initialScore``,
    ``date``, ``gameId`` are written as given; otherwise ``description``
    says bower made the file (version, rules, seed, command when ``meta``
    has them, as ``bower.sim.records.file_meta`` does). Under ``discard_up``
    the description carries ``DISCARD_UP_NOTE`` (added to a given one), which
    ``read_egn`` reads back as the rule.
    """
    meta = dict(meta or {})
    rules = records[0].get("rules") or {} if records else meta.get("rules") or {}
    for r in records:
        if r.get("variant") != "euchre":
            raise EgnError(f"record {r.get('hand')}: EGN holds Standard Euchre hands, not {r.get('variant')!r}")
        if (r.get("rules") or {}) != rules:
            raise EgnError(f"record {r.get('hand')}: its rules differ from the first record's; one ruleset a file")
    md = {k: meta[k] for k in ("gameId", "title", "description", "date", "players", "initialScore", "finalScore")
          if k in meta}
    games = {r.get("game") for r in records}
    if len(games) > 1:
        raise EgnError(f"record {records[-1].get('hand')}: field 'game' is {records[-1].get('game')!r}, not "
                       f"{records[0].get('game')!r} as record 0; one game a file")
    game = records[0].get("game") if records else None
    full = meta.get("rules") or rules  # the rule options in force (``read_egn``'s), to count a deal left out
    deals = _deals_with_left_out(records, meta.get(DEALS_LEFT_OUT) or [], meta.get("initialScore"), full)
    if game is not None:
        if md.get("title") != str(game):
            md["gameId"] = str(game)[:64]
        start = records[0].get("start")
        if start is not None:  # the score before the first deal written: the first record's, less any deal before it
            lead = _points_sum([_left_out_points(raw, full) for kind, raw in deals[:_first_record(deals)]])
            md["initialScore"] = [int(start["0"]) - lead["0"], int(start["1"]) - lead["1"]]
        _check_starts(deals, md.get("initialScore", [0, 0]), full)
    md.setdefault("title", "bower hands")
    if "description" not in md:
        bits = [f"Made by bower {meta.get('bower_version') or bower_version()}",
                f"rules {RULES_VERSION} " + json.dumps(rules, sort_keys=True)]
        if meta.get("seed") is not None:
            bits.append(f"seed {meta['seed']}")
        if meta.get("command"):
            bits.append(f"command: {meta['command']}")
        md["description"] = "; ".join(bits)[:DESCRIPTION_MAX]
    if rules.get("discard_up") and DISCARD_UP_NOTE not in str(md["description"]):
        keep = DESCRIPTION_MAX - len(DISCARD_UP_NOTE) - 2
        md["description"] = f"{str(md['description'])[:keep]}; {DISCARD_UP_NOTE}"
    md.setdefault("players", [f"Seat {s}" for s in range(4)])
    md.setdefault("initialScore", [0, 0])
    md["ruleset"] = ruleset_of(rules, True if game is not None else len(records))
    return {"fileType": FILE_TYPE, "version": VERSION, "metadata": md,
            "deals": [_egn_deal(x) if kind == "record" else x for kind, x in deals]}


def _deals_with_left_out(records: list[dict], kept: list[dict], initial, rules: dict) -> list[tuple[str, dict]]:
    """``("record", record)`` of each record in order, with ``("left out", deal)`` of each deal left out
    (``DEALS_LEFT_OUT``) after the record it followed in its file. The deals before the file's first record go
    before the first record when they lead from ``initial`` (``initialScore``) to its ``start``."""
    after: dict = {}
    for k in kept:
        after.setdefault(k.get("after"), []).append(("left out", k["deal"]))
    out: list[tuple[str, dict]] = []
    lead = after.get(None, [])
    if records and lead and isinstance(initial, list) and len(initial) == 2 and records[0].get("start") is not None:
        total = _points_sum([_left_out_points(raw, rules) for _, raw in lead])
        if total is not None and records[0]["start"] == {"0": initial[0] + total["0"], "1": initial[1] + total["1"]}:
            out.extend(lead)
    for r in records:
        out.append(("record", r))
        out.extend(after.get(r.get("hand"), []))
    return out


def _first_record(deals: list) -> int:
    return next(i for i, (kind, _) in enumerate(deals) if kind == "record")


def _left_out_points(deal: dict, rules: dict) -> dict | None:
    """A deal left out's points by side, as ``read_egn`` counts them (None when its tricks are not known)."""
    try:
        return _deal(deal, deal.get("dealNumber", 0), rules, "deal")["points"]
    except _LeftOut as e:
        return e.points
    except (EgnError, KeyError, TypeError, AttributeError):  # not a deal bower reads: its points are not known
        return None


def _points_sum(points: list) -> dict | None:
    """The sum by side of ``points`` (each by side); None when one is not known."""
    total = {"0": 0, "1": 0}
    for x in points:
        if x is None:
            return None
        total = {k: total[k] + x[k] for k in total}
    return total


def _check_starts(deals: list, initial: list, rules: dict) -> None:
    """EgnError when a record's ``start`` is not what a reader of the file counts before its deal
    (``initialScore`` plus the points of every deal before it, ``read_egn``): EGN has no field for a score between
    deals, so a deal left out that is not written back would lose its points."""
    score: dict | None = {"0": int(initial[0]), "1": int(initial[1])}
    tokens = None  # four_trick_tokens, counted as ``read_egn`` counts them
    for kind, d in deals:
        points = d.get("points") if kind == "record" else _left_out_points(d, rules)
        if kind == "record" and d.get("start") is not None and d["start"] != score:
            start = d["start"]
            counted = "not known" if score is None else f"{score['0']}-{score['1']}"
            raise EgnError(f"record {d.get('hand')}: field 'start' is {start.get('0')}-{start.get('1')}, but the "
                           f"deals written before it count {counted} (a deal left out between them): EGN holds no "
                           "score between deals; write .jsonl or .parquet, or give write_egn the meta read_egn "
                           "returned")
        total = _points_sum([points])
        if kind == "record" and total is not None and rules.get("four_trick_tokens"):
            extra, tokens = game_bonus(d, rules, tokens)
            total = _points_sum([total, extra])
        score = None if score is None or total is None else {k: score[k] + total[k] for k in score}


def _egn_deal(r: dict) -> dict:
    up = r["upcard"]
    hands = None
    if r.get("deal") is not None and r.get("kitty") is not None:  # (not when they are not known: ``unknown``)
        hands = [[to_egn_card(c) for c in r["deal"][str(s)]] for s in range(4)]
        hands.append([to_egn_card(c) for c in r["kitty"]])  # a fifth list: the kitty in deal order, the up-card first
    calls = []
    for _, c in r["calls"]:
        calls.append("Pass" if c == "pass" else "Order" if c == "order" else c.lower())
    maker = r.get("maker")
    alone = list(r.get("alone") or [])
    bid = {"phaseNumber": 0, "type": "EUCHRE_BIDDING", "calls": calls, "isAlone": maker in alone}
    defenders = [s for s in alone if s != maker]
    if defenders:
        bid["aloneDefender"] = defenders[0]
    if r.get("discard"):
        bid["discard"] = to_egn_card(r["discard"])
    ex = r.get("exchange")
    if ex and ex.get("seat", -1) >= 0:  # rules farmers / go_under (``_exchange``: the kitty is player KITTY)
        bid["cardExchanges"] = [
            {"sender": ex["seat"], "receiver": KITTY, "cards": [to_egn_card(c) for c in ex["gave"]]},
            {"sender": KITTY, "receiver": ex["seat"], "cards": [to_egn_card(c) for c in ex["took"]]}]
    if r.get("passed"):  # partners_best; the loner's discard has no field: the deal's hands and plays give it
        bid.setdefault("cardExchanges", []).append({"sender": (maker + 2) % 4, "receiver": maker,
                                                   "cards": [to_egn_card(r["passed"])]})
    phases = [bid]
    if maker is not None:
        n = 4 - len(alone)
        cards = [to_egn_card(c) for _, c in r["plays"]]
        phases.append({"phaseNumber": 1, "type": "TRICK_PLAY",
                       "tricks": [cards[i:i + n] for i in range(0, len(cards), n)]})
    state = {"dealer": r["dealer"], "upCard": to_egn_card(up)}
    if hands is not None:
        state["playerCards"] = hands
    return {"dealNumber": r["hand"], "initialState": state, "phases": phases}


def write_egn(path, records: list[dict], meta: dict | None = None) -> None:
    """Write bower Euchre records as an EGN 1.4 file (``egn_document``), atomically: complete or not at all.

    EgnError for more than ``MAX_DEALS`` records (the notation's limit): nothing is written.
    """
    _check_count(path, len(records))
    doc = egn_document(records, meta)
    out = _AtomicFile(str(path))
    try:
        with open(out.tmp, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
        out.commit()
    except OSError as e:
        out.abort()
        if isinstance(e, RecordsError):
            raise
        raise out.fault(e) from None
    except BaseException:
        out.abort()
        raise


def items(path):
    """Yield ``(record, where)`` for each deal of an EGN file that becomes a record (``read_egn``), as the records
    readers do (``bower.sim.records.own_format``); each deal left out is named on stderr first
    (``bower: note: FILE deal N left out: WHY``)."""
    import sys

    egn = read_egn(path)
    for number, why in egn.left_out:
        sys.stderr.write(f"bower: note: {path} deal {number} left out: {why}\n")
    for rec in egn.records:
        yield rec, f"{path}: deal {rec['hand']}"


def player_names(path) -> list[str] | None:
    """The names of the players by seat (EGN's ``players``, seat 0 first), or None when the file does not give one
    name per seat (``bower replay --dd``'s table by player; the records readers' ``player_names``)."""
    names = _load(path)["metadata"].get("players")
    if (isinstance(names, list) and len(names) == 4 and all(isinstance(x, str) and x.strip() for x in names)
            and len(set(names)) == 4):
        return [x.strip() for x in names]
    return None


def egn_as_jsonl(path, folder) -> str:
    """The records of an EGN file (``read_egn``; each deal left out named on stderr, as the other readers do) as a
    JSONL records file with its metadata in ``folder``: its path. For readers of JSONL and Parquet alone
    (``bower analyze``)."""
    import os

    from bower.sim.records import JsonlWriter
    from bower.sim.variants import get_variant

    recs = [r for r, _ in items(path)]
    if not recs:
        raise EgnError(f"{path}: every deal is left out: nothing to analyze")
    out = os.path.join(str(folder), os.path.basename(str(path))[:-len(".egn")] + ".jsonl")
    writer = JsonlWriter(out, get_variant("euchre"), recs[0]["rules"], {"source": f"{path} (Euchre Game Notation)"})
    writer.write_dicts(recs)
    writer.close()
    return out


def _check_count(path, n: int) -> None:
    """EgnError when ``n`` deals are more than an EGN file may hold."""
    if n > MAX_DEALS:
        raise EgnError(f"records file {path}: an EGN file holds at most {MAX_DEALS} deals (the notation's limit), "
                       f"not {n}; write .jsonl or .parquet for more")


class EgnWriter:
    """``open_writer``'s writer of a ``.egn`` file: the records gathered, the file written whole by ``close``."""

    def __init__(self, path: str, variant, rules: dict, meta: dict | None = None):
        from bower.sim.records import file_meta

        if variant.name != "euchre":
            raise RecordsError(f"records file {path}: .egn (Euchre Game Notation) holds Standard Euchre hands, "
                               f"not {variant.name}; write .jsonl or .parquet")
        self.path, self.variant, self.rules = path, variant, rules
        self.meta = file_meta(variant, rules, meta)
        self.records: list[dict] = []
        probe = _AtomicFile(path)  # a folder that cannot be written fails now, not after the run
        probe.abort()

    def prepare(self, first_hand: int, records):
        """The record dicts of a batch of kernel rows."""
        from bower.sim.records import to_dicts

        return to_dicts(records, first_hand, self.variant, self.rules)

    def put(self, dicts) -> None:
        """Keep a prepared batch; EgnError once the run has more hands than an EGN file holds (``MAX_DEALS``)."""
        _check_count(self.path, len(self.records) + len(dicts))
        self.records.extend(dicts)

    def write(self, first_hand: int, records) -> None:
        """Keep the records of a batch of kernel rows."""
        self.put(self.prepare(first_hand, records))

    def write_dicts(self, dicts: list[dict]) -> None:
        """Keep record dicts as they are."""
        self.put(dicts)

    def close(self) -> None:
        """Write the EGN file."""
        write_egn(self.path, self.records, self.meta)

    def abort(self) -> None:
        """Drop what was gathered (nothing is on disk yet)."""
        self.records = []


# the names ``bower.sim.records.own_format`` reads (``Variant.file_formats``)
Writer = EgnWriter
as_jsonl = egn_as_jsonl
