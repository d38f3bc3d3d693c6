"""A plain-Python Cutthroat engine: the rules of RULES.md section 2, written for clarity.

"Cutthroat: three-handed Euchre with a dummy (3 players)". This module is the
slow, obvious twin that future Cutthroat kernels will be checked against. It
implements the RULES only (what is legal and what it scores), never a
strategy: every decision (the calls, the dealer's exchange, going alone, the
maker's keep-set, the cards played) comes in as an argument, and each phase
has a "what is legal" function and an "apply / validate" function that raises
``ValueError`` with a clear message when asked to do something illegal.

The card objects and the single-rule helpers that Cutthroat shares with Ghost
Hand (effective suit with the left bower moved to trump, legal cards,
the trick winner) are imported from ``tests.reference.ghost``, not copied.

Conventions
-----------
- Seats are 0, 1, 2, numbered clockwise; "the left" of seat ``s`` is
  ``(s + 1) % 3``. Position ``p`` (1 = dealer's left, 3 = dealer) is seat
  ``(dealer + p) % 3``. The dummy is not a seat: it is a face-down hand that
  is dealt as a fourth hand and is never a player.
- A card is a ``Card`` (suit, rank) with ``index == suit * 6 + rank``, suits
  C S D H, ranks 9 T J Q K A, the same numbering as ``bower.sim.cards``. Public
  functions accept ``Card`` objects, card indices or card strings (``"JH"``)
  wherever a card or a list of cards is expected, and return ``Card``
  objects, except ``play_with_choices``, which mirrors the Ghost Hand
  reference (hand masks in, card indices out).
- The phases of a hand, in order: deal (``deal_cards``), auction
  (``auction_outcome``; ``legal_calls`` for the next call), the dealer's
  exchange after a round-one acceptance (``exchange_options`` /
  ``dealer_exchange``), going alone (``check_going_alone``), the maker's
  merge with the dummy (``check_keep`` / ``merge_dummy``), the first lead
  (``first_leader``), five tricks (``play_tricks`` / ``play_with_choices``),
  the score (``score_hand`` / ``score_tricks``). ``play_hand`` runs them all
  from explicit decisions. Between hands: ``next_dealer``, ``game_winner``;
  ``renege_points`` for the renege penalty.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from bower.sim.rules import Option
from tests.reference.variant import Variant, resolve_remembered
from tests.reference.ghost import (  # the card helpers shared with Ghost Hand (re-exported)
    DECK,
    JACK,
    SUIT_LETTERS,
    Card,
    by_index,
    card_from_index,
    card_from_str,
    cards_from_mask,
    effective_suit,  # noqa: F401 (re-exported: the left bower belongs to trump)
    is_trump,  # noqa: F401 (re-exported)
    legal_cards,
    mask_from_cards,
    same_colour_suit,
    trick_winner,
)

# --------------------------------------------------------------------------
# Sizes and rule options

PLAYERS = 3  # "3 players", each for themselves; two of them are partners for one hand only
HAND_SIZE = 5  # "5 cards to each player and 5 to a face-down dummy"
TRICKS = 5
KITTY_SIZE = 4  # "the last 4 cards form the kitty"
DEALT_ONE_AT_A_TIME = (PLAYERS + 1) * HAND_SIZE  # 20 cards to the 3 players and the dummy
MAKER_NEEDS = 3  # "maker takes fewer than 3 (euchred)"
TARGET = 10  # "Game: first to 10 or more"

# The options of RULES.md section 2 in the order the brief lists them, default first.
# The kernel codes are this reference's own placeholders (0 = default, 1 = the other
# value; the march keeps its points): ``sim/rules.py`` will own the real encoding.
CUTTHROAT = Variant(
    name="cutthroat",
    title="Cutthroat: three-handed Euchre with a dummy",
    players=PLAYERS,
    hand_size=HAND_SIZE,
    target=TARGET,
    options=(
        Option("dealer_pickup", ("optional", "mandatory"), (0, 1)),
        Option("allow_turned_down_suit", (False, True), (0, 1)),
        Option("stick_the_dealer", (False, True), (0, 1)),
        Option("maker_alone", ("allowed", "disabled"), (0, 1)),
        Option("lone_maker_march", (4, 3), (4, 3)),
        Option("lone_defender_points", ("both", "lone_only"), (0, 1)),
    ),
)


def resolve_rules(overrides: dict | None = None) -> dict:
    """Every Cutthroat option with its value: the defaults, then ``overrides``.

    Unknown names and values not allowed raise ``bower.sim.rules.RuleError`` (a
    ``ValueError``); strings such as ``"true"`` or ``"3"`` are parsed as in
    ``bower.sim.rules.resolve``.
    """
    return resolve_remembered(CUTTHROAT, overrides)


# --------------------------------------------------------------------------
# Seats and positions


def seat_of_position(dealer: int, position: int) -> int:
    """RULES.md: "Position 1" is the player on the dealer's left; the dealer is position 3."""
    if position not in (1, 2, 3):
        raise ValueError(f"position must be 1, 2 or 3 (the dealer), not {position!r}")
    return (dealer + position) % PLAYERS


