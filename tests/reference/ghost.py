"""A plain-Python Ghost Hand Euchre engine: the slow, obvious twin of the kernels.

Written from RULES.md section 1 and the strategy described in
``sim/strategy.py``, for clarity rather than speed: cards are ``Card`` objects
with a suit and a rank, hands are lists of cards, and every rule is a small
function with the rule's own words in it. It shares only notation (card
strings, option and parameter names) with the simulator, never its tables.

Seats are 0, 1, 2. The dealer of independent hand ``h`` is seat ``h % 3``;
position ``p`` (1 = dealer's left, 3 = dealer) is seat ``(dealer + p) % 3``.
Each seat has its own strategy parameters; the deterministic strategy may
be score-aware (its bid thresholds move near the target), and the random
player draws every decision from a decision stream kept apart from the deal
stream (``tests/reference/rng.py``).

Public functions mirror ``bower.sim.runner`` so a test can compare them directly:
``hand_records``, ``game_results``, ``deal_masks``, ``play_with_choices``,
``score_hand``, and the single-rule helpers ``legal_cards``/``legal_mask``,
``legal_calls`` and ``trick_winner``. ``game_details`` adds what a game went
through (ties at the top, playoff hands, the hand records). ``play_forced``
plays one given deal with one seat's decisions at one turn forced (``Force``),
as ``bower should-bid`` and the paired swap analysis do.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import attrgetter

from bower.sim.rules import RULES_VERSION, resolve
from bower.sim.strategy import resolve_strategy
from tests.reference.rng import (
    Xoshiro256ss,
    chunk_rng,
    decision_chunk_rng,
    game_deal_rng,
    game_decision_rng,
)
from bower.sim.variants import get_variant

GHOST = get_variant("ghost")

SUIT_LETTERS = "CSDH"  # clubs, spades, diamonds, hearts
RANK_LETTERS = "9TJQKA"  # nine (low) .. ace (high), plain-suit order
CLUBS, SPADES, DIAMONDS, HEARTS = range(4)
NINE, TEN, JACK, QUEEN, KING, ACE = range(6)
COLOUR = {CLUBS: "black", SPADES: "black", DIAMONDS: "red", HEARTS: "red"}

PLAYERS = 3
HAND_SIZE = 6
TRICKS = 6
CHUNK_HANDS = 4096
MOON = 6


@dataclass(frozen=True, eq=False, init=False)
class Card:
    """One card of the 24-card deck; ``index`` is the simulator's card number, suit * 6 + rank.

    There is one ``Card`` object per card: ``Card(suit, rank)`` hands out the
    same object every time (and so do copies and pickles), so two cards are
    equal exactly when they are the same object, and a card hashes as an
    object. The twins compare, hash and sort cards millions of times; this
    keeps each of those at the interpreter's own speed.
    """

    suit: int
    rank: int

    def __new__(cls, suit: int, rank: int) -> Card:
        key = (int(suit), int(rank))
        card = _CARDS.get(key)
        if card is None:
            card = _CARDS[key] = super().__new__(cls)
            object.__setattr__(card, "suit", key[0])
            object.__setattr__(card, "rank", key[1])
            object.__setattr__(card, "index", key[0] * 6 + key[1])
        return card

    def __reduce__(self):
        return (Card, (self.suit, self.rank))

    def __str__(self) -> str:
        return RANK_LETTERS[self.rank] + SUIT_LETTERS[self.suit]

    __repr__ = __str__


_CARDS: dict[tuple[int, int], Card] = {}
DECK = [Card(s, r) for s in range(4) for r in range(6)]  # DECK[i].index == i


def card_from_str(text: str) -> Card:
    text = text.strip().upper().replace("10", "T")
    return Card(SUIT_LETTERS.index(text[1]), RANK_LETTERS.index(text[0]))


def card_from_index(i: int) -> Card:
    return DECK[int(i)]


def cards_from_mask(mask: int) -> list[Card]:
    return [c for c in DECK if int(mask) >> c.index & 1]


def mask_from_cards(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


def by_index(cards) -> list[Card]:
    return sorted(cards, key=attrgetter("index"))


# --------------------------------------------------------------------------
# Bowers, suits and the order of cards given trump


_SAME_COLOUR = {suit: next(s for s in range(4) if s != suit and COLOUR[s] == COLOUR[suit]) for suit in range(4)}


def same_colour_suit(suit: int) -> int:
    """The other suit of the same colour (clubs <-> spades, diamonds <-> hearts)."""
    return _SAME_COLOUR[suit]


def is_right_bower(card: Card, trump: int) -> bool:
    return card.rank == JACK and card.suit == trump


def is_left_bower(card: Card, trump: int) -> bool:
    return card.rank == JACK and card.suit == same_colour_suit(trump)


@lru_cache(maxsize=None, typed=True)  # a pure function the twins ask millions of times
def effective_suit(card: Card, trump: int) -> int:
    """The suit a card belongs to for following, leading and voids: the left bower is trump."""
    if is_left_bower(card, trump):
        return trump
    return card.suit


@lru_cache(maxsize=None, typed=True)  # a pure function the twins ask millions of times
def is_trump(card: Card, trump: int) -> bool:
    return effective_suit(card, trump) == trump


# Trump order, low to high: 9 10 Q K A, left bower, right bower.
TRUMP_ORDER_NAMES = ("nine", "ten", "queen", "king", "ace", "left", "right")
_PLAIN_TRUMP_RANK = {NINE: 0, TEN: 1, QUEEN: 2, KING: 3, ACE: 4}


@lru_cache(maxsize=None, typed=True)  # a pure function the twins ask millions of times
def trump_rank(card: Card, trump: int) -> int:
    """0..6 for 9 T Q K A left right of trump; the card must be a trump."""
    if is_right_bower(card, trump):
        return 6
    if is_left_bower(card, trump):
        return 5
    assert card.suit == trump
    return _PLAIN_TRUMP_RANK[card.rank]


@lru_cache(maxsize=None, typed=True)  # a pure function the twins ask millions of times
def beats(challenger: Card, holder: Card, trump: int, led: int) -> bool:
    """Whether ``challenger`` takes the trick from ``holder`` when suit ``led`` was led.

    A trump beats any non-trump and a lower trump; a card of the suit led beats
    a lower card of the suit led and any card that is neither trump nor of the
    suit led; a card of any other suit beats nothing.
    """
    c_trump, h_trump = is_trump(challenger, trump), is_trump(holder, trump)
    if c_trump and h_trump:
        return trump_rank(challenger, trump) > trump_rank(holder, trump)
    if c_trump != h_trump:
        return c_trump
    c_led = effective_suit(challenger, trump) == led
    h_led = effective_suit(holder, trump) == led
    if c_led and h_led:
        return challenger.rank > holder.rank
    return c_led and not h_led


def trick_power(card: Card, trump: int, led: int) -> int:
    """A number that orders cards in a trick: trumps above the suit led above the rest (0)."""
    if is_trump(card, trump):
        return 20 + trump_rank(card, trump)
    if effective_suit(card, trump) == led:
        return 1 + card.rank
    return 0


@lru_cache(maxsize=None, typed=True)  # a pure function the twins ask millions of times
def card_value(card: Card, trump: int) -> int:
    """How precious a card is to its holder: trumps 20 + trump rank, other cards their rank."""
    if is_trump(card, trump):
        return 20 + trump_rank(card, trump)
    return card.rank


# --------------------------------------------------------------------------
# The rules of play


def legal_cards(hand, lead: Card | None, trump: int) -> list[Card]:
    """Cards of ``hand`` that may be played: the led suit if held (bowers count as trump), else any."""
    hand = by_index(hand)
    if lead is None:
        return hand
    led = effective_suit(lead, trump)
    following = [c for c in hand if effective_suit(c, trump) == led]
    return following if following else hand


def legal_mask(hand_mask: int, lead_index: int, trump: int) -> int:
    return mask_from_cards(legal_cards(cards_from_mask(hand_mask), card_from_index(lead_index), trump))


def trick_winner(cards, trump: int) -> int:
    """Index (in play order) of the card that takes the trick; ``cards[0]`` was led."""
    led = effective_suit(cards[0], trump)
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump, led):
            best = i
    return best


# --------------------------------------------------------------------------
# Scoring


def score_hand(maker: int, bid: int, tricks, rules: dict | None = None) -> list[int]:
    """Points of seats 0..2 for one hand; ``bid`` is 3, 4, 5 or 6 (the moon)."""
    rules = resolve(GHOST, rules)
    points = list(tricks)  # every player scores +1 per trick taken ...
    taken = tricks[maker]
    if taken >= bid:
        points[maker] = 24 if bid == MOON else taken  # ... a moon made scores 24, not 24 + 6
    else:
        penalty = rules["moon_set_penalty"] if bid == MOON else bid
        points[maker] = -penalty + (taken if rules["set_keeps_tricks"] else 0)
    return points


# --------------------------------------------------------------------------
# The default strategy


def _trump_weight(card: Card, trump: int, params: dict) -> float:
    name = TRUMP_ORDER_NAMES[trump_rank(card, trump)]
    return params["w_" + name] if name in ("left", "right") else params["w_trump_" + name]


def estimate(hand, trump: int, params: dict) -> float:
    """Tricks the strategy expects ``hand`` to take with ``trump``.

    Summed card by card in ascending card order (so that the float result is
    the kernel's to the last bit), then the void bonus suit by suit.
    """
    total = 0.0
    n_trumps = 0
    held = set()  # the suits the hand holds, by effective suit
    for card in by_index(hand):
        suit = effective_suit(card, trump)
        held.add(suit)
        if suit == trump:  # is_trump
            total += _trump_weight(card, trump, params)
            n_trumps += 1
        elif card.rank == ACE:
            total += params["w_off_ace"]
        elif card.rank == KING:
            total += params["w_off_king"]
    if n_trumps >= 2:
        for suit in range(4):
            if suit != trump and suit not in held:
                total += params["w_void"]
    return total


def best_suit(hand, params: dict) -> tuple[int, float]:
    """The suit with the highest estimate (ties: the lowest suit) and that estimate."""
    best, best_est = CLUBS, estimate(hand, CLUBS, params)
    for suit in (SPADES, DIAMONDS, HEARTS):
        e = estimate(hand, suit, params)
        if e > best_est:
            best, best_est = suit, e
    return best, best_est


def level(est: float, params: dict) -> int:
    """The bid an estimate supports: 6 (moon), 5, 4, 3, or 0 for none."""
    if est >= params["bid_moon"]:
        return MOON
    if est >= params["bid_5"]:
        return 5
    if est >= params["bid_4"]:
        return 4
    if est >= params["bid_3"]:
        return 3
    return 0


def choose_lead(seat: int, hand, trump: int, maker: int, played, params: dict) -> Card:
    hand = by_index(hand)
    trumps = [c for c in hand if is_trump(c, trump)]
    if seat == maker and trumps and len(trumps) >= params["lead_trump_min"]:
        return max(trumps, key=lambda c: card_value(c, trump))
    seen = {*hand, *played}  # a set: one hash per card, not a comparison with every card held or played
    unseen = [c for c in DECK if c not in seen]
    sure = [
        c
        for c in hand
        if not any(
            effective_suit(u, trump) == effective_suit(c, trump) and beats(u, c, trump, effective_suit(c, trump))
            for u in unseen
        )
    ]
    pool = sure if sure else hand
    return min(pool, key=lambda c: (card_value(c, trump), c.index))


def choose_follow(hand, trick: list[Card], trump: int) -> Card:
    legal = legal_cards(hand, trick[0], trump)
    led = effective_suit(trick[0], trump)
    winning = trick[trick_winner(trick, trump)]
    winners = [c for c in legal if beats(c, winning, trump, led)]
    if winners:
        return min(winners, key=lambda c: (trick_power(c, trump, led), c.index))
    return min(legal, key=lambda c: (card_value(c, trump), c.index))


# --------------------------------------------------------------------------
# Playing six tricks


def play_tricks(hands: dict, trump: int, leader: int, chooser) -> tuple[list, list[int]]:
    """Play 6 tricks; ``chooser(seat, hand, trick, played)`` picks each card.

    Returns the plays as ``(seat, Card)`` in order and the tricks per seat.
    """
    hands = {s: list(h) for s, h in hands.items()}
    plays: list[tuple[int, Card]] = []
    played: list[Card] = []
    tricks = [0] * PLAYERS
    for _ in range(TRICKS):
        trick: list[Card] = []
        seats = [(leader + k) % PLAYERS for k in range(PLAYERS)]
        for seat in seats:
            card = chooser(seat, hands[seat], trick, played)
            legal = legal_cards(hands[seat], trick[0] if trick else None, trump)
            assert card in legal, f"seat {seat} chose {card}, not in {legal}"
            hands[seat].remove(card)
            trick.append(card)
            plays.append((seat, card))
        played.extend(trick)
        leader = seats[trick_winner(trick, trump)]
        tricks[leader] += 1
    return plays, tricks


def play_with_choices(hands, trump: int, leader: int, choices) -> dict:
    """Play 6 tricks from hand masks (by seat); play ``i`` is ``legal[choices[i] % len(legal)]``.

    ``legal`` is sorted by card index. Returns ``plays`` as (seat, card index)
    and ``tricks`` per seat.
    """
    choices = list(choices)
    counter = iter(range(len(choices)))

    def chooser(seat, hand, trick, played):
        legal = legal_cards(hand, trick[0] if trick else None, trump)
        return legal[choices[next(counter)] % len(legal)]

    plays, tricks = play_tricks(
        {s: cards_from_mask(m) for s, m in enumerate(hands)}, int(trump), int(leader), chooser
    )
    return {"plays": [(s, c.index) for s, c in plays], "tricks": tricks}


# --------------------------------------------------------------------------
# Dealing


def deal_from(rng: Xoshiro256ss) -> list[list[Card]]:
    """Shuffle a fresh deck (Fisher-Yates from the top) and deal one card at a time.

    Returns the hands of position 1, position 2, position 3 (dealer), ghost.
    """
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands: list[list[Card]] = [[], [], [], []]
    for k, card in enumerate(deck):
        hands[k % 4].append(card)
    return [by_index(h) for h in hands]


_CHECKPOINT_EVERY = 256


@lru_cache(maxsize=64)
def _chunk_checkpoints(seed: int, chunk: int) -> dict:
    """Generator states at every ``_CHECKPOINT_EVERY``-th hand of a chunk, filled as dealt."""
    return {0: chunk_rng(seed, chunk)}


def deals(seed: int, start: int, count: int) -> list[list[list[Card]]]:
    """The deals (4 hands each, see ``deal_from``) of hands ``start .. start+count-1``."""
    out = []
    h = start
    while h < start + count:
        chunk, offset = divmod(h, CHUNK_HANDS)
        marks = _chunk_checkpoints(seed, chunk)
        base = max(k for k in marks if k <= offset)
        rng = marks[base].copy()
        for k in range(base, CHUNK_HANDS):
            if k % _CHECKPOINT_EVERY == 0 and k not in marks:
                marks[k] = rng.copy()
            hands = deal_from(rng)
            if k >= offset:
                out.append(hands)
                h += 1
                if h >= start + count:
                    break
    return out


def deal_masks(seed: int, start: int, count: int) -> list[list[int]]:
    return [[mask_from_cards(hand) for hand in deal] for deal in deals(seed, start, count)]


# --------------------------------------------------------------------------
# Players: one strategy per seat, score-aware bidding, the random player

TARGET = 32  # RULES.md 1: "first to 32 or more wins"
PASS = 0
CALL_NAMES = {PASS: "pass", 3: "3", 4: "4", 5: "5", MOON: "moon"}


def seat_strategies(strategy) -> list[dict]:
    """Parameters by seat: one strategy for every seat, or a list of three (seat 0, 1, 2)."""
    if isinstance(strategy, (list, tuple)):
        if len(strategy) != PLAYERS:
            raise ValueError(f"need one strategy per seat ({PLAYERS}), got {len(strategy)}")
        return [resolve_strategy(s) for s in strategy]
    params = resolve_strategy(strategy)
    return [params] * PLAYERS


def is_random(params: dict) -> bool:
    """The random player: every decision uniformly among the legal ones."""
    return params["random"] >= 0.5


def close_to_target(score: int, params: dict, target: int = TARGET) -> bool:
    return score >= target - params["near_target"]


def score_shift(seat: int, scores, params: dict, target: int = TARGET) -> float:
    """How far every bid threshold moves for ``seat`` given the game scores before the hand.

    Starts at 0.0; plus ``bid_shift_self_near`` if the player is close to the
    target; plus ``bid_shift_opp_near`` (once) if any opponent is.
    """
    shift = 0.0
    if close_to_target(scores[seat], params, target):
        shift += params["bid_shift_self_near"]
    if any(close_to_target(scores[s], params, target) for s in range(PLAYERS) if s != seat):
        shift += params["bid_shift_opp_near"]
    return shift


def legal_calls(standing: int, dealer_stuck: bool) -> list[int]:
    """The calls a player may make: pass (not a stuck dealer), each bid above the standing one, moon."""
    calls = [] if dealer_stuck else [PASS]
    calls.extend(range(max(3, standing + 1), 6))
    calls.append(MOON)
    return calls


def default_wants_swap(hand, params: dict) -> bool:
    return best_suit(hand, params)[1] < params["swap_below"]


def default_call(hand, standing: int, dealer_stuck: bool, shift: float, params: dict) -> int:
    """The default strategy's call: the level of (best estimate - shift), as sim/strategy.py describes."""
    lvl = level(best_suit(hand, params)[1] - shift, params)
    if lvl == MOON:
        return MOON
    if lvl > standing:
        return lvl if params["bid_jump"] >= 0.5 else max(3, standing + 1)
    return 3 if dealer_stuck else PASS


class NoDecisions:
    """The decision stream of a run where nobody plays at random: drawing from it is a bug."""

    def bounded(self, n: int) -> int:
        raise AssertionError("a deterministic player drew from the decision stream")


# --------------------------------------------------------------------------
# One hand


def dealer_of(hand_index: int) -> int:
    return hand_index % PLAYERS


def seat_of_position(dealer: int, position: int) -> int:
    return (dealer + position) % PLAYERS


def swap_allowed(rules: dict, swapper, seat: int, has_called: set) -> bool:
    """RULES.md: at their own turn, before calling, a player may swap; only one swap per deal."""
    return rules["swap"] == "at_turn" and swapper is None and seat not in has_called


def still_bidding(seat: int, passed: set, high_bidder) -> bool:
    """Whether ``seat`` gets a turn: a pass is final and the high bidder does not bid over themselves."""
    return seat not in passed and seat != high_bidder


# --------------------------------------------------------------------------
# Forced decisions: one seat's choices at one turn imposed (should-bid, paired swap replays)

AS_STRATEGY = -1  # in a field of a Force: "as the strategy does"


@dataclass(frozen=True)
class Force:
    """One seat's decisions imposed at one turn of the auction; -1 in a field: as the strategy does.

    ``seat``: whose decisions. ``at``: which turn: -1 is the seat's first turn
    of the auction; ``k >= 0`` is the turn taken when exactly ``k`` calls have
    been made, if it is the seat that takes it (otherwise no turn is forced).
    At that turn ``swap`` (1 swap, 0 keep) replaces the swap decision if the
    swap is open to the seat, then ``call`` (0 pass, 3, 4, 5, 6 the moon)
    replaces its call; the caller makes sure the call is legal there. After
    the auction, if ``seat`` is the maker, ``trump`` (a suit) is the trump it
    names, whether or not the forced turn came. A forced decision is not
    drawn from the decision stream, even by a random player.
    """

    seat: int
    at: int = AS_STRATEGY
    swap: int = AS_STRATEGY
    call: int = AS_STRATEGY
    trump: int = AS_STRATEGY

    @classmethod
    def of(cls, force) -> Force | None:
        """A Force from None (nothing forced), a Force, or a (seat, at, swap, call, trump) tuple."""
        if force is None or isinstance(force, Force):
            return force
        seat, at, swap, call, trump = (int(x) for x in force)
        return cls(seat, at, swap, call, trump)

    def is_forced_turn(self, seat: int, calls_made: int, first_turn: bool) -> bool:
        """Whether the turn ``seat`` is taking now, after ``calls_made`` calls, is the forced one."""
        if seat != self.seat:
            return False
        if self.at == AS_STRATEGY:
            return first_turn
        return calls_made == self.at

    def forced_swap(self) -> bool | None:
        """The imposed swap decision (True swap, False keep), or None if the strategy decides."""
        return None if self.swap == AS_STRATEGY else self.swap == 1

    def forced_call(self) -> int | None:
        return None if self.call == AS_STRATEGY else self.call

    def forced_trump(self, maker) -> int | None:
        """The trump the maker must name, or None if the strategy chooses."""
        return self.trump if maker == self.seat and self.trump != AS_STRATEGY else None


def auction(hands: dict, ghost, dealer: int, rules: dict, seats: list, scores=(0, 0, 0), decisions=None,
            target: int = TARGET, force: Force | None = None) -> dict:
    """Run the auction; ``hands`` (by seat) is changed in place by a swap.

    ``seats`` holds each seat's strategy parameters, ``scores`` the game
    scores before the hand, ``decisions`` the decision stream of random
    players, ``force`` one seat's imposed decisions at one turn (``Force``;
    None: nobody's). Returns ``swap`` (seat or None), ``calls`` ([seat, call
    name] in order), ``maker`` and ``bid`` (None when thrown in).
    """
    decisions = decisions if decisions is not None else NoDecisions()
    order = [seat_of_position(dealer, p) for p in (1, 2, 3)]
    swapper = None
    calls: list[list] = []
    has_called: set[int] = set()
    passed: set[int] = set()
    high_bid, high_bidder = 0, None

    def take_turn(seat: int) -> int:
        nonlocal swapper, high_bid, high_bidder
        params = seats[seat]
        forced_turn = force is not None and force.is_forced_turn(seat, len(calls), seat not in has_called)
        imposed_swap = force.forced_swap() if forced_turn else None
        imposed_call = force.forced_call() if forced_turn else None
        if swap_allowed(rules, swapper, seat, has_called):
            if imposed_swap is not None:
                wants = imposed_swap
            elif is_random(params):
                wants = decisions.bounded(2) == 1
            else:
                wants = default_wants_swap(hands[seat], params)
            if wants:
                swapper = seat
                hands[seat] = list(ghost)  # the old hand is now the dead hand
        stuck = (
            rules["stick_the_dealer"]
            and seat == dealer
            and high_bidder is None
            and all(s in passed for s in order if s != seat)
        )
        allowed = legal_calls(high_bid, stuck)
        if imposed_call is not None:
            call = imposed_call
        elif is_random(params):
            call = allowed[decisions.bounded(len(allowed))]
        else:
            call = default_call(hands[seat], high_bid, stuck, score_shift(seat, scores, params, target), params)
        assert call in allowed, (seat, call, allowed)
        has_called.add(seat)
        calls.append([seat, CALL_NAMES[call]])
        if call == PASS:
            passed.add(seat)
        else:
            high_bid, high_bidder = call, seat
        return call

    if rules["auction"] == "one_lap":
        for seat in order:
            if take_turn(seat) == MOON:  # a moon ends the auction
                break
    else:  # until_passes: round and round until everyone after the high bidder has passed
        turn = 0
        while True:
            if high_bid == MOON:
                break
            if high_bidder is None and len(passed) == PLAYERS:
                break
            if high_bidder is not None and all(s in passed for s in order if s != high_bidder):
                break
            seat = order[turn % PLAYERS]
            turn += 1
            if still_bidding(seat, passed, high_bidder):
                take_turn(seat)
    return {"swap": swapper, "calls": calls, "maker": high_bidder, "bid": high_bid if high_bidder is not None else None}


def play_hand(deal: list[list[Card]], dealer: int, rules: dict, seats: list, scores=(0, 0, 0), decisions=None,
              hand_index: int | None = None, target: int = TARGET, force: Force | None = None) -> dict:
    """The record of one hand from its deal (position 1, 2, 3, ghost).

    ``seats``: strategy parameters by seat; ``scores``: game scores before
    the hand (score-aware bidding); ``decisions``: the decision stream that
    random players draw from, in the order swap, call, trump, cards;
    ``force``: one seat's imposed decisions (``Force``; None: nobody's).
    """
    if any(p.get("pimc_worlds", 0.0) >= 1.0 for p in seats):
        raise NotImplementedError("PIMC card play (pimc_worlds >= 1) is not in the twin")
    decisions = decisions if decisions is not None else NoDecisions()
    hands = {seat_of_position(dealer, p): list(deal[p - 1]) for p in (1, 2, 3)}
    ghost = list(deal[3])
    dealt = {str(s): [str(c) for c in by_index(hands[s])] for s in range(PLAYERS)}
    dealt["ghost"] = [str(c) for c in by_index(ghost)]

    result = auction(hands, ghost, dealer, rules, seats, scores, decisions, target, force)
    maker, bid = result["maker"], result["bid"]
    record = {
        "variant": "ghost",
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand_index,
        "dealer": dealer,
        "deal": dealt,
        "swap": result["swap"],
        "calls": result["calls"],
        "maker": maker,
        "bid": bid,
        "trump": None,
        "plays": [],
        "tricks": {str(s): 0 for s in range(PLAYERS)},
        "points": {str(s): 0 for s in range(PLAYERS)},
    }
    if maker is None:  # everyone passed: thrown in
        return record
    # the high bidder names any suit as trump
    imposed_trump = force.forced_trump(maker) if force is not None else None
    if imposed_trump is not None:
        trump = imposed_trump
    elif is_random(seats[maker]):
        trump = decisions.bounded(4)
    else:
        trump = best_suit(hands[maker], seats[maker])[0]

    def chooser(seat, hand, trick, played):
        params = seats[seat]
        if is_random(params):
            legal = legal_cards(hand, trick[0] if trick else None, trump)
            return legal[decisions.bounded(len(legal))]
        if not trick:
            return choose_lead(seat, hand, trump, maker, played, params)
        return choose_follow(hand, trick, trump)

    plays, tricks = play_tricks(hands, trump, maker, chooser)
    points = score_hand(maker, bid, tricks, rules)
    record["trump"] = SUIT_LETTERS[trump]
    record["plays"] = [[s, str(c)] for s, c in plays]
    record["tricks"] = {str(s): tricks[s] for s in range(PLAYERS)}
    record["points"] = {str(s): points[s] for s in range(PLAYERS)}
    return record


def hand_records(seed: int, start: int, count: int, rules: dict | None = None, strategy="default") -> list[dict]:
    """Records of hands ``start .. start+count-1`` of the run with ``seed`` (see ``bower.sim.runner``).

    ``strategy``: one strategy for every seat or a list of three (by seat).
    Independent hands: game scores are all 0; the dealer of hand h is h % 3.
    A random player draws from its chunk's decision stream, which runs
    through the chunk's hands from the first, so those are played too.
    """
    rules = resolve(GHOST, rules)
    seats = seat_strategies(strategy)
    if not any(is_random(p) for p in seats):
        return [
            play_hand(deal, dealer_of(start + i), rules, seats, hand_index=start + i)
            for i, deal in enumerate(deals(seed, start, count))
        ]
    out: list[dict] = []
    h = start
    while h < start + count:
        chunk = h // CHUNK_HANDS
        first = chunk * CHUNK_HANDS
        end = min(first + CHUNK_HANDS, start + count)
        decisions = decision_chunk_rng(seed, chunk)
        for k, deal in enumerate(deals(seed, first, end - first)):
            rec = play_hand(deal, dealer_of(first + k), rules, seats, (0, 0, 0), decisions, first + k)
            if first + k >= h:
                out.append(rec)
        h = end
    return out


def play_forced(dealt, dealer: int, force=None, rules: dict | None = None, strategy="default",
                scores=(0, 0, 0), seed: int = 0) -> dict:
    """The record of one hand played from given masks with one seat's decisions forced (see ``bower.sim.runner``).

    ``dealt``: masks by dealing slot (position 1, 2, 3 = dealer, ghost);
    ``force``: None, a ``Force`` or (seat, at, swap, call, trump) with -1 for
    "as the strategy does". Random players draw from the decision stream of
    hand chunk 0 of ``seed``. The record's ``hand`` is 0.
    """
    rules = resolve(GHOST, rules)
    seats = seat_strategies(strategy)
    deal = [cards_from_mask(m) for m in dealt]
    decisions = decision_chunk_rng(seed, 0) if any(is_random(p) for p in seats) else NoDecisions()
    scores = tuple(int(x) for x in scores)
    return play_hand(deal, int(dealer), rules, seats, scores, decisions, 0, force=Force.of(force))


# --------------------------------------------------------------------------
# Whole games

FIRST_DEALER = 2  # the first dealer is seat 2, so seat 0 is position 1 in the first hand
MAX_HANDS = 1000  # a game with no winner after this many hands is unfinished
GAME_CHUNK_SETS = 64


def game_winner_after_hand(scores, points, contenders, rules: dict, target: int = TARGET):
    """Decide a game after a hand: (winner or None, contenders of a playoff or None, whether play went on past a tie).

    RULES.md 1: first to 32 or more wins; if the highest is tied, play goes
    on (``highest``: until the highest score is unique; ``playoff``: the tied
    players' points in the next hand decide, repeating on a tie).
    """
    if contenders is not None:
        best = max(points[s] for s in contenders)
        tied = [s for s in contenders if points[s] == best]
        if len(tied) == 1:
            return tied[0], None, False
        return None, tied, False
    top = max(scores)
    if top < target:
        return None, None, False
    leaders = [s for s in range(PLAYERS) if scores[s] == top]
    if len(leaders) == 1:
        return leaders[0], None, False
    return None, (leaders if rules["tiebreak"] == "playoff" else None), True


def play_game(game_seed: int, assignment_index: int, rules: dict, seats: list, target: int = TARGET,
              max_hands: int = MAX_HANDS, keep_records: bool = False) -> dict:
    """One whole game from its game seed; ``seats`` holds the strategy parameters by seat.

    Returns ``winner`` (None if unfinished), ``hands``, ``scores``, and for
    the tests ``went_on`` (play went on past a tie at the top), ``playoff``
    (hands played in a playoff), ``playoff_rounds`` (playoff hands that
    ended tied again) and, with ``keep_records``, the hand ``records``.
    """
    deal_rng = game_deal_rng(game_seed)
    decisions = game_decision_rng(game_seed, assignment_index)
    scores = [0] * PLAYERS
    dealer = FIRST_DEALER
    contenders = None
    went_on = False
    playoff_hands = 0
    playoff_retied = 0
    records = []
    for n in range(1, max_hands + 1):
        deal = deal_from(deal_rng)
        rec = play_hand(deal, dealer, rules, seats, tuple(scores), decisions, n - 1, target)
        if keep_records:
            rec["scores_before"] = list(scores)
            records.append(rec)
        points = [rec["points"][str(s)] for s in range(PLAYERS)]
        scores = [scores[s] + points[s] for s in range(PLAYERS)]
        dealer = (dealer + 1) % PLAYERS  # the deal passes left, thrown-in hands included
        in_playoff = contenders is not None
        winner, contenders, tie = game_winner_after_hand(scores, points, contenders, rules, target)
        went_on = went_on or tie
        if in_playoff:
            playoff_hands += 1
            playoff_retied += winner is None
        if winner is not None:
            break
    else:
        n = max_hands
    return {
        "winner": winner, "hands": n, "scores": scores, "went_on": went_on,
        "playoff": playoff_hands, "playoff_retied": playoff_retied, "records": records,
    }


def game_seeds(seed: int, start: int, count: int, n_assignments: int, duplicate: bool) -> list[tuple[int, list[int]]]:
    """(set, game seed of each assignment) for deal sets ``start .. start+count-1``.

    Set g draws from the stream of its chunk g // 64; each set draws one
    game seed, and without ``duplicate`` one more per further assignment.
    """
    out = []
    rng = None
    for g in range(start - start % GAME_CHUNK_SETS, start + count):
        if rng is None or g % GAME_CHUNK_SETS == 0:
            rng = chunk_rng(seed, g // GAME_CHUNK_SETS)
        seeds = [rng.next_u64()]
        for _ in range(1, n_assignments):
            seeds.append(seeds[0] if duplicate else rng.next_u64())
        if g >= start:
            out.append((g, seeds))
    return out


def game_details(seed: int, start: int, count: int, rules: dict | None = None, strategies=("default",),
                 assignments=((0, 0, 0),), duplicate: bool = True, keep_records: bool = False,
                 max_hands: int = MAX_HANDS) -> list[dict]:
    """``game_results`` plus what ``play_game`` tells (tie-breaks, playoffs, records)."""
    rules = resolve(GHOST, rules)
    params = [resolve_strategy(s) for s in strategies]
    assignments = [list(a) for a in assignments]
    out = []
    for g, seeds in game_seeds(seed, start, count, len(assignments), duplicate):
        for a, (assignment, game_seed) in enumerate(zip(assignments, seeds)):
            seats = [params[k] for k in assignment]
            game = play_game(game_seed, a, rules, seats, max_hands=max_hands, keep_records=keep_records)
            out.append({"set": g, "assignment": list(assignment), "game_seed": game_seed, **game})
    return out


def game_results(seed: int, start: int, count: int, rules: dict | None = None, strategies=("default",),
                 assignments=((0, 0, 0),), duplicate: bool = True) -> list[dict]:
    """Per-game results of deal sets ``start .. start+count-1`` (see ``bower.sim.runner.game_results``)."""
    keys = ("set", "assignment", "winner", "hands", "scores")
    return [
        {k: d[k] for k in keys}
        for d in game_details(seed, start, count, rules, strategies, assignments, duplicate)
    ]
