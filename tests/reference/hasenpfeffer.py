"""A plain-Python Hasenpfeffer engine: the rules of RULES.md section 3, written for clarity.

"Hasenpfeffer (4 players in two partnerships)". This module is the slow,
obvious twin that future Hasenpfeffer kernels will be checked against. It
implements the RULES only (what is legal and what it scores), never a
strategy: every decision (the calls, the trump, the widow discard, the cards
played) comes in as an argument, and each phase has a "what is legal"
function and an "apply / validate" function that raises ``ValueError`` with
a clear message when asked to do something illegal.

The 24 ordinary cards and the single-rule helpers for them (the left bower
moved to trump, the trump order of the bowers and A K Q 10 9) are those of
the Ghost Hand reference (``tests.reference.ghost``); the joker, which that
reference does not know, is handled here: every card rule below looks at the
joker first and hands any other card to the Ghost Hand helper.

Conventions
-----------
- Seats are 0, 1, 2, 3, numbered clockwise; "the left" of seat ``s`` is
  ``(s + 1) % 4``. Position ``p`` (1 = dealer's left, 4 = dealer) is seat
  ``(dealer + p) % 4``. Partners sit opposite: seats 0 & 2 are side 0,
  seats 1 & 3 side 1 (``side_of(seat) == seat % 2``). Scores, points and
  game totals are per side: ``[side 0, side 1]``.
- A card is a ``Card`` (suit, rank) of the Ghost Hand reference with
  ``index == suit * 6 + rank``, suits C S D H, ranks 9 T J Q K A, the same
  numbering as ``bower.sim.cards``; the joker is ``JOKER`` (a ``Joker``, index 24,
  written ``JK``), which has no suit or rank of its own: it is always the
  highest trump and belongs to the trump suit for following, leading and
  voids. ``DECK25[i].index == i``. Public functions accept ``Card`` /
  ``Joker`` objects, card indices or card strings (``"JH"``, ``"JK"``)
  wherever a card or a list of cards is expected, and return card objects,
  except ``play_with_choices`` (hand masks in, card indices out, as in the
  other references).
- A call is a string: ``"pass"``, a bid ``"1"`` .. ``"6"`` (``bidding =
  numeric``) or ``"1"`` .. ``"5"``, ``"little-pepper"``, ``"big-pepper"``
  (``bidding = pepper``), the spelling of ``hasenpfeffer_scores.jsonl``.
  Integers 1..6 are accepted for numeric bids, and ``little pepper`` /
  ``little_pepper`` for the pepper bids.
- The phases of a hand, in order: deal (``deal_cards``), auction
  (``auction_outcome``; ``legal_calls`` / ``next_caller``, or both from
  ``next_turn``, for the next call;
  all four passing gives the joker holder's forced 3 or a throw-in), the
  widow (``widow_options`` / ``take_widow``), trump (``trump_options`` /
  ``name_trump``), the first lead (``first_leader``), six tricks
  (``play_tricks`` / ``play_with_choices``), the score (``score_hand`` /
  ``score_tricks``). ``play_hand`` runs them all from explicit decisions.
  Between hands: ``next_dealer``, ``game_winner``; ``renege_points`` for the
  renege penalty.

Readings chosen where RULES.md leaves room (each is repeated where it is used)
-------------------------------------------------------------------------------
- Deal order: packets of three, position 1 first, clockwise, twice round;
  the 25th card of the order is the widow (``deal_cards``).
- Auction with ``pass_is_final = true``: a player who passed is never asked
  again (skipped, as in the Ghost Hand reference's ``until_passes``), so the
  auction ends when every player but the high bidder has passed.
- Pepper bidding: little pepper does *not* end the auction; the only call
  above it is big pepper, which anyone may bid at any time ("it is not
  necessary that a little pepper bid happen first" - seed 004), so big pepper
  may follow little pepper; big pepper ends the auction at once, like the
  numeric 6.
- All four pass, ``all_pass = joker_bids_three``: the joker holder's bid of
  3 is the contract at once (nobody bids over it) and is not a call in the
  call list; the joker holder is the high bidder, takes the widow and names
  trump like any high bidder.
- The widow discard is any one of the bidder's seven cards (the widow card
  and the joker included).
- ``defenders_score_tricks = true``: the defending side scores +1 per trick
  it takes, whether or not the bid was made (not doubled by big pepper).
- ``fail_penalty = undertricks``: a failed numeric bid loses one point per
  trick short; the pepper bids keep their fixed -6 / -12 (as the vectors say).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from bower.sim.rules import Option
from tests.reference.variant import Variant, resolve_remembered
from tests.reference import ghost as _ghost
from tests.reference.ghost import (  # the 24-card helpers shared with Ghost Hand (re-exported)
    DECK,
    JACK,
    SUIT_LETTERS,
    Card,
    same_colour_suit,
)

# --------------------------------------------------------------------------
# Sizes and rule options

PLAYERS = 4  # "4 players in two partnerships"
SIDES = 2
HAND_SIZE = 6  # "6 cards to each player"
TRICKS = 6
PACKET = 3  # "(in packets of three)"
DEALT = PLAYERS * HAND_SIZE  # 24 cards to the players; the 25th is the widow
TARGET = 10  # "Game: first side to 10 or more"
RENEGE_PENALTY = 2  # "the offending side loses 2 points"
FORCED_BID = "3"  # "the holder of the joker must bid 3"

# The options of RULES.md section 3 in the order RULES.md gives them, default first.
# The kernel codes are this reference's own placeholders (0 = default, 1 = the other
# value): ``sim/rules.py`` will own the real encoding.
HASENPFEFFER = Variant(
    name="hasenpfeffer",
    title="Hasenpfeffer",
    players=PLAYERS,
    hand_size=HAND_SIZE,
    target=TARGET,
    options=(
        Option("pass_is_final", (False, True), (0, 1)),
        Option("all_pass", ("joker_bids_three", "redeal"), (0, 1)),
        Option("bidding", ("numeric", "pepper"), (0, 1)),
        Option("widow", ("exchange", "dead"), (0, 1)),
        Option("first_lead", ("dealer_left", "bidder"), (0, 1)),
        Option("fail_penalty", ("bid", "undertricks"), (0, 1)),
        Option("defenders_score_tricks", (False, True), (0, 1)),
    ),
)


def resolve_rules(overrides: dict | None = None) -> dict:
    """Every Hasenpfeffer option with its value: the defaults, then ``overrides``.

    Unknown names and values not allowed raise ``bower.sim.rules.RuleError`` (a
    ``ValueError``); strings such as ``"true"`` are parsed as in
    ``bower.sim.rules.resolve``.
    """
    return resolve_remembered(HASENPFEFFER, overrides)


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
# Cards: the 24 of the Ghost Hand reference plus the joker


@dataclass(frozen=True)
class Joker:
    """The 25th card. It has no suit or rank of its own: it is always the highest trump."""

    @property
    def index(self) -> int:
        """The simulator's card number of the joker (``bower.sim.cards.JOKER``)."""
        return 24

    @property
    def suit(self):  # a reminder, not a suit: every rule asks ``effective_suit``
        return None

    @property
    def rank(self):
        return None

    def __str__(self) -> str:
        return "JK"

    __repr__ = __str__


