"""A plain-Python Standard Euchre player: the default strategy, the random player, whole hands and games.

The slow, obvious twin of the Euchre kernels (``kernels/euchre/``,
``bower.sim.variants.euchre.play_order``, ``bower.sim.runner`` with ``variant="euchre"``),
written from the contract ``kernels/euchre/SPEC.md`` only, never from the
kernel code. The RULES are not re-implemented here: every phase of a hand goes
through the rules reference ``tests/reference/euchre.py`` (deal, whose turn it
is and which calls are legal, the auction's outcome, the dealer's pick-up,
who is asked to defend alone and who sits out, the first lead, tricks, score,
game end), which raises ``ValueError`` on anything illegal. What this module
adds is the *strategy* (who orders or names what, the dealer's discard, who
goes alone, which card is played), the random player's draws, the RNG use of
runs and games (mirroring the Hasenpfeffer twin ``tests/reference/hasenpfeffer_play.py``:
chunks of 4096 hands, the deal stream ``SeedSequence(seed, spawn_key=(c,))``,
the decision stream ``(c, 1)``, games by side seeded as Ghost Hand's), and
the records of SPEC.md's "Records".

Strategy parameters (``EUCHRE_PARAM_NAMES``, SPEC.md's order)::

    w_trump_nine w_trump_ten w_trump_queen w_trump_king w_trump_ace w_left w_right
    w_off_ace w_off_king w_void up_weight
    order_min_1 order_min_2 order_min_3 take_min name_min_1 name_min_2 name_min_3 name_min_4
    alone_min defend_alone_min lead_trump_min lead_next random pimc_worlds pimc_sees_all pimc_bid
    pimc_infer pimc_tau pimc_eps bid_equity

(The PIMC card player's ``pimc_worlds`` and ``pimc_sees_all`` default to 0;
``play_hand`` refuses ``pimc_worlds`` >= 1: PIMC play is not in the twin.)

The play functions take one parameter dict per seat. ``resolve_params``
builds one from a preset name or a dict over the defaults without the
kernel side: the defaults and presets (``EUCHRE_DEFAULTS``,
``EUCHRE_PRESETS``) are written here from SPEC.md's table, and weights (the
``w_*`` parameters) are rounded to multiples of 2**-12 as ``bower.sim.strategy``
rounds them (``round(x / 2**-12) * 2**-12``). The twin tests pass the kernel
side's own resolved dicts (``bower.sim.strategy.resolve_strategy``) instead, which
go through unchanged.

Readings of SPEC.md (each repeated where it is used)
----------------------------------------------------
- Rounding: only the ``w_*`` parameters are "weights"; ``up_weight`` is a
  share and is not rounded. The round-one test is computed literally as
  ``E(hand, u) - up_weight * w_up >= order_min_p`` (positions 1, 3) and
  ``E(hand, u) + up_weight * w_up >= order_min_2`` (position 2): the product
  first, then the sum, then the comparison, in float64.
- ``E(hand, u)`` in round one is the player's five dealt cards (the
  up-card not among them); the dealer's value is ``best_discard(hand | up,
  up, u)[1]``.
- Going alone: the maker's hand is the one it holds after the pick-up (the
  dealer's five after its discard); a defender's "own hand" likewise (a
  defending dealer is asked with the up-card in hand and its discard gone).
- The dealer's discard is decided (and drawn, for a random dealer) before
  anyone's going-alone decision, whoever ordered; the dealer discards even
  when its partner then goes alone and its hand sits out.
- ``unseen`` for a sure winner is the 24 cards less the leader's hand less
  the cards played in the earlier tricks of the hand: the kitty, the up-card
  (even in the dealer's hand), the dealer's discard (even to the dealer) and
  a hand that sits out all count as unseen.
- Lead rule 2 (``lead_next``): only the first lead of the hand, only a
  defender (a seat of the side that did not make trump), only when trump was
  named in round two; "a card of the suit ``u ^ 1``" is by effective suit
  (the same as the printed suit here: trump is of the other colour, so no
  bower is in that suit) and "its highest card" the highest rank.
- Lead rule 1 is the maker's alone (not its partner's); rule 4 the maker's
  partner's alone; a lone defender leads by rules 2, 3 and 5.
- "Its partner is winning the trick so far": the seat opposite played the
  card that wins the cards played so far; a partner who sits out never is.
- The random player always draws, also with one choice; its draws come in
  the order the decisions are met: each call, the dealer's discard, the
  maker's going alone, each defender asked, each card.

Public API (mirrors the kernel side so tests compare directly):
``play_order``, ``hand_records``, ``game_results`` (and ``game_details``,
``play_game``, ``orders``, ``play_hand``, ``resolve_params``,
``seat_strategies``, ``estimate``, ``best_discard``, ``round_one_value``,
``best_other_suit``, ``choose_card``).
"""