def position_of_seat(dealer: int, seat: int) -> int:
    """The position (1, 2, 3 = dealer) of ``seat`` when ``dealer`` deals."""
    return (seat - dealer - 1) % PLAYERS + 1


def left_of(seat: int) -> int:
    """Seats are numbered clockwise, so the player to the left of ``seat`` is the next seat."""
    return (seat + 1) % PLAYERS


def next_dealer(dealer: int) -> int:
    """RULES.md: "The deal passes to the left after every hand, including a hand thrown in"."""
    return left_of(dealer)


def _check_seat(seat, what: str = "seat") -> int:
    if type(seat) is int and 0 <= seat < PLAYERS:  # the common case, without the slower numbers.Integral check
        return seat
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < PLAYERS:
        raise ValueError(f"{what} must be a seat 0, 1 or 2, not {seat!r}")
    return int(seat)


# --------------------------------------------------------------------------
# Cards given as Card objects, indices or strings


def as_card(x) -> Card:
    """A ``Card`` from a ``Card``, a card index 0..23 or a card string (``"JH"``, ``"10c"``)."""
    if isinstance(x, Card):
        return x
    if isinstance(x, str):
        try:
            return card_from_str(x)
        except (ValueError, IndexError):
            raise ValueError(f"malformed card {x!r}") from None
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or not 0 <= x < len(DECK):
        raise ValueError(f"not a card of the 24-card deck: {x!r}")
    return DECK[int(x)]


def as_cards(xs, what: str = "cards") -> list[Card]:
    """A list of distinct ``Card`` objects (see ``as_card``); a duplicate raises ValueError."""
    cards = [as_card(x) for x in xs]
    if len(set(cards)) != len(cards):
        dup = sorted({c for c in cards if cards.count(c) > 1}, key=lambda c: c.index)
        raise ValueError(f"{what}: duplicate card(s) {', '.join(map(str, dup))}")
    return cards


def _names(cards) -> str:
    return " ".join(str(c) for c in by_index(cards))


def right_bower(trump: int) -> Card:
    """The right bower: the jack of trump, the highest trump."""
    return Card(trump, JACK)


def left_bower(trump: int) -> Card:
    """The left bower: the other jack of trump's colour, the second-highest trump."""
    return Card(same_colour_suit(trump), JACK)


# --------------------------------------------------------------------------
# The deal

# Who receives the k-th card of the order, for k = 0 .. 19: one card at a time,
# starting on the dealer's left and going clockwise, the dummy sitting (for the
# deal only) as a fourth hand between the dealer and position 1.
DEAL_ROUND = ("position 1", "position 2", "dealer", "dummy")


@dataclass(frozen=True)
class Deal:
    """A dealt hand: five cards per seat, the dummy's five, the kitty (``kitty[0]`` is the up-card)."""

    dealer: int
    hands: tuple  # by seat: hands[s] is a tuple of 5 Cards sorted by index
    dummy: tuple  # 5 Cards sorted by index
    kitty: tuple  # 4 Cards in dealing order; kitty[0] is turned face up

    @property
    def up_card(self) -> Card:
        return self.kitty[0]

    def all_cards(self) -> list[Card]:
        return [c for h in self.hands for c in h] + list(self.dummy) + list(self.kitty)


