"""A plain-Python Standard Euchre engine: the rules of RULES.md section 4, written for clarity.

"Standard Euchre (4 players in two partnerships)". This module is the slow,
obvious twin the Euchre kernels (``kernels/euchre/``) are checked against.
It implements the RULES only (what is legal and what it scores), never a
strategy: every decision (the calls, the dealer's discard, going alone, the
cards played) comes in as an argument, and each phase has a "what is legal"
function and an "apply / validate" function that raises ``ValueError`` with a
clear message when asked to do something illegal. The strategy and the
records are ``tests/reference/euchre_play.py``'s.

The card objects and the single-rule helpers Euchre shares with the other
24-card variants (effective suit with the left bower moved to trump, the
trump order, legal cards, the trick winner, a card's value) are those of
``tests.reference.ghost``, imported, not copied.

Conventions
-----------
- Seats are 0, 1, 2, 3, numbered clockwise; "the left" of seat ``s`` is
  ``(s + 1) % 4``. Position ``p`` (1 = dealer's left, 4 = dealer) is seat
  ``(dealer + p) % 4``. Partners sit opposite: side 0 is seats 0 & 2, side 1
  seats 1 & 3 (``side_of(seat) == seat % 2``). Points and game scores are
  per side: ``[side 0, side 1]``.
- A card is a ``Card`` (suit, rank) of the Ghost Hand reference with
  ``index == suit * 6 + rank``, suits C S D H, ranks 9 T J Q K A, the
  numbering of ``bower.sim.cards`` and ``kernels/cards.py``. Public functions
  accept ``Card`` objects, card indices or card strings (``"JH"``, ``"10c"``)
  wherever a card or a list of cards is expected, and return ``Card``
  objects, except ``play_with_choices`` (hand masks in, card indices out, as
  in the other references).
- A call is a string: ``"pass"``, ``"order"`` (round one, whoever makes it)
  or a suit letter ``"C" "S" "D" "H"`` (round two), as the records write them.
- The phases of a hand, in order: deal (``deal_cards``), auction
  (``auction_outcome``; ``legal_calls`` / ``next_caller`` for the next call),
  the dealer's pick-up and discard after an order (``discard_options`` /
  ``take_up``), going alone (``check_maker_alone``, ``defenders_in_turn`` /
  ``defence_outcome``), who sits out (``sitting_out`` / ``active_seats``),
  the first lead (``first_leader``), five tricks (``play_tricks`` /
  ``play_with_choices``), the score (``score_hand`` / ``score_tricks``).
  ``play_hand`` runs them all from explicit decisions. Between hands:
  ``next_dealer``, ``game_winner``; ``renege_points`` for the renege penalty.

Readings chosen where RULES.md leaves room (each is repeated where it is used)
-------------------------------------------------------------------------------
- Deal order (``kernels/euchre/SPEC.md``): one card at a time from the top,
  ``order[i]`` (i < 20) to position ``i % 4 + 1``; ``order[20..23]`` are the
  kitty in that order and the up-card is ``order[20]``.
- The dealer takes the up-card after an order by anyone (the dealer
  included) and discards one of their five dealt cards (under option
  ``discard_up`` one of the six, the up-card itself too); there is no
  option to decline the up-card.
- Option ``canadian`` is EGN's Canadian loner: the dealer's partner who
  orders the up-card up in round one plays alone (forced).
- Going alone: only the maker may go alone on the makers' side (their
  partner sits out). Under ``allow_lone_defender`` the two defenders are
  asked in turn (the lower position first); the first who says yes plays
  alone and the other is not asked; at most one defender goes alone. The
  maker and a defender may both be alone: two seats sit out and each trick
  has two cards.
- First lead: position 1, or else the next active seat clockwise (with two
  seats out, both may be skipped).
- Score (``euchre_scores.jsonl``): a lone defender changes the euchre only
  (+4 instead of +2, whatever the number of tricks under 3); a lone maker
  the march only (+4 instead of +2). Points are never negative. Options
  ``loner_march_score`` (1..8, default 4): a lone maker's march instead of
  +4; ``loner_euchred_score`` (1..8, default 2): the defenders' euchre of a
  lone maker whom both defended (a lone defender's euchre stays +4).
  ``fast_break`` (default false): the defenders take tricks 1 and 2 and the
  makers tricks 3, 4 and 5: 0 to both sides, alone or not (EGN's text does
  not tell a lone hand apart: every such hand).
- ``four_trick_tokens`` (default false), a rule of whole games (EGN's): the
  makers of a hand played with partner who take exactly 4 tricks earn a
  token besides their point; a side's fourth token is turned in at once for
  1 extra point, which counts toward the target like any point
  (``token_step``). Single hands do not see it.
- ``farmers`` (default false, EGN's farmer's hand) and ``go_under``
  (default false): before the first call a seat holding three or more 9s
  and 10s (``farmers``: it gives three of them) or no jack, queen or king
  (``go_under``: any three of its cards) may give three cards face down
  for the kitty's three face-down cards (``order[21..23]``; the up-card
  stays). In turn from position 1; at most one exchange a deal
  (``exchange_options``, ``kitty_exchange``).
- ``partners_best`` (default false), EGN's call for best: once a maker goes
  alone (by choice or forced by ``canadian``) and the defenders have
  answered, the loner's partner passes the loner one of its cards face down
  and the loner discards one of its six (the passed card too) face down,
  before the first lead (``partners_exchange``). A lone defender exchanges
  nothing.
- Renege (not simulated): the non-offending side scores 2, or 4 when that
  side is playing a lone hand (the lone maker's or the lone defender's side).
- Game: the first side to 10 or more after a hand wins; only one side can
  score on a hand, so both sides at 10 or more is an impossible position
  (ValueError).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from bower.sim.rules import Option, RuleError
from tests.reference import ghost as _ghost
from tests.reference.variant import resolve_remembered
from tests.reference.ghost import (  # the 24-card helpers shared with Ghost Hand (re-exported)
    DECK,
    JACK,
    SUIT_LETTERS,
    Card,
    beats,  # noqa: F401 (re-exported)
    by_index,
    card_from_index,
    card_from_str,
    card_value,  # noqa: F401 (re-exported: trumps 20 + trump rank, other cards their rank)
    cards_from_mask,
    effective_suit,  # noqa: F401 (re-exported: the left bower belongs to trump)
    is_trump,  # noqa: F401 (re-exported)
    mask_from_cards,
    same_colour_suit,
    trump_rank,  # noqa: F401 (re-exported: 9 T Q K A left right = 0..6)
)

# --------------------------------------------------------------------------
# Sizes and rule options

PLAYERS = 4  # "4 players in two partnerships"
SIDES = 2
HAND_SIZE = 5  # "5 cards to each player"
TRICKS = 5
KITTY_SIZE = 4  # "of the 4 left (the kitty) the top card is turned face up"
DEALT = PLAYERS * HAND_SIZE  # 20 cards to the players, then the kitty
MAKERS_NEED = 3  # "makers take fewer than 3 (euchred)"
TARGET = 10  # "Game: first side to 10 or more"
RENEGE_PENALTY = 2  # "the other side scores 2 (4 against a lone hand)"
LONE_RENEGE_PENALTY = 4

PASS = "pass"
ORDER = "order"

@dataclass(frozen=True)
class RuleOptions:
    """A variant's name, sizes and rule options as this reference knows them (no kernel, no strategy)."""

    name: str
    title: str
    players: int
    hand_size: int
    target: int
    options: tuple

    def option(self, name: str) -> Option:
        """The option called ``name``; ``bower.sim.rules.RuleError`` (a ValueError) naming the known ones otherwise."""
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options)
        raise RuleError(f"unknown rule option {name!r} for {self.name} (known: {known})")