from __future__ import annotations

import math
from functools import lru_cache

from bower.sim.rules import RULES_VERSION
from tests.reference import euchre as eu
from tests.reference.ghost import DECK, NoDecisions, game_seeds, trick_power
from tests.reference.ghost import estimate as _ghost_estimate
from tests.reference.rng import (
    Xoshiro256ss,
    chunk_rng,
    decision_chunk_rng,
    game_deal_rng,
    game_decision_rng,
)

PLAYERS = eu.PLAYERS
TRICKS = eu.TRICKS
TARGET = eu.TARGET  # game to 10, by side
CHUNK_HANDS = 4096  # hands per chunk of a run
FIRST_DEALER = 3  # seat 3 deals the first hand of a game, so seat 0 is position 1
MAX_HANDS = 1000  # a game with no winner after this many hands is unfinished
SUIT_LETTERS = eu.SUIT_LETTERS
VARIANT = "euchre"

# --------------------------------------------------------------------------
# Parameters: SPEC.md's table, in its order

EUCHRE_PARAMS: tuple[tuple[str, float], ...] = (
    ("w_trump_nine", 0.25),
    ("w_trump_ten", 0.25),
    ("w_trump_queen", 0.375),
    ("w_trump_king", 0.5),
    ("w_trump_ace", 0.625),
    ("w_left", 0.75),
    ("w_right", 1.0),
    ("w_off_ace", 0.5),
    ("w_off_king", 0.125),
    ("w_void", 0.25),
    ("up_weight", 0.75),
    ("order_min_1", 2.5),
    ("order_min_2", 2.25),
    ("order_min_3", 2.5),
    ("take_min", 1.75),
    ("name_min_1", 1.5),
    ("name_min_2", 1.5),
    ("name_min_3", 1.5),
    ("name_min_4", 1.25),
    ("alone_min", 2.75),
    ("defend_alone_min", 2.75),
    ("lead_trump_min", 2.0),
    ("lead_next", 1.0),
    ("random", 0.0),
    ("pimc_worlds", 0.0),
    ("pimc_sees_all", 0.0),
    ("pimc_bid", 0.0),
    ("pimc_infer", 0.0),
    ("pimc_tau", 0.25),
    ("pimc_eps", 0.01),
    ("bid_equity", 0.0),  # the game-equity bidder: only in whole games given its tables, not in the twin
)
EUCHRE_PARAM_NAMES = tuple(n for n, _ in EUCHRE_PARAMS)
EUCHRE_DEFAULTS = dict(EUCHRE_PARAMS)
AUCTION_THRESHOLDS = ("order_min_1", "order_min_2", "order_min_3", "take_min",
                      "name_min_1", "name_min_2", "name_min_3", "name_min_4")
WEIGHT_STEP = 2.0**-12


def _preset(**changes: float) -> dict[str, float]:
    return {**EUCHRE_DEFAULTS, **changes}


EUCHRE_PRESETS: dict[str, dict[str, float]] = {
    "default": _preset(),
    "cautious": _preset(**{n: EUCHRE_DEFAULTS[n] + 0.5 for n in AUCTION_THRESHOLDS}),
    "aggressive": _preset(**{n: EUCHRE_DEFAULTS[n] - 0.5 for n in AUCTION_THRESHOLDS}),
    "never-alone": _preset(alone_min=99.0, defend_alone_min=99.0),
    "random": _preset(random=1.0),
}


