"""A plain-Python Hasenpfeffer player: the default strategy, the random player, whole hands and games.

The slow, obvious twin of the Hasenpfeffer kernels (``sim/hasenpfeffer.py``,
``bower.sim.runner`` with ``variant="hasenpfeffer"``), written from the contract in
``notes/hasenpfeffer_spec.md``. The RULES are not re-implemented here: every
phase of a hand goes through the rules reference ``tests/reference/hasenpfeffer.py``
(deal, auction legality and outcome, widow, trump, first lead, tricks,
score, game end), which raises ``ValueError`` on anything illegal. What this
module adds is the *strategy* (who bids what, the widow discard and trump,
which card is played), the random player's draws, the RNG use of runs and
games (mirroring the Ghost Hand twin ``tests/reference/ghost.py`` and the
Cutthroat twin ``tests/reference/cutthroat_play.py``), and the records.

Strategy parameters (``HASENPFEFFER_PARAM_NAMES``, spec order)::

    w_trump_nine w_trump_ten w_trump_queen w_trump_king w_trump_ace w_left w_right w_joker
    w_off_ace w_off_king w_void
    partner_help cushion support_margin bid_jump big_pepper_min lead_trump_min random

They are resolved (presets, dicts over the defaults, rounding of weights to
steps of 2**-12) by ``bower.sim.strategy.load_strategy(spec, variant="hasenpfeffer")``:
the parsing is shared with the simulator, every decision is written here.

Readings of the spec (each repeated where it is used)
-----------------------------------------------------
- The estimate: the spec names ``tests.reference.ghost.estimate`` and says it
  "already counts the joker"; that function knows only the 24-card deck (a
  joker passed to it counts for nothing and is not a trump). The estimate
  here is that function's sum with the joker made a trump of every suit,
  weighted ``w_joker`` and counted towards the two trumps of the void bonus
  (as the kernels' Ghost estimate does); on joker-free hands it *is*
  ``ghost.estimate`` (the tests check this).
- The bid test: a player bids only a level above the standing bid
  (``T >= st + 1``) and, over its partner's bid, also ``T >= st + 1 +
  support_margin``; with a negative ``support_margin`` the margin never lets
  a player "bid" a level at or below the standing bid.
- ``unseen`` for a sure winner is the 25-card deck less the player's own
  hand less the cards played: the bidder's own discard (or the dead widow)
  counts as unseen, even to the bidder.

Public API (mirrors the kernel side so tests compare directly):
``play_order``, ``hand_records``, ``game_results`` (and ``game_details``,
``play_game``, ``orders``, ``estimate``, ``best_suit``, ``auction_call``,
``widow_choice``, ``choose_card``).
"""

from __future__ import annotations

from functools import lru_cache

from bower.sim.rules import RULES_VERSION
from bower.sim.strategy import load_strategy
from tests.reference import hasenpfeffer as hp
from tests.reference.ghost import NoDecisions, game_seeds
from tests.reference.rng import (
    Xoshiro256ss,
    chunk_rng,
    decision_chunk_rng,
    game_deal_rng,
    game_decision_rng,
)

PLAYERS = hp.PLAYERS
TRICKS = hp.TRICKS
TARGET = hp.TARGET  # game to 10, by side
CHUNK_HANDS = 4096  # hands per chunk of a run (as Ghost)
FIRST_DEALER = 3  # seat 3 deals the first hand of a game, so seat 0 is position 1
MAX_HANDS = 1000  # a game with no winner after this many hands is unfinished
SUIT_LETTERS = hp.SUIT_LETTERS

HASENPFEFFER_PARAM_NAMES = (
    "w_trump_nine", "w_trump_ten", "w_trump_queen", "w_trump_king", "w_trump_ace", "w_left", "w_right", "w_joker",
    "w_off_ace", "w_off_king", "w_void",
    "partner_help", "cushion", "support_margin", "bid_jump", "big_pepper_min", "lead_trump_min", "random",
    "pimc_worlds", "pimc_sees_all",  # the PIMC card player: not in the twin (play_hand refuses pimc_worlds >= 1)
    # its inference and auction search: not in the twin either
    "pimc_infer", "pimc_tau", "pimc_eps", "pimc_bid", "pimc_bid_cushion", "pimc_bid_rival",
    "bid_equity",  # the game-equity bidder: only in whole games given its tables, not in the twin
)


# --------------------------------------------------------------------------
# Parameters