# The options of RULES.md section 4 in the order RULES.md gives them, default first.
# The kernel codes are this reference's own placeholders (0 = default, 1 = the other
# value): the kernel side owns the real encoding.
EUCHRE = RuleOptions(
    name="euchre",
    title="Standard Euchre",
    players=PLAYERS,
    hand_size=HAND_SIZE,
    target=TARGET,
    options=(
        Option("stick_the_dealer", (False, True), (0, 1)),
        Option("allow_lone_defender", (False, True), (0, 1)),
        Option("loner_lead", ("dealer", "loner"), (0, 1)),
        Option("canadian", (False, True), (0, 1)),
        Option("discard_up", (False, True), (0, 1)),
        Option("loner_march_score", (4, 1, 2, 3, 5, 6, 7, 8), (4, 1, 2, 3, 5, 6, 7, 8)),
        Option("loner_euchred_score", (2, 1, 3, 4, 5, 6, 7, 8), (2, 1, 3, 4, 5, 6, 7, 8)),
        Option("fast_break", (False, True), (0, 1)),
        Option("four_trick_tokens", (False, True), (0, 1)),
        Option("farmers", (False, True), (0, 1)),
        Option("go_under", (False, True), (0, 1)),
        Option("partners_best", (False, True), (0, 1)),
    ),
)


def resolve_rules(overrides: dict | None = None) -> dict:
    """Every Euchre option with its value: the defaults, then ``overrides``.

    Unknown names and values not allowed raise ``bower.sim.rules.RuleError`` (a
    ``ValueError``); strings such as ``"true"`` are parsed as in
    ``bower.sim.rules.resolve``.
    """
    return resolve_remembered(EUCHRE, overrides)


# --------------------------------------------------------------------------
# Seats, positions, partnerships


def _check_seat(seat, what: str = "seat") -> int:
    if type(seat) is int and 0 <= seat < PLAYERS:  # the common case, without the slower numbers.Integral check
        return seat
    if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < PLAYERS:
        raise ValueError(f"{what} must be a seat 0, 1, 2 or 3, not {seat!r}")
    return int(seat)


def seat_of_position(dealer: int, position: int) -> int:
    """RULES.md: "Position 1" is the player on the dealer's left; the dealer is position 4."""
    if position not in (1, 2, 3, 4):
        raise ValueError(f"position must be 1, 2, 3 or 4 (the dealer), not {position!r}")
    return (_check_seat(dealer, "dealer") + position) % PLAYERS


def position_of_seat(dealer: int, seat: int) -> int:
    """The position (1 .. 4 = dealer) of ``seat`` when ``dealer`` deals."""
    return (_check_seat(seat) - _check_seat(dealer, "dealer") - 1) % PLAYERS + 1


def left_of(seat: int) -> int:
    """Seats are numbered clockwise, so the player to the left of ``seat`` is the next seat."""
    return (_check_seat(seat) + 1) % PLAYERS


def next_dealer(dealer: int) -> int:
    """RULES.md: "The deal passes to the left after every hand, including a hand thrown in"."""
    return left_of(_check_seat(dealer, "dealer"))


def side_of(seat: int) -> int:
    """"Partners sit opposite: seats 0 & 2 against 1 & 3": side 0 is seats 0 & 2, side 1 seats 1 & 3."""
    return _check_seat(seat) % SIDES


def partner_of(seat: int) -> int:
    """The partner sits opposite."""
    return (_check_seat(seat) + 2) % PLAYERS


def seats_of_side(side: int) -> list[int]:
    """The two seats of a side (0: seats 0 and 2, 1: seats 1 and 3)."""
    if side not in (0, 1):
        raise ValueError(f"a side is 0 (seats 0 & 2) or 1 (seats 1 & 3), not {side!r}")
    return [side, side + 2]


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
        dup = by_index({c for c in cards if cards.count(c) > 1})
        raise ValueError(f"{what}: duplicate card(s) {', '.join(map(str, dup))}")
    return cards


def as_suit(suit) -> int:
    """A suit 0..3 from a suit number or a suit letter C S D H (any case)."""
    if type(suit) is int and 0 <= suit < 4:  # the common case, without the slower numbers.Integral check
        return suit
    if isinstance(suit, str) and len(suit.strip()) == 1 and suit.strip().upper() in SUIT_LETTERS:
        return SUIT_LETTERS.index(suit.strip().upper())
    if isinstance(suit, bool) or not isinstance(suit, numbers.Integral) or not 0 <= suit < 4:
        raise ValueError(f"a suit is 0..3 or a letter C S D H, not {suit!r}")
    return int(suit)


