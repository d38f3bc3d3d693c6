"""The strategies that read the game's scores as bots: every variant's ``equity`` (``bid_equity``) and Ghost Hand's
``score-aware`` (``bid_shift_self_near``, ``bid_shift_opp_near``).

The acid test of ``tests/test_preset_bots.py`` at non-zero scores: the
kernels play ``HANDS`` deals (the variant's own deal chunk, the last seat
dealing) each at its own game scores, drawn from a seeded stream, by the
kernels' ``play_dealt`` with the game-equity tables and the scores (as a
game of the runner's ``GamesKernel`` plays a hand); the game API deals each
through its chance nodes from a state holding those scores and the target
(``new_initial_state(scores=..., target=...)``) and plays it with the
preset's bot at every seat. Every decision, the tricks and the points must
equal the kernel's record. The tables are small (as
``tests/test_equity_strategy.py`` makes them: a calibration of 100,000 hands,
300,000 for Ghost Hand, an equity table of 50,000 hands of a game to 10, 8
for Ghost Hand), built once per variant for the module.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import bower
from bower.sim import equity_bidder as eb
from bower.sim import runner
from bower.sim.game import GameError
from bower.sim.variants import get_variant
from tests.test_preset_bots import FIELDS, _api_test

HANDS = 120  # deals per variant and strategy
SEED = 5
SMALL = {"ghost": (8, 300_000), "euchre": (10, 100_000), "cutthroat": (10, 100_000), "hasenpfeffer": (10, 100_000)}
EQ_HANDS = 50_000


@pytest.fixture(scope="module", autouse=True)
def small_tables():
    """Every variant's equity precision made small for the module (the runner's tables come from the same memo)."""
    import importlib

    with pytest.MonkeyPatch.context() as mp:
        for v, (_, cal) in SMALL.items():
            module = importlib.import_module(f"bower.sim.variants.{v}.equity_strategy")
            mp.setattr(module, "CALIBRATION_HANDS", cal)
            mp.setattr(module, "EQUITY_HANDS", EQ_HANDS)
            mp.setattr(module, "SEED", 3)
        eb.clear()
        yield
        eb.clear()


def _tables(variant: str, rules_vec, target: int):
    import importlib

    return importlib.import_module(f"bower.sim.variants.{variant}.equity_strategy").kernel_tables(rules_vec, target)


def kernel_hand(variant: str, strategy: str, dealt, extra, scores, target: int, rules_vec, rules_d) -> dict:
    """The kernels' record of one hand dealt ``dealt`` (by position, the last seat dealing; ``extra``: the kitty or
    the widow) played by ``strategy`` in every seat at the game's ``scores``, as a game plays it (the equity tables
    given where the strategy bids by equity)."""
    v = get_variant(variant)
    _, params = runner.seat_params(strategy, variant)
    params = np.ascontiguousarray(params)
    equity = strategy == "equity"
    flat = _tables(variant, rules_vec, target) if equity else None
    sc = np.array(scores, np.int64)
    t = np.int64(target)
    dstate, dbuf = np.zeros(4, np.uint64), np.zeros(2, np.int64)
    if variant == "ghost":
        from bower.kernels.ghost import hand as k
        from bower.kernels.ghost.strategy import equity_rows, strategy_rows

        rec = np.zeros(k.R_WIDTH, np.int64)
        rows = strategy_rows(params)
        d = [np.int64(x) for x in dealt]
        if equity:
            k.play_dealt_core(*d, dstate, dbuf, np.int64(2), rules_vec, equity_rows(rows, params, flat), k.SEAT_ROWS,
                              sc, t, k.NO_FORCE.copy(), rec, np.int64(0), None, flat)
        else:
            k.play_dealt_core(*d, dstate, dbuf, np.int64(2), rules_vec, rows, k.SEAT_ROWS, sc, t, k.NO_FORCE.copy(),
                              rec, np.int64(0), None)
        return v.row_to_dict(rec, 0, rules_d)
    if variant == "euchre":
        from bower.kernels.euchre import hand as k
        from bower.kernels.euchre.strategy import card_weights

        wt = np.zeros((4, 4, 24))
        card_weights(params, wt)
        rec = np.zeros(k.R_WIDTH, np.int64)
        k.play_dealt(dealt.copy(), extra.copy(), np.int64(3), rules_vec, params, wt, k.NO_FORCE.copy(), dstate, dbuf,
                     np.zeros(4, np.int64), np.zeros(4, np.int64), rec, None, (flat, sc, t, np.full(2, -1, np.int64)))
    elif variant == "cutthroat":
        from bower.kernels.cutthroat import hand as k
        from bower.kernels.cutthroat.strategy import card_weights

        wt, order = np.zeros((3, 4, 24)), np.zeros((3, 5, 7), np.int64)
        card_weights(params, wt, order)
        rec = np.zeros(k.R_WIDTH, np.int64)
        k.play_dealt(dealt.copy(), extra.copy(), np.int64(2), rules_vec, params, wt, order, k.NO_FORCE.copy(), dstate,
                     dbuf, np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros((4, 8)),
                     np.zeros((4, 8), np.int64), rec, None, (flat, sc, t, np.full(2, -1, np.int64)))
    else:
        from bower.kernels.hasenpfeffer import hand as k
        from bower.kernels.hasenpfeffer.strategy import card_weights

        wt = np.zeros((4, 4, 25))
        card_weights(params, wt)
        rec = np.zeros(k.R_WIDTH, np.int64)
        k.play_dealt(dealt.copy(), np.int64(extra), np.int64(3), rules_vec, params, wt, k.NO_FORCE.copy(), dstate,
                     dbuf, np.zeros(16, np.int64), rec, None, (flat, sc, t))
    return v.row_to_dict(rec, 0, rules_d)


def deals(variant: str, count: int):
    """``count`` deals of the variant's own deal chunk (by position; the kitty, the widow or nothing beside)."""
    v = get_variant(variant)
    state = runner.chunk_states(SEED, 0, 1)[0]
    out = np.zeros((count, 4), np.int64)
    if variant == "ghost":
        v.drivers.deal_chunk(state, count, out)
        return [(out[h], None) for h in range(count)]
    if variant == "hasenpfeffer":
        widow = np.zeros(count, np.int64)
        v.drivers.deal_chunk(state, count, out, widow)
        return [(out[h], widow[h]) for h in range(count)]
    kitty = np.zeros((count, 4), np.int64)
    v.drivers.deal_chunk(state, count, out, kitty)
    return [(out[h], kitty[h]) for h in range(count)]