def resolve_params(spec="default") -> dict:
    """A seat's full parameter dict from a preset name, a TOML path or a dict over the defaults.

    Parsed by ``bower.sim.strategy.load_strategy(spec, variant="hasenpfeffer")``,
    which also rounds every weight to a multiple of 2**-12 (so estimates are
    exact sums in any order).
    """
    params = dict(load_strategy(spec, variant="hasenpfeffer")[1])
    assert set(params) == set(HASENPFEFFER_PARAM_NAMES), sorted(params)
    return params


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
# The trick estimate

_TRUMP_WEIGHTS = ("w_trump_nine", "w_trump_ten", "w_trump_queen", "w_trump_king", "w_trump_ace",
                  "w_left", "w_right", "w_joker")  # by hp.trump_rank: 9 T Q K A left right joker


def estimate(hand, trump: int, params: dict) -> float:
    """est(hand, trump): Ghost Hand's trick estimate with the joker a trump of every suit.

    The sum of the trump weight of each trump held by its rank (9 T Q K A
    left right joker: ``w_trump_*``, ``w_left``, ``w_right``, ``w_joker``),
    ``w_off_ace`` / ``w_off_king`` per off-suit ace / king, and, with at
    least two trumps (the joker counts), ``w_void`` for each of the three
    other suits of which the hand holds no card (by effective suit). Summed
    card by card in ascending card order, as ``tests.reference.ghost.estimate``
    (weights are multiples of 2**-12, so the order does not matter anyway).
    """
    total = 0.0
    n_trumps = 0
    held = set()  # the suits the hand holds, by effective suit
    for card in hp.by_index(hp.as_cards(hand)):
        suit = hp.effective_suit(card, trump)
        held.add(suit)
        if suit == trump:  # hp.is_trump
            total += params[_TRUMP_WEIGHTS[hp.trump_rank(card, trump)]]
            n_trumps += 1
        elif card.rank == hp._ghost.ACE:
            total += params["w_off_ace"]
        elif card.rank == hp._ghost.KING:
            total += params["w_off_king"]
    if n_trumps >= 2:
        for suit in range(4):
            if suit != trump and suit not in held:
                total += params["w_void"]
    return total


def best_suit(hand, params: dict) -> tuple[int, float]:
    """The suit with the highest estimate of ``hand`` (ties: the lowest suit, C S D H) and that estimate."""
    best, best_e = 0, estimate(hand, 0, params)
    for suit in (1, 2, 3):
        e = estimate(hand, suit, params)
        if e > best_e:
            best, best_e = suit, e
    return best, best_e


# --------------------------------------------------------------------------
# The auction


def partnership_estimate(hand, params: dict) -> float:
    """E = est(own 6 cards, best suit) + partner_help (the widow is not counted)."""
    return best_suit(hand, params)[1] + params["partner_help"]


def hand_level(E: float, params: dict) -> int:
    """L: the largest whole number in 1..6 with ``E >= L + cushion``; 0 if ``E < 1 + cushion``."""
    for lvl in range(TRICKS, 0, -1):
        if E >= lvl + params["cushion"]:
            return lvl
    return 0


def target_level(E: float, rules: dict, params: dict) -> int:
    """T, the auction level the hand wants: L; in the pepper form a 6 is little pepper (6), or big
    pepper (7) when ``E >= big_pepper_min``."""
    lvl = hand_level(E, params)
    if rules["bidding"] == "pepper" and lvl == TRICKS:
        return 7 if E >= params["big_pepper_min"] else 6
    return lvl


def auction_call(seat: int, hand, standing: int, standing_bidder, rules: dict, params: dict) -> int:
    """The default strategy's call as an auction level: 0 pass, else the level bid.

    ``standing``: the standing bid's level (0: none; 1..6 numeric; pepper
    1..5, 6 little pepper, 7 big pepper), ``standing_bidder`` its seat.
    Bids iff ``T >= standing + 1 + (support_margin if the standing bid is the
    partner's else 0)``; the bid is T with ``bid_jump >= 0.5``, else
    ``standing + 1``. Reading: a level at or below the standing bid is never
    bid (``T >= standing + 1`` is required whatever the margin).
    """
    T = target_level(partnership_estimate(hand, params), rules, params)
    need = standing + 1
    if standing_bidder is not None and standing_bidder == hp.partner_of(seat):
        need = need + params["support_margin"]
    if T >= need and T >= standing + 1:
        return T if params["bid_jump"] >= 0.5 else standing + 1
    return 0