def _names(cards) -> str:
    return " ".join(str(c) for c in by_index(cards))


def right_bower(trump: int) -> Card:
    """The right bower: the jack of trump, the highest trump."""
    return Card(as_suit(trump), JACK)


def left_bower(trump: int) -> Card:
    """The left bower: the other jack of trump's colour, the second-highest trump."""
    return Card(same_colour_suit(as_suit(trump)), JACK)


# --------------------------------------------------------------------------
# The rules of play (the Ghost Hand helpers, with the inputs checked)


def legal_cards(hand, lead, trump) -> list[Card]:
    """Cards of ``hand`` that may be played, sorted by index: the effective suit led if held, else any.

    "Follow the suit led if you can, else play any card"; "the left bower
    belongs to the trump suit for every purpose". ``lead`` None: on lead,
    every card. Any hand size.
    """
    hand = as_cards(hand, "the hand")
    if not hand:
        raise ValueError("an empty hand has no card to play")
    return _ghost.legal_cards(hand, None if lead is None else as_card(lead), as_suit(trump))


def legal_mask(hand_mask: int, lead_index: int, trump: int) -> int:
    """``legal_cards`` on a hand mask and a card index (the kernels' form)."""
    return mask_from_cards(legal_cards(cards_from_mask(hand_mask), card_from_index(lead_index), trump))


def trick_winner(cards, trump) -> int:
    """Index (in play order) of the card that takes the trick; ``cards[0]`` was led.

    "Highest trump wins the trick; with no trump in it, the highest card of
    the suit led wins" (the suit led is the effective suit of the lead: a led
    left bower calls for trump). A trick has 2, 3 or 4 cards (with one or two
    players sitting out).
    """
    cards = as_cards(cards, "the trick")
    if not 1 <= len(cards) <= PLAYERS:
        raise ValueError(f"a trick has 1 to {PLAYERS} cards, not {len(cards)}")
    return _ghost.trick_winner(cards, as_suit(trump))


# --------------------------------------------------------------------------
# The deal


@dataclass(frozen=True)
class Deal:
    """A dealt hand: five cards per seat (sorted by index) and the kitty (``kitty[0]`` is the up-card)."""

    dealer: int
    hands: tuple  # by seat: hands[s] is a tuple of 5 Cards sorted by index
    kitty: tuple  # 4 Cards in dealing order; kitty[0] is turned face up

    @property
    def up_card(self) -> Card:
        """The card turned face up: the kitty's first."""
        return self.kitty[0]

    def all_cards(self) -> list[Card]:
        """The 24 cards: the hands by seat, then the kitty."""
        return [c for h in self.hands for c in h] + list(self.kitty)


def deal_cards(order, dealer: int) -> Deal:
    """Deal a 24-card order (top of the deck first) as RULES.md section 4 and SPEC.md say.

    "Deal: 5 cards to each player; of the 4 left (the kitty) the top card is
    turned face up (the up-card)." SPEC.md: card ``order[i]`` for i in 0..19
    goes to position ``i % 4 + 1`` (one card at a time, position 1 first);
    the kitty is ``order[20..23]`` in that order, the up-card ``order[20]``.
    """
    dealer = _check_seat(dealer, "dealer")
    cards = as_cards(order, "the deal order")
    if len(cards) != len(DECK):
        raise ValueError(f"a deal order has all {len(DECK)} cards, got {len(cards)}")
    receiver = [seat_of_position(dealer, p) for p in (1, 2, 3, 4)]  # position 1 first, clockwise
    hands: list[list[Card]] = [[] for _ in range(PLAYERS)]
    for i in range(DEALT):
        hands[receiver[i % PLAYERS]].append(cards[i])
    return Deal(dealer=dealer, hands=tuple(tuple(by_index(h)) for h in hands), kitty=tuple(cards[DEALT:]))


# --------------------------------------------------------------------------
# The auction


@dataclass(frozen=True)
class AuctionResult:
    """The outcome of an auction.

    ``calls``: (seat, call) in order. ``thrown_in``: all passed twice (then
    the other fields are None). ``maker``: the seat that ordered the up-card
    up (round one) or named trump (round two); ``trump``: suit 0..3;
    ``round``: 1 or 2.
    """

    calls: tuple
    thrown_in: bool
    maker: int | None = None
    trump: int | None = None
    round: int | None = None

    @property
    def makers(self) -> int | None:
        """The makers' side, None when thrown in."""
        return None if self.maker is None else side_of(self.maker)


def normalise_call(call) -> str:
    """A call as written here: ``"pass"``, ``"order"`` or a suit letter C S D H."""
    if not isinstance(call, str):  # an illegal call sequence is a ValueError, whatever is wrong in it
        raise ValueError(f"a call is a string ('pass', 'order' or a suit letter), not {call!r}")  # noqa: TRY004
    text = call.strip()
    if len(text) == 1 and text.upper() in SUIT_LETTERS:
        return text.upper()
    return text.lower()


def _turn(k: int) -> tuple[int, int]:
    """(round, position) of the k-th call (0-based): positions 1..4 in round one, then again in round two."""
    return 1 + k // PLAYERS, 1 + k % PLAYERS


def calls_at_turn(round_: int, position: int, up_card, rules: dict | None = None) -> list[str]:
    """The calls RULES.md section 4 allows at one turn, pass first, suits in increasing order.

    Round one: "each player passes or orders the up-card up". Round two:
    "each player passes or names a suit other than the up-card's"; with
    ``stick_the_dealer`` "the dealer may not pass in round two".
    """
    rules = resolve_rules(rules)
    up = as_card(up_card)
    if position not in (1, 2, 3, 4):
        raise ValueError(f"position must be 1, 2, 3 or 4 (the dealer), not {position!r}")
    if round_ == 1:
        return [PASS, ORDER]
    if round_ != 2:
        raise ValueError(f"there are two rounds of calls, not round {round_!r}")
    suits = [SUIT_LETTERS[s] for s in range(4) if s != up.suit]
    stuck = position == 4 and rules["stick_the_dealer"]
    return suits if stuck else [PASS] + suits


