"""A plain-Python Cutthroat player: the default strategy, the random player, whole hands and games.

The slow, obvious twin of the Cutthroat kernels (``sim/cutthroat.py``,
``bower.sim.runner`` with ``variant="cutthroat"``), written from the contract in
``notes/cutthroat_spec.md``. The RULES are not re-implemented here: every
phase of a hand goes through the rules reference ``tests/reference/cutthroat.py``
(deal, auction check, dealer's exchange, going alone, merge, first lead,
tricks, score, game end), which raises ``ValueError`` on anything illegal.
What this module adds is the *strategy* (who calls, what the dealer
discards, who goes alone, what the maker keeps, which card is played), the
random player's draws, the RNG use of runs and games (mirroring the Ghost
Hand twin ``tests/reference/ghost.py``), and the records.

Strategy parameters (``CUTTHROAT_PARAM_NAMES``, spec order)::

    w_trump_nine w_trump_ten w_trump_queen w_trump_king w_trump_ace w_left w_right
    w_off_ace w_off_king w_void
    order_min assist_min take_min name_min alone_min defend_alone_min lead_trump_min random

They are resolved (presets, dicts over the defaults, rounding of weights to
steps of 2**-12) by ``bower.sim.strategy.load_strategy(spec, variant="cutthroat")``,
as the Ghost twin uses ``bower.sim.strategy`` for its own parameters: the parsing is
shared, every decision is written here.

Public API (mirrors the kernel side so tests compare directly):
``play_order``, ``best_keep``, ``hand_records``, ``game_results`` (and
``game_details``, ``play_game``, ``orders``, ``estimate``).
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from bower.sim.rules import RULES_VERSION
from bower.sim.strategy import load_strategy
from tests.reference import cutthroat as ct
from tests.reference.ghost import (
    DECK,
    SUIT_LETTERS,
    Card,
    NoDecisions,
    by_index,
    card_value,
    choose_follow,
    choose_lead,
    game_seeds,
    legal_cards,
    mask_from_cards,
    trick_winner,
)
from tests.reference.ghost import estimate as _ghost_estimate
from tests.reference.rng import (
    Xoshiro256ss,
    chunk_rng,
    decision_chunk_rng,
    game_deal_rng,
    game_decision_rng,
)

PLAYERS = ct.PLAYERS
TRICKS = ct.TRICKS
TARGET = ct.TARGET  # game to 10
CHUNK_HANDS = 4096  # hands per chunk of a run (as Ghost)
FIRST_DEALER = 2  # as Ghost: seat 2 deals the first hand of a game
MAX_HANDS = 1000  # a game with no winner after this many hands is unfinished

CUTTHROAT_PARAM_NAMES = (
    "w_trump_nine", "w_trump_ten", "w_trump_queen", "w_trump_king", "w_trump_ace", "w_left", "w_right",
    "w_off_ace", "w_off_king", "w_void",
    "order_min", "assist_min", "take_min", "name_min", "alone_min", "defend_alone_min", "lead_trump_min", "random",
    "pimc_worlds", "pimc_sees_all",  # the PIMC card player: not in the twin (play_hand refuses pimc_worlds >= 1)
    "pimc_infer", "pimc_tau", "pimc_eps", "pimc_bid", "pimc_bid_margin",
    "pimc_bid_edge",  # its inference and searched auction: not in the twin either
    "bid_equity",  # the game-equity bidder: only in whole games given its tables, not in the twin
)

# Round-one acceptance words by position (1, 2, 3 = dealer), as the record writes them.
ROUND_ONE_ACCEPT = ct.ROUND_ONE_ACCEPT
# The threshold each round-one position compares with.
ROUND_ONE_THRESHOLD = {1: "order_min", 2: "assist_min", 3: "take_min"}


# --------------------------------------------------------------------------
# Parameters


def resolve_params(spec="default") -> dict:
    """A seat's full parameter dict from a preset name, a TOML path or a dict over the defaults.

    Parsed by ``bower.sim.strategy.load_strategy(spec, variant="cutthroat")``, which
    also rounds every weight to a multiple of 2**-12 (so estimates are exact
    sums in any order); only the parsing is shared with the simulator.
    """
    params = dict(load_strategy(spec, variant="cutthroat")[1])
    assert set(params) == set(CUTTHROAT_PARAM_NAMES), sorted(params)
    return params


def seat_strategies(strategy) -> list[dict]:
    """Parameters by seat: one strategy for every seat, or a list/tuple of three (seat 0, 1, 2)."""
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
# The trick estimate


def estimate(hand, trump: int, params: dict) -> float:
    """est(hand, trump): the spec's trick estimate, which is Ghost Hand's without a joker.

    The sum of ``w_trump_*`` / ``w_left`` / ``w_right`` per trump held (the
    left bower is trump), ``w_off_ace`` / ``w_off_king`` per off-suit ace /
    king, and, with at least two trumps, ``w_void`` for each of the three
    other suits of which the hand holds no card (by effective suit).
    ``tests.reference.ghost.estimate`` computes exactly this (the 24-card
    deck has no joker, so ``w_joker`` is never read), so it is reused as is.
    """
    return _ghost_estimate(list(hand), trump, params)


def without(hand, card: Card) -> list[Card]:
    return [c for c in hand if c != card]


def exchange_estimates(hand, up: Card, params: dict) -> list[tuple[Card, float]]:
    """(d, est(hand - d + up-card, up-card's suit)) for each of the dealer's 5 cards d, ascending."""
    return [(d, estimate(without(hand, d) + [up], up.suit, params)) for d in by_index(hand)]


def best_discard(hand, up: Card, params: dict) -> tuple[Card, float]:
    """d* = argmax over the dealer's cards of est(hand - d + up), ties to the lowest card index."""
    best_d, best_e = None, None
    for d, e in exchange_estimates(hand, up, params):
        if best_e is None or e > best_e:  # strict: the first (lowest index) of equals stays
            best_d, best_e = d, e
    return best_d, best_e


# --------------------------------------------------------------------------
# The default strategy's decisions


def round_one_accepts(position: int, hand, up: Card, params: dict) -> bool:
    """Round one: position 1 orders iff est >= order_min, position 2 assists iff est >= assist_min,
    the dealer takes iff best6 >= take_min (best6: the dealer's best hand after an exchange)."""
    if position == 3:
        value = best_discard(hand, up, params)[1]
    else:
        value = estimate(hand, up.suit, params)
    return value >= params[ROUND_ONE_THRESHOLD[position]]


def dealer_discard(hand, up: Card, rules: dict, params: dict) -> Card | None:
    """The dealer's exchange after a round-one acceptance: the discard, or None to keep the hand.

    ``mandatory``: always d*. ``optional``: d* only if it strictly improves
    the estimate for the up-card's suit.
    """
    d, e = best_discard(hand, up, params)
    if rules["dealer_pickup"] == "mandatory" or e > estimate(hand, up.suit, params):
        return d
    return None


def allowed_suits(up: Card, rules: dict) -> list[int]:
    """Round two: the suits that may be named, ascending (C S D H)."""
    return [s for s in range(4) if s != up.suit or rules["allow_turned_down_suit"]]


def round_two_call(hand, suits: list[int], stuck: bool, params: dict) -> int | None:
    """Round two: the allowed suit of highest estimate (ties: lowest suit); named iff its estimate
    >= name_min, always by a stuck dealer. None: pass."""
    best, best_e = None, None
    for s in suits:
        e = estimate(hand, s, params)
        if best_e is None or e > best_e:
            best, best_e = s, e
    return best if stuck or best_e >= params["name_min"] else None


def best_keep_cards(ten, trump: int, params: dict) -> list[Card]:
    """The merge by brute force: of the C(10, 5) = 252 five-card subsets the one maximising
    (est(subset, trump), subset's mask as an integer), sorted by card index.

    Remembered by the ten cards, trump and parameters (tests replay many deals
    whose maker merges the same ten cards)."""
    ten = by_index(ten)
    return list(_best_keep(tuple(ten), trump, tuple(sorted(params.items()))))


@lru_cache(maxsize=4096)
def _best_keep(ten: tuple, trump: int, params: tuple) -> tuple:
    """``best_keep_cards`` of ``ten`` (ascending) with ``params`` as sorted (name, value) pairs."""
    as_dict = dict(params)
    return max(itertools.combinations(ten, 5), key=lambda keep: (estimate(keep, trump, as_dict), mask_from_cards(keep)))


def least_value(cards, trump: int) -> Card:
    """Ghost's least value: the lowest-ranked non-trump (ties: lowest suit), else the weakest trump."""
    return min(cards, key=lambda c: (card_value(c, trump), c.index))


def choose_card(seat: int, hand, trick, trick_seats, played, trump: int, maker: int, params: dict) -> Card:
    """The default strategy's card: ``trick`` holds the cards played so far to this trick, by
    ``trick_seats``; ``played`` the cards of the earlier tricks.

    Lead: Ghost's ``choose_lead`` (the maker with at least ``lead_trump_min``
    trumps leads the strongest; else the sure winner of least value, a sure
    winner being a card that no unseen card -- deck less own hand less
    played -- beats when it is led; else the card of least value). Follow: a
    defender whose partner (the other defender) is winning the trick plays
    its legal card of least value; anyone else Ghost's ``choose_follow`` (the
    cheapest legal card that beats the trick so far, else the legal card of
    least value).
    """
    if not trick:
        return choose_lead(seat, hand, trump, maker, played, params)
    winning = trick_seats[trick_winner(trick, trump)]
    partner_winning = seat != maker and winning not in (maker, seat)
    if partner_winning:  # do not overtake a partner
        return least_value(legal_cards(hand, trick[0], trump), trump)
    return choose_follow(hand, trick, trump)


# --------------------------------------------------------------------------
# The deal: RNG use


def shuffled_order(rng: Xoshiro256ss) -> list[Card]:
    """Fisher-Yates from the top, exactly as ``tests.reference.ghost.deal_from``; the deck order.

    ``ct.deal_cards(order, dealer)`` then deals it (order[20] is the up-card).
    """
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


def orders(seed: int, start: int, count: int) -> list[list[Card]]:
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
    """Independent hands: hand h is dealt by seat h % 3."""
    return hand_index % PLAYERS


# --------------------------------------------------------------------------
# One hand


def _cards(cards) -> list[str]:
    return [str(c) for c in by_index(cards)]


STOPS = ("calls", "merge", None)  # play_hand's ``stop``: after the auction, after the merge, at the end


def play_hand(order, dealer: int, rules: dict, seats: list, decisions=None, hand_index: int = 0,
              stop: str | None = None) -> dict:
    """The record of one hand dealt from ``order`` (24 cards) by ``dealer``.

    ``seats``: strategy parameters by seat; ``decisions``: the stream random
    seats draw from (``bounded``), in the order the decisions are met:
    round-one calls, round-two calls, the dealer's exchange, the maker's going
    alone, the defenders' going alone, the merge's 5 picks, each card.
    PIMC card play (``pimc_worlds`` >= 1) is not in the twin: NotImplementedError.
    ``stop``: ``"calls"`` returns the record as it stands after the auction
    (its calls), ``"merge"`` after the merge (its calls, discards and going
    alone), for a caller that asks no more of the hand; None plays it out.
    """
    if stop not in STOPS:
        raise ValueError(f"stop is one of {STOPS}, not {stop!r}")
    if any(p.get("pimc_worlds", 0.0) >= 1.0 for p in seats):
        raise NotImplementedError("PIMC card play (pimc_worlds >= 1) is not in the twin")
    rules = ct.resolve_rules(rules)
    decisions = decisions if decisions is not None else NoDecisions()
    deal = ct.deal_cards(order, dealer)
    up = deal.up_card
    hands = [list(h) for h in deal.hands]
    record = {
        "variant": "cutthroat",
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand_index,
        "dealer": dealer,
        "deal": {str(s): _cards(deal.hands[s]) for s in range(PLAYERS)},
        "dummy": _cards(deal.dummy),
        "kitty": [str(c) for c in deal.kitty],
        "upcard": str(up),
        "calls": [],
        "maker": None,
        "trump": None,
        "discards": {"dealer": None, "maker": []},
        "alone": [],
        "plays": [],
        "tricks": {str(s): 0 for s in range(PLAYERS)},
        "points": {str(s): 0 for s in range(PLAYERS)},
    }

    # ---- the auction
    calls: list[list] = []
    for position in (1, 2, 3):  # round one
        seat = ct.seat_of_position(dealer, position)
        params = seats[seat]
        if is_random(params):
            accept = decisions.bounded(2) == 1
        else:
            accept = round_one_accepts(position, hands[seat], up, params)
        calls.append([seat, ROUND_ONE_ACCEPT[position] if accept else ct.PASS])
        if accept:
            break
    else:
        suits = allowed_suits(up, rules)
        for position in (1, 2, 3):  # round two
            seat = ct.seat_of_position(dealer, position)
            params = seats[seat]
            stuck = rules["stick_the_dealer"] and position == 3
            if is_random(params):
                options = ([] if stuck else [None]) + suits
                named = options[decisions.bounded(len(options))]
            else:
                named = round_two_call(hands[seat], suits, stuck, params)
            calls.append([seat, ct.PASS if named is None else SUIT_LETTERS[named]])
            if named is not None:
                break
    record["calls"] = calls
    auction = ct.auction_outcome([c for _, c in calls], dealer, up, rules)  # checks every call
    assert [list(c) for c in auction.calls] == calls
    if auction.thrown_in or stop == "calls":
        return record
    maker, trump = auction.maker, auction.trump

    # ---- the dealer's exchange (round one only, whoever accepted)
    if auction.round == 1:
        params = seats[dealer]
        if is_random(params):
            options = ct.exchange_options(hands[dealer], up, rules)  # [None (optional only)] + 5 cards ascending
            discard = options[decisions.bounded(len(options))]
        else:
            discard = dealer_discard(hands[dealer], up, rules, params)
        hands[dealer], discard = ct.dealer_exchange(hands[dealer], up, discard, rules)
        record["discards"]["dealer"] = None if discard is None else str(discard)

    # ---- going alone: the maker, then the defenders from the maker's left (at most one goes alone)
    maker_alone = False
    if rules["maker_alone"] == "allowed":
        params = seats[maker]
        if is_random(params):
            maker_alone = decisions.bounded(2) == 1
        else:
            maker_alone = estimate(hands[maker], trump, params) >= params["alone_min"]
    lone_defender = None
    for defender in ((maker + 1) % PLAYERS, (maker + 2) % PLAYERS):
        params = seats[defender]
        if is_random(params):
            goes = decisions.bounded(2) == 1
        else:
            goes = estimate(hands[defender], trump, params) >= params["defend_alone_min"]
        if goes:
            lone_defender = defender
            break
    ct.check_going_alone(maker, maker_alone, lone_defender, rules)
    record["alone"] = sorted(([maker] if maker_alone else []) + ([lone_defender] if lone_defender is not None else []))

    # ---- the merge with the dummy (a maker not alone)
    if not maker_alone:
        params = seats[maker]
        ten = by_index(hands[maker] + list(deal.dummy))
        if is_random(params):
            left, keep = list(ten), []
            for i in range(5):
                keep.append(left.pop(decisions.bounded(10 - i)))
        else:
            keep = best_keep_cards(ten, trump, params)
        hands[maker], maker_discards = ct.merge_dummy(hands[maker], deal.dummy, keep)
        record["discards"]["maker"] = _cards(maker_discards)
    if stop == "merge":
        return record

    # ---- five tricks among the active seats
    active = ct.active_seats(maker, lone_defender)
    leader = ct.first_leader(dealer, maker, maker_alone, lone_defender)
    log: list[tuple[int, Card]] = []  # (seat, card) as chosen, to know who played what in a trick

    def chooser(seat, hand, trick, played):
        params = seats[seat]
        if is_random(params):
            legal = legal_cards(hand, trick[0] if trick else None, trump)
            card = legal[decisions.bounded(len(legal))]
        else:
            trick_seats = [s for s, _ in log[len(log) - len(trick):]] if trick else []
            card = choose_card(seat, hand, trick, trick_seats, played, trump, maker, params)
        log.append((seat, card))
        return card

    plays, tricks = ct.play_tricks({s: hands[s] for s in active}, trump, leader, active, chooser)
    points = ct.score_tricks(maker, tricks, maker_alone, lone_defender, rules)
    record.update(
        maker=maker,
        trump=SUIT_LETTERS[trump],
        plays=[[s, str(c)] for s, c in plays],
        tricks={str(s): tricks[s] for s in range(PLAYERS)},
        points={str(s): points[s] for s in range(PLAYERS)},
    )
    return record


# --------------------------------------------------------------------------
# The Python API the kernels expose


def play_order(order, dealer: int, rules: dict | None = None, strategy="default", seed: int = 0,
               stop: str | None = None) -> dict:
    """The record of a hand dealt from a 24-card order (ints or strings); ``bower.sim.cutthroat.play_order``.

    Random seats draw from the decision stream of chunk 0 of ``seed``; the
    record's ``hand`` is 0; ``stop``: as ``play_hand``'s.
    """
    seats = seat_strategies(strategy)
    decisions = decision_chunk_rng(seed, 0) if any(is_random(p) for p in seats) else NoDecisions()
    return play_hand(ct.as_cards(order), int(dealer), ct.resolve_rules(rules), seats, decisions, 0, stop)


def best_keep(cards10, trump: int, strategy="default") -> list[int]:
    """The 5 card indices (ascending) the default merge keeps of ``cards10``; ``bower.sim.cutthroat.best_keep``."""
    ten = ct.as_cards(cards10)
    if len(ten) != 10:
        raise ValueError(f"the merge chooses from 10 cards, got {len(ten)}")
    return [c.index for c in best_keep_cards(ten, int(trump), resolve_params(strategy))]


def hand_records(seed: int, start: int, count: int, rules: dict | None = None, strategy="default") -> list[dict]:
    """Records of hands ``start .. start+count-1`` of the run with ``seed`` (``bower.sim.runner.hand_records``).

    Dealer of hand h: h % 3. Random seats draw from their chunk's decision
    stream, which runs through the chunk's hands from the first, so those
    hands are played too.
    """
    rules = ct.resolve_rules(rules)
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
    """One game to 10 from its game seed; ``seats``: strategy parameters by seat.

    Deal stream ``game_deal_rng(game_seed)``, decision stream
    ``game_decision_rng(game_seed, assignment_index)``; seat 2 deals first and
    the deal passes left after every hand (thrown in or not). After each hand
    the unique highest score of 10 or more wins; a tie at the top plays on.
    Returns ``winner`` (None: unfinished after ``max_hands``), ``hands``,
    ``scores`` and, with ``keep_records``, the hand ``records``.
    """
    deal_rng = game_deal_rng(game_seed)
    decisions = game_decision_rng(game_seed, assignment_index)
    scores = [0] * PLAYERS
    dealer = FIRST_DEALER
    records = []
    winner = None
    n = 0
    for n in range(1, max_hands + 1):
        rec = play_hand(shuffled_order(deal_rng), dealer, rules, seats, decisions, n - 1)
        if keep_records:
            rec["scores_before"] = list(scores)
            records.append(rec)
        scores = [scores[s] + rec["points"][str(s)] for s in range(PLAYERS)]
        dealer = ct.next_dealer(dealer)
        winner = ct.game_winner(scores, TARGET)
        if winner is not None:
            break
    return {"winner": winner, "hands": n, "scores": scores, "records": records}


def game_details(seed: int, start: int, count: int, rules: dict | None = None, strategies=("default",),
                 assignments=((0, 0, 0),), duplicate: bool = True, keep_records: bool = False,
                 max_hands: int = MAX_HANDS) -> list[dict]:
    """``game_results`` plus each game's seed and (with ``keep_records``) its hand records.

    Game seeds as Ghost's (``tests.reference.ghost.game_seeds``): set g draws
    from its chunk of 64 sets; one seed per set with ``duplicate``, one per
    assignment otherwise.
    """
    rules = ct.resolve_rules(rules)
    params = [resolve_params(s) for s in strategies]
    assignments = [list(a) for a in assignments]
    out = []
    for g, seeds in game_seeds(seed, start, count, len(assignments), duplicate):
        for a, (assignment, game_seed) in enumerate(zip(assignments, seeds)):
            seats = [params[k] for k in assignment]
            game = play_game(game_seed, a, rules, seats, max_hands, keep_records)
            out.append({"set": g, "assignment": list(assignment), "game_seed": game_seed, **game})
    return out


def game_results(seed: int, start: int, count: int, rules: dict | None = None, strategies=("default",),
                 assignments=((0, 0, 0),), duplicate: bool = True) -> list[dict]:
    """Per-game results of deal sets ``start .. start+count-1`` (``bower.sim.runner.game_results``)."""
    keys = ("set", "assignment", "winner", "hands", "scores")
    return [{k: d[k] for k in keys}
            for d in game_details(seed, start, count, rules, strategies, assignments, duplicate)]
