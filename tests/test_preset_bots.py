"""bower's heuristic strategy presets as bots (``bower.bot("default", variant=...)``, ``bower.sim.preset_bots``).

The acid test: the kernels play ``HANDS`` seeded hands of a run with the
preset in every seat and record each (``runner.hand_records``); the game API
then deals each recorded deal through its chance nodes (the deal helpers of
``tests/test_game_<variant>.py``) and plays it with the preset's bot at every
seat. Every decision (swap, calls, exchange or discard, alone, merge, trump,
every card), the tricks and the points must equal the kernel's record: one
decision taken otherwise changes a field. Each variant is checked under
every rule set of its game API test, each bot-able preset under the default
rules.

Whole games: ``bot:default`` against ``default`` in a bot experiment (every
seat then decides through the API) gives both players exactly the same wins
and points on duplicate deals, and ``bot:aggressive`` against ``bot:default``
wins as often as the kernels' ``aggressive`` against ``default``, within the
two runs' intervals.
"""

from __future__ import annotations

import importlib
import math

import pytest

import bower
from bower.sim import runner
from bower.sim.bots import BotError, needs_bots
from bower.sim.preset_bots import PresetBot
from bower.sim.variants import get_variant
from tests.cli_run import one_error, run

HANDS = 200  # hands per variant and preset (or rule set) checked against the kernels' records
SEED = 7

# the record's fields a hand's decisions write, and the arguments of the variant test's ``dealt_state``
FIELDS = {
    "euchre": (("calls", "discard", "alone", "maker", "trump", "plays", "tricks", "points"),
               lambda r: (r["dealer"], r["deal"], r["kitty"])),
    "hasenpfeffer": (("calls", "forced", "bidder", "bid", "trump", "discard", "plays", "tricks", "points"),
                     lambda r: (r["dealer"], r["deal"], r["widow"])),
    "cutthroat": (("upcard", "calls", "maker", "trump", "discards", "alone", "plays", "tricks", "points"),
                  lambda r: (r["dealer"], r["deal"], r["dummy"], r["kitty"])),
    "ghost": (("swap", "calls", "maker", "bid", "trump", "plays", "tricks", "points"),
              lambda r: (r["dealer"], r["deal"], r["deal"]["ghost"])),
}
# the presets not checked here: PIMC (``PIMC_BOTS``, ``SEARCHED_BOTS``) and the strategies that read the game's scores
# (every variant's ``equity``, Ghost Hand's ``score-aware``: checked at non-zero scores in
# ``tests/test_preset_bots_scores.py``)
NOT_BOTS = {"pimc", "pimc-fast", "pimc-cards", "pimc-bid", "score-aware", "equity"}
PIMC_BOTS = {"euchre": ("pimc-fast", "pimc"), "cutthroat": ("pimc-fast", "pimc"),  # heuristic calls, PIMC cards
             "hasenpfeffer": ("pimc-fast", "pimc-cards"), "ghost": ("pimc-cards",)}
SEARCHED_BOTS = {"euchre": "pimc-bid", "ghost": "pimc-fast", "hasenpfeffer": "pimc",  # a searched auction too
                 "cutthroat": "pimc-bid"}


def _presets(variant: str) -> list[str]:
    return [p for p in get_variant(variant).presets if p not in NOT_BOTS and p != "random"]


def _api_test(variant: str):
    return importlib.import_module(f"tests.test_game_{variant}")


def play_records(variant: str, strategy, hands: int, rules: dict, seed: int = SEED) -> int:
    """Play the kernels' recorded hands of ``strategy`` through the API with its bot at every seat; assert each
    decision field equal to the record's. Returns the hands in which a contract was played."""
    fields, args = FIELDS[variant]
    dealt_state = _api_test(variant).dealt_state
    records = runner.hand_records(seed, 0, hands, rules=rules, strategy=strategy, variant=variant)
    game = bower.game(variant, rules=rules)
    # a whole-number seed's decision stream is the kernels' of the run's first chunk: a PIMC bot draws their worlds
    player = bower.bot(strategy, variant=variant, seed=seed) if isinstance(strategy, str) else \
        bower.sim.bots.bot(strategy, get_variant(variant), seed=seed)
    played = 0
    for h, rec in enumerate(records):
        state = dealt_state(game, *args(rec))
        player.restart()  # as an experiment restarts its bots at each hand
        while not state.is_terminal():
            action = player.step(state)
            assert action in state.legal_actions(), (h, str(state), action)
            state.apply_action(action)
        mine = state.to_record()
        for key in fields:
            assert mine[key] == rec[key], f"{variant} {strategy} hand {h}, {key}: bot {mine[key]} kernels {rec[key]}"
        for key in ("passed", "loner_discard"):  # Euchre's partners_best exchange, where the rules make one
            assert mine.get(key) == rec.get(key), f"{variant} {strategy} hand {h}, {key}"
        played += bool(mine["plays"])
    return played


