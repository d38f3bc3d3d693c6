"""Python bots in experiments: bower.bot, bots from files, the duplicate design through the game API, bad bots."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import bower
from bower.sim import bots
from tests.cli_run import one_error, run

STICK = {"stick_the_dealer": True}  # bots that never bid: the dealer must, so games end
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bots" / "high_card.py"


def _example():
    spec = importlib.util.spec_from_file_location("high_card_example", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.HighCard


class FirstLegal:
    """Deterministic: the first legal action (pass where it may, the lowest card)."""

    name = "first-legal"

    def step(self, state):
        return state.legal_actions()[0]


def _numbers(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ("elapsed_s", "games_per_second")}


def test_same_seed_same_numbers_and_another_seed_others():
    a = bower.experiment(["greedy", "random"], variant="euchre", games=24, seed=3).summary
    b = bower.experiment(["greedy", "random"], variant="euchre", games=24, seed=3).summary
    c = bower.experiment(["greedy", "random"], variant="euchre", games=24, seed=4).summary
    assert _numbers(a) == _numbers(b)
    assert a["games"] == 24 and a["deal_sets"] == 12
    assert [s["hands"] for s in a["strategies"]] != [s["hands"] for s in c["strategies"]]


def test_a_deterministic_bot_against_itself_ties_exactly_in_every_deal_set():
    """Duplicate play: the same deals with the sides exchanged, the same decisions, so each set splits 1-1."""
    high = _example()
    r = bower.experiment([high(), high()], variant="euchre", games=100, seed=2, rules=STICK).summary
    assert r["assignments"] == [["high-card#1", "high-card#2"] * 2, ["high-card#2", "high-card#1"] * 2]
    p = r["pairs"][0]
    assert p["win_rate_diff"] == 0 and p["ci95"] == [0.0, 0.0]
    assert [s["win_rate"] for s in r["strategies"]] == [0.5, 0.5]


def test_three_seats_a_deterministic_bot_against_itself_ties_exactly():
    high = _example()
    r = bower.experiment([high(), high()], variant="cutthroat", games=12, seed=1,
                         rules={"stick_the_dealer": True}).summary
    assert len(r["assignments"]) == 6 and r["games"] == 12
    assert r["pairs"][0]["win_rate_diff"] == 0
    assert r["strategies"][0]["win_rate"] == r["strategies"][1]["win_rate"]


def test_swapping_the_players_negates_the_difference():
    high = _example()
    ab = bower.experiment([high(), FirstLegal()], variant="euchre", games=60, seed=5, rules=STICK).summary["pairs"][0]
    ba = bower.experiment([FirstLegal(), high()], variant="euchre", games=60, seed=5, rules=STICK).summary["pairs"][0]
    assert ab["win_rate_diff"] == pytest.approx(-ba["win_rate_diff"], abs=1e-12)
    assert ab["ci95"] == pytest.approx([-ba["ci95"][1], -ba["ci95"][0]], abs=1e-12)
    assert ab["win_rate_diff"] != 0


def test_random_bot_against_itself_has_an_interval_covering_zero():
    r = bower.experiment([bower.bot("random", variant="euchre", seed=1), "random"], variant="euchre", games=200,
                         seed=0).summary
    low, high = r["pairs"][0]["ci95"]
    assert low < 0 < high


def test_the_example_bot_beats_random_clearly():
    """Tolerance: at 200 games, seed 0, the difference is above 80 points and its interval above 70."""
    r = bower.experiment([_example()(), "random"], variant="euchre", games=200, seed=0).summary
    p = r["pairs"][0]
    assert p["better"] == "high-card"
    assert p["win_rate_diff"] > 0.80 and p["ci95"][0] > 0.70


def test_greedy_beats_random_clearly():
    """Tolerance: at 40 games (20 deal sets), seed 1, greedy wins above 80% more of its games."""
    r = bower.experiment(["greedy", "random"], variant="euchre", games=40, seed=1).summary
    assert r["pairs"][0]["win_rate_diff"] > 0.8 and r["pairs"][0]["better"] == "greedy"


def test_bot_calls_restart_step_and_inform_action_as_documented():
    calls = {"restart": 0, "step": 0, "inform": 0, "seats": set()}

    class Watching(FirstLegal):
        def restart(self):
            calls["restart"] += 1

        def step(self, state):
            calls["step"] += 1
            calls["seats"].add(state.current_player())
            return super().step(state)

        def inform_action(self, state, player, action):
            assert action in state.legal_actions()
            calls["inform"] += 1

    r = bower.experiment([Watching(), "random"], variant="euchre", games=2, seed=0).summary
    assert calls["restart"] == r["hands"]  # once a hand of each game (one object, both seats of its side)
    assert calls["seats"] == {0, 1, 2, 3}
    assert calls["step"] > 0 and calls["inform"] > 0


def test_cli_runs_a_bot_from_a_file(capsys):
    code, out, _ = run(capsys, "experiment", f"{EXAMPLE}:HighCard", "random", "--variant", "euchre", "--games",
                       "40", "--seed", "0")
    assert code == 0
    assert "high-card - random:" in out and "high-card is better" in out


def _bot_file(tmp_path, body: str) -> str:
    p = tmp_path / "b.py"
    p.write_text(body)
    return str(p)


@pytest.mark.parametrize("body,cls,words", [
    (None, "X", "no file"),
    ("class A:\n    def step(self, s):\n        return 0\n", "Nope", "has no 'Nope'"),
    ("def broken(:\n", "A", "SyntaxError"),
    ("class A:\n    pass\n", "A", "has no step(state) method"),
    ("class A:\n    def __init__(self):\n        raise RuntimeError('boom')\n    def step(self, s):\n        return 0\n",
     "A", "A() raised RuntimeError: boom"),
    ("class A:\n    def step(self, s):\n        raise KeyError('bad\\nthing')\n", "A", "raised KeyError"),
    ("class A:\n    def step(self, s):\n        return 99\n", "A", "returned 99, not a legal action"),
    ("class A:\n    def step(self, s):\n        return str(s.legal_actions()[0])\n", "A", "not a legal action"),
])
def test_bad_bots_are_one_line_exit_2(capsys, tmp_path, body, cls, words):
    path = str(tmp_path / "missing.py") if body is None else _bot_file(tmp_path, body)
    line = one_error(capsys, "experiment", f"{path}:{cls}", "random", "--variant", "euchre", "--games", "4")
    assert words in line
    assert "bot " in line
    if "legal" in words or "KeyError" in words:
        assert "hand 1" in line and "deal set 1" in line and "seat" in line


def test_bad_bots_in_the_library_are_bower_errors(tmp_path):
    class Raises:
        def step(self, state):
            raise ValueError("no idea")

    with pytest.raises(bower.BowerError, match=r"bot 'Raises' raised ValueError: no idea at seat \d \(deal set 1, "
                                               r"seat assignment 1, hand 1"):
        bower.experiment([Raises(), "random"], variant="euchre", games=2)
    infer = tmp_path / "infer.toml"
    infer.write_text('base = "pimc-bid"\npimc_infer = true\n')
    with pytest.raises(bower.BowerError, match="searches \\(PIMC: pimc_infer\\).*not available as a bot"):
        bower.bot(str(infer), variant="cutthroat")
    with pytest.raises(bower.BowerError, match="unknown bot 'randm'.*random"):
        bower.bot("randm", variant="euchre")
    with pytest.raises(bower.BowerError, match="player 2 \\(int\\) cannot play with Python bots"):
        bower.experiment([FirstLegal(), 5], variant="ghost", games=2)


def test_random_bot_takes_each_legal_action():
    state = bower.game("euchre").new_initial_state()
    for a in [0] + list(range(24)):
        state.apply_action(a)
    b = bots.RandomBot(0)
    seen = {b.step(state) for _ in range(200)}
    assert seen == set(state.legal_actions())


# ---------------------------------------------------------------- a bot that takes too long (--bot-timeout)

class Sleeper:
    """Answers its first ``fast`` calls at once, then sleeps far longer than any limit here."""

    def __init__(self, fast: int = 0):
        self.fast = fast

    def step(self, state):
        if self.fast > 0:
            self.fast -= 1
            return state.legal_actions()[0]
        import time

        time.sleep(600)
        return state.legal_actions()[0]


class Spinner:
    """Spins in pure Python, swallowing every ``Exception`` as it goes."""

    def step(self, state):
        while True:
            try:
                sum(range(1000))
            except Exception:  # noqa: BLE001 - the point: the time limit is not an Exception
                pass


class SlowHook(FirstLegal):
    """Legal and quick in ``step``; its ``inform_action`` hangs."""

    def inform_action(self, state, player, action):
        import time

        time.sleep(600)


def _timed_out(players, timeout=0.3):
    import signal
    import time

    before = signal.getsignal(signal.SIGALRM)
    t = time.monotonic()
    with pytest.raises(bower.BowerError) as e:
        bower.experiment(players, variant="euchre", games=2, rules=STICK, bot_timeout=timeout)
    took = time.monotonic() - t
    assert signal.getsignal(signal.SIGALRM) is before  # the handler put back
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)  # and no timer left running
    return str(e.value), took


@pytest.mark.parametrize("player,words", [
    (Sleeper(), r"bot 'Sleeper' took longer than 0\.3 s \(the bot timeout\) to choose an action at seat \d "
                r"\(deal set 1, seat assignment 1, hand 1, decision \d\)"),
    (Sleeper(fast=5), r"bot 'Sleeper' took longer than 0\.3 s .* decision \d+\)"),
    (Spinner(), r"bot 'Spinner' took longer than 0\.3 s \(the bot timeout\) to choose an action at seat \d .*"),
])
def test_a_bot_slower_than_the_timeout_stops_the_run_in_one_line(player, words):
    import re

    line, took = _timed_out([player, "random"])
    assert re.fullmatch(words, line), line
    assert "\n" not in line
    assert took < 30  # not the bot's 600 s (a generous bound: CI machines are busy)


def test_a_hook_slower_than_the_timeout_is_named():
    line, _ = _timed_out([SlowHook(), "random"])
    assert line.startswith("bot 'first-legal' took longer than 0.3 s (the bot timeout) in inform_action (deal set 1")


def test_the_timeout_holds_in_another_thread_too():
    """Away from the main thread (a notebook's worker, a web server) the call runs in a helper thread."""
    import threading

    out = {}

    def run():
        try:
            bower.experiment([Sleeper(), "random"], variant="euchre", games=2, rules=STICK, bot_timeout=0.3)
        except bower.BowerError as e:
            out["line"] = str(e)

    t = threading.Thread(target=run)
    t.start()
    t.join(60)
    assert not t.is_alive()
    assert out["line"].startswith("bot 'Sleeper' took longer than 0.3 s (the bot timeout) to choose an action")


def test_a_quick_bot_plays_the_same_games_with_or_without_a_limit():
    a = bower.experiment([FirstLegal(), "random"], variant="euchre", games=4, seed=2, rules=STICK).summary
    b = bower.experiment([FirstLegal(), "random"], variant="euchre", games=4, seed=2, rules=STICK,
                         bot_timeout=None).summary
    assert _numbers(a) == _numbers(b)


@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf"), "5", True])
def test_a_bad_bot_timeout_is_a_bower_error(value):
    with pytest.raises(bower.BowerError, match="bot_timeout is a positive number of seconds"):
        bower.experiment([FirstLegal(), "random"], variant="euchre", games=2, bot_timeout=value)


def test_cli_bot_timeout(capsys, tmp_path):
    path = _bot_file(tmp_path, "import time\nclass A:\n    def step(self, s):\n        time.sleep(600)\n")
    line = one_error(capsys, "experiment", f"{path}:A", "random", "--variant", "euchre", "--games", "4",
                     "--bot-timeout", "0.3")
    assert "bot 'A' took longer than 0.3 s (the bot timeout) to choose an action at seat" in line
    for bad in ("0", "-2", "nan", "inf", "soon"):
        line = one_error(capsys, "experiment", f"{path}:A", "random", "--variant", "euchre", "--bot-timeout", bad)
        assert "--bot-timeout" in line


# ---------------------------------------------------------------- the experiment's own speed-ups keep its results


@pytest.mark.parametrize("variant", ["ghost", "cutthroat", "hasenpfeffer", "euchre"])
def test_deal_random_deals_what_the_chance_outcomes_would(variant):
    """``deal_random(rng)`` gives the cards (history, hands, every field) that applying
    ``chance_outcomes()[rng.randrange(n)]`` at each chance node gives, for the same ``random.Random`` seed."""
    import random

    game = bower.game(variant)
    for seed in range(20):
        a, b = game.new_initial_state(), game.new_initial_state()
        a.apply_action(seed % game.num_players())
        b.apply_action(seed % game.num_players())
        ra, rb = random.Random(seed), random.Random(seed)
        a.deal_random(ra)
        while b.is_chance_node():
            outcomes = b.chance_outcomes()
            b.apply_action(outcomes[rb.randrange(len(outcomes))][0])
        assert a.history() == b.history()
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.legal_actions() == b.legal_actions() and a.current_player() == b.current_player()
        assert ra.random() == rb.random()  # the same draws taken from the generator
    with pytest.raises(bower.BowerError, match="deal_random deals the cards once the dealer is chosen"):
        game.new_initial_state().deal_random(random.Random(0))


def test_a_clone_copies_every_field_and_shares_no_list():
    """``clone`` (one copier made per state class) copies every slot and copies each list, so a clone's actions
    leave the original as it was."""
    import random

    state = bower.game("euchre").new_initial_state()
    state.apply_action(0)
    state.deal_random(random.Random(1))
    twin = state.clone()
    slots = type(state).__slots__
    assert all(getattr(twin, s) == getattr(state, s) for s in slots)
    assert all(getattr(twin, s) is not getattr(state, s) for s in slots if type(getattr(state, s)) is list)
    before = state.history()
    while not twin.is_terminal():
        twin.apply_action(twin.legal_actions()[0])
    assert state.history() == before and not state.is_terminal()


def test_a_clone_shares_no_remembered_legal_list():
    """The legal list a state remembers (``_memo``) is copied with it: changing a clone's cannot change the
    original's legal actions."""
    import random

    state = bower.game("euchre").new_initial_state()
    state.apply_action(0)
    state.deal_random(random.Random(1))
    legal = state.legal_actions()
    twin = state.clone()
    twin._legal_now().append(99)
    assert state.legal_actions() == legal and state._legal_now() is not twin._legal_now()


def test_a_view_reads_the_state_and_copies_it_on_the_first_write():
    """``state_view``: reading methods and plain fields read the state itself (no copy); a write, a call of any
    other method or the read of a list field makes the view a clone, and the state stays as it was."""
    import copy
    import random

    from bower.sim.game import StateView, state_view

    for variant in ("euchre", "ghost", "cutthroat", "hasenpfeffer"):
        state = bower.game(variant).new_initial_state()
        state.apply_action(0)
        state.deal_random(random.Random(2))
        before, legal, seat = state.history(), state.legal_actions(), state.current_player()
        view = state_view(state)
        assert (view.legal_actions(), view.current_player(), view.history()) == (legal, seat, before)
        assert view.information_state_string(seat) == state.information_state_string(seat)
        assert view.observation_tensor(seat) == state.observation_tensor(seat) and str(view) == str(state)
        assert view.resample_from_infostate(seat, 1).history()[:1] == before[:1] and view.clone().history() == before
        assert view.player == seat and view.phase == state.phase and not view._own  # nothing copied yet
        assert isinstance(view, type(state)) and isinstance(view, StateView)
        view.legal_actions().append(99)  # a fresh list
        assert state.legal_actions() == legal
        view.hands[seat] = 0  # a list field: read from the view's own clone
        assert view._own and state.history() == before and state.legal_actions() == legal
        view.apply_action(legal[0])
        assert view.history() == before + [legal[0]] and state.history() == before
        other = state_view(state)
        other.player = -4  # a write: on the clone
        assert state.current_player() == seat and other.current_player() == -4
        assert copy.deepcopy(state_view(state)).history() == before and not isinstance(copy.copy(view), StateView)


class _Vandal:
    """A random bot that changes every state it is given (its hands, an action applied) and keeps it; its draws are
    ``UserRandom``'s, so it should play exactly the same games."""

    def __init__(self, seed):
        import random

        self.rng, self.kept, self.name = random.Random(seed), [], f"p{seed}"

    def restart_at(self, state):
        self.kept.append((state, state.history()))
        state.hands[0] = 0

    def inform_action(self, state, player, action):
        self.kept.append((state, state.history()))
        state.hands[player] = 0
        state.apply_action(action)

    def step(self, state):
        legal = state.legal_actions()
        action = legal[self.rng.randrange(len(legal))]
        self.kept.append((state, state.history()))
        state.hands[state.current_player()] = 0
        state.apply_action(legal[-1])
        return action


class _Plain:
    """``_Vandal``'s draws, changing nothing."""

    def __init__(self, seed):
        import random

        self.rng, self.name = random.Random(seed), f"p{seed}"

    def step(self, state):
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


class _Keeper(_Plain):
    """``_Plain``'s draws, keeping every state it is given (and a copy of its history then), writing to none."""

    def __init__(self, seed):
        super().__init__(seed)
        self.kept = []

    def step(self, state):
        self.kept.append((state, state.history()))
        return super().step(state)


@pytest.mark.parametrize("variant, rules", [("euchre", STICK), ("cutthroat", None)])
def test_a_bot_that_changes_its_state_never_changes_the_game(variant, rules):
    """A bot given a copy-on-write view (``step``, ``restart_at``, ``inform_action``) that writes to it, applies
    actions to it and keeps it, beside one that keeps its views unchanged, plays the same games as two that only
    read (seed 4, 6 games); a kept view is the state as it was given, plus only the keeper's own action."""
    vandal, keeper = _Vandal(1), _Keeper(2)
    a = bower.experiment([vandal, keeper], variant=variant, games=6, seed=4, rules=rules).summary
    b = bower.experiment([_Plain(1), _Plain(2)], variant=variant, games=6, seed=4, rules=rules).summary
    assert _numbers(a) == _numbers(b)
    assert len(vandal.kept) > a["hands"] and len(keeper.kept) > a["hands"]
    assert all(s.history() == h for s, h in keeper.kept)
    assert all(s.history()[:len(h)] == h and len(s.history()) - len(h) in (0, 1) for s, h in vandal.kept)


def test_the_bot_clock_puts_the_alarm_back():
    """An experiment with a bot timeout leaves ``SIGALRM``'s handler as it found it and no interval timer running,
    after a run and after a bot that took too long."""
    import signal

    def mine(signum, frame):
        pass

    old = signal.signal(signal.SIGALRM, mine)
    try:
        bower.experiment([FirstLegal(), "random"], variant="euchre", games=2, rules=STICK, bot_timeout=5)
        assert signal.getsignal(signal.SIGALRM) is mine and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        _timed_out([Sleeper(), "random"])
        assert signal.getsignal(signal.SIGALRM) is mine and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, old)