def deal_cards(order, dealer: int) -> Deal:
    """Deal a 24-card order (top of the deck first) as RULES.md section 2 says.

    "Deal: 5 cards to each player and 5 to a face-down dummy (fourth seat);
    the last 4 cards form the kitty, whose top card is turned face up (the
    up-card)."

    The dealing order is fixed here as follows: cards ``order[0..19]`` are
    dealt one at a time to position 1, position 2, the dealer, the dummy,
    position 1, ... (``DEAL_ROUND``, five times round); ``order[20..23]`` are
    the kitty, and the up-card is the first of them, ``order[20]``.
    """
    dealer = _check_seat(dealer, "dealer")
    cards = as_cards(order, "the deal order")
    if len(cards) != len(DECK):
        raise ValueError(f"a deal order has all {len(DECK)} cards, got {len(cards)}")
    receivers: dict[str, list[Card]] = {name: [] for name in DEAL_ROUND}
    for k in range(DEALT_ONE_AT_A_TIME):
        receivers[DEAL_ROUND[k % len(DEAL_ROUND)]].append(cards[k])
    hands: list[tuple] = [(), (), ()]
    for p in (1, 2, 3):
        name = "dealer" if p == 3 else f"position {p}"
        hands[seat_of_position(dealer, p)] = tuple(by_index(receivers[name]))
    return Deal(
        dealer=dealer,
        hands=tuple(hands),
        dummy=tuple(by_index(receivers["dummy"])),
        kitty=tuple(cards[DEALT_ONE_AT_A_TIME:]),
    )


# --------------------------------------------------------------------------
# The auction

PASS = "pass"
# Round one: the word each position uses to accept the up-card ("order it up",
# "assist", "take it up"); all three mean the same thing.
ROUND_ONE_ACCEPT = {1: "order", 2: "assist", 3: "take"}


@dataclass(frozen=True)
class AuctionResult:
    """The outcome of an auction.

    ``calls``: (seat, call) in order. ``thrown_in``: everyone passed twice
    (then every other field is None). ``maker``: the seat that accepted in
    round one or named trump in round two. ``trump``: suit 0..3. ``round``: 1
    or 2. ``call``: the maker's call (``"order"``, ``"assist"``, ``"take"`` or a
    suit letter). ``accepted_by``: the seat that accepted the up-card in round
    one (the maker), None after round two.
    """

    calls: tuple
    thrown_in: bool
    maker: int | None = None
    trump: int | None = None
    round: int | None = None
    call: str | None = None
    accepted_by: int | None = None


def normalise_call(call) -> str:
    """A call as written here: ``"pass"``, ``"order"``, ``"assist"``, ``"take"`` or a suit letter C S D H."""
    if not isinstance(call, str):  # an illegal call sequence is a ValueError, whatever is wrong in it
        raise ValueError(  # noqa: TRY004
            f"a call is a string ('pass', 'order', 'assist', 'take' or a suit letter), not {call!r}"
        )
    text = call.strip()
    if text.upper() in SUIT_LETTERS and len(text) == 1:
        return text.upper()
    return text.lower()


def _turn(k: int) -> tuple[int, int]:
    """(round, position) of the k-th call (0-based): positions 1, 2, 3 in round one, then again in round two."""
    return 1 + k // PLAYERS, 1 + k % PLAYERS


def calls_at_turn(round_: int, position: int, up_card, rules: dict | None = None) -> list[str]:
    """The calls RULES.md section 2 allows at one turn.

    Round one: "position 1 may pass or order it up, position 2 may pass or
    assist, the dealer may pass or take it up". Round two: "each player
    passes or names any other suit" (the up-card's suit too with
    ``allow_turned_down_suit``); with ``stick_the_dealer`` the dealer may not
    pass in round two, so must name a suit.
    """
    rules = resolve_rules(rules)
    up = as_card(up_card)
    if round_ == 1:
        return [PASS, ROUND_ONE_ACCEPT[position]]
    if round_ != 2:
        raise ValueError(f"there are two rounds of calls, not round {round_!r}")
    suits = [SUIT_LETTERS[s] for s in range(4) if s != up.suit or rules["allow_turned_down_suit"]]
    dealer_stuck = position == 3 and rules["stick_the_dealer"]
    return suits if dealer_stuck else [PASS] + suits