def round_weight(x: float) -> float:
    """A weight rounded to a multiple of 2**-12 (half to even, as ``bower.sim.strategy``)."""
    return round(x / WEIGHT_STEP) * WEIGHT_STEP


def resolve_params(spec="default") -> dict:
    """A seat's full parameter dict from a preset name or a (partial) dict over the defaults.

    Unknown presets or parameter names and non-finite values raise
    ValueError; ``w_*`` weights are rounded to multiples of 2**-12 (so an
    already resolved dict comes back unchanged).
    """
    if isinstance(spec, dict):
        params = dict(EUCHRE_DEFAULTS)
        for name, value in spec.items():
            if name not in EUCHRE_DEFAULTS:
                raise ValueError(f"unknown Euchre strategy parameter {name!r}")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"bad value {value!r} for strategy parameter {name!r} (a finite number)")
            value = float(value)
            params[name] = round_weight(value) if name.startswith("w_") else value
        return params
    if isinstance(spec, str) and spec in EUCHRE_PRESETS:
        return dict(EUCHRE_PRESETS[spec])
    raise ValueError(f"unknown Euchre strategy {spec!r} (presets: {', '.join(EUCHRE_PRESETS)})")


def seat_strategies(strategy) -> list[dict]:
    """Parameters by seat: one strategy for every seat, or a list/tuple of four (seat 0 .. 3)."""
    if isinstance(strategy, (list, tuple)):
        if len(strategy) != PLAYERS:
            raise ValueError(f"need one strategy per seat ({PLAYERS}), got {len(strategy)}")
        return [resolve_params(s) for s in strategy]
    params = resolve_params(strategy)
    return [params] * PLAYERS


def is_random(params: dict) -> bool:
    """The random player decides everything by uniform draws: ``random >= 0.5``."""
    return params["random"] >= 0.5


# --------------------------------------------------------------------------
# Estimates


def estimate(hand, trump: int, params: dict) -> float:
    """E(hand, t): SPEC.md's estimate, which is Ghost Hand's (``tests.reference.ghost.estimate``).

    The sum of each card's weight for trump ``t`` (a trump: ``w_trump_*``,
    ``w_left``, ``w_right``; else an ace ``w_off_ace``, a king ``w_off_king``,
    anything else 0), plus, with at least 2 trumps, ``w_void`` per suit other
    than ``t`` with no card (by effective suit). Weights are multiples of
    2**-12, so the sum is exact in any order.
    """
    return _ghost_estimate(list(hand), trump, params)


def card_weight(card, trump: int, params: dict) -> float:
    """One card's weight for trump ``t`` (its term in ``estimate``, the void bonus aside)."""
    return estimate([card], trump, params)


def best_discard(six, up, trump: int, params: dict) -> tuple:
    """``best_discard(six, up, t)``: (d, E(six - d, t)) for the card d other than the up-card leaving the highest
    estimate; ties: the lowest card index. ``up`` None (rule ``discard_up``): any card of the six."""
    six = eu.by_index(eu.as_cards(six))
    up = None if up is None else eu.as_card(up)
    best_d, best_e = None, None
    for d in six:
        if d == up:
            continue
        e = estimate([c for c in six if c != d], trump, params)
        if best_e is None or e > best_e:  # strict: the lowest index of equals stays
            best_d, best_e = d, e
    return best_d, best_e


def round_one_value(position: int, hand, up, params: dict, any_discard: bool = False) -> float:
    """What position ``p`` compares with its round-one threshold.

    Positions 1 and 3: ``E(hand, u) - up_weight * w_up``; position 2 (the
    dealer's partner): ``E(hand, u) + up_weight * w_up``; the dealer:
    ``best_discard(hand | up, up, u)[1]`` (``any_discard``, rule
    ``discard_up``: the best of the six discards, the up-card's too).
    ``hand`` is the five dealt cards.
    """
    up = eu.as_card(up)
    u = up.suit
    if position == 4:
        return best_discard(list(hand) + [up], None if any_discard else up, u, params)[1]
    e = estimate(hand, u, params)
    w = params["up_weight"] * card_weight(up, u, params)
    return e + w if position == 2 else e - w