class _AtScores:
    """A game whose ``new_initial_state()`` starts at given scores (for the API tests' deal helpers)."""

    def __init__(self, game, scores, target):
        self.game, self.scores, self.target = game, scores, target

    def new_initial_state(self):
        return self.game.new_initial_state(scores=self.scores, target=self.target)


def play_at_scores(variant: str, strategy: str, hands: int = HANDS) -> int:
    """Each deal played by the kernels and by the strategy's bot at the same non-zero scores: every decision field
    equal. Returns the hands whose calls differ from the ``default`` preset's bot at the same scores (the scores
    and tables at work)."""
    v = get_variant(variant)
    target, _ = SMALL[variant]
    _, rules_d, rules_vec = runner.resolve_run(variant, SEED, None)
    fields, args = FIELDS[variant]
    dealt_state = _api_test(variant).dealt_state
    game = bower.game(variant)
    player, plain = bower.bot(strategy, variant=variant), bower.bot("default", variant=variant)
    draw = random.Random(SEED)
    low = -target // 2 if variant in ("ghost", "hasenpfeffer") else 0
    differ = 0
    for h, (dealt, extra) in enumerate(deals(variant, hands)):
        scores = tuple(draw.randrange(low, target) for _ in range(v.score_units))
        rec = kernel_hand(variant, strategy, dealt, extra, scores, target, rules_vec, rules_d)
        calls = []
        for bot in (player, plain):
            state = dealt_state(_AtScores(game, scores, target), *args(rec))
            assert state.game_scores() == scores and state.game_target() == target
            bot.restart()
            while not state.is_terminal():
                state.apply_action(bot.step(state))
            mine = state.to_record()
            calls.append(mine["calls"])
            if bot is player:
                for key in fields:
                    assert mine[key] == rec[key], (f"{variant} {strategy} hand {h} at {scores}, {key}: bot {mine[key]} "
                                                   f"kernels {rec[key]}")
        differ += calls[0] != calls[1]
    return differ


