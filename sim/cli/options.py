"""Options and value types shared by several commands, spelled once.

Closed sets are ``click.Choice`` (or a comma list of choices), so ``--help``
lists them and shell completion offers them; counts take ``1000000``,
``1_000_000`` or ``1e6`` and state their limit; ``--seed`` and ``--threads``
default from ``BOWER_SEED`` and ``BOWER_THREADS``.
"""

from __future__ import annotations

import click

from bower.sim.limits import BOT_TIMEOUT, MAX_SEED


def _variant_help() -> str:
    from bower.sim.variants import names

    known = names()
    return "Game variant: " + ", ".join(known[:-1]) + " or " + known[-1] + "."


class Count(click.ParamType):
    """A whole number written ``1000000``, ``1_000_000`` or ``1e6``, between ``low`` and ``high``."""

    name = "count"

    def __init__(self, low: int = 1, *, high: int, why: str = "more than any run could finish"):
        self.low, self.high, self.why = low, high, why

    def get_metavar(self, param, ctx=None) -> str:
        """``N`` in the help."""
        return "N"

    def convert(self, value, param, ctx):
        """The whole number ``value`` stands for; BadParameter for another value or one past the limits.

        The limits are checked on the text's size before it is expanded (``1e999999999`` is refused at once).
        """
        from bower.sim.text import given_text, limit_text, whole_number

        if isinstance(value, bool):
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if isinstance(value, int):
            n = value
        else:
            try:
                n = whole_number(value)
            except ValueError:
                self.fail(f"{value!r} is not a whole number (write 1000000, 1_000_000 or 1e6)", param, ctx)
            except OverflowError:
                if str(value).strip().startswith("-"):
                    self.fail(f"{given_text(value)} is less than {self.low:,}" if self.low != 1
                              else f"{given_text(value)} is not a positive integer", param, ctx)
                self.fail(f"{given_text(value)} is {self.why}: at most {limit_text(self.high)}", param, ctx)
        if n < self.low:
            self.fail(f"{n:,} is less than {self.low:,}" if self.low != 1 else f"{n:,} is not a positive integer",
                      param, ctx)
        if n > self.high:
            self.fail(f"{n:,} is {self.why}: at most {limit_text(self.high)}", param, ctx)
        return n


class Position(click.IntRange):
    """A position at the table, 1 (the dealer's left) to ``high`` (the dealer at the largest table)."""

    def __init__(self, high: int):
        super().__init__(1, high)

    def shell_complete(self, ctx, param, incomplete):
        """The positions (1 to the table size of ``--variant`` when given before, else of the largest table)."""
        from click.shell_completion import CompletionItem

        high = self.max
        variant = ctx.params.get("variant") if ctx is not None else None
        if variant:
            from bower.sim.rules import RuleError, get_variant

            try:
                high = get_variant(variant).players
            except RuleError:
                pass
        return [CompletionItem(str(p)) for p in range(1, high + 1) if str(p).startswith(incomplete)]

    def convert(self, value, param, ctx):
        """The position as an int; BadParameter naming the positions for another value."""
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            self.fail(f"{value!r} is not a position: 1 to {self.max} (1 = dealer's left, the last is the dealer)",
                      param, ctx)


class VariantChoice(click.Choice):
    """A variant name (or one of its aliases), given as the variant's own name; listed in ``--help``."""

    def __init__(self):
        from bower.sim.variants import names

        super().__init__(names(), case_sensitive=False)

    def convert(self, value, param, ctx):
        """The variant's own name for a name or alias (any case); BadParameter naming the known ones."""
        from bower.sim.rules import RuleError, get_variant

        try:
            return get_variant(str(value).strip().lower()).name
        except RuleError as e:
            self.fail(str(e), param, ctx)


class Real(click.ParamType):
    """A number (``0.25``, ``1e-3``); one written past a float's range (``1e999``) is kept as written, so that the
    error that refuses it names what was typed, not ``inf``."""

    name = "float"

    def convert(self, value, param, ctx):
        """The float ``value`` writes (``bower.sim.text.written_float``); click's error for text that is not one."""
        if isinstance(value, float):
            return value
        from bower.sim.text import written_float

        try:
            return written_float(str(value))
        except ValueError:
            self.fail(f"{value!r} is not a valid float.", param, ctx)


