"""bower's bots in OpenSpiel's own ``euchre``: a ``pyspiel.Bot`` that plays a seat by bower's Euchre state.

``openspiel_bot(bower_bot, game)`` wraps a bot of ``bower.bot(name, "euchre")``
(anything with ``step(state)``) so that OpenSpiel's ``evaluate_bots`` or any
loop over ``pyspiel.load_game("euchre")`` can seat it. At each decision the
OpenSpiel state is replayed into a bower ``euchre`` state (``to_bower``):
the same dealer, the same five cards in each hand and the same up-card; the
three cards OpenSpiel never deals (the rest of the kitty) go to the kitty in
card order, as nobody at the table sees them. The bower bot's action comes
back as OpenSpiel's action id (``to_openspiel``).

The encodings (OpenSpiel's ``euchre.h``): a card is ``rank * 4 + suit``,
suits C D H S, ranks 9 T J Q K A (bower: ``suit * 6 + rank``, suits C S D
H); 24 pass, 25..28 a trump suit C D H S (in round one the up-card's suit
is the order), 29 go alone, 30 play with the partner (also the lone
defender's yes and no). OpenSpiel deals card ``k`` to seat
``(dealer + k) % 4`` and then the up-card; bower deals from the dealer's
left. OpenSpiel's rules are bower's with ``loner_lead = dealer``; its
``stick_the_dealer`` and ``allow_lone_defender`` parameters carry over.
"""

from __future__ import annotations

from bower.sim.errors import UserError
from bower.sim.game import game as make_game
from bower.sim.variants.euchre import game as eg

OS_SUIT = (0, 3, 1, 2)  # bower suit C S D H -> OpenSpiel suit C D H S
BOWER_SUIT = (0, 2, 3, 1)  # OpenSpiel suit -> bower suit
OS_PASS, OS_SUIT_CALL, OS_ALONE, OS_PARTNER = 24, 25, 29, 30


def os_card(c: int) -> int:
    """OpenSpiel's id of bower's card ``c``."""
    return (c % 6) * 4 + OS_SUIT[c // 6]


def bower_card(a: int) -> int:
    """bower's id of OpenSpiel's card ``a``."""
    return BOWER_SUIT[a % 4] * 6 + a // 4


def bower_rules(os_game) -> dict:
    """bower's rules for the OpenSpiel euchre game ``os_game`` (its parameters carried over)."""
    p = os_game.get_parameters()
    return {"stick_the_dealer": bool(p.get("stick_the_dealer", True)),
            "allow_lone_defender": bool(p.get("allow_lone_defender", False)), "loner_lead": "dealer",
            "canadian": False, "discard_up": False, "loner_march_score": 4, "loner_euchred_score": 2,
            "fast_break": False, "four_trick_tokens": False, "farmers": False, "go_under": False,
            "partners_best": False}


def to_openspiel(state, a: int) -> int:
    """OpenSpiel's id of bower's decision ``a`` at bower state ``state``."""
    if a < eg.DECK:
        return os_card(a)
    if a == eg.PASS:
        return OS_PASS
    if a == eg.ORDER:
        return OS_SUIT_CALL + OS_SUIT[state.up // 6]
    if eg.NAME <= a < eg.NAME + 4:
        return OS_SUIT_CALL + OS_SUIT[a - eg.NAME]
    return {eg.ALONE: OS_ALONE, eg.WITH_PARTNER: OS_PARTNER}[a]


def to_bower(os_state, game=None):
    """A bower euchre state with the deal and the decisions of OpenSpiel's euchre state ``os_state``."""
    game = game or make_game("euchre", bower_rules(os_state.get_game()))
    hist = list(os_state.history())
    if len(hist) < 22:
        raise UserError("OpenSpiel's euchre state is still being dealt; bower's bots play from the first decision")
    dealer = hist[0]
    hands = [[] for _ in range(4)]
    for k, a in enumerate(hist[1:21]):
        hands[(dealer + k) % 4].append(bower_card(a))
    up = bower_card(hist[21])
    seen = {c for h in hands for c in h} | {up}
    state = game.new_initial_state()
    state.apply_action(dealer)
    for k in range(20):
        state.apply_action(hands[(dealer + 1 + k) % 4].pop(0))
    state.apply_action(up)
    for c in range(eg.DECK):
        if c not in seen:
            state.apply_action(c)
    for a in hist[22:]:
        mine = {to_openspiel(state, b): b for b in state.legal_actions()}
        if a not in mine:
            raise UserError(f"OpenSpiel's euchre action {a} has no bower action at {state.history()[-1:]} "
                            f"(bower's legal: {state.legal_actions()})")
        state.apply_action(mine[a])
    return state


def _bot_base():
    from bower.sim.openspiel import pyspiel

    return pyspiel().Bot


def openspiel_bot(bower_bot, os_game=None, name: str | None = None):
    """``bower_bot`` (``bower.bot(..., "euchre")`` or any object with ``step(state)``) as a ``pyspiel.Bot`` for OpenSpiel's euchre."""
    Bot = _bot_base()

    class _EuchreBot(Bot):
        def __init__(self):
            Bot.__init__(self)
            self.bower_bot = bower_bot
            self.name = name or type(bower_bot).__name__
            self._game = make_game("euchre", bower_rules(os_game)) if os_game is not None else None

        def restart_at(self, state):
            restart = getattr(self.bower_bot, "restart", None)
            if callable(restart):
                restart()

        def inform_action(self, state, player_id, action):
            pass

        def step(self, os_state):
            ours = to_bower(os_state, self._game)
            return to_openspiel(ours, int(self.bower_bot.step(ours)))

        def provides_policy(self):
            return False

    return _EuchreBot()