def _run_calls(calls, dealer: int, up_card, rules: dict) -> tuple[AuctionResult | None, int]:
    """Check ``calls`` one by one; (the result if the auction ended, number of calls made)."""
    made: list[tuple[int, str]] = []
    for k, raw in enumerate(calls):
        if k >= 2 * PLAYERS:
            raise ValueError(f"the auction has at most {2 * PLAYERS} calls (two rounds); got {len(calls)}")
        round_, position = _turn(k)
        seat = seat_of_position(dealer, position)
        call = normalise_call(raw)
        allowed = calls_at_turn(round_, position, up_card, rules)
        if call not in allowed:
            who = "the dealer" if position == 3 else f"position {position}"
            raise ValueError(
                f"call {k + 1} ({raw!r}): in round {'one' if round_ == 1 else 'two'} {who} (seat {seat}) "
                f"may call {' or '.join(repr(a) for a in allowed)}"
            )
        made.append((seat, call))
        if call == PASS:
            if k == 2 * PLAYERS - 1:  # everyone passed twice: thrown in
                result = AuctionResult(calls=tuple(made), thrown_in=True)
                return _nothing_after(result, calls, k), k + 1
            continue
        up = as_card(up_card)
        if round_ == 1:  # the first acceptance ends the auction; trump is the up-card's suit
            result = AuctionResult(tuple(made), False, seat, up.suit, 1, call, seat)
        else:  # the first to name a suit is the maker
            result = AuctionResult(tuple(made), False, seat, SUIT_LETTERS.index(call), 2, call, None)
        return _nothing_after(result, calls, k), k + 1
    return None, len(made)


def _nothing_after(result: AuctionResult, calls, k: int) -> AuctionResult:
    extra = len(calls) - (k + 1)
    if extra:
        how = "was thrown in" if result.thrown_in else f"ended with {result.call!r} by seat {result.maker}"
        raise ValueError(f"the auction {how} at call {k + 1}; {extra} more call(s) given")
    return result


def legal_calls(calls, dealer: int, up_card, rules: dict | None = None) -> list[str]:
    """The calls the next player may make after ``calls`` (checked); ``[]`` once the auction is over."""
    rules = resolve_rules(rules)
    dealer = _check_seat(dealer, "dealer")
    calls = list(calls)
    result, n = _run_calls(calls, dealer, up_card, rules)
    if result is not None:
        return []
    return calls_at_turn(*_turn(n), up_card, rules)


def auction_outcome(calls, dealer: int, up_card, rules: dict | None = None) -> AuctionResult:
    """Validate a whole call sequence (positions 1, 2, dealer, then round two) and return its outcome.

    RULES.md section 2: in round one "the first acceptance ends the auction;
    trump is the up-card's suit; the player who accepted is the maker". If
    all passed, in round two "the first to name [a suit] is the maker. All
    pass: thrown in" (with ``stick_the_dealer`` the dealer must name one).
    Raises ValueError on an illegal call, a call after the auction ended, or
    a sequence that stops before the auction is over.
    """
    rules = resolve_rules(rules)
    dealer = _check_seat(dealer, "dealer")
    calls = list(calls)
    result, n = _run_calls(calls, dealer, up_card, rules)
    if result is None:
        round_, position = _turn(n)
        who = "the dealer" if position == 3 else f"position {position}"
        raise ValueError(
            f"the auction is not over after {n} call(s): {who} (seat {seat_of_position(dealer, position)}) "
            f"of round {'one' if round_ == 1 else 'two'} is still to call"
        )
    return result


# --------------------------------------------------------------------------
# The dealer's exchange of the up-card (round one only)


def exchange_options(dealer_hand, up_card, rules: dict | None = None) -> list:
    """What the dealer may discard after a round-one acceptance; ``None`` means no exchange.

    RULES.md: "The dealer may then exchange the up-card for a card of their
    own hand (discard face down). Option dealer_pickup = optional |
    mandatory." The discard is one of the dealer's own five cards (not the
    up-card itself); ``None`` (keep the hand as dealt) only under
    ``optional``. This applies whoever accepted, the dealer included.
    """
    rules = resolve_rules(rules)
    hand = by_index(as_cards(dealer_hand, "the dealer's hand"))
    if as_card(up_card) in hand:
        raise ValueError(f"the up-card {as_card(up_card)} cannot be in the dealer's hand")
    options: list = [] if rules["dealer_pickup"] == "mandatory" else [None]
    return options + hand


def dealer_exchange(dealer_hand, up_card, discard, rules: dict | None = None) -> tuple[list[Card], Card | None]:
    """Apply the dealer's exchange: (the dealer's new hand sorted by index, the discard or None).

    ``discard=None`` declines the exchange (``dealer_pickup = optional``
    only); otherwise the up-card joins the hand and ``discard`` (a card of the
    dealer's hand) goes out of play face down.
    """
    options = exchange_options(dealer_hand, up_card, rules)
    hand = as_cards(dealer_hand, "the dealer's hand")
    up = as_card(up_card)
    if discard is None:
        if None not in options:
            raise ValueError("dealer_pickup = mandatory: the dealer must take the up-card and discard a card")
        return by_index(hand), None
    d = as_card(discard)
    if d not in options:
        raise ValueError(f"the dealer's discard {d} is not a card of the dealer's hand ({_names(hand)})")
    return by_index([c for c in hand if c != d] + [up]), d