def _run_calls(calls, dealer: int, up_card, rules: dict) -> tuple[AuctionResult | None, int]:
    """Check ``calls`` one by one; (the result if the auction ended, the number of calls made)."""
    up = as_card(up_card)
    made: list[tuple[int, str]] = []
    calls = list(calls)
    for k, raw in enumerate(calls):
        if k >= 2 * PLAYERS:
            raise ValueError(f"the auction has at most {2 * PLAYERS} calls (two rounds); got {len(calls)}")
        round_, position = _turn(k)
        seat = seat_of_position(dealer, position)
        call = normalise_call(raw)
        allowed = calls_at_turn(round_, position, up, rules)
        if call not in allowed:
            who = "the dealer" if position == 4 else f"position {position}"
            raise ValueError(
                f"call {k + 1} ({raw!r}): in round {'one' if round_ == 1 else 'two'} {who} (seat {seat}) "
                f"may call {' or '.join(repr(a) for a in allowed)}"
            )
        made.append((seat, call))
        if call == PASS:
            if k == 2 * PLAYERS - 1:  # everyone passed twice: thrown in
                return _nothing_after(AuctionResult(tuple(made), True), calls, k), k + 1
            continue
        if round_ == 1:  # an order ends the auction: trump is the up-card's suit
            result = AuctionResult(tuple(made), False, seat, up.suit, 1)
        else:  # the first to name a suit is the maker
            result = AuctionResult(tuple(made), False, seat, SUIT_LETTERS.index(call), 2)
        return _nothing_after(result, calls, k), k + 1
    return None, len(made)


def _nothing_after(result: AuctionResult, calls, k: int) -> AuctionResult:
    extra = len(calls) - (k + 1)
    if extra:
        how = "was thrown in" if result.thrown_in else f"ended with seat {result.maker}'s call"
        raise ValueError(f"the auction {how} at call {k + 1}; {extra} more call(s) given")
    return result


def legal_calls(calls, dealer: int, up_card, rules: dict | None = None) -> list[str]:
    """The calls the next player may make after ``calls`` (checked); ``[]`` once the auction is over.

    Pass first (unless the dealer is stuck), then ``"order"`` in round one or
    the allowed suits in increasing suit order (C S D H) in round two.
    """
    rules = resolve_rules(rules)
    dealer = _check_seat(dealer, "dealer")
    result, n = _run_calls(calls, dealer, up_card, rules)
    if result is not None:
        return []
    return calls_at_turn(*_turn(n), up_card, rules)


def next_caller(calls, dealer: int, up_card, rules: dict | None = None) -> int | None:
    """The seat to call after ``calls`` (checked), None once the auction is over."""
    rules = resolve_rules(rules)
    dealer = _check_seat(dealer, "dealer")
    result, n = _run_calls(calls, dealer, up_card, rules)
    if result is not None:
        return None
    return seat_of_position(dealer, _turn(n)[1])


def auction_outcome(calls, dealer: int, up_card, rules: dict | None = None) -> AuctionResult:
    """Validate a whole call sequence (positions 1..4, then round two) and return its outcome.

    RULES.md section 4: round one "from position 1 clockwise to the dealer:
    each player passes or orders the up-card up (trump = the up-card's
    suit)"; round two (all four passed) "from position 1 each player passes
    or names a suit other than the up-card's. All pass: the hand is thrown
    in" (under ``stick_the_dealer`` the dealer must name one). "The player
    who ordered or named trump is the maker." Raises ValueError on an
    illegal call, a call after the auction ended, or a sequence that stops
    before the auction is over.
    """
    rules = resolve_rules(rules)
    dealer = _check_seat(dealer, "dealer")
    calls = list(calls)
    result, n = _run_calls(calls, dealer, up_card, rules)
    if result is None:
        round_, position = _turn(n)
        who = "the dealer" if position == 4 else f"position {position}"
        raise ValueError(
            f"the auction is not over after {n} call(s): {who} (seat {seat_of_position(dealer, position)}) "
            f"of round {'one' if round_ == 1 else 'two'} is still to call"
        )
    return result


# --------------------------------------------------------------------------
# The dealer's pick-up after an order (round one only)


def discard_options(dealer_hand, up_card, rules: dict | None = None) -> list[Card]:
    """What the dealer may discard after an order: one of their five dealt cards, ascending; under option
    ``discard_up`` one of the six (the up-card too), ascending.

    RULES.md: "The dealer then takes the up-card into their hand and
    discards one other card face down (the up-card itself may not be
    discarded)" -- unless ``discard_up``: "the dealer's discard may be the
    up-card itself".
    """
    rules = resolve_rules(rules)
    hand = by_index(as_cards(dealer_hand, "the dealer's hand"))
    up = as_card(up_card)
    if len(hand) != HAND_SIZE:
        raise ValueError(f"the dealer holds {HAND_SIZE} cards before the pick-up, not {len(hand)}")
    if up in hand:
        raise ValueError(f"the up-card {up} cannot be in the dealer's hand already")
    return by_index(hand + [up]) if rules["discard_up"] else hand


def take_up(dealer_hand, up_card, discard, rules: dict | None = None) -> tuple[list[Card], Card]:
    """Apply the pick-up: (the dealer's five cards after it sorted by index, the discard).

    The up-card joins the hand and ``discard`` (a dealt card, never the
    up-card unless option ``discard_up``, never nothing) goes out of play
    face down.
    """
    options = discard_options(dealer_hand, up_card, rules)
    up = as_card(up_card)
    if discard is None:
        raise ValueError("after an order the dealer takes the up-card and must discard a card")
    d = as_card(discard)
    if d == up and up not in options:
        raise ValueError(f"the dealer may not discard the up-card {up}")
    if d not in options:
        raise ValueError(f"the dealer's discard {d} is not a card of the dealer's hand ({_names(options)})")
    six = by_index(list(as_cards(dealer_hand, "the dealer's hand")) + [up])
    return by_index([c for c in six if c != d]), d


# --------------------------------------------------------------------------
# Going alone, who sits out, the first lead