JOKER = Joker()
DECK25 = [*DECK, JOKER]  # DECK25[i].index == i
N_CARDS = len(DECK25)


def is_joker(card) -> bool:
    return isinstance(card, Joker)


def card_from_str(text: str):
    """The card written ``text``: rank 9 T J Q K A (``10`` for T) and suit C S D H, or ``JK``."""
    if text.strip().upper() == "JK":
        return JOKER
    return _ghost.card_from_str(text)


def card_from_index(i: int):
    return DECK25[int(i)]


def cards_from_mask(mask: int) -> list:
    """The cards of a 25-bit hand mask, ascending by index (the joker last)."""
    return [c for c in DECK25 if int(mask) >> c.index & 1]


def mask_from_cards(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << as_card(c).index
    return m


def by_index(cards) -> list:
    return sorted(cards, key=attrgetter("index"))


def as_card(x):
    """A card from a ``Card``, the ``JOKER``, a card index 0..24 or a card string (``"JH"``, ``"JK"``)."""
    if isinstance(x, (Card, Joker)):
        return x
    if isinstance(x, str):
        try:
            return card_from_str(x)
        except (ValueError, IndexError):
            raise ValueError(f"malformed card {x!r}") from None
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) or not 0 <= x < N_CARDS:
        raise ValueError(f"not a card of the 25-card deck: {x!r}")
    return DECK25[int(x)]


def as_cards(xs, what: str = "cards") -> list:
    """A list of distinct cards (see ``as_card``); a duplicate raises ValueError."""
    cards = [as_card(x) for x in xs]
    if len(set(cards)) != len(cards):
        dup = by_index({c for c in cards if cards.count(c) > 1})
        raise ValueError(f"{what}: duplicate card(s) {', '.join(map(str, dup))}")
    return cards


def _names(cards) -> str:
    return " ".join(str(c) for c in by_index(cards))


def as_suit(trump) -> int:
    """A suit 0..3 from a suit number or a suit letter C S D H (any case)."""
    if isinstance(trump, str) and trump.strip().upper() in tuple(SUIT_LETTERS):
        return SUIT_LETTERS.index(trump.strip().upper())
    if isinstance(trump, bool) or not isinstance(trump, numbers.Integral) or not 0 <= trump < 4:
        raise ValueError(f"trump must be a suit 0..3 or a letter C S D H, not {trump!r}")
    return int(trump)