@pytest.mark.parametrize("variant", sorted(FIELDS))
def test_every_preset_bot_plays_as_the_kernels(variant):
    for preset in _presets(variant):
        played = play_records(variant, preset, HANDS, {})
        assert played > HANDS // 4, (variant, preset, played)  # contracts were played, not only thrown in


@pytest.mark.parametrize("variant", sorted(PIMC_BOTS))
def test_pimc_cards_play_as_the_kernels_with_the_kernels_draws(variant):
    """The PIMC presets whose calls are heuristic and whose cards are searched, as bots seeded with the run's seed:
    the kernels' search for each card, on the worlds the kernels draw, so every card is the record's."""
    first = PIMC_BOTS[variant][0]
    for preset in PIMC_BOTS[variant]:
        play_records(variant, preset, HANDS if preset == first else HANDS // 4, {})
    play_records(variant, first, HANDS // 2, _api_test(variant).RULE_SETS[-1], seed=SEED + 2)


@pytest.mark.parametrize("variant", sorted(SEARCHED_BOTS))
def test_a_searched_auction_plays_as_the_kernels_with_the_kernels_draws(variant):
    """A preset whose calls are searched too (``pimc_bid``), as a bot seeded with the run's seed: every call, going
    alone, discard, defending alone and card is the record's, under the default rules and the last rule set of the
    variant's API test (few hands: each searched call solves its worlds for every candidate)."""
    preset = SEARCHED_BOTS[variant]
    assert play_records(variant, preset, 24, {}) > 12
    play_records(variant, preset, 12, _api_test(variant).RULE_SETS[-1], seed=SEED + 2)


@pytest.mark.parametrize("variant", sorted(FIELDS))
def test_the_default_bot_plays_as_the_kernels_under_every_rule_set(variant):
    for rules in _api_test(variant).RULE_SETS[1:]:
        play_records(variant, "default", HANDS // 2, rules, seed=SEED + 1)


def test_a_parameter_dict_and_a_toml_file_are_bots_too(tmp_path):
    from bower.sim.strategy import load_strategy, to_toml

    params = {"bid_3": 2.5, "swap_below": 1.5}
    play_records("ghost", params, HANDS // 2, {})
    name, full = load_strategy("aggressive", "hasenpfeffer")
    path = tmp_path / "mine.toml"
    path.write_text(to_toml("mine", full, "hasenpfeffer"))
    b = bower.bot(str(path), variant="hasenpfeffer")
    assert isinstance(b, PresetBot) and b.name == "mine"
    play_records("hasenpfeffer", str(path), HANDS // 2, {})
    bold = bower.strategy("default", bid_3=2.6, name="bold")  # a Strategy beside a bot plays as a bot
    r = bower.experiment([bower.bot("random", variant="ghost"), bold], variant="ghost", games=6, seed=0).summary
    assert r["bots"] and [s["name"] for s in r["strategies"]] == ["RandomBot", "bold"]


def test_bot_names_and_refusals():
    for v in FIELDS:
        b = bower.bot("default", variant=v)
        assert isinstance(b, PresetBot) and b.name == "default" and not b.random
        assert isinstance(bower.bot("bot:cautious", variant=v), PresetBot)
        assert isinstance(bower.bot(SEARCHED_BOTS[v], variant=v), PresetBot)  # a searched auction is a bot
        for switch in ("pimc_infer", "pimc_sees_all"):  # worlds weighed by the auction, or the true hands: refused
            with pytest.raises(bower.BowerError, match=f"searches \\(PIMC: {switch}\\).*not available as a bot"):
                bower.sim.bots.bot({"pimc_worlds": 8.0, "pimc_bid": 1.0, switch: 1.0}, get_variant(v))
    for v in FIELDS:  # the strategies that read the game's scores are bots (they read them from the state)
        assert bower.bot("equity", variant=v).name == "equity"
    assert isinstance(bower.bot("score-aware", variant="ghost"), PresetBot)
    with pytest.raises(BotError, match="unknown bot 'defualt'.*did you mean 'default'"):
        bower.bot("defualt", variant="euchre")
    with pytest.raises(bower.BowerError, match="unknown strategy 'nope'"):
        bower.bot("bot:nope", variant="euchre")
    with pytest.raises(BotError, match="takes no options"):
        bower.bot("default", variant="euchre", samples=3)
    assert needs_bots(["bot:default", "default"]) and not needs_bots(["default", "aggressive"])


def test_the_random_preset_draws_from_its_own_stream():
    """``bot:random`` plays a uniform legal action from ``random.Random(seed)``: seeded, every action reachable."""
    game = bower.game("euchre")
    state = game.new_initial_state()
    for a in [0] + list(range(24)):
        state.apply_action(a)
    b = bower.bot("bot:random", variant="euchre", seed=3)
    assert isinstance(b, PresetBot) and b.random
    seen = [b.step(state) for _ in range(100)]
    again = bower.bot("bot:random", variant="euchre", seed=3)
    assert seen == [again.step(state) for _ in range(100)]
    assert set(seen) == set(state.legal_actions())


@pytest.mark.parametrize("variant", sorted(FIELDS))
def test_a_preset_bot_against_its_preset_is_an_exact_tie(variant):
    """Every seat decides as the same deterministic strategy: on duplicate deals each player wins exactly as often
    and scores exactly as many points."""
    r = bower.experiment(["bot:default", "default"], variant=variant, games=48, seed=1).summary
    a, b = r["strategies"]
    assert r["bots"] and a["name"] == "bot:default" and b["name"] == "default"
    assert a["wins"] == b["wins"] and a["games"] == b["games"] and a["points_per_hand"] == b["points_per_hand"]
    share = 1 / 2 if get_variant(variant).partnerships else 1 / 3  # a seat's share of the wins
    assert a["win_rate"] == pytest.approx(share, abs=1e-12)
    assert r["pairs"][0]["win_rate_diff"] == 0.0


def test_a_preset_bot_wins_as_its_preset_does_in_the_kernels():
    """``bot:aggressive`` against ``bot:default`` through the API and ``aggressive`` against ``default`` in the
    kernels, on different deals: the two win-rate differences agree within 3.5 standard errors of their
    difference (seeded: the numbers are fixed)."""
    bots_r = bower.experiment(["bot:aggressive", "bot:default"], variant="euchre", games=1000, seed=4).summary
    kern_r = bower.experiment(["aggressive", "default"], variant="euchre", games=4000, seed=4).summary
    d1, lo1, hi1 = bots_r["pairs"][0]["win_rate_diff"], *bots_r["pairs"][0]["ci95"]
    d2, lo2, hi2 = kern_r["pairs"][0]["win_rate_diff"], *kern_r["pairs"][0]["ci95"]
    se = math.hypot((hi1 - lo1) / (2 * 1.96), (hi2 - lo2) / (2 * 1.96))
    assert abs(d1 - d2) < 3.5 * se, (d1, d2, se)


def test_the_command_line_takes_bot_names(capsys, tmp_path):
    code, out, _ = run(capsys, "experiment", "bot:default", "default", "--variant", "hasenpfeffer", "--games", "8",
                       "--seed", "2")
    assert code == 0
    assert "bot:default" in out and "no significant difference" in out
    infer = tmp_path / "infer.toml"
    infer.write_text('base = "pimc-bid"\npimc_infer = true\n')
    line = one_error(capsys, "experiment", f"bot:{infer}", "default", "--variant", "cutthroat", "--games", "8")
    assert "searches (PIMC: pimc_infer)" in line and "not available as a bot" in line


SHOULD_BID = [
    ("JH JD AH 9S 9C", "--variant", "euchre", "--upcard", "TH"),
    ("JH JD AH KH 9S TC", "--variant", "ghost", "--position", "3", "--calls", "pass,3", "--swapped", "1"),
    ("JS JC AS 9H TD", "--variant", "cutthroat", "--upcard", "KS", "--position", "2", "--calls", "pass"),
    ("JS JC AS KS 9H TD", "--variant", "hasenpfeffer", "--position", "2", "--calls", "2"),
]


@pytest.mark.parametrize("question", SHOULD_BID, ids=lambda q: q[2])
def test_should_bid_with_the_preset_bot_equals_the_kernels(capsys, question):
    """should-bid's play-outs by ``bot:default`` (the bot path: every decision through the game API) score every
    action exactly as the kernels' ``default`` play-outs do, on the same deals."""
    import json

    answers = []
    for strategy in ("default", "bot:default"):
        code, out, _ = run(capsys, "should-bid", *question, "--strategy", strategy, "--samples", "60", "--seed", "3",
                           "--json")
        assert code == 0
        answers.append({a["action"]: a["expected_points"] for a in json.loads(out)["actions"]})
    assert answers[0] == answers[1] and len(answers[0]) >= 2