class CommaChoice(click.ParamType):
    """A comma list of words from a closed set (each word checked, the text passed on as given)."""

    name = "list"

    def __init__(self, choices, what: str = "value", normalise=lambda w: w.strip().lower(), split_spaces: bool = False,
                 empty_ok: bool = True):
        self.choices = tuple(choices)
        self.what = what
        self.normalise = normalise
        self.split_spaces = split_spaces
        self.empty_ok = empty_ok

    def get_metavar(self, param, ctx=None) -> str:
        """The choices, as ``--help`` shows them: ``[a|b|c][,...]``."""
        return "[" + "|".join(self.choices) + "][,...]"

    def words(self, text: str) -> list[str]:
        """The words of ``text`` as the set spells them; BadParameter names the first unknown one."""
        out = []
        for part in str(text).split(","):
            if not part.strip():
                continue
            w = self.normalise(part)
            if w in self.choices:
                out.append(w)
                continue
            for sub in part.split() if self.split_spaces else [part]:
                w = self.normalise(sub)
                if w not in self.choices:
                    raise click.BadParameter(f"unknown {self.what} {sub.strip()!r} (choose from "
                                             f"{', '.join(self.choices)})")
                out.append(w)
        if not out and not self.empty_ok:
            raise click.BadParameter(f"needs a {self.what}: {', '.join(self.choices)}")
        return out

    def convert(self, value, param, ctx):
        """``value`` unchanged once every word is checked (the command parses it further)."""
        try:
            self.words(value)
        except click.BadParameter as e:
            self.fail(e.message, param, ctx)
        return value

    def shell_complete(self, ctx, param, incomplete):
        """The choices that complete the list's last word."""
        from click.shell_completion import CompletionItem

        head, _, last = incomplete.rpartition(",")
        prefix = head + "," if head else ""
        return [CompletionItem(prefix + c) for c in self.choices if c.startswith(last.lower())]


class StrategySpec(click.ParamType):
    """A strategy preset name or a ``.toml`` file; completes the presets and file names."""

    name = "strategy"

    def convert(self, value, param, ctx):
        """``value`` as given (loading it is the command's work); BadParameter for an empty one."""
        text = str(value)
        if not text.strip():
            self.fail("give a preset name (bower strategies) or a .toml file", param, ctx)
        return text

    def shell_complete(self, ctx, param, incomplete):
        """The presets (of ``--variant`` when given already) and file names that complete ``incomplete``."""
        from click.shell_completion import CompletionItem

        from bower.sim.variants import all_variants

        variant = (ctx.params.get("variant") if ctx is not None else None) or None
        presets = []
        for v in all_variants():
            if variant in (None, v.name):
                presets += [p for p in v.presets if p not in presets]
        return [CompletionItem(p) for p in presets if p.startswith(incomplete)] + [
            CompletionItem(incomplete, type="file")]


def complete_seats(ctx, param, incomplete):
    """Shell completion of a ``SEAT`` option: the seats of ``--variant`` when given before, else of the largest table.

    An option's ``shell_complete`` callback: the option's type (and its
    messages) stay as they are.
    """
    from click.shell_completion import CompletionItem

    from bower.sim.variants import all_variants

    variant = ctx.params.get("variant") if ctx is not None else None
    seats = max((v.players for v in all_variants() if variant in (None, v.name)),
                default=max(v.players for v in all_variants()))
    return [CompletionItem(str(s)) for s in range(seats) if str(s).startswith(incomplete)]


def complete_words(*words: str):
    """A ``shell_complete`` callback offering ``words`` (any case typed): for an option checked elsewhere."""

    def complete(ctx, param, incomplete):
        from click.shell_completion import CompletionItem

        return [CompletionItem(w) for w in words if w.lower().startswith(incomplete.lower())]

    return complete


def _check_rules(ctx, param, value):
    """``--rule`` values: each option at most once (``--rule X=a --rule X=b`` is refused)."""
    seen: dict[str, str] = {}
    for pair in value or ():
        if "=" not in pair:
            continue  # parse_rule_args names the form
        name, raw = (x.strip() for x in pair.split("=", 1))
        if name in seen:
            raise click.BadParameter(f"rule option {name!r} given twice ({name}={seen[name]} and {name}={raw}); "
                                     "give each rule option once", ctx=ctx, param=param)
        seen[name] = raw
    return value