def partners_exchange(hands, maker: int, maker_alone: bool, passed, discard, rules: dict | None = None) -> tuple:
    """Option ``partners_best``'s exchange: (hands by seat after it, the card passed, the loner's discard).

    Under the option a lone maker's partner passes ``passed`` (one of its
    cards) and the maker discards ``discard`` (one of its six, the passed
    card too); otherwise (option off, or the maker not alone) both must be
    None and the hands are unchanged.
    """
    rules = resolve_rules(rules)
    hands = [by_index(as_cards(h, "a hand")) for h in hands]
    if not (rules["partners_best"] and maker_alone):
        if passed is not None or discard is not None:
            raise ValueError("no exchange: only a lone maker under partners_best = true gets its partner's best card")
        return hands, None, None
    partner = partner_of(maker)
    if passed is None or discard is None:
        raise ValueError(f"partners_best = true: seat {partner} passes lone maker {maker} a card and the maker "
                         "discards one")
    c = as_card(passed)
    if c not in hands[partner]:
        raise ValueError(f"the passed card {c} is not a card of seat {partner}'s hand ({_names(hands[partner])})")
    six = by_index(hands[maker] + [c])
    d = as_card(discard)
    if d not in six:
        raise ValueError(f"the loner's discard {d} is not one of its six cards ({_names(six)})")
    hands[partner] = [x for x in hands[partner] if x != c]
    hands[maker] = [x for x in six if x != d]
    return hands, c, d


def defenders_of(maker: int) -> list[int]:
    """The two seats of the side that did not make trump, ascending."""
    return seats_of_side(1 - side_of(maker))


def defenders_in_turn(dealer: int, maker: int) -> list[int]:
    """The defenders in the order they are asked to defend alone: the lower position (nearer the dealer's left)
    first."""
    dealer = _check_seat(dealer, "dealer")
    return sorted(defenders_of(maker), key=lambda s: position_of_seat(dealer, s))


def canadian_loner(dealer: int, maker: int, round_: int, rules: dict | None = None) -> bool:
    """Whether option ``canadian`` forces the maker alone: EGN's Canadian loner, "if the dealer's partner orders
    up the up-card during the first round of bidding, the partner is forced to play the hand alone"."""
    rules = resolve_rules(rules)
    return bool(rules["canadian"]) and round_ == 1 and maker == partner_of(_check_seat(dealer, "dealer"))


def check_maker_alone(maker: int, maker_alone, dealer: int | None = None, round_: int | None = None,
                      rules: dict | None = None) -> bool:
    """The maker's announcement: True (alone) or False. Any maker may go alone; under option ``canadian`` the
    dealer's partner who ordered in round one must (``canadian_loner``; checked when ``dealer`` and ``round_``
    are given)."""
    _check_seat(maker, "maker")
    if maker_alone not in (True, False) or not isinstance(maker_alone, (bool, numbers.Integral)):
        raise ValueError(f"maker_alone is True or False, not {maker_alone!r}")
    if dealer is not None and round_ is not None and canadian_loner(dealer, maker, round_, rules) and not maker_alone:
        raise ValueError(f"canadian = true: seat {maker}, the dealer's partner, ordered the up-card up and must "
                         "play alone")
    return bool(maker_alone)


def defence_outcome(dealer: int, maker: int, declarations, rules: dict | None = None) -> int | None:
    """The lone defender (a seat) or None, from the defenders' answers in turn (checked).

    RULES.md: "Option allow_lone_defender: then, whether or not the maker
    went alone, the defenders in turn (the one nearer the dealer's left
    first) may each declare to defend alone; the first who does plays alone
    and their partner sits out." ``declarations``: the answers (True alone,
    False not) of the defenders asked, in turn. Without the option nobody is
    asked (``[]``); with it the first defender is asked, then the second
    only if the first said no.
    """
    rules = resolve_rules(rules)
    turn = defenders_in_turn(dealer, maker)
    answers = list(declarations)
    for a in answers:
        if not isinstance(a, (bool, numbers.Integral)) or a not in (True, False):
            raise ValueError(f"a defender's answer is True or False, not {a!r}")
    if not rules["allow_lone_defender"]:
        if answers:
            raise ValueError("allow_lone_defender = false: no defender may defend alone (nobody is asked)")
        return None
    for k, a in enumerate(answers):
        if k >= len(turn):
            raise ValueError(f"only the two defenders are asked; got {len(answers)} answers")
        if a:
            if k + 1 < len(answers):
                raise ValueError(f"seat {turn[k]} defends alone: the other defender is not asked")
            return turn[k]
    if len(answers) != len(turn):
        raise ValueError(f"both defenders are asked in turn unless the first defends alone; got {len(answers)} answers")
    return None


def defender_to_ask(dealer: int, maker: int, declarations, rules: dict | None = None) -> int | None:
    """The next defender to ask whether they defend alone after ``declarations`` (checked), or None.

    None without ``allow_lone_defender``, once a defender said yes, and once
    both were asked.
    """
    rules = resolve_rules(rules)
    answers = list(declarations)
    if not rules["allow_lone_defender"] or any(a not in (True, False) for a in answers):
        defence_outcome(dealer, maker, answers, rules)  # raises on any answer (or a bad one)
        return None
    turn = defenders_in_turn(dealer, maker)
    if len(answers) > len(turn) or any(answers[:-1]):
        defence_outcome(dealer, maker, answers, rules)  # raises
    if any(answers) or len(answers) == len(turn):
        return None
    return turn[len(answers)]


def check_lone_defender(maker: int, lone_defender: int | None, rules: dict | None = None) -> None:
    """Raise ValueError unless ``lone_defender`` (a seat or None) may defend alone against ``maker``."""
    rules = resolve_rules(rules)
    maker = _check_seat(maker, "maker")
    if lone_defender is None:
        return
    lone_defender = _check_seat(lone_defender, "lone_defender")
    if not rules["allow_lone_defender"]:
        raise ValueError("allow_lone_defender = false: no defender may defend alone")
    if side_of(lone_defender) == side_of(maker):
        raise ValueError(f"seat {lone_defender} is on the makers' side, not a defender")