@pytest.mark.parametrize("variant", sorted(SMALL))
def test_the_equity_bot_calls_as_the_kernels_at_the_game_scores(variant):
    assert play_at_scores(variant, "equity") > 0


def test_the_score_aware_bot_calls_as_the_kernels_at_the_game_scores():
    assert play_at_scores("ghost", "score-aware") > 0


def test_a_lone_hand_holds_its_scores_and_target_read_only():
    game = bower.game("euchre")
    st = game.new_initial_state()
    assert st.game_scores() == (0, 0) and st.game_target() == get_variant("euchre").target
    st = game.new_initial_state(scores=[3, np.int64(7)], target=11)
    assert st.game_scores() == (3, 7) and st.game_target() == 11
    st.apply_action(0)
    st.deal_random(random.Random(1))
    copy = st.clone()
    assert copy.game_scores() == (3, 7) and st.resample_from_infostate(1, 2).game_scores() == (3, 7)
    assert bower.game("ghost").new_initial_state(scores=(1, -2, 5)).game_scores() == (1, -2, 5)
    for bad, words in (({"scores": (1, 2, 3)}, "scores must be 2 whole numbers .*by side"),
                       ({"scores": (1.5, 2)}, "scores must be 2"), ({"scores": 4}, "scores must be 2"),
                       ({"target": 0}, "target must be a positive"), ({"target": True}, "target must be")):
        with pytest.raises(GameError, match=words):
            game.new_initial_state(**bad)
    # a bot's view reads them without a copy, and cannot change the state's
    from bower.sim.game import state_view

    view = state_view(st)
    assert view.game_scores() == (3, 7) and view.game_target() == 11 and not view._own
    view._scores = (9, 9)
    assert st.game_scores() == (3, 7) and view._own


@pytest.mark.parametrize("variant", list(SMALL))
def test_every_seat_knows_the_game_scores(variant):
    """The information state string (its second line) and the observation tensor (its last cells: the scores in
    ``game_scores()``'s order, then the target) hold the game's scores and target for every seat, and a world drawn
    for a seat holds the same; the tensor's other cells do not depend on them."""
    game = bower.game(variant)
    scores = (7, 3) if get_variant(variant).partnerships else (7, -3, 5)
    st = game.new_initial_state(scores=scores, target=12)
    st.apply_action(1)
    st.deal_random(random.Random(2))
    plain = game.new_initial_state()
    for a in st.history():
        plain.apply_action(a)
    n = len(scores) + 1
    for p in range(game.num_players()):
        text = st.information_state_string(p)
        assert text.splitlines()[1] == "game scores " + " ".join(map(str, scores)) + " target 12"
        assert plain.information_state_string(p).splitlines()[1] == f"game scores {' '.join('0' * (n - 1))} target " \
            f"{get_variant(variant).target}"
        t = st.observation_tensor(p)
        assert len(t) == game.observation_tensor_size() and t[-n:] == [*scores, 12]
        assert t[:-n] == plain.observation_tensor(p)[:-n] and set(t[:-n]) <= {0.0, 1.0}
        assert st.resample_from_infostate(p, 5).information_state_string(p) == text


def test_a_bot_experiment_gives_its_bots_the_game_scores():
    """In a bot experiment each hand's state holds the game's scores before it (the sum of the hands so far)."""
    seen = []

    class Watch:
        def restart_at(self, state):
            seen.append((state.game_scores(), state.game_target()))

        def step(self, state):
            return state.legal_actions()[0]

    bower.experiment([Watch(), "bot:random"], variant="hasenpfeffer", games=2, seed=0)
    assert seen[0] == ((0, 0), get_variant("hasenpfeffer").target)
    assert any(s != (0, 0) for s, _ in seen)