ROUND_ONE_THRESHOLD = {1: "order_min_1", 2: "order_min_2", 3: "order_min_3", 4: "take_min"}


def orders_up(position: int, hand, up, params: dict, any_discard: bool = False) -> bool:
    """Round one: the default player at ``position`` orders (the dealer "takes it up") from its threshold."""
    return round_one_value(position, hand, up, params, any_discard) >= params[ROUND_ONE_THRESHOLD[position]]


def best_other_suit(hand, up_suit: int, params: dict) -> tuple[int, float]:
    """(s, e): the suit other than the up-card's with the highest E(hand, s) (ties: the lowest suit)."""
    best, best_e = None, None
    for s in range(4):
        if s == up_suit:
            continue
        e = estimate(hand, s, params)
        if best_e is None or e > best_e:
            best, best_e = s, e
    return best, best_e


def round_two_choice(position: int, hand, up_suit: int, stuck: bool, params: dict) -> int | None:
    """Round two: the suit the default player names, or None to pass (a stuck dealer always names)."""
    s, e = best_other_suit(hand, up_suit, params)
    return s if stuck or e >= params[f"name_min_{position}"] else None


# --------------------------------------------------------------------------
# The play


def least_value(cards, trump: int):
    """The card of least value (non-trump: rank; trump: 20 + trump rank); ties to the lowest card index."""
    return min(cards, key=lambda c: (eu.card_value(c, trump), c.index))


def best_card(cards, trump: int):
    """The card a lone maker's partner passes under ``partners_best``: the card of most value (its highest trump
    by trump rank, else its highest card by rank); ties to the lowest card index."""
    return max(cards, key=lambda c: (eu.card_value(c, trump), -c.index))


def strongest_trump(trumps, trump: int):
    """Right, left, then A K Q T 9."""
    return max(trumps, key=lambda c: eu.trump_rank(c, trump))


def weakest_trump(trumps, trump: int):
    """9 T Q K A, then left, then right."""
    return min(trumps, key=lambda c: eu.trump_rank(c, trump))


def sure_winners(hand, played, trump: int) -> list:
    """Cards of ``hand`` that no unseen card of their effective suit beats (unseen: the 24 cards less ``hand``
    less ``played``)."""
    seen = {*hand, *played}  # a set: one hash per card, not a comparison with every card held or played
    unseen = [u for u in DECK if u not in seen]
    out = []
    for c in hand:
        suit = eu.effective_suit(c, trump)
        if not any(eu.effective_suit(u, trump) == suit and eu.beats(u, c, trump, suit) for u in unseen):
            out.append(c)
    return out


def choose_lead(seat: int, hand, played, trump: int, maker: int, round_: int, up_suit: int, params: dict):
    """The default lead, SPEC.md's rules 1 to 5 in order.

    1. the maker with ``popcount(trumps) >= lead_trump_min`` (and a trump)
       leads its strongest trump; 2. on the first lead of the hand, with
       ``lead_next >= 0.5``, a defender of a round-two hand holding a card of
       suit ``u ^ 1`` (not trump) leads its highest card of that suit; 3. the
       sure winner of least value; 4. the maker's partner with a trump leads
       its weakest trump; 5. the card of least value.
    """
    trumps = [c for c in hand if eu.is_trump(c, trump)]
    if seat == maker and trumps and len(trumps) >= params["lead_trump_min"]:
        return strongest_trump(trumps, trump)
    if not played and params["lead_next"] >= 0.5 and round_ == 2 and eu.side_of(seat) != eu.side_of(maker):
        nxt = up_suit ^ 1
        if nxt != trump:
            of_next = [c for c in hand if eu.effective_suit(c, trump) == nxt]
            if of_next:
                return max(of_next, key=lambda c: c.rank)
    sure = sure_winners(hand, played, trump)
    if sure:
        return least_value(sure, trump)
    if seat == eu.partner_of(maker) and trumps:
        return weakest_trump(trumps, trump)
    return least_value(hand, trump)