# --------------------------------------------------------------------------
# Going alone, active players, the first lead


def defenders_of(maker: int) -> list[int]:
    """The two players other than the maker: "partners for this hand only"."""
    return [s for s in range(PLAYERS) if s != maker]


def check_going_alone(maker: int, maker_alone: bool, lone_defender: int | None, rules: dict | None = None) -> None:
    """Raise ValueError unless the going-alone announcements are allowed.

    RULES.md: "a maker who goes alone does not take the dummy; a defender
    who goes alone plays while the other defender's hand sits out. Both may
    go alone." A maker may go alone only under ``maker_alone = allowed``; the
    lone defender (if any) must be one of the two defenders; only one
    defender can go alone (the other then sits out).
    """
    rules = resolve_rules(rules)
    _check_seat(maker, "maker")
    if maker_alone not in (True, False):
        raise ValueError(f"maker_alone is True or False, not {maker_alone!r}")
    if maker_alone and rules["maker_alone"] == "disabled":
        raise ValueError("maker_alone = disabled: the maker may not go alone")
    if lone_defender is not None:
        _check_seat(lone_defender, "lone_defender")
        if lone_defender == maker:
            raise ValueError(f"seat {maker} is the maker, not a defender; a maker goes alone with maker_alone")


def sitting_out(maker: int, lone_defender: int | None) -> int | None:
    """The defender whose hand sits out because the other defender went alone, else None."""
    if lone_defender is None:
        return None
    return next(s for s in defenders_of(maker) if s != lone_defender)


def active_seats(maker: int, lone_defender: int | None) -> list[int]:
    """The seats that play this hand, ascending: all three, less a defender who sits out.

    "Active" means holding cards in play: the maker (with or without the
    dummy) and every defender whose hand does not sit out. The dummy is never
    a player.
    """
    out = sitting_out(maker, lone_defender)
    return [s for s in range(PLAYERS) if s != out]


def first_leader(dealer: int, maker: int, maker_alone: bool, lone_defender: int | None) -> int:
    """RULES.md: "First lead: position 1; if someone goes alone, the first active player to that
    player's left; if maker and a defender both go alone, the defender."

    So: nobody alone -> position 1 (whoever that is); the maker alone -> the
    seat to the maker's left (always an active defender); a defender alone
    -> the first active seat to that defender's left, which is always the
    maker (the only other active player); both alone -> the lone defender.
    """
    dealer = _check_seat(dealer, "dealer")
    maker = _check_seat(maker, "maker")
    active = active_seats(maker, lone_defender)
    if maker_alone and lone_defender is not None:
        return lone_defender
    lone = maker if maker_alone else lone_defender
    if lone is None:
        return seat_of_position(dealer, 1)
    seat = left_of(lone)
    while seat not in active:
        seat = left_of(seat)
    return seat


def play_order(leader: int, active) -> list[int]:
    """The active seats in playing order for a trick: the leader, then clockwise, skipping a seat that sits out."""
    active = set(active)
    if leader not in active:
        raise ValueError(f"the leader, seat {leader}, is not an active player ({sorted(active)})")
    return [s for s in ((leader + k) % PLAYERS for k in range(PLAYERS)) if s in active]


# --------------------------------------------------------------------------
# The maker's merge with the dummy


def check_keep(maker_hand, dummy, keep) -> None:
    """Raise ValueError unless ``keep`` is a legal keep-set for a maker merging with the dummy.

    RULES.md: "After any up-card exchange, the maker adds the dummy's 5 cards
    to their hand, keeps the best 5 of the 10 and discards the rest face
    down." Legal: 5 distinct cards, all among the maker's 5 and the dummy's
    5. ("Best" is the maker's judgement, a strategy, not a rule.)
    """
    hand = as_cards(maker_hand, "the maker's hand")
    dum = as_cards(dummy, "the dummy")
    if len(hand) != HAND_SIZE or len(dum) != HAND_SIZE:
        raise ValueError(f"the maker's hand and the dummy have {HAND_SIZE} cards each, got {len(hand)} and {len(dum)}")
    if set(hand) & set(dum):
        raise ValueError(f"the maker's hand and the dummy share {_names(set(hand) & set(dum))}")
    kept = as_cards(keep, "the keep-set")
    if len(kept) != HAND_SIZE:
        raise ValueError(f"the maker keeps exactly {HAND_SIZE} of the 10 cards, not {len(kept)}")
    stray = [c for c in kept if c not in hand and c not in dum]
    if stray:
        raise ValueError(f"the maker can only keep cards of their hand or the dummy, not {_names(stray)}")