def sitting_out(maker: int, maker_alone: bool, lone_defender: int | None) -> list[int]:
    """The seats whose hands sit out, ascending: the lone maker's partner, the lone defender's partner."""
    out = []
    if check_maker_alone(maker, maker_alone):
        out.append(partner_of(maker))
    if lone_defender is not None:
        out.append(partner_of(_check_seat(lone_defender, "lone_defender")))
    return sorted(out)


def active_seats(maker: int, maker_alone: bool, lone_defender: int | None) -> list[int]:
    """The seats that play this hand, ascending (4, 3 or 2 of them)."""
    out = sitting_out(maker, maker_alone, lone_defender)
    return [s for s in range(PLAYERS) if s not in out]


def first_leader(dealer: int, active, maker: int | None = None, maker_alone: bool = False,
                 rules: dict | None = None) -> int:
    """RULES.md: "First lead: position 1, skipping a player who sits out": the first active seat clockwise from it.

    Option ``loner_lead = loner``: when the maker goes alone, the first active
    seat clockwise from the maker's left instead (the lone defender when a
    defender also defends alone: both other seats sit out).
    """
    rules = resolve_rules(rules)
    active = {_check_seat(s) for s in active}
    if not active:
        raise ValueError("nobody is playing")
    if rules["loner_lead"] == "loner" and maker_alone:
        seat = left_of(_check_seat(maker, "maker"))
    else:
        seat = seat_of_position(dealer, 1)
    while seat not in active:
        seat = left_of(seat)
    return seat


def play_order(leader: int, active) -> list[int]:
    """The active seats in playing order for a trick: the leader, then clockwise, skipping those who sit out."""
    active = {_check_seat(s) for s in active}
    leader = _check_seat(leader, "leader")
    if leader not in active:
        raise ValueError(f"the leader, seat {leader}, is not an active player ({sorted(active)})")
    return [s for s in ((leader + k) % PLAYERS for k in range(PLAYERS)) if s in active]


# --------------------------------------------------------------------------
# Playing five tricks among the active players


def play_tricks(hands, trump, leader: int, active, chooser) -> tuple[list, list[int]]:
    """Play the 5 tricks among the ``active`` seats; ``chooser(seat, hand, trick, played)`` picks each card.

    "Follow the suit led if you can, else play any card. Highest trump wins
    the trick; with no trump in it, the highest card of the suit led wins.
    The winner leads the next trick." ``hands`` by seat (a list of four or
    a dict; the hands of seats not active are ignored); ``chooser`` gets the
    seat, its hand (sorted), the cards of this trick so far and those of
    the earlier tricks. Returns the plays as (seat, Card) in order and the
    tricks per seat (0 for a seat that sits out). An illegal card, a hand
    of the wrong size or shared cards raise ValueError.
    """
    trump = as_suit(trump)
    active = sorted({_check_seat(s) for s in active})
    if len(active) not in (2, 3, 4):
        raise ValueError(f"2, 3 or 4 players are active, not {active}")
    if len({side_of(s) for s in active}) != 2:
        raise ValueError(f"both sides play: {active}")
    held = {s: as_cards(hands[s], f"seat {s}'s hand") for s in active}
    for s in active:
        if len(held[s]) != TRICKS:
            raise ValueError(f"seat {s} must hold {TRICKS} cards to play, holds {len(held[s])}")
    in_play = [c for s in active for c in held[s]]
    if len(set(in_play)) != len(in_play):
        raise ValueError(f"the hands share {_names({c for c in in_play if in_play.count(c) > 1})}")
    plays: list[tuple[int, Card]] = []
    played: list[Card] = []
    tricks = [0] * PLAYERS
    for _ in range(TRICKS):
        trick: list[Card] = []
        seats = play_order(leader, active)
        for seat in seats:
            card = as_card(chooser(seat, by_index(held[seat]), list(trick), list(played)))
            legal = legal_cards(held[seat], trick[0] if trick else None, trump)
            if card not in legal:
                raise ValueError(f"seat {seat} may not play {card}; legal: {_names(legal)}")
            held[seat].remove(card)
            trick.append(card)
            plays.append((seat, card))
        played.extend(trick)
        leader = seats[trick_winner(trick, trump)]
        tricks[leader] += 1
    return plays, tricks