def choose_follow(seat: int, hand, trick, trick_seats, trump: int):
    """The default follow: the legal card of least value when the partner is winning the trick so far;
    else the cheapest legal card that beats the winning card (the weakest such trump, else the lowest such
    card); else the legal card of least value."""
    legal = eu.legal_cards(hand, trick[0], trump)
    w = eu.trick_winner(trick, trump)
    if trick_seats[w] == eu.partner_of(seat):
        return least_value(legal, trump)
    led = eu.effective_suit(trick[0], trump)
    winners = [c for c in legal if eu.beats(c, trick[w], trump, led)]
    if winners:
        return min(winners, key=lambda c: (trick_power(c, trump, led), c.index))
    return least_value(legal, trump)


def choose_card(seat: int, hand, trick, trick_seats, played, trump: int, maker: int, round_: int,
                up_suit: int, params: dict):
    """The default strategy's card: ``trick`` the cards of this trick so far (by ``trick_seats``), ``played``
    those of the earlier tricks."""
    if not trick:
        return choose_lead(seat, hand, played, trump, maker, round_, up_suit, params)
    return choose_follow(seat, hand, trick, trick_seats, trump)


# --------------------------------------------------------------------------
# The deal: RNG use


def shuffled_order(rng: Xoshiro256ss) -> list:
    """SPEC.md's deal: a fresh deck 0..23 Fisher-Yates shuffled (i from 23 down to 1, j = bounded(i + 1))."""
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


_CHECKPOINT_EVERY = 256


@lru_cache(maxsize=64)
def _chunk_checkpoints(seed: int, chunk: int) -> dict:
    """Deal-stream states at every ``_CHECKPOINT_EVERY``-th hand of a chunk, filled as dealt."""
    return {0: chunk_rng(seed, chunk)}


def orders(seed: int, start: int, count: int) -> list[list]:
    """The 24-card deck orders of hands ``start .. start+count-1`` of a run (chunks of 4096 hands)."""
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
            order = shuffled_order(rng)
            if k >= offset:
                out.append(order)
                h += 1
                if h >= start + count:
                    break
    return out


def dealer_of(hand_index: int) -> int:
    """Independent hands: hand h is dealt by seat h % 4."""
    return hand_index % PLAYERS


# --------------------------------------------------------------------------
# One hand


def _names(cards) -> list[str]:
    return [str(c) for c in eu.by_index(cards)]


def heuristic_gift(hand, options) -> list:
    """The default player's three cards for the kitty (SPEC.md, "Farmer's hand and going under"): 9s, then 10s,
    then aces; among equal ranks from the suit of which it holds fewer cards, then the lower suit."""
    def key(c):
        return (c.rank, sum(1 for h in hand if h.suit == c.suit), c.suit)
    return sorted(options, key=key)[:3]