def _set_quiet(ctx, param, value):
    if value:
        from bower.sim.progress import set_quiet

        set_quiet(True)
    return value


variant_option = click.option("--variant", default="ghost", show_default=True, type=VariantChoice(),
                              help=_variant_help())
seed_option = click.option("--seed", default=0, show_default=True, envvar="BOWER_SEED", show_envvar=True,
                           type=Count(low=0, high=MAX_SEED, why="too large a seed"),
                           help="Random seed: a whole number below 2**64.")
threads_option = click.option(
    "--threads", default=None, type=click.IntRange(min=1), envvar="BOWER_THREADS", show_envvar=True,
    help="Kernel threads (default: all cores). Results do not depend on it.",
)
rule_option = click.option(
    "--rule", "rules", multiple=True, metavar="NAME=VALUE", callback=_check_rules,
    help="Rule option as named in RULES.md (repeatable, each option once).",
)
strategy_option = click.option(
    "--strategy", default="default", show_default=True, type=StrategySpec(),
    help="Strategy: a preset name (bower strategies) or a .toml file.",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
quiet_option = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_set_quiet,
                            help="No progress bar and no compile notice on stderr (results and errors still print).")
_scheduler = click.option(
    "--scheduler", default=None, metavar="ADDRESS", envvar="BOWER_SCHEDULER", show_envvar=True,
    help="Run the chunks as Dask tasks: a scheduler address (tcp://HOST:8786) or local:N (N worker processes for "
         "this run); default: this machine's threads. Results do not depend on it (needs Dask: pip install '.[dask]' "
         "in the checkout).",
)


def _set_scheduler_timeout(ctx, param, value):
    """``--scheduler-timeout``: checked, then set for this command's runs (``main`` clears it after)."""
    from bower.sim import distributed
    from bower.sim.errors import UserError

    try:
        distributed.set_timeout(None if value is None else distributed.parse_timeout(value, what=""))
    except UserError as e:
        raise click.BadParameter(e.format_message(), ctx, param) from None
    return value


_scheduler_timeout = click.option(
    "--scheduler-timeout", default=None, metavar="SECONDS", envvar="BOWER_SCHEDULER_TIMEOUT", show_envvar=True,
    expose_value=False, callback=_set_scheduler_timeout,
    help="With --scheduler: seconds to reach the scheduler and have its first answer (its handshake; after a TLS "
         "handshake for tls:// and wss://, after the WebSocket upgrade for ws:// and wss://), or to get it back "
         "once lost; then one line and status 2 [default: 30].",
)


def scheduler_option(f):
    """``--scheduler ADDRESS`` and ``--scheduler-timeout SECONDS`` (the latter sets ``bower.sim.distributed``'s)."""
    return _scheduler(_scheduler_timeout(f))


def start_option(help_text: str):
    """``--start A,B`` (two side scores, seats 0 & 2 first) or ``A,B,C`` (one score per seat): a game's starting
    score, passed on as typed; the command checks it against the variant (``bower.sim.runner.check_start``: one
    line, status 2, the same line the library's ``BowerError`` says)."""
    return click.option("--start", "start", default=None, metavar="A,B[,C]", help=help_text)


def _positive_seconds(ctx, param, value):
    """``--bot-timeout``: a positive, finite number of seconds (not 0, not nan, not inf)."""
    if not 0 < value < float("inf"):
        raise click.BadParameter(f"{value!r} is not a positive number of seconds", ctx, param)
    return value


def bot_timeout_option(which: str):
    """``--bot-timeout SECONDS`` for a command where ``which`` (e.g. "Python bots", "a Python bot as --base") play:
    the longest a bot may take to answer one call (``BOT_TIMEOUT`` by default)."""
    return click.option("--bot-timeout", default=BOT_TIMEOUT, show_default=True, type=Real(),
                        callback=_positive_seconds, metavar="SECONDS",
                        help=f"With {which}: the longest a bot may take to answer one call; a slower bot stops the "
                        "run with one line (exit 2).")