def merge_dummy(maker_hand, dummy, keep) -> tuple[list[Card], list[Card]]:
    """Apply the merge: (the 5 cards kept sorted by index, the 5 discarded face down sorted by index)."""
    check_keep(maker_hand, dummy, keep)
    kept = set(as_cards(keep))
    ten = as_cards(maker_hand) + as_cards(dummy)
    return by_index(kept), by_index([c for c in ten if c not in kept])


# --------------------------------------------------------------------------
# Playing five tricks among the active players


def play_tricks(hands: dict, trump: int, leader: int, active, chooser) -> tuple[list, list[int]]:
    """Play the 5 tricks among the ``active`` seats; ``chooser(seat, hand, trick, played)`` picks each card.

    "Follow the suit led if you can, else play any card. Highest trump wins
    the trick; with no trump in it, the highest card of the suit led wins.
    The winner leads the next trick." (The left bower belongs to trump.) A
    seat that is not active never plays. Returns the plays as (seat, Card)
    in order and the tricks per seat (0 for a seat that sits out).
    """
    active = sorted(set(active))
    if len(active) not in (2, 3):
        raise ValueError(f"2 or 3 players are active, not {active}")
    hands = {s: as_cards(hands[s], f"seat {s}'s hand") for s in active}
    for s in active:
        if len(hands[s]) != TRICKS:
            raise ValueError(f"seat {s} must hold {TRICKS} cards to play, holds {len(hands[s])}")
    in_play = [c for s in active for c in hands[s]]
    if len(set(in_play)) != len(in_play):
        raise ValueError("the active hands share a card")
    plays: list[tuple[int, Card]] = []
    played: list[Card] = []
    tricks = [0] * PLAYERS
    for _ in range(TRICKS):
        trick: list[Card] = []
        seats = play_order(leader, active)
        for seat in seats:
            card = chooser(seat, by_index(hands[seat]), list(trick), list(played))
            legal = legal_cards(hands[seat], trick[0] if trick else None, trump)
            if card not in legal:
                raise ValueError(f"seat {seat} may not play {card}; legal: {_names(legal)}")
            hands[seat].remove(card)
            trick.append(card)
            plays.append((seat, card))
        played.extend(trick)
        leader = seats[trick_winner(trick, trump)]
        tricks[leader] += 1
    return plays, tricks


def play_with_choices(hands, trump: int, leader: int, active, choices) -> dict:
    """Play 5 tricks from hand masks (by seat); play ``i`` is ``legal[choices[i] % len(legal)]``.

    Like the Ghost Hand reference's: ``legal`` is sorted by card index;
    ``hands[s]`` is the mask of seat ``s`` (ignored for a seat that is not in
    ``active``); ``choices`` needs one entry per play, ``5 * len(active)``
    (extra entries are unused). Returns ``plays`` as (seat, card index) and
    ``tricks`` per seat.
    """
    active = sorted({int(s) for s in active})
    choices = list(choices)
    need = TRICKS * len(active)
    if len(choices) < need:
        raise ValueError(f"{need} choices needed ({TRICKS} tricks x {len(active)} players), got {len(choices)}")
    counter = iter(range(need))

    def chooser(seat, hand, trick, played):
        legal = legal_cards(hand, trick[0] if trick else None, trump)
        return legal[int(choices[next(counter)]) % len(legal)]

    plays, tricks = play_tricks(
        {s: cards_from_mask(int(hands[s])) for s in active}, int(trump), int(leader), active, chooser
    )
    return {"plays": [(s, c.index) for s, c in plays], "tricks": tricks}


# --------------------------------------------------------------------------
# Scoring