def right_bower(trump: int) -> Card:
    """The right bower: the jack of trump, the second-highest trump (below the joker)."""
    return Card(trump, JACK)


def left_bower(trump: int) -> Card:
    """The left bower: the other jack of trump's colour, the third-highest trump."""
    return Card(same_colour_suit(trump), JACK)


# --------------------------------------------------------------------------
# The order of cards given trump, and the rules of play


@lru_cache(maxsize=None, typed=True)  # a pure function the twin asks millions of times
def effective_suit(card, trump: int) -> int:
    """The suit a card belongs to for following, leading and voids.

    RULES.md: "The left bower (and the joker) belong to the trump suit for
    every purpose: following suit, being led, voids."
    """
    card = as_card(card)
    if is_joker(card):
        return trump
    return _ghost.effective_suit(card, trump)


def is_trump(card, trump: int) -> bool:
    return effective_suit(card, trump) == trump


# Trump order, low to high: 9 10 Q K A, left bower, right bower, joker.
TRUMP_ORDER_NAMES = (*_ghost.TRUMP_ORDER_NAMES, "joker")
JOKER_TRUMP_RANK = len(TRUMP_ORDER_NAMES) - 1


@lru_cache(maxsize=None, typed=True)  # a pure function the twin asks millions of times
def trump_rank(card, trump: int) -> int:
    """0..7 for 9 T Q K A left right joker of trump; the card must be a trump.

    "Trump order, high to low: (joker), right bower, left bower, A K Q 10 9";
    "a joker, which is always the highest trump".
    """
    card = as_card(card)
    if is_joker(card):
        return JOKER_TRUMP_RANK
    if not is_trump(card, trump):
        raise ValueError(f"{card} is not a trump when {SUIT_LETTERS[trump]} is trump")
    return _ghost.trump_rank(card, trump)


@lru_cache(maxsize=None, typed=True)  # a pure function the twin asks millions of times
def trick_power(card, trump: int, led: int) -> int:
    """A number that orders the cards of a trick: trumps above the suit led above the rest (0).

    "Highest trump wins the trick; with no trump in it, the highest card of
    the suit led wins." Non-trump cards of the suit led rank A K Q J 10 9 (the
    plain rank order); a card of neither trump nor the suit led takes nothing.
    """
    card = as_card(card)
    if is_trump(card, trump):
        return 20 + trump_rank(card, trump)
    if effective_suit(card, trump) == led:
        return 1 + card.rank
    return 0


def beats(challenger, holder, trump: int, led: int) -> bool:
    """Whether ``challenger`` takes the trick from ``holder`` (the card winning so far) when ``led`` was led."""
    return trick_power(challenger, trump, led) > trick_power(holder, trump, led)


def trick_winner(cards, trump: int) -> int:
    """Index (in play order) of the card that takes the trick; ``cards[0]`` was led.

    The suit led is the effective suit of the lead: a led joker or left bower
    calls for trump.
    """
    cards = as_cards(cards, "the trick")
    if not cards:
        raise ValueError("a trick has at least one card")
    led = effective_suit(cards[0], trump)
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump, led):
            best = i
    return best


def legal_cards(hand, lead, trump: int) -> list:
    """Cards of ``hand`` that may be played, sorted by index: the suit led if held, else any.

    "Follow the suit led if you can, else play any card." Suits are
    effective suits: the joker and the left bower are trumps, so a led joker
    calls for trump, and a player whose only trump is the joker must play it
    when trump is led; the joker never follows a plain suit.
    """
    hand = by_index(as_cards(hand, "the hand"))
    if lead is None:
        return hand
    led = effective_suit(lead, trump)
    following = [c for c in hand if effective_suit(c, trump) == led]
    return following if following else hand


def legal_mask(hand_mask: int, lead_index: int, trump: int) -> int:
    """``legal_cards`` on masks and indices (a hand mask of up to 25 bits)."""
    return mask_from_cards(legal_cards(cards_from_mask(hand_mask), card_from_index(lead_index), trump))


# --------------------------------------------------------------------------
# The deal

# Who receives the k-th packet of three cards of the order, for k = 0 .. 7:
# position 1 first, then clockwise, twice round; the 25th card is the widow.
DEAL_PACKETS = ("position 1", "position 2", "position 3", "dealer") * 2


