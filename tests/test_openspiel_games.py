"""bower's games as OpenSpiel Python games, OpenSpiel's bots on them, and bower's bots in OpenSpiel's ``euchre``.

Skipped when pyspiel (the ``bench`` extra) is not installed.
"""

from __future__ import annotations

import random

import pytest

import bower
from bower.sim import openspiel as bos

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the `bench` extra) is not installed")
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts  # noqa: E402

from bower.sim.variants.euchre import openspiel as adapter  # noqa: E402

VARIANTS = ("ghost", "cutthroat", "hasenpfeffer", "euchre")
np = pytest.importorskip("numpy")


def test_every_variant_is_registered():
    names = bos.register()
    assert names == sorted(f"python_bower_{v}" for v in VARIANTS) == sorted(bos.game_names())
    assert bos.register() == names  # twice is once
    for name in names:
        assert name in pyspiel.registered_names()
        t = pyspiel.load_game(name).get_type()
        assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
        assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert t.provides_information_state_string and t.provides_observation_tensor


@pytest.mark.parametrize("variant", VARIANTS)
def test_sizes_come_from_bower(variant):
    g = bos.load_game(variant)
    b = bower.game(variant)
    assert g.num_players() == b.num_players() and g.num_distinct_actions() == b.num_distinct_actions()
    assert g.max_game_length() == b.max_game_length()
    assert (g.min_utility(), g.max_utility()) == (b.min_utility(), b.max_utility())
    assert g.observation_tensor_size() == b.observation_tensor_size()


def test_rules_are_the_game_parameters():
    g = bos.load_game("euchre", {"stick_the_dealer": True})
    assert g.bower.rules["stick_the_dealer"] is True
    assert pyspiel.load_game("python_bower_euchre").bower.rules == bower.game("euchre").rules


def test_random_bots_200_games_returns_are_bowers():
    game = pyspiel.load_game("python_bower_ghost")
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(game.num_players())]
    rng = np.random.RandomState(3)
    seen = set()
    for _ in range(200):
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, rng)
        # evaluate_bots plays ``state`` itself to the end: its returns are the bower state's, and a replay's
        assert state.is_terminal()
        assert list(returns) == state.bower.returns() == state.returns()
        replay = bower.game("ghost").new_initial_state()
        for a in state.history():
            replay.apply_action(a)
        assert replay.is_terminal() and replay.returns() == list(returns)
        seen.add(tuple(returns))
    assert len(seen) > 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_ismcts_plays_full_hands_legally(variant):
    game = bos.load_game(variant)
    rs = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 10, random_state=rs)
    rng = random.Random(1)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            legal = state.legal_actions()
            action = bot.step(state)
            assert action in legal
            state.apply_action(action)
        assert len(state.returns()) == game.num_players()


@pytest.mark.parametrize("variant", VARIANTS)
def test_clone_and_resample_keep_the_history(variant):
    game = bos.load_game(variant)
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node() or len(state.history()) < 40 and not state.is_terminal():
        acts = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(rng.choice(acts))
    if state.is_terminal():
        pytest.skip("the hand ended early")
    copy = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == len(state.history()) + 1  # the original is untouched
    p = state.current_player()
    world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(p) == state.information_state_string(p)
    assert len(world.history()) == len(state.history())


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_games_scores_go_with_the_tensor_and_the_worlds(variant):
    """A pyspiel state around a bower state holding the game's scores: its observation tensor (of the game's
    declared size) ends with the scores and the target, and a resampled world holds them too."""
    game = bos.load_game(variant)
    scores = (7, 3) if bower.game(variant).variant.partnerships else (7, 3, 5)
    state = type(game.new_initial_state())(game, game.bower.new_initial_state(scores=scores, target=12))
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    p = state.current_player()
    t = state.observation_tensor(p)
    assert len(t) == game.observation_tensor_size() and list(t[-len(scores) - 1:]) == [*scores, 12]
    world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert (world.bower.game_scores(), world.bower.game_target()) == (scores, 12)
    assert world.information_state_string(p) == state.information_state_string(p)
    assert f"game scores {' '.join(map(str, scores))} target 12" in state.information_state_string(p)


@pytest.mark.parametrize("variant", [
    "ghost", "cutthroat", "hasenpfeffer", "euchre"])
def test_openspiel_random_sim_test(variant):
    pyspiel.random_sim_test(bos.load_game(variant), num_sims=20, serialize=False, verbose=False)


def test_observer_strings_and_tensors_are_bowers():
    game = bos.load_game("cutthroat")
    state = game.new_initial_state()
    rng = random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    p = state.current_player()
    assert state.information_state_string(p) == state.bower.information_state_string(p)
    assert state.observation_tensor(p) == pytest.approx(state.bower.observation_tensor(p))
    assert state.action_to_string(p, state.legal_actions()[0]) == state.bower.action_to_string(p, state.legal_actions()[0])


def test_missing_pyspiel_is_one_line(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_pyspiel(name, *args, **kwargs):
        if name == "pyspiel":
            raise ImportError("no pyspiel")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyspiel)
    with pytest.raises(bower.BowerError, match="bench") as e:
        bos.pyspiel()
    assert "\n" not in str(e.value)


# ---------------------------------------------------------------- bower's bots in OpenSpiel's euchre


@pytest.mark.parametrize("params", [{}, {"stick_the_dealer": False}, {"allow_lone_defender": True}])
def test_openspiel_euchre_maps_to_bower(params):
    """At every decision of random OpenSpiel euchre hands the bower state has the same player and the same legal actions."""
    game = pyspiel.load_game("euchre", params)
    ours = bower.game("euchre", rules=adapter.bower_rules(game))
    rng = random.Random(6)
    for _ in range(100):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            mine = adapter.to_bower(state, ours)
            assert mine.current_player() == state.current_player()
            assert sorted(adapter.to_openspiel(mine, a) for a in mine.legal_actions()) == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))
        mine = adapter.to_bower(state, ours)
        assert mine.is_terminal()
        r = state.returns()
        mr = mine.returns()
        assert [mr[s] - mr[1 - s % 2] for s in range(4)] == r  # OpenSpiel's euchre is zero-sum: a side's net


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_bower_bots_play_a_seat_of_openspiel_euchre(name):
    game = pyspiel.load_game("euchre")
    bots = [adapter.openspiel_bot(bower.bot(name, variant="euchre", seed=p), game) if p % 2 == 0
            else pyspiel.make_uniform_random_bot(p, p) for p in range(4)]
    rng = np.random.RandomState(8)
    for _ in range(5 if name == "greedy" else 30):
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == 4 and returns[0] == returns[2] == -returns[1]


def test_the_benchmark_runs(tmp_path):
    from benchmarks import openspiel_bots

    out = openspiel_bots.main(["--games", "2", "--sims", "5", "--seed", "3", "--out", str(tmp_path / "r.json")])
    assert out["games"] == 2 and (tmp_path / "r.json").is_file()