def play_hand(order, dealer: int, rules: dict, seats: list, decisions=None, hand_index: int = 0) -> dict:
    """The record of one hand dealt from ``order`` (24 cards, top first) by ``dealer``.

    ``seats``: strategy parameters by seat; ``decisions``: the stream random
    seats draw from (``bounded``), in the order the decisions are met: each
    eligible seat's exchange with the kitty (whether, then each card given;
    rules ``farmers`` / ``go_under``), each call, the dealer's discard, the maker's going alone, each defender
    asked, each card. The record is SPEC.md's "Records".
    """
    if any(p.get("pimc_worlds", 0.0) >= 1.0 for p in seats):
        raise NotImplementedError("PIMC card play (pimc_worlds >= 1) is not in the twin")
    rules = eu.resolve_rules(rules)
    decisions = decisions if decisions is not None else NoDecisions()
    deal = eu.deal_cards(order, dealer)
    up = deal.up_card
    hands = [list(h) for h in deal.hands]
    record = {
        "variant": VARIANT,
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand_index,
        "dealer": dealer,
        "deal": {str(s): _names(deal.hands[s]) for s in range(PLAYERS)},
        "kitty": [str(c) for c in deal.kitty],
        "upcard": str(up),
        "calls": [],
        "discard": None,
        "alone": [],
        "maker": None,
        "trump": None,
        "plays": [],
        "tricks": {str(s): 0 for s in range(PLAYERS)},
        "points": {"0": 0, "1": 0},
    }
    if rules["partners_best"]:
        record["passed"] = None  # the lone maker's exchange under partners_best (SPEC.md's "Records")
        record["loner_discard"] = None

    # ---- farmers / go_under: the first eligible seat from position 1 that chooses to exchanges with the kitty
    if rules["farmers"] or rules["go_under"]:
        record["exchange"] = {"seat": -1, "gave": [], "took": []}
        for position in range(1, PLAYERS + 1):
            seat = eu.seat_of_position(dealer, position)
            options = eu.exchange_options(hands[seat], rules)  # ascending
            if not options:
                continue
            params = seats[seat]
            if is_random(params):
                if decisions.bounded(2) == 0:
                    continue
                given = []
                for _ in range(3):
                    left = [c for c in options if c not in given]
                    given.append(left[decisions.bounded(len(left))])
            else:
                given = heuristic_gift(hands[seat], options)
            hands[seat] = eu.kitty_exchange(hands[seat], deal.kitty, given, rules)
            record["exchange"] = {"seat": seat, "gave": _names(given), "took": _names(deal.kitty[1:])}
            break

    # ---- the auction: whose turn and what is legal come from the rules reference
    made: list[str] = []
    while (seat := eu.next_caller(made, dealer, up, rules)) is not None:
        allowed = eu.legal_calls(made, dealer, up, rules)  # pass first (unless stuck), then order / suits C S D H
        position = eu.position_of_seat(dealer, seat)
        params = seats[seat]
        if is_random(params):
            call = allowed[decisions.bounded(len(allowed))]
        elif eu.ORDER in allowed:  # round one
            call = eu.ORDER if orders_up(position, hands[seat], up, params, rules["discard_up"]) else eu.PASS
        else:  # round two; a stuck dealer may not pass
            named = round_two_choice(position, hands[seat], up.suit, eu.PASS not in allowed, params)
            call = eu.PASS if named is None else SUIT_LETTERS[named]
        assert call in allowed, (seat, call, allowed)
        made.append(call)
        record["calls"].append([seat, call])
    auction = eu.auction_outcome(made, dealer, up, rules)
    assert [list(c) for c in auction.calls] == record["calls"]
    if auction.thrown_in:
        return record
    maker, trump = auction.maker, auction.trump

    # ---- the dealer's pick-up after an order (whoever ordered)
    if auction.round == 1:
        params = seats[dealer]
        if is_random(params):
            options = eu.discard_options(hands[dealer], up, rules)  # its five dealt cards (discard_up: six), ascending
            discard = options[decisions.bounded(len(options))]
        else:
            discard = best_discard(hands[dealer] + [up], None if rules["discard_up"] else up, trump, params)[0]
        hands[dealer], discard = eu.take_up(hands[dealer], up, discard, rules)
        record["discard"] = str(discard)

    # ---- going alone: the maker, then (allow_lone_defender) the defenders in turn
    params = seats[maker]
    if eu.canadian_loner(dealer, maker, auction.round, rules):  # canadian: forced alone, no decision, no draw
        maker_alone = True
    elif is_random(params):
        maker_alone = decisions.bounded(2) == 1
    else:
        maker_alone = estimate(hands[maker], trump, params) >= params["alone_min"]
    maker_alone = eu.check_maker_alone(maker, maker_alone, dealer, auction.round, rules)
    answers: list[bool] = []
    while (defender := eu.defender_to_ask(dealer, maker, answers, rules)) is not None:
        params = seats[defender]
        if is_random(params):
            answers.append(decisions.bounded(2) == 1)
        else:
            answers.append(estimate(hands[defender], trump, params) >= params["defend_alone_min"])
    lone = eu.defence_outcome(dealer, maker, answers, rules)
    record["alone"] = sorted(([maker] if maker_alone else []) + ([lone] if lone is not None else []))

    # ---- partners_best: a lone maker's partner passes its best card, the loner discards one of six
    if rules["partners_best"]:
        if maker_alone:
            partner = eu.partner_of(maker)
            mine = eu.by_index(hands[partner])
            passed = mine[decisions.bounded(len(mine))] if is_random(seats[partner]) else best_card(mine, trump)
            six = eu.by_index(hands[maker] + [passed])
            if is_random(seats[maker]):
                discard = six[decisions.bounded(len(six))]
            else:
                discard = best_discard(six, None, trump, seats[maker])[0]
            hands, passed, discard = eu.partners_exchange(hands, maker, True, passed, discard, rules)
            record["passed"], record["loner_discard"] = str(passed), str(discard)

    # ---- five tricks among the active seats
    active = eu.active_seats(maker, maker_alone, lone)
    leader = eu.first_leader(dealer, active, maker, maker_alone, rules)
    log: list[int] = []  # the seat of each card played so far, to know who played what in a trick

    def chooser(seat, hand, trick, played):
        p = seats[seat]
        if is_random(p):
            legal = eu.legal_cards(hand, trick[0] if trick else None, trump)
            card = legal[decisions.bounded(len(legal))]
        else:
            trick_seats = log[len(log) - len(trick):] if trick else []
            card = choose_card(seat, hand, trick, trick_seats, played, trump, maker, auction.round, up.suit, p)
        log.append(seat)
        return card

    plays, tricks = eu.play_tricks(hands, trump, leader, active, chooser)
    points = eu.score_tricks(maker, tricks, maker_alone, lone, rules, eu.trick_winners(plays, trump, len(active)))
    record.update(
        maker=maker,
        trump=SUIT_LETTERS[trump],
        plays=[[s, str(c)] for s, c in plays],
        tricks={str(s): tricks[s] for s in range(PLAYERS)},
        points={str(side): points[side] for side in range(2)},
    )
    return record