def run_auction(hands, dealer: int, rules: dict, seats: list, decisions) -> list[list]:
    """The calls ([seat, call], in order) until the auction is over, as ``hp.next_caller`` orders them."""
    calls: list[list] = []
    made: list[str] = []
    standing, standing_bidder = 0, None
    while True:
        turn = hp.next_turn(made, dealer, rules)  # hp.next_caller and hp.legal_calls in one pass
        if turn is None:
            return calls
        seat, allowed = turn  # allowed: pass first, then the bids from the lowest legal up
        params = seats[seat]
        if is_random(params):
            call = allowed[decisions.bounded(len(allowed))]
        else:
            lvl = auction_call(seat, hands[seat], standing, standing_bidder, rules, params)
            call = hp.PASS if lvl == 0 else hp.bids(rules)[lvl - 1]
        assert call in allowed, (seat, call, allowed)
        made.append(call)
        calls.append([seat, call])
        if call != hp.PASS:
            standing, standing_bidder = hp.bid_level(call, rules), seat


# --------------------------------------------------------------------------
# The widow and trump


def widow_choice(hand, widow, rules: dict, params: dict):
    """The default high bidder's (trump, discard): discard None when the widow is dead.

    ``exchange``: over every trump t (C S D H) and every discard d of the 7
    cards (own 6 + widow, ascending card index, the joker last), the first
    maximum of est(7 cards - d, t). ``dead``: the best suit of the own 6
    cards (ties: lowest suit), no discard.
    """
    if rules["widow"] == "dead":
        return best_suit(hand, params)[0], None
    seven = hp.widow_options(hand, widow, rules)  # the 7 cards ascending, the joker last
    best = None
    for t in range(4):
        for d in seven:
            e = estimate([c for c in seven if c != d], t, params)
            if best is None or e > best[0]:  # strict: the first of equals stays
                best = (e, t, d)
    return best[1], best[2]


def random_widow_choice(hand, widow, rules: dict, decisions):
    """The random high bidder: exchange: d = the bounded(7)-th of the 7 cards, then t = bounded(4);
    dead: t = bounded(4)."""
    if rules["widow"] == "dead":
        return decisions.bounded(4), None
    seven = hp.widow_options(hand, widow, rules)
    d = seven[decisions.bounded(len(seven))]
    return decisions.bounded(4), d


# --------------------------------------------------------------------------
# The play


def card_value(card, trump: int) -> int:
    """How precious a card is to its holder: trumps 20 + trump rank (joker 27), other cards their rank."""
    if hp.is_trump(card, trump):
        return 20 + hp.trump_rank(card, trump)
    return card.rank


def least_value(cards, trump: int):
    """Ghost's least value: the lowest-ranked non-trump (ties: lowest suit), else the weakest trump (joker last)."""
    return min(cards, key=lambda c: (card_value(c, trump), c.index))


def strongest_trump(trumps, trump: int):
    """Joker, right, left, A K Q T 9."""
    return max(trumps, key=lambda c: hp.trump_rank(c, trump))


def weakest_trump(trumps, trump: int):
    """9 T Q K A, then left, right, joker."""
    return min(trumps, key=lambda c: hp.trump_rank(c, trump))


def sure_winners(hand, played, trump: int) -> list:
    """Cards of ``hand`` that no unseen card of the same effective suit beats (unseen: the 25-card
    deck less ``hand`` less ``played``)."""
    seen = {*hand, *played}  # a set: one hash per card, not a comparison with every card held or played
    unseen = [u for u in hp.DECK25 if u not in seen]
    out = []
    for c in hand:
        suit = hp.effective_suit(c, trump)
        if not any(hp.effective_suit(u, trump) == suit and hp.beats(u, c, trump, suit) for u in unseen):
            out.append(c)
    return out


def choose_lead(seat: int, hand, played, trump: int, bidder: int, params: dict):
    """The default lead: the bidder with >= lead_trump_min trumps (and one at least) leads its strongest
    trump; anyone's sure winner of least value; the bidder's partner then its weakest trump; else the
    card of least value."""
    trumps = [c for c in hand if hp.is_trump(c, trump)]
    if seat == bidder and trumps and len(trumps) >= params["lead_trump_min"]:
        return strongest_trump(trumps, trump)
    sure = sure_winners(hand, played, trump)
    if sure:
        return least_value(sure, trump)
    if seat == hp.partner_of(bidder) and trumps:  # lead to the partner's strength
        return weakest_trump(trumps, trump)
    return least_value(hand, trump)