def score_hand(maker: int, maker_tricks: int, maker_alone: bool = False, lone_defender: int | None = None,
               rules: dict | None = None) -> list[int]:
    """Points of seats 0..2 for one hand that was played.

    RULES.md section 2: "maker with the dummy takes 3-4 tricks +1, all 5 +3;
    lone maker 3-4 +1, all 5 +4 [``lone_maker_march``: 4 or 3]; maker takes
    fewer than 3 (euchred): each defender +2; a lone defender who takes 3-4
    tricks: each defender +2, all 5: each +4" (``lone_defender_points =
    lone_only``: only the lone defender scores).

    As the vectors (``cutthroat_scores.jsonl``) settle it: the defenders'
    tricks are ``5 - maker_tricks`` (together; with a lone defender they are
    all the lone defender's); a euchred maker scores 0, never negative; a
    lone defender's points replace the euchre's +2 (they are not added); a
    lone maker who is euchred gives the usual +2 each; when the maker makes
    3 or more the defenders score 0, lone defender or not; ``lone_only``
    changes nothing when no defender went alone.
    """
    rules = resolve_rules(rules)
    _check_seat(maker, "maker")
    check_going_alone(maker, maker_alone, lone_defender, rules)
    if isinstance(maker_tricks, bool) or not isinstance(maker_tricks, int) or not 0 <= maker_tricks <= TRICKS:
        raise ValueError(f"the maker takes 0..{TRICKS} tricks, not {maker_tricks!r}")
    points = [0] * PLAYERS
    if maker_tricks >= MAKER_NEEDS:  # made it
        if maker_tricks < TRICKS:
            points[maker] = 1
        else:  # the march: all five
            points[maker] = rules["lone_maker_march"] if maker_alone else 3
        return points
    # euchred: the defenders score
    defender_tricks = TRICKS - maker_tricks
    if lone_defender is None:
        for s in defenders_of(maker):
            points[s] = 2
        return points
    each = 4 if defender_tricks == TRICKS else 2  # a lone defender takes 3-4 (+2) or all 5 (+4)
    scorers = [lone_defender] if rules["lone_defender_points"] == "lone_only" else defenders_of(maker)
    for s in scorers:
        points[s] = each
    return points


def score_tricks(maker: int, tricks, maker_alone: bool = False, lone_defender: int | None = None,
                 rules: dict | None = None) -> list[int]:
    """``score_hand`` from the tricks per seat (they must add up to 5; a seat that sits out took none)."""
    tricks = [int(t) for t in tricks]
    if len(tricks) != PLAYERS or sum(tricks) != TRICKS or min(tricks) < 0:
        raise ValueError(f"tricks per seat must be {PLAYERS} counts adding up to {TRICKS}, got {tricks}")
    out = sitting_out(maker, lone_defender)
    if out is not None and tricks[out]:
        raise ValueError(f"seat {out} sat out and cannot have taken tricks")
    return score_hand(maker, tricks[maker], maker_alone, lone_defender, rules)


def renege_points(offender: int, maker: int, maker_alone: bool = False, lone_defender: int | None = None,
                  rules: dict | None = None) -> list[int]:
    """Points the renege penalty gives, by seat (the penalty alone, not the hand's score).

    RULES.md: "Renege: the other side scores 2 (4 against a lone hand)." The
    sides are the maker against the two defenders. Read here as in
    four-handed Euchre: the other (non-offending) side scores 4 if it is
    playing a lone hand (the lone maker when a defender reneges, the lone
    defender when the maker reneges), else 2. When the defenders score, each
    defender scores, except that with a lone defender under
    ``lone_defender_points = lone_only`` only the lone defender does. A
    defender who sits out holds no cards and cannot renege.
    """
    rules = resolve_rules(rules)
    check_going_alone(maker, maker_alone, lone_defender, rules)
    _check_seat(offender, "offender")
    if offender == sitting_out(maker, lone_defender):
        raise ValueError(f"seat {offender} sat out this hand and cannot renege")
    points = [0] * PLAYERS
    if offender != maker:  # a defender reneged: the maker's side scores
        points[maker] = 4 if maker_alone else 2
        return points
    if lone_defender is None:
        for s in defenders_of(maker):
            points[s] = 2
        return points
    scorers = [lone_defender] if rules["lone_defender_points"] == "lone_only" else defenders_of(maker)
    for s in scorers:
        points[s] = 4
    return points


# --------------------------------------------------------------------------
# The game


def game_winner(scores, target: int = TARGET) -> int | None:
    """The winner given the game scores after a hand, or None if play goes on.

    RULES.md: "Game: first to 10 or more; if more than one player passes 10
    on the same hand, the higher score wins, and an exact tie plays another
    hand." So: nobody at ``target`` or more -> None; otherwise the unique
    highest score wins; a tie for the highest score -> None (another hand,
    after which the same test is made again on everyone's scores).
    """
    scores = [int(x) for x in scores]
    if len(scores) != PLAYERS:
        raise ValueError(f"one score per seat ({PLAYERS}), got {len(scores)}")
    top = max(scores)
    if top < target:
        return None
    leaders = [s for s in range(PLAYERS) if scores[s] == top]
    return leaders[0] if len(leaders) == 1 else None