# --------------------------------------------------------------------------
# The Python API the kernels expose


def play_order(order, dealer: int, rules: dict | None = None, strategy="default", seed: int = 0) -> dict:
    """The record of a hand dealt from a 24-card order (ints or strings); ``bower.sim.variants.euchre.play_order``.

    ``strategy``: a preset name, a parameter dict, or a list of four (by
    seat). Random seats draw from the decision stream of chunk 0 of ``seed``
    (``decision_chunk_rng(seed, 0)``); the record's ``hand`` is 0.
    """
    seats = seat_strategies(strategy)
    decisions = decision_chunk_rng(seed, 0) if any(is_random(p) for p in seats) else NoDecisions()
    return play_hand(eu.as_cards(order), int(dealer), eu.resolve_rules(rules), seats, decisions, 0)


def hand_records(seed: int, start: int, count: int, rules: dict | None = None, strategy="default") -> list[dict]:
    """Records of hands ``start .. start+count-1`` of the run with ``seed`` (``bower.sim.runner.hand_records``).

    Dealer of hand h: h % 4. ``strategy``: a preset name, a dict, or a list
    of four (by seat). Random seats draw from their chunk's decision stream,
    which runs through the chunk's hands from the first, so those hands are
    played too.
    """
    rules = eu.resolve_rules(rules)
    seats = seat_strategies(strategy)
    if not any(is_random(p) for p in seats):
        return [play_hand(order, dealer_of(start + i), rules, seats, None, start + i)
                for i, order in enumerate(orders(seed, start, count))]
    out: list[dict] = []
    h = start
    while h < start + count:
        chunk = h // CHUNK_HANDS
        first = chunk * CHUNK_HANDS
        end = min(first + CHUNK_HANDS, start + count)
        decisions = decision_chunk_rng(seed, chunk)
        for k, order in enumerate(orders(seed, first, end - first)):
            rec = play_hand(order, dealer_of(first + k), rules, seats, decisions, first + k)
            if first + k >= h:
                out.append(rec)
        h = end
    return out


# --------------------------------------------------------------------------
# Whole games


