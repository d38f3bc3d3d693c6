"""A mistyped variant, rule option, strategy or strategy parameter: the error names the closest known one."""

import pytest

from bower.sim.experiment import parse_range
from bower.sim.rules import RuleError
from bower.sim.strategy import StrategyError, load_strategy
from bower.sim.text import did_you_mean
from bower.sim.variants import get_variant


def test_the_closest_choice_or_nothing():
    assert did_you_mean("cuthroat", ["ghost", "cutthroat"]) == ": did you mean 'cutthroat'?"
    assert did_you_mean("GHOTS", ["ghost", "cutthroat"]) == ": did you mean 'ghost'?"  # case aside
    assert did_you_mean("xyz", ["ghost", "cutthroat"]) == ""
    assert did_you_mean("g" * 65, ["g" * 65]) == ""  # a long name is not compared
    assert did_you_mean("", ["ghost"]) == ""


@pytest.mark.parametrize("call, message", [
    (lambda: get_variant("cuthroat"),
     "unknown variant 'cuthroat': did you mean 'cutthroat'? (known: ghost, cutthroat, hasenpfeffer, euchre)"),
    (lambda: get_variant("standrd"),
     "unknown variant 'standrd': did you mean 'standard'? (known: ghost, cutthroat, hasenpfeffer, euchre)"),
    (lambda: get_variant("xyz"), "unknown variant 'xyz' (known: ghost, cutthroat, hasenpfeffer, euchre)"),
    (lambda: get_variant("euchre").option("stick_the_dealr"),
     "unknown rule option 'stick_the_dealr' for euchre: did you mean 'stick_the_dealer'? "
     "(known: stick_the_dealer, allow_lone_defender, loner_lead, canadian, discard_up, loner_march_score, "
     "loner_euchred_score, fast_break, four_trick_tokens, farmers, go_under, partners_best)"),
])
def test_rules(call, message):
    with pytest.raises(RuleError) as e:
        call()
    assert str(e.value) == message


@pytest.mark.parametrize("call, message", [
    (lambda: load_strategy("agressive", "ghost"), "unknown strategy 'agressive' for ghost: did you mean 'aggressive'? "
     "(presets: default, cautious, aggressive, never-swap, score-aware, equity, random, pimc, pimc-fast, pimc-cards; "
     "or a .toml file)"),
    (lambda: load_strategy({"bid3": 2.5}, "ghost"), "unknown strategy parameter 'bid3' (ghost): did you mean 'bid_3'?"),
    (lambda: parse_range("bid3=2.5:2.7:0.1", "ghost"),
     "unknown strategy parameter 'bid3' in --param (ghost): did you mean 'bid_3'?"),
])
def test_strategies(call, message):
    with pytest.raises(StrategyError) as e:
        call()
    assert str(e.value) == message


@pytest.mark.parametrize("argv, line", [
    (["simulat"], "bower: error: No such command 'simulat': did you mean 'simulate'?"),
    (["shouldbid"], "bower: error: No such command 'shouldbid': did you mean 'should-bid'?"),
    (["xyz"], "bower: error: No such command 'xyz'."),
])
def test_a_mistyped_command(argv, line, capsys):
    """One line on stderr and status 2, the closest command named when there is one."""
    from bower.sim.cli import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.strip().splitlines() == [line]