def choose_follow(seat: int, hand, trick, trick_seats, trump: int):
    """The default follow: never overtake a winning partner (the legal card of least value); else the
    cheapest legal card that beats the card winning so far; else the legal card of least value."""
    legal = hp.legal_cards(hand, trick[0], trump)
    w = hp.trick_winner(trick, trump)
    if trick_seats[w] == hp.partner_of(seat):
        return least_value(legal, trump)
    led = hp.effective_suit(trick[0], trump)
    winners = [c for c in legal if hp.beats(c, trick[w], trump, led)]
    if winners:
        return min(winners, key=lambda c: (hp.trick_power(c, trump, led), c.index))
    return least_value(legal, trump)


def choose_card(seat: int, hand, trick, played, trump: int, bidder: int, params: dict):
    """The default strategy's card; ``trick`` the cards of this trick so far (played clockwise from
    its leader), ``played`` those of the earlier tricks."""
    if not trick:
        return choose_lead(seat, hand, played, trump, bidder, params)
    trick_seats = [(seat - len(trick) + i) % PLAYERS for i in range(len(trick))]
    return choose_follow(seat, hand, trick, trick_seats, trump)


# --------------------------------------------------------------------------
# The deal: RNG use


def shuffled_order(rng: Xoshiro256ss) -> list:
    """Fisher-Yates of the 25-card deck from the top, exactly as ``tests.reference.ghost.deal_from``
    does for 24 (i from 24 down to 1, j = bounded(i + 1)); ``hp.deal_cards(order, dealer)`` deals it."""
    deck = list(hp.DECK25)
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
    """The 25-card deck orders of hands ``start .. start+count-1`` of a run (chunks of 4096 hands)."""
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
    return [str(c) for c in hp.by_index(cards)]


def play_hand(order, dealer: int, rules: dict, seats: list, decisions=None, hand_index: int = 0) -> dict:
    """The record of one hand dealt from ``order`` (25 cards) by ``dealer``.

    ``seats``: strategy parameters by seat; ``decisions``: the stream random
    seats draw from (``bounded``), in the order the decisions are met: each
    call, the widow discard then the trump (or the trump alone), each card.
    PIMC card play (``pimc_worlds`` >= 1) is not in the twin: NotImplementedError.
    """
    if any(p.get("pimc_worlds", 0.0) >= 1.0 for p in seats):
        raise NotImplementedError("PIMC card play (pimc_worlds >= 1) is not in the twin")
    rules = hp.resolve_rules(rules)
    decisions = decisions if decisions is not None else NoDecisions()
    deal = hp.deal_cards(order, dealer)
    hands = [list(h) for h in deal.hands]
    record = {
        "variant": "hasenpfeffer",
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand_index,
        "dealer": dealer,
        "deal": {str(s): _names(deal.hands[s]) for s in range(PLAYERS)},
        "widow": str(deal.widow),
        "calls": [],
        "forced": False,
        "bidder": None,
        "bid": None,
        "trump": None,
        "discard": None,
        "plays": [],
        "tricks": {str(s): 0 for s in range(PLAYERS)},
        "points": {"0": 0, "1": 0},
    }

    # ---- the auction
    calls = run_auction(hands, dealer, rules, seats, decisions)
    record["calls"] = calls
    auction = hp.auction_outcome([c for _, c in calls], dealer, hp.joker_holder(deal), rules)
    assert [list(c) for c in auction.calls] == calls
    if auction.thrown_in:
        return record
    bidder, bid = auction.bidder, auction.bid

    # ---- the widow and trump
    params = seats[bidder]
    if is_random(params):
        trump, discard = random_widow_choice(hands[bidder], deal.widow, rules, decisions)
    else:
        trump, discard = widow_choice(hands[bidder], deal.widow, rules, params)
    trump = hp.name_trump(trump)
    hands[bidder], _ = hp.take_widow(hands[bidder], deal.widow, discard, rules)

    # ---- six tricks
    leader = hp.first_leader(dealer, bidder, rules)

    def chooser(seat, hand, trick, played):
        p = seats[seat]
        if is_random(p):
            legal = hp.legal_cards(hand, trick[0] if trick else None, trump)
            return legal[decisions.bounded(len(legal))]
        return choose_card(seat, hand, trick, played, trump, bidder, p)

    plays, tricks = hp.play_tricks(hands, trump, leader, chooser)
    points = hp.score_tricks(bidder, bid, tricks, rules)
    record.update(
        forced=auction.forced,
        bidder=bidder,
        bid=bid,
        trump=SUIT_LETTERS[trump],
        discard=None if discard is None else str(discard),
        plays=[[s, str(c)] for s, c in plays],
        tricks={str(s): tricks[s] for s in range(PLAYERS)},
        points={str(side): points[side] for side in range(2)},
    )
    return record