def play_game(game_seed: int, assignment_index: int, rules: dict, seats: list, max_hands: int = MAX_HANDS,
              keep_records: bool = False) -> dict:
    """One game to 10 by side from its game seed; ``seats``: strategy parameters by seat.

    Deal stream ``game_deal_rng(game_seed)``, decision stream
    ``game_decision_rng(game_seed, assignment_index)``; seat 3 deals first
    and the deal passes left after every hand (thrown in or not); the first
    side to 10 or more after a hand wins (``eu.game_winner``). Returns
    ``winner`` (a side; None: unfinished after ``max_hands``), ``hands``,
    ``scores`` [side 0, side 1], ``token_points`` [side 0, side 1] (the
    points of turned-in tokens under ``four_trick_tokens``, in ``scores``
    too: ``eu.token_step``) and, with ``keep_records``, the ``records``.
    """
    rules = eu.resolve_rules(rules)
    deal_rng = game_deal_rng(game_seed)
    decisions = game_decision_rng(game_seed, assignment_index)
    scores = [0, 0]
    tokens = [0, 0]
    token_points = [0, 0]
    dealer = FIRST_DEALER
    records = []
    winner = None
    n = 0
    for n in range(1, max_hands + 1):
        rec = play_hand(shuffled_order(deal_rng), dealer, rules, seats, decisions, n - 1)
        if keep_records:
            rec["scores_before"] = list(scores)
            records.append(rec)
        maker = rec["maker"]
        taken = 0 if maker is None else rec["tricks"][str(maker)] + rec["tricks"][str((maker + 2) % PLAYERS)]
        tokens, extra = eu.token_step(tokens, maker, maker in rec["alone"], taken, rules)
        token_points = [token_points[side] + extra[side] for side in range(2)]
        scores = [scores[side] + rec["points"][str(side)] + extra[side] for side in range(2)]
        dealer = eu.next_dealer(dealer)
        winner = eu.game_winner(scores)
        if winner is not None:
            break
    return {"winner": winner, "hands": n, "scores": scores, "token_points": token_points, "records": records}


def game_details(seed: int, start: int, count: int, rules: dict | None = None, strategies=("default",),
                 assignments=((0, 0, 0, 0),), duplicate: bool = True, keep_records: bool = False,
                 max_hands: int = MAX_HANDS) -> list[dict]:
    """``game_results`` plus each game's seed and (with ``keep_records``) its hand records.

    Game seeds as Ghost Hand's (``tests.reference.ghost.game_seeds``): set g
    draws from its chunk of 64 sets; one seed per set with ``duplicate``,
    one per assignment otherwise. An assignment is a row of 4 strategy
    indices (by seat); ``strategies`` are preset names or dicts.
    """
    rules = eu.resolve_rules(rules)
    params = [resolve_params(s) for s in strategies]
    assignments = [list(a) for a in assignments]
    for a in assignments:
        if len(a) != PLAYERS:
            raise ValueError(f"an assignment names one strategy per seat ({PLAYERS}), got {a}")
    out = []
    for g, seeds in game_seeds(seed, start, count, len(assignments), duplicate):
        for a, (assignment, game_seed) in enumerate(zip(assignments, seeds)):
            seats = [params[k] for k in assignment]
            game = play_game(game_seed, a, rules, seats, max_hands, keep_records)
            out.append({"set": g, "assignment": list(assignment), "game_seed": game_seed, **game})
    return out


def game_results(seed: int, start: int, count: int, rules: dict | None = None, strategies=("default",),
                 assignments=((0, 0, 0, 0),), duplicate: bool = True) -> list[dict]:
    """Per-game results of deal sets ``start .. start+count-1`` (``bower.sim.runner.game_results``; with
    ``token_points`` under ``four_trick_tokens``)."""
    keys = ("set", "assignment", "winner", "hands", "scores")
    if eu.resolve_rules(rules)["four_trick_tokens"]:
        keys += ("token_points",)
    return [{k: d[k] for k in keys}
            for d in game_details(seed, start, count, rules, strategies, assignments, duplicate)]
