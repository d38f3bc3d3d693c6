"""bower's games as OpenSpiel Python games: ``pyspiel.load_game("python_bower_<variant>")``.

``register()`` registers every variant that has the game API
(``bower.game``) with pyspiel as ``python_bower_<name>`` (``python_bower_euchre``,
``python_bower_ghost``, ``python_bower_cutthroat``, ``python_bower_hasenpfeffer``);
then OpenSpiel's own bots and algorithms (``make_uniform_random_bot``,
``evaluate_bots``, MCTS, ISMCTS, ``random_sim_test``) run on them. A game's
parameters are the variant's rule options (``bower simulate --rule``), their
defaults the rules' defaults. The wrapper keeps bower's rules: the State
forwards every call to the bower State it holds (``state.bower``), the Game's
sizes and utility bounds come from the bower Game. pyspiel is the ``bench``
extra (``pip install 'bower[bench]'``) and is imported only when needed;
without it ``pyspiel()`` raises a one-line ``BowerError`` saying so.

GameType: sequential, explicit stochastic chance (the deal), imperfect
information, general-sum (each seat scores its side's points; nothing sums
to zero), terminal rewards; information state string and tensor,
observation string and tensor (bower's ``observation_tensor``, which holds
the whole public history of a hand and the game's scores and target, so it
serves as both; its size the bower game's ``observation_tensor_size()``).
"""

from __future__ import annotations

from bower.sim.errors import UserError

PREFIX = "python_bower_"
_registered: dict[str, type] = {}


def pyspiel():
    """The ``pyspiel`` module, or a one-line BowerError naming the ``bench`` extra."""
    try:
        import pyspiel as ps
    except ImportError:
        raise UserError("OpenSpiel (pyspiel) is not installed: it is the `bench` extra, "
                        "pip install 'bower[bench]' (or 'open_spiel>=1.5,<3')") from None
    return ps


def game_names() -> list[str]:
    """The pyspiel names of bower's games (every variant with the game API)."""
    from bower.sim.variants import all_variants

    return [PREFIX + v.name for v in all_variants() if v.game]


def register() -> list[str]:
    """Register bower's games with pyspiel (once); the names registered."""
    from bower.sim.variants import all_variants

    ps = pyspiel()
    for v in all_variants():
        if v.game and PREFIX + v.name not in _registered:
            game_type, cls = _make(ps, v)
            if game_type.short_name not in ps.registered_names():
                ps.register_game(game_type, cls)
            _registered[game_type.short_name] = cls
    return sorted(_registered)


def load_game(variant, rules: dict | None = None):
    """``pyspiel.load_game`` of bower's ``variant`` (a name or alias) with ``rules`` as the game's parameters."""
    from bower.sim.variants import get_variant

    register()
    return pyspiel().load_game(PREFIX + get_variant(variant).name, dict(rules or {}))


def _param(value):
    return value if isinstance(value, (bool, int, float, str)) else str(value)


def _make(ps, v):
    """The GameType and Game class of variant ``v``."""
    from bower.sim.game import game as bower_game

    defaults = bower_game(v).rules
    game_type = ps.GameType(
        short_name=PREFIX + v.name,
        long_name=f"bower {v.name}",
        dynamics=ps.GameType.Dynamics.SEQUENTIAL,
        chance_mode=ps.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=ps.GameType.Information.IMPERFECT_INFORMATION,
        utility=ps.GameType.Utility.GENERAL_SUM,
        reward_model=ps.GameType.RewardModel.TERMINAL,
        max_num_players=bower_game(v).num_players(),
        min_num_players=bower_game(v).num_players(),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={k: _param(x) for k, x in defaults.items()},
    )

    class BowerGame(ps.Game):
        """A bower game as a pyspiel game (see the module's text)."""

        def __init__(self, params=None):
            params = dict(params or {})
            rules = {k: params[k] for k in defaults if k in params and params[k] != _param(defaults[k])}
            self.bower = bower_game(v, rules)
            g = self.bower
            info = ps.GameInfo(
                num_distinct_actions=g.num_distinct_actions(),
                max_chance_outcomes=max(g.max_chance_outcomes(), g.num_players()),
                num_players=g.num_players(),
                min_utility=float(g.min_utility()),
                max_utility=float(g.max_utility()),
                max_game_length=g.max_game_length())
            super().__init__(game_type, info, params)

        def new_initial_state(self):
            return BowerState(self, self.bower.new_initial_state())

        def make_py_observer(self, iig_obs_type=None, params=None):
            return BowerObserver(self.bower, iig_obs_type, params)

    class BowerState(ps.State):
        """A bower State as a pyspiel state: ``self.bower`` holds it."""

        def __init__(self, game, bower_state):
            super().__init__(game)
            self._held = _Held(bower_state)

        @property
        def bower(self):
            """The bower State this one forwards to."""
            return self._held.state

        def current_player(self):
            return self.bower.current_player()

        def _legal_actions(self, player):
            return self.bower.legal_actions(player)

        def chance_outcomes(self):
            return self.bower.chance_outcomes()

        def _apply_action(self, action):
            self.bower.apply_action(int(action))

        def _action_to_string(self, player, action):
            return self.bower.action_to_string(player, action)

        def is_terminal(self):
            return self.bower.is_terminal()

        def returns(self):
            return self.bower.returns()

        def resample_from_infostate(self, player, sampler):
            """A state ``player`` cannot tell from this one (bower's draw; ``sampler``: OpenSpiel's or any rng), the
            game's scores and target kept."""
            world = self.bower.resample_from_infostate(player, sampler)
            held = self.bower
            out = BowerState(self.get_game(), held.game.new_initial_state(held.game_scores(), held.game_target()))
            for a in world.history():  # pyspiel keeps its own history: replay the world's
                out.apply_action(a)
            return out

        def __str__(self):
            return str(self.bower)


    BowerGame.__name__ = BowerGame.__qualname__ = f"BowerGame_{v.name}"
    BowerState.__name__ = BowerState.__qualname__ = f"BowerState_{v.name}"
    return game_type, BowerGame


class _Held:
    """The bower State of a pyspiel state: pyspiel's ``clone()`` deep-copies it, by the bower State's own ``clone()``."""

    __slots__ = ("state",)

    def __init__(self, state):
        self.state = state

    def __deepcopy__(self, memo):
        return _Held(self.state.clone())


class BowerObserver:
    """pyspiel's PyObserver over a bower state: bower's observation tensor and information state string (a
    perfect-recall record of what the seat has seen, which OpenSpiel's ISMCTS keys its nodes by)."""

    def __init__(self, bower_game, iig_obs_type=None, params=None):
        if params:
            raise UserError(f"bower's observers take no parameters (got {', '.join(params)})")
        import numpy as np

        self.tensor = np.zeros(bower_game.observation_tensor_size(), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state.bower.observation_tensor(player)

    def string_from(self, state, player):
        return state.bower.information_state_string(player)