# --------------------------------------------------------------------------
# The Python API the kernels expose


def play_order(order, dealer: int, rules: dict | None = None, strategy="default", seed: int = 0) -> dict:
    """The record of a hand dealt from a 25-card order (ints or strings); ``bower.sim.hasenpfeffer.play_order``.

    Random seats draw from the decision stream of chunk 0 of ``seed``; the
    record's ``hand`` is 0.
    """
    seats = seat_strategies(strategy)
    decisions = decision_chunk_rng(seed, 0) if any(is_random(p) for p in seats) else NoDecisions()
    return play_hand(hp.as_cards(order), int(dealer), hp.resolve_rules(rules), seats, decisions, 0)


def hand_records(seed: int, start: int, count: int, rules: dict | None = None, strategy="default") -> list[dict]:
    """Records of hands ``start .. start+count-1`` of the run with ``seed`` (``bower.sim.runner.hand_records``).

    Dealer of hand h: h % 4. Random seats draw from their chunk's decision
    stream, which runs through the chunk's hands from the first, so those
    hands are played too.
    """
    rules = hp.resolve_rules(rules)
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


def bidding_side(rec: dict):
    """The side of a hand's high bidder, None when it was thrown in."""
    return None if rec["bidder"] is None else hp.side_of(rec["bidder"])


def play_game(game_seed: int, assignment_index: int, rules: dict, seats: list, max_hands: int = MAX_HANDS,
              keep_records: bool = False) -> dict:
    """One game to 10 by side from its game seed; ``seats``: strategy parameters by seat.

    Deal stream ``game_deal_rng(game_seed)``, decision stream
    ``game_decision_rng(game_seed, assignment_index)``; seat 3 deals first
    and the deal passes left after every hand (thrown in or not). After each
    hand ``hp.game_winner(side scores, that hand's bidding side)`` decides:
    the first side to 10 wins, the bidding side when both reach it. Returns
    ``winner`` (a side; None: unfinished after ``max_hands``), ``hands``,
    ``scores`` [side 0, side 1] and, with ``keep_records``, the ``records``.
    """
    rules = hp.resolve_rules(rules)
    deal_rng = game_deal_rng(game_seed)
    decisions = game_decision_rng(game_seed, assignment_index)
    scores = [0, 0]
    dealer = FIRST_DEALER
    records = []
    winner = None
    n = 0
    for n in range(1, max_hands + 1):
        rec = play_hand(shuffled_order(deal_rng), dealer, rules, seats, decisions, n - 1)
        if keep_records:
            rec["scores_before"] = list(scores)
            records.append(rec)
        scores = [scores[side] + rec["points"][str(side)] for side in range(2)]
        dealer = hp.next_dealer(dealer)
        winner = hp.game_winner(scores, bidding_side(rec))
        if winner is not None:
            break
    return {"winner": winner, "hands": n, "scores": scores, "records": records}


def game_details(seed: int, start: int, count: int, rules: dict | None = None, strategies=("default",),
                 assignments=((0, 0, 0, 0),), duplicate: bool = True, keep_records: bool = False,
                 max_hands: int = MAX_HANDS) -> list[dict]:
    """``game_results`` plus each game's seed and (with ``keep_records``) its hand records.

    Game seeds as Ghost's (``tests.reference.ghost.game_seeds``): set g draws
    from its chunk of 64 sets; one seed per set with ``duplicate``, one per
    assignment otherwise. An assignment is a row of 4 strategy indices (by seat).
    """
    rules = hp.resolve_rules(rules)
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
    """Per-game results of deal sets ``start .. start+count-1`` (``bower.sim.runner.game_results``)."""
    keys = ("set", "assignment", "winner", "hands", "scores")
    return [{k: d[k] for k in keys}
            for d in game_details(seed, start, count, rules, strategies, assignments, duplicate)]