# --------------------------------------------------------------------------
# One whole hand from explicit decisions


def play_hand(order, dealer: int, calls, *, discard=None, maker_alone: bool = False,
              lone_defender: int | None = None, keep=None, choices=(), rules: dict | None = None) -> dict:
    """One hand from its deal order and every decision, each checked against the rules.

    ``calls``: the auction (see ``auction_outcome``). ``discard``: the
    dealer's discard after a round-one acceptance, or None for no exchange
    (must be None after round two). ``maker_alone`` / ``lone_defender``: the
    going-alone announcements. ``keep``: the maker's 5 cards out of hand +
    dummy (required unless the maker goes alone, then None). ``choices``:
    the play choices (see ``play_with_choices``).

    Returns a dict: ``deal`` (``Deal``), ``auction`` (``AuctionResult``),
    ``dealer_discard``, ``maker_alone``, ``lone_defender``, ``sitting_out``,
    ``active``, ``hands`` (by seat: the cards each active seat plays with; a
    seat that sits out keeps its dealt hand, out of play), ``maker_discards``,
    ``out_of_play`` (every card not played: the kitty left, the dealer's
    discard, the maker's discards or the unused dummy, a hand that sat out),
    ``leader`` (first lead), ``plays`` ((seat, Card) in order), ``tricks`` and
    ``points`` per seat. A hand thrown in has no play and 0 points.
    """
    rules = resolve_rules(rules)
    d = deal_cards(order, dealer)
    auction = auction_outcome(calls, d.dealer, d.up_card, rules)
    record = {
        "deal": d, "auction": auction, "dealer_discard": None, "maker_alone": False, "lone_defender": None,
        "sitting_out": None, "active": [], "hands": [list(h) for h in d.hands], "maker_discards": [],
        "out_of_play": [], "leader": None, "plays": [], "tricks": [0] * PLAYERS, "points": [0] * PLAYERS,
    }
    if auction.thrown_in:
        if discard is not None or maker_alone or lone_defender is not None or keep is not None:
            raise ValueError("the hand was thrown in: no exchange, going alone or merge follows")
        record["out_of_play"] = d.all_cards()
        return record
    maker, trump = auction.maker, auction.trump
    hands = [list(h) for h in d.hands]
    kitty_left = list(d.kitty)
    out_of_play: list[Card] = []
    if auction.round == 1:  # the dealer may (or must) exchange the up-card
        hands[d.dealer], dealt_away = dealer_exchange(hands[d.dealer], d.up_card, discard, rules)
        if dealt_away is not None:
            kitty_left.remove(d.up_card)
            out_of_play.append(dealt_away)
            record["dealer_discard"] = dealt_away
    elif discard is not None:
        raise ValueError("the up-card was turned down (round two): the dealer cannot exchange it")
    out_of_play.extend(kitty_left)
    check_going_alone(maker, maker_alone, lone_defender, rules)
    if maker_alone:  # "a maker who goes alone does not take the dummy"
        if keep is not None:
            raise ValueError("a maker who goes alone does not take the dummy: no keep-set")
        out_of_play.extend(d.dummy)
    else:
        if keep is None:
            raise ValueError("the maker takes the dummy and must choose the 5 cards to keep")
        hands[maker], discards = merge_dummy(hands[maker], d.dummy, keep)
        out_of_play.extend(discards)
        record["maker_discards"] = discards
    out = sitting_out(maker, lone_defender)
    if out is not None:
        out_of_play.extend(hands[out])
    active = active_seats(maker, lone_defender)
    leader = first_leader(d.dealer, maker, maker_alone, lone_defender)
    result = play_with_choices([mask_from_cards(h) for h in hands], trump, leader, active, choices)
    record.update(
        maker_alone=maker_alone, lone_defender=lone_defender, sitting_out=out, active=active,
        hands=[by_index(h) for h in hands], out_of_play=by_index(out_of_play), leader=leader,
        plays=[(s, card_from_index(c)) for s, c in result["plays"]], tricks=result["tricks"],
        points=score_tricks(maker, result["tricks"], maker_alone, lone_defender, rules),
    )
    return record