def trick_winners(plays, trump, n_active: int) -> list[int]:
    """The seat winning each whole trick of ``plays`` ((seat, card) in order, ``n_active`` cards a trick)."""
    out = []
    for k in range(len(plays) // n_active):
        trick = plays[k * n_active:(k + 1) * n_active]
        out.append(trick[trick_winner([as_card(c) for _, c in trick], trump)][0])
    return out


def play_with_choices(hands, trump, leader: int, active, choices) -> dict:
    """Play 5 tricks from hand masks (by seat); play ``i`` is ``legal[choices[i] % len(legal)]``.

    As in the other references: ``legal`` is sorted by card index;
    ``choices`` needs one entry per play, ``5 * len(active)`` (extra entries
    unused). Returns ``plays`` as (seat, card index) and ``tricks`` per seat.
    """
    active = sorted({int(s) for s in active})
    choices = list(choices)
    need = TRICKS * len(active)
    if len(choices) < need:
        raise ValueError(f"{need} choices needed ({TRICKS} tricks x {len(active)} players), got {len(choices)}")
    counter = iter(range(need))
    trump = as_suit(trump)

    def chooser(seat, hand, trick, played):
        legal = legal_cards(hand, trick[0] if trick else None, trump)
        return legal[int(choices[next(counter)]) % len(legal)]

    plays, tricks = play_tricks({s: cards_from_mask(int(hands[s])) for s in active}, trump, int(leader), active,
                                chooser)
    return {"plays": [(s, c.index) for s, c in plays], "tricks": tricks}


# --------------------------------------------------------------------------
# Scoring


def _check_tricks(n, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 0 <= n <= TRICKS:
        raise ValueError(f"{what} take 0..{TRICKS} tricks, not {n!r}")
    return int(n)


def score_hand(maker_tricks: int, maker_alone: bool = False, lone_defender: bool = False,
               rules: dict | None = None, first_two: bool = False) -> tuple[int, int]:
    """(makers' points, defenders' points) for one hand that was played.

    RULES.md section 4: "makers take 3-4 tricks +1, all 5 +2 (+4 when the
    maker went alone); makers take fewer than 3 (euchred): the defenders +2
    (+4 when a defender went alone, whatever the number of tricks)".
    ``maker_tricks`` are the makers' side's; ``lone_defender`` whether a
    defender went alone. Only one side scores. ``rules`` (None: defaults):
    ``loner_march_score`` replaces the lone march's 4 and
    ``loner_euchred_score`` the 2 for euchring a lone maker both defended.
    ``first_two``: the defenders won tricks 1 and 2; with ``fast_break``
    the makers' 3 tricks are then tricks 3 to 5, a fast break: 0 and 0.
    """
    t = _check_tricks(maker_tricks, "the makers")
    for flag, name in ((maker_alone, "maker_alone"), (lone_defender, "lone_defender")):
        if not isinstance(flag, (bool, numbers.Integral)) or flag not in (True, False):
            raise ValueError(f"{name} is True or False, not {flag!r}")
    march, euchred = 4, 2
    if rules:
        march, euchred = rules.get("loner_march_score", 4), rules.get("loner_euchred_score", 2)
        for v, name in ((march, "loner_march_score"), (euchred, "loner_euchred_score")):
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not 1 <= v <= 8:
                raise ValueError(f"{name} is 1..8 points, not {v!r}")
    if t >= MAKERS_NEED:
        if t == MAKERS_NEED and first_two and rules and rules.get("fast_break"):
            return 0, 0  # a fast break
        if t < TRICKS:
            return 1, 0
        return (march if maker_alone else 2), 0  # the march
    if lone_defender:
        return 0, 4  # euchred by a lone defender
    return 0, (euchred if maker_alone else 2)  # euchred


def score_tricks(maker: int, tricks, maker_alone: bool = False, lone_defender: int | None = None,
                 rules: dict | None = None, winners=()) -> list[int]:
    """Points per side ``[side 0, side 1]`` from the tricks per seat (four counts adding up to 5).

    A seat that sits out must have taken none; ``lone_defender`` is a seat
    (checked against the rules) or None. ``winners``: the seats that won
    the tricks in order (``trick_winners``), read for ``fast_break``.
    """
    maker = _check_seat(maker, "maker")
    check_maker_alone(maker, maker_alone)
    check_lone_defender(maker, lone_defender, rules)
    tricks = [int(t) for t in tricks]
    if len(tricks) != PLAYERS or sum(tricks) != TRICKS or min(tricks) < 0:
        raise ValueError(f"tricks per seat must be {PLAYERS} counts adding up to {TRICKS}, got {tricks}")
    for s in sitting_out(maker, maker_alone, lone_defender):
        if tricks[s]:
            raise ValueError(f"seat {s} sat out and cannot have taken tricks")
    side = side_of(maker)
    first_two = len(winners) >= 2 and side_of(winners[0]) != side and side_of(winners[1]) != side
    makers, defenders = score_hand(sum(tricks[s] for s in seats_of_side(side)), maker_alone,
                                   lone_defender is not None, rules, first_two)
    points = [0, 0]
    points[side], points[1 - side] = makers, defenders
    return points


def renege_points(offender: int, maker: int, maker_alone: bool = False, lone_defender: int | None = None,
                  rules: dict | None = None) -> list[int]:
    """Points the renege penalty gives, per side (the penalty alone, not the hand's score).

    RULES.md: "Renege: the other side scores 2 (4 against a lone hand)."
    Read as: the non-offending side scores 4 when it is playing a lone hand
    (the lone maker's side when a defender reneges, the lone defender's
    side when a maker reneges), else 2. A seat that sits out holds no cards
    in play and cannot renege.
    """
    maker = _check_seat(maker, "maker")
    offender = _check_seat(offender, "offender")
    check_maker_alone(maker, maker_alone)
    check_lone_defender(maker, lone_defender, rules)
    if offender in sitting_out(maker, maker_alone, lone_defender):
        raise ValueError(f"seat {offender} sat out this hand and cannot renege")
    other = 1 - side_of(offender)
    lone = maker_alone if other == side_of(maker) else lone_defender is not None
    points = [0, 0]
    points[other] = LONE_RENEGE_PENALTY if lone else RENEGE_PENALTY
    return points


# --------------------------------------------------------------------------
# The game


def token_step(tokens, maker, maker_alone: bool, maker_tricks: int, rules: dict | None = None):
    """(tokens by side after a hand, extra points by side) under ``four_trick_tokens``.

    RULES.md has no tokens; EGN's ruleset: the making side of a hand played
    with partner taking exactly 4 tricks earns a token; at 4 tokens the side
    turns them in for 1 point at once. ``maker`` None (thrown in), the rule
    off, a lone maker or another count: tokens unchanged, no points.
    """
    tokens = [int(t) for t in tokens]
    extra = [0] * SIDES
    if not (rules and rules.get("four_trick_tokens")) or maker is None or maker_alone or maker_tricks != 4:
        return tokens, extra
    side = side_of(maker)
    tokens[side] += 1
    if tokens[side] == 4:
        tokens[side] = 0
        extra[side] = 1
    return tokens, extra


def game_winner(scores, target: int = TARGET) -> int | None:
    """The winning side given the game scores (per side) after a hand, or None if play goes on.

    RULES.md: "Game: first side to 10 or more." Only one side scores on a
    hand, so both sides at ``target`` or more cannot follow a hand of a game
    that was still on: ValueError.
    """
    scores = [int(x) for x in scores]
    if len(scores) != SIDES:
        raise ValueError(f"one score per side ({SIDES}), got {len(scores)}")
    there = [side for side in range(SIDES) if scores[side] >= target]
    if len(there) == 2:
        raise ValueError(f"both sides at {target} or more ({scores}): the game ended on an earlier hand")
    return there[0] if there else None


# --------------------------------------------------------------------------
# Farmer's hand and going under: the exchange with the kitty before the first call


def exchange_options(hand, rules: dict | None = None) -> list[Card]:
    """The cards a seat holding ``hand`` (its five dealt cards) may give the kitty, ascending; [] when it may not
    exchange. ``farmers``: "three or more 9s and 10s": those 9s and 10s; ``go_under``: "no face card (no jack,
    queen or king)": any of its five."""
    rules = resolve_rules(rules)
    hand = as_cards(hand, "hand")
    options: set = set()
    nines_tens = [c for c in hand if c.rank in (0, 1)]
    if rules["farmers"] and len(nines_tens) >= 3:
        options |= set(nines_tens)
    if rules["go_under"] and not any(c.rank in (2, 3, 4) for c in hand):
        options |= set(hand)
    return by_index(options)


def kitty_exchange(hand, kitty, given, rules: dict | None = None) -> list[Card]:
    """The hand after giving ``given`` (exactly three distinct cards of ``exchange_options``) for the kitty's three
    face-down cards (``kitty[1:]``; the up-card ``kitty[0]`` stays), ascending; ValueError if not allowed."""
    hand = as_cards(hand, "hand")
    given = as_cards(given, "given cards")
    options = exchange_options(hand, rules)
    if not options:
        raise ValueError(f"{_names(hand)} may not exchange with the kitty under these rules")
    if len(set(given)) != 3 or len(given) != 3:
        raise ValueError(f"exactly three distinct cards are given, got {_names(given)}")
    bad = [c for c in given if c not in options]
    if bad:
        raise ValueError(f"{_names(bad)} may not be given (may give: {_names(options)})")
    kitty = as_cards(kitty, "kitty")
    return by_index([c for c in hand if c not in given] + list(kitty[1:4]))


# --------------------------------------------------------------------------
# One whole hand from explicit decisions


def play_hand(order, dealer: int, calls, *, discard=None, maker_alone: bool = False, defenders=(),
              choices=(), rules: dict | None = None, exchange=None, passed=None, loner_discard=None) -> dict:
    """One hand from its deal order and every decision, each checked against the rules.

    ``calls``: the auction (see ``auction_outcome``). ``discard``: the
    dealer's discard after an order (required then; None after round two).
    ``maker_alone``: the maker's announcement. ``defenders``: the answers
    of the defenders asked in turn (see ``defence_outcome``; ``()`` unless
    ``allow_lone_defender``). ``passed``, ``loner_discard``: option
    ``partners_best``'s exchange (``partners_exchange``; None otherwise).
    ``choices``: the play choices (see ``play_with_choices``). A hand thrown
    in takes no other decision. ``exchange``: None, or (seat, the three
    cards it gives the kitty) before the first call (rules ``farmers`` /
    ``go_under``: ``kitty_exchange``).

    Returns a dict: ``deal`` (``Deal``), ``auction`` (``AuctionResult``),
    ``maker``, ``trump``, ``discard``, ``maker_alone``, ``lone_defender``,
    ``alone`` (the seats alone, ascending), ``sitting_out``, ``active``,
    ``hands`` (by seat, the five cards each seat holds after the pick-up and
    any exchange), ``passed`` and ``loner_discard`` (the exchange, or None),
    ``out_of_play`` (every card not played), ``leader`` (first lead),
    ``plays`` ((seat, Card) in order), ``tricks`` per seat and ``points`` per
    side. A hand thrown in has no play and 0 points.
    """
    rules = resolve_rules(rules)
    d = deal_cards(order, dealer)
    dealt = [list(h) for h in d.hands]
    kitty = list(d.kitty)
    if exchange is not None:
        seat, given = exchange
        seat = _check_seat(seat)
        dealt[seat] = kitty_exchange(dealt[seat], d.kitty, given, rules)
        kitty = [d.kitty[0]] + by_index(as_cards(given))
    auction = auction_outcome(calls, d.dealer, d.up_card, rules)
    record = {
        "deal": d, "auction": auction, "maker": auction.maker, "trump": auction.trump, "discard": None,
        "maker_alone": False, "lone_defender": None, "alone": [], "sitting_out": [], "active": [],
        "hands": [list(h) for h in dealt], "out_of_play": [], "leader": None, "plays": [],
        "tricks": [0] * PLAYERS, "points": [0, 0], "passed": None, "loner_discard": None,
    }
    if auction.thrown_in:
        if discard is not None or maker_alone or list(defenders) or list(choices):
            raise ValueError("the hand was thrown in: no pick-up, going alone or play follows")
        record["out_of_play"] = by_index(d.all_cards())
        return record
    maker, trump = auction.maker, auction.trump
    hands = [list(h) for h in dealt]
    out_of_play = list(kitty)
    if auction.round == 1:  # the dealer takes the up-card and discards
        hands[d.dealer], discard = take_up(hands[d.dealer], d.up_card, discard, rules)
        out_of_play.remove(d.up_card)
        out_of_play.append(discard)
        record["discard"] = discard
    elif discard is not None:
        raise ValueError("the up-card was turned down (round two): the dealer takes nothing and discards nothing")
    maker_alone = check_maker_alone(maker, maker_alone, d.dealer, auction.round, rules)
    lone = defence_outcome(d.dealer, maker, defenders, rules)
    hands, passed, loner_discard = partners_exchange(hands, maker, maker_alone, passed, loner_discard, rules)
    if loner_discard is not None:
        out_of_play.append(loner_discard)
    record.update(passed=passed, loner_discard=loner_discard)
    out = sitting_out(maker, maker_alone, lone)
    for s in out:
        out_of_play.extend(hands[s])
    active = active_seats(maker, maker_alone, lone)
    leader = first_leader(d.dealer, active, maker, maker_alone, rules)
    result = play_with_choices([mask_from_cards(h) for h in hands], trump, leader, active, choices)
    record.update(
        maker_alone=maker_alone, lone_defender=lone,
        alone=sorted(([maker] if maker_alone else []) + ([lone] if lone is not None else [])),
        sitting_out=out, active=active, hands=[by_index(h) for h in hands], out_of_play=by_index(out_of_play),
        leader=leader, plays=[(s, card_from_index(c)) for s, c in result["plays"]], tricks=result["tricks"],
        points=score_tricks(maker, result["tricks"], maker_alone, lone, rules,
                            trick_winners([(s, card_from_index(c)) for s, c in result["plays"]], trump, len(active))),
    )
    return record