@dataclass(frozen=True)
class Deal:
    """A dealt hand: six cards per seat and the widow, face down."""

    dealer: int
    hands: tuple  # by seat: hands[s] is a tuple of 6 cards sorted by index
    widow: object  # one card

    def all_cards(self) -> list:
        return [c for h in self.hands for c in h] + [self.widow]

    def joker_holder(self) -> int | None:
        """The seat dealt the joker, or None if the joker is the widow."""
        return joker_holder(self)


def deal_cards(order, dealer: int) -> Deal:
    """Deal a 25-card order (top of the deck first) as RULES.md section 3 says.

    "Deal: 6 cards to each player (in packets of three); the 25th card is the
    widow, face down."

    The dealing order is fixed here as follows: ``order[0..23]`` are dealt in
    packets of three to position 1, position 2, position 3, the dealer,
    position 1, ... (``DEAL_PACKETS``, twice round): ``order[3k .. 3k+2]`` go
    to position ``k % 4 + 1`` (position 4 = the dealer); ``order[24]``, the
    25th card, is the widow.
    """
    dealer = _check_seat(dealer, "dealer")
    cards = as_cards(order, "the deal order")
    if len(cards) != N_CARDS:
        raise ValueError(f"a deal order has all {N_CARDS} cards, got {len(cards)}")
    hands: list[list] = [[] for _ in range(PLAYERS)]
    for k in range(DEALT // PACKET):
        seat = seat_of_position(dealer, k % PLAYERS + 1)
        hands[seat].extend(cards[PACKET * k: PACKET * (k + 1)])
    return Deal(dealer=dealer, hands=tuple(tuple(by_index(h)) for h in hands), widow=cards[DEALT])


def joker_holder(deal: Deal) -> int | None:
    """The seat holding the joker in ``deal``, or None if the joker is the widow."""
    for seat, hand in enumerate(deal.hands):
        if JOKER in hand:
            return seat
    assert deal.widow == JOKER, "a deal always has the joker somewhere"
    return None


# --------------------------------------------------------------------------
# The auction

PASS = "pass"
LITTLE_PEPPER = "little-pepper"
BIG_PEPPER = "big-pepper"
NUMERIC_BIDS = ("1", "2", "3", "4", "5", "6")
PEPPER_BIDS = ("1", "2", "3", "4", "5", LITTLE_PEPPER, BIG_PEPPER)


def bids(rules: dict | None = None) -> tuple:
    """The bids of the bidding form in force, lowest first.

    ``numeric``: "bid 1-6"; ``pepper``: "the bids are 1-5, little pepper (6
    tricks, normal stakes) and big pepper (6 tricks, stakes doubled)".
    """
    rules = resolve_rules(rules)
    return NUMERIC_BIDS if rules["bidding"] == "numeric" else PEPPER_BIDS


def bid_level(bid, rules: dict | None = None) -> int:
    """The height of a bid in the auction (1 .. 6 numeric; 1 .. 5, 6 little pepper, 7 big pepper)."""
    order = bids(rules)
    bid = normalise_call(bid)
    if bid not in order:
        raise ValueError(f"{bid!r} is not a bid under bidding = {resolve_rules(rules)['bidding']} "
                         f"(bids: {', '.join(order)})")
    return order.index(bid) + 1


def bid_tricks(bid, rules: dict | None = None) -> int:
    """The tricks a bid contracts for: its number; 6 for little and big pepper."""
    return min(bid_level(bid, rules), TRICKS)


def ends_auction(bid, rules: dict | None = None) -> bool:
    """A bid nobody can beat ends the auction at once: the numeric 6, or big pepper.

    RULES.md: "a bid of 6 ends it at once". Read here for pepper bidding:
    little pepper does not end the auction, since big pepper is above it and
    "anyone can bid big pepper at any time" (seed 004); big pepper does.
    """
    return bid_level(bid, rules) == len(bids(rules))


def normalise_call(call) -> str:
    """A call as written here: ``"pass"``, ``"1"`` .. ``"6"``, ``"little-pepper"`` or ``"big-pepper"``."""
    if isinstance(call, numbers.Integral) and not isinstance(call, bool):
        return str(int(call))
    if not isinstance(call, str):  # an illegal call sequence is a ValueError, whatever is wrong in it
        raise ValueError(  # noqa: TRY004
            f"a call is a string ('pass', '1' .. '6', 'little-pepper', 'big-pepper'), not {call!r}"
        )
    return "-".join(call.strip().lower().replace("_", " ").replace("-", " ").split())


def calls_at_turn(standing, rules: dict | None = None) -> list[str]:
    """The calls a player may make when ``standing`` (a bid, or None) is the high bid.

    "pass or bid 1-6, each higher than the standing bid" (in the pepper form
    1-5, little pepper, big pepper; big pepper "may be bid directly").
    """
    order = bids(rules)
    above = 0 if standing is None else bid_level(standing, rules)
    return [PASS, *order[above:]]


@dataclass(frozen=True)
class AuctionResult:
    """The outcome of an auction.

    ``calls``: (seat, call) in order. ``thrown_in``: all four passed and the
    hand is thrown in (then ``bidder``, ``bid`` are None). ``bidder``: the
    high bidder. ``bid``: the contract (``"3"``, ``"little-pepper"``, ...).
    ``forced``: all four passed and the joker holder was made to bid 3 (that
    bid is not in ``calls``).
    """

    calls: tuple
    thrown_in: bool
    bidder: int | None = None
    bid: str | None = None
    forced: bool = False

    @property
    def bidding_side(self) -> int | None:
        return None if self.bidder is None else side_of(self.bidder)


@dataclass
class _AuctionState:
    seat: int  # the seat to call next (while the auction is not over)
    high: str | None = None  # the standing bid
    bidder: int | None = None  # who made it
    passes_since_high: int = 0
    passed: set | None = None  # seats that have passed at least once
    over: bool = False
    all_passed: bool = False


def _after_call(state: _AuctionState, seat: int, call: str, n_calls: int, rules: dict) -> None:
    """Update the auction state after ``seat`` called ``call`` (already known to be legal)."""
    if call == PASS:
        state.passed.add(seat)
        state.passes_since_high += 1
    else:
        state.high, state.bidder, state.passes_since_high = call, seat, 0
    if state.high is None:
        # Nobody has bid: the auction ends when all four have passed on the first round.
        state.over = state.all_passed = n_calls == PLAYERS
    elif ends_auction(state.high, rules):  # "a bid of 6 ends it at once" (and big pepper)
        state.over = True
    elif rules["pass_is_final"]:  # everyone but the high bidder has passed, for good
        state.over = all(s in state.passed for s in range(PLAYERS) if s != state.bidder)
    else:  # "until three players in a row have passed after the high bid"
        state.over = state.passes_since_high == PLAYERS - 1
    if state.over:
        return
    nxt = left_of(seat)
    if rules["pass_is_final"]:  # a player who passed is not asked again
        while nxt in state.passed:
            nxt = left_of(nxt)
    assert nxt != state.bidder, "the high bidder is never asked while the bid stands"
    state.seat = nxt


def _run_calls(calls, dealer: int, rules: dict) -> tuple[_AuctionState, list]:
    """Check ``calls`` one by one; (the state after them, the (seat, call) made)."""
    state = _AuctionState(seat=seat_of_position(dealer, 1), passed=set())
    made: list[tuple[int, str]] = []
    for k, raw in enumerate(calls):
        if state.over:
            how = ("ended with all four passing" if state.all_passed
                   else f"ended with {state.high!r} by seat {state.bidder}")
            raise ValueError(f"the auction {how} at call {k}; {len(calls) - k} more call(s) given")
        call = normalise_call(raw)
        allowed = calls_at_turn(state.high, rules)
        if call not in allowed:
            raise ValueError(
                f"call {k + 1} ({raw!r}): seat {state.seat} (position {position_of_seat(dealer, state.seat)}) "
                f"may call {' or '.join(repr(a) for a in allowed)}"
                + (f" over the standing bid {state.high!r}" if state.high is not None else "")
            )
        made.append((state.seat, call))
        _after_call(state, state.seat, call, len(made), rules)
    return state, made


def legal_calls(calls, dealer: int, rules: dict | None = None) -> list[str]:
    """The calls the next player may make after ``calls`` (checked); ``[]`` once the auction is over."""
    rules = resolve_rules(rules)
    state, _ = _run_calls(list(calls), _check_seat(dealer, "dealer"), rules)
    return [] if state.over else calls_at_turn(state.high, rules)


def next_turn(calls, dealer: int, rules: dict | None = None) -> tuple[int, list[str]] | None:
    """``(next_caller, legal_calls)`` after ``calls`` (checked), from one pass over them; None once the auction is over."""
    rules = resolve_rules(rules)
    state, _ = _run_calls(list(calls), _check_seat(dealer, "dealer"), rules)
    return None if state.over else (state.seat, calls_at_turn(state.high, rules))


def next_caller(calls, dealer: int, rules: dict | None = None) -> int | None:
    """The seat to call after ``calls`` (checked); None once the auction is over.

    Clockwise from position 1; with ``pass_is_final`` a player who passed is
    skipped.
    """
    rules = resolve_rules(rules)
    state, _ = _run_calls(list(calls), _check_seat(dealer, "dealer"), rules)
    return None if state.over else state.seat


def auction_outcome(calls, dealer: int, joker_seat: int | None, rules: dict | None = None) -> AuctionResult:
    """Validate a whole call sequence (from position 1, clockwise) and return its outcome.

    RULES.md section 3: "Auction from position 1: pass or bid 1-6, each
    higher than the standing bid. It goes round until three players in a row
    have passed after the high bid (a player who passed may bid again
    later); a bid of 6 ends it at once. Option pass_is_final." With
    ``pass_is_final`` a player who passed is skipped from then on, so the
    auction ends once every player but the high bidder has passed.

    "All four pass on the first round: the holder of the joker must bid 3;
    if the joker is the widow, the hand is thrown in. Option all_pass =
    joker_bids_three | redeal." ``joker_seat`` is the seat holding the joker,
    None if it is the widow (see ``joker_holder``). The forced 3 is the
    contract at once (nobody bids over it) and is not a call of ``calls``.

    Raises ValueError on an illegal call, a call after the auction ended, or
    a sequence that stops before the auction is over.
    """
    rules = resolve_rules(rules)
    dealer = _check_seat(dealer, "dealer")
    if joker_seat is not None:
        joker_seat = _check_seat(joker_seat, "joker_seat")
    state, made = _run_calls(list(calls), dealer, rules)
    if not state.over:
        raise ValueError(
            f"the auction is not over after {len(made)} call(s): seat {state.seat} "
            f"(position {position_of_seat(dealer, state.seat)}) is still to call"
        )
    if state.all_passed:
        if rules["all_pass"] == "redeal" or joker_seat is None:
            return AuctionResult(calls=tuple(made), thrown_in=True)
        return AuctionResult(calls=tuple(made), thrown_in=False, bidder=joker_seat, bid=FORCED_BID, forced=True)
    return AuctionResult(calls=tuple(made), thrown_in=False, bidder=state.bidder, bid=state.high)


# --------------------------------------------------------------------------
# The widow and trump


def widow_options(bidder_hand, widow, rules: dict | None = None) -> list:
    """What the high bidder may discard; ``[None]`` (no exchange) when the widow is dead.

    RULES.md: "The high bidder picks up the widow, names trump and discards
    one card face down. Option widow = exchange | dead." Under ``exchange``
    the discard is any one of the seven cards (the six held and the widow;
    the joker too); under ``dead`` the widow is not taken and nothing is
    discarded.
    """
    rules = resolve_rules(rules)
    hand = as_cards(bidder_hand, "the bidder's hand")
    w = as_card(widow)
    if len(hand) != HAND_SIZE:
        raise ValueError(f"the bidder holds {HAND_SIZE} cards before the widow, not {len(hand)}")
    if w in hand:
        raise ValueError(f"the widow {w} cannot be in the bidder's hand")
    if rules["widow"] == "dead":
        return [None]
    return by_index([*hand, w])


def take_widow(bidder_hand, widow, discard, rules: dict | None = None) -> tuple[list, object]:
    """Apply the widow exchange: (the bidder's six cards sorted by index, the card out of play).

    Under ``exchange`` the bidder takes the widow and ``discard`` (one of the
    seven) goes out of play face down. Under ``dead`` ``discard`` must be
    None: the hand stays as dealt and the widow itself is out of play.
    """
    options = widow_options(bidder_hand, widow, rules)
    hand = as_cards(bidder_hand, "the bidder's hand")
    w = as_card(widow)
    if options == [None]:
        if discard is not None:
            raise ValueError("widow = dead: the widow is not taken, so the bidder discards nothing")
        return by_index(hand), w
    if discard is None:
        raise ValueError("widow = exchange: the bidder takes the widow and must discard one card")
    d = as_card(discard)
    if d not in options:
        raise ValueError(f"the bidder's discard {d} is not one of their seven cards ({_names(options)})")
    return by_index([c for c in options if c != d]), d


def trump_options() -> list[int]:
    """The high bidder "names trump": any of the four suits (C S D H = 0 1 2 3)."""
    return [0, 1, 2, 3]


def name_trump(trump) -> int:
    """Check the named trump (a suit 0..3 or a letter) and return it as 0..3."""
    return as_suit(trump)


# --------------------------------------------------------------------------
# The first lead and the play


def first_leader(dealer: int, bidder: int, rules: dict | None = None) -> int:
    """RULES.md: "First lead: position 1. Option first_lead = dealer_left | bidder"."""
    rules = resolve_rules(rules)
    bidder = _check_seat(bidder, "bidder")
    if rules["first_lead"] == "bidder":
        return bidder
    return seat_of_position(dealer, 1)


def play_order(leader: int) -> list[int]:
    """The four seats in playing order for a trick: the leader, then clockwise."""
    leader = _check_seat(leader, "leader")
    return [(leader + k) % PLAYERS for k in range(PLAYERS)]


def play_tricks(hands, trump: int, leader: int, chooser) -> tuple[list, list[int]]:
    """Play the 6 tricks; ``chooser(seat, hand, trick, played)`` picks each card.

    "Follow the suit led if you can, else play any card. Highest trump wins
    the trick; with no trump in it, the highest card of the suit led wins.
    The winner leads the next trick." (The joker and the left bower belong
    to trump.) ``hands`` by seat (a list of four or a dict). Returns the
    plays as (seat, card) in order and the tricks per seat.
    """
    trump = as_suit(trump)
    hands = {s: as_cards(hands[s], f"seat {s}'s hand") for s in range(PLAYERS)}
    for s in range(PLAYERS):
        if len(hands[s]) != TRICKS:
            raise ValueError(f"seat {s} must hold {TRICKS} cards to play, holds {len(hands[s])}")
    in_play = [c for s in range(PLAYERS) for c in hands[s]]
    if len(set(in_play)) != len(in_play):
        raise ValueError(f"the hands share {_names({c for c in in_play if in_play.count(c) > 1})}")
    plays: list[tuple[int, object]] = []
    played: list = []
    tricks = [0] * PLAYERS
    for _ in range(TRICKS):
        trick: list = []
        seats = play_order(leader)
        for seat in seats:
            card = as_card(chooser(seat, by_index(hands[seat]), list(trick), list(played)))
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


def play_with_choices(hands, trump: int, leader: int, choices) -> dict:
    """Play 6 tricks from hand masks (by seat); play ``i`` is ``legal[choices[i] % len(legal)]``.

    Like the other references': ``legal`` is sorted by card index (the joker
    last); ``choices`` needs one entry per play, 24 (extra entries are
    unused). Returns ``plays`` as (seat, card index) and ``tricks`` per seat.
    """
    trump = as_suit(trump)
    choices = list(choices)
    need = TRICKS * PLAYERS
    if len(choices) < need:
        raise ValueError(f"{need} choices needed ({TRICKS} tricks x {PLAYERS} players), got {len(choices)}")
    counter = iter(range(need))

    def chooser(seat, hand, trick, played):
        legal = legal_cards(hand, trick[0] if trick else None, trump)
        return legal[int(choices[next(counter)]) % len(legal)]

    plays, tricks = play_tricks([cards_from_mask(int(hands[s])) for s in range(PLAYERS)], trump, int(leader), chooser)
    return {"plays": [(s, c.index) for s, c in plays], "tricks": tricks}


# --------------------------------------------------------------------------
# Scoring


def score_hand(bid, bidding_side_tricks: int, rules: dict | None = None) -> tuple[int, int]:
    """(bidding side's points, defending side's points) for one hand that was played.

    RULES.md section 3: "the bidding side, if it takes at least the bid,
    scores +1 per trick taken; if not, it scores -bid. Little pepper +-6,
    big pepper +-12. The defending side scores nothing. Scores may go
    negative. Options fail_penalty = bid | undertricks,
    defenders_score_tricks = false | true."

    As ``hasenpfeffer_scores.jsonl`` settles it: a made pepper bid scores 6
    (little) or 12 (big), a failed one -6 or -12, under either
    ``fail_penalty``; ``undertricks`` makes a failed numeric bid lose one
    point per trick short (``bidding_side_tricks - bid``). Read here for
    ``defenders_score_tricks = true``: the defenders score +1 per trick they
    took (``6 - bidding_side_tricks``), made or failed, not doubled by big
    pepper.
    """
    rules = resolve_rules(rules)
    bid = normalise_call(bid)
    level = bid_level(bid, rules)  # checks that the bid exists in the bidding form in force
    need = bid_tricks(bid, rules)
    t = bidding_side_tricks
    if isinstance(t, bool) or not isinstance(t, numbers.Integral) or not 0 <= t <= TRICKS:
        raise ValueError(f"the bidding side takes 0..{TRICKS} tricks, not {t!r}")
    t = int(t)
    if bid == LITTLE_PEPPER:
        bidders = 6 if t >= need else -6
    elif bid == BIG_PEPPER:
        bidders = 12 if t >= need else -12
    elif t >= need:
        bidders = t  # "+1 per trick taken"
    elif rules["fail_penalty"] == "undertricks":
        bidders = t - need  # -1 per trick short
    else:
        bidders = -level  # "-bid"
    defenders = TRICKS - t if rules["defenders_score_tricks"] else 0
    return bidders, defenders


def score_tricks(bidder: int, bid, tricks, rules: dict | None = None) -> list[int]:
    """Points per side ``[side 0, side 1]`` from the tricks per seat (four counts adding up to 6)."""
    bidder = _check_seat(bidder, "bidder")
    tricks = [int(t) for t in tricks]
    if len(tricks) != PLAYERS or sum(tricks) != TRICKS or min(tricks) < 0:
        raise ValueError(f"tricks per seat must be {PLAYERS} counts adding up to {TRICKS}, got {tricks}")
    side = side_of(bidder)
    taken = sum(tricks[s] for s in seats_of_side(side))
    bidders, defenders = score_hand(bid, taken, rules)
    points = [0, 0]
    points[side], points[1 - side] = bidders, defenders
    return points


def renege_points(offender: int, rules: dict | None = None) -> list[int]:
    """Points the renege penalty gives, per side (the penalty alone, not the hand's score).

    RULES.md: "Renege: the offending side loses 2 points." The other side
    gains nothing.
    """
    resolve_rules(rules)
    points = [0, 0]
    points[side_of(_check_seat(offender, "offender"))] = -RENEGE_PENALTY
    return points


# --------------------------------------------------------------------------
# The game


def game_winner(scores, bidding_side: int | None = None, target: int = TARGET) -> int | None:
    """The winning side given the game scores (per side) after a hand, or None if play goes on.

    RULES.md: "Game: first side to 10 or more; if both reach it on the same
    hand, the bidding side wins." So: neither side at ``target`` or more ->
    None; one side -> that side; both -> ``bidding_side`` (the side of that
    hand's high bidder), whatever the scores; both without a bidding side
    (a hand thrown in cannot carry both sides there) is a ValueError.
    """
    scores = [int(x) for x in scores]
    if len(scores) != SIDES:
        raise ValueError(f"one score per side ({SIDES}), got {len(scores)}")
    there = [side for side in range(SIDES) if scores[side] >= target]
    if not there:
        return None
    if len(there) == 1:
        return there[0]
    if bidding_side not in (0, 1):
        raise ValueError("both sides reached the target: the bidding side (0 or 1) of that hand decides")
    return bidding_side


# --------------------------------------------------------------------------
# One whole hand from explicit decisions


def play_hand(order, dealer: int, calls, *, trump=None, discard=None, choices=(), rules: dict | None = None) -> dict:
    """One hand from its deal order and every decision, each checked against the rules.

    ``calls``: the auction (see ``auction_outcome``; the joker holder's
    forced 3 is not a call). ``trump``: the suit the high bidder names (0..3
    or a letter). ``discard``: the bidder's discard after taking the widow
    (one of the seven cards; must be None under ``widow = dead``).
    ``choices``: the play choices (see ``play_with_choices``). A hand thrown
    in takes no trump, discard or choices.

    Returns a dict: ``deal`` (``Deal``), ``auction`` (``AuctionResult``),
    ``bidder``, ``bid``, ``bidding_side``, ``trump``, ``widow_taken``,
    ``discard``, ``hands`` (by seat: the six cards each seat plays with),
    ``out_of_play`` (every card not played: the discard, or the dead widow;
    all 25 in a hand thrown in), ``leader`` (first lead), ``plays`` ((seat,
    card) in order), ``tricks`` per seat, ``side_tricks`` and ``points`` per
    side. A hand thrown in has no play and 0 points.
    """
    rules = resolve_rules(rules)
    d = deal_cards(order, dealer)
    auction = auction_outcome(calls, d.dealer, joker_holder(d), rules)
    record = {
        "deal": d, "auction": auction, "bidder": auction.bidder, "bid": auction.bid,
        "bidding_side": auction.bidding_side, "trump": None, "widow_taken": False, "discard": None,
        "hands": [list(h) for h in d.hands], "out_of_play": [], "leader": None, "plays": [],
        "tricks": [0] * PLAYERS, "side_tricks": [0, 0], "points": [0, 0],
    }
    if auction.thrown_in:
        if trump is not None or discard is not None:
            raise ValueError("the hand was thrown in: no trump is named and no widow taken")
        record["out_of_play"] = by_index(d.all_cards())
        return record
    if trump is None:
        raise ValueError(f"the high bidder (seat {auction.bidder}) must name trump")
    trump = name_trump(trump)
    bidder = auction.bidder
    hands = [list(h) for h in d.hands]
    hands[bidder], out = take_widow(d.hands[bidder], d.widow, discard, rules)
    leader = first_leader(d.dealer, bidder, rules)
    result = play_with_choices([mask_from_cards(h) for h in hands], trump, leader, choices)
    tricks = result["tricks"]
    record.update(
        trump=trump, widow_taken=rules["widow"] == "exchange",
        discard=out if rules["widow"] == "exchange" else None,
        hands=[by_index(h) for h in hands], out_of_play=[out], leader=leader,
        plays=[(s, card_from_index(c)) for s, c in result["plays"]], tricks=tricks,
        side_tricks=[tricks[0] + tricks[2], tricks[1] + tricks[3]],
        points=score_tricks(bidder, auction.bid, tricks, rules),
    )
    return record
