"""The ``bower`` command line: one click group, one module per command.

``main`` runs the group in click's standalone mode, so shell completion
works (``_BOWER_COMPLETE=bash_source bower``) and every error is a
``click.ClickException`` that prints itself: bad input and faults as one
line ``bower: error: ...`` with status 2 (``bower.sim.errors.UserError``), Ctrl-C
as ``bower: interrupted`` (130), SIGTERM as ``bower: terminated`` (143) and
SIGHUP as ``bower: hung up`` (129), after the same cleanup; a signal that
arrives during that cleanup is ignored. A signal is acted on at once even
inside a long kernel call (``bower.kernels.jit.ChunkKernel`` runs the
kernels in worker threads); after the cleanup the process ends without
waiting for them (``_end_if_kernels_run``). Options default from ``BOWER_<COMMAND>_<OPTION>``
environment variables (``BOWER_SEED`` and ``BOWER_THREADS`` for every
command).
"""

from __future__ import annotations

import errno
import os
import signal
import sys

import click

from bower.sim.cli.options import quiet_option
from bower.sim.errors import CommandLineError, HungUp, Stopped, Terminated, UserError, fault_error


def _stopped(e: KeyboardInterrupt) -> Stopped:
    """The one-line stop (status 130, 143 or 129) of the interrupt the signal handler raised."""
    return Stopped(terminated=isinstance(e, Terminated), hung_up=isinstance(e, HungUp))


# the commands, each in its module ``bower.sim.cli.NAME`` (the function named as the command, ``-`` as ``_``),
# imported when the command runs or a help or completion lists them: ``main`` sets its signal handlers before
# any of them loads NumPy, pandas or a kernel (a Ctrl-C during those imports is ``bower: interrupted``, not a
# traceback), and a run imports only its own command's module
COMMANDS = ("simulate", "experiment", "sweep", "strategies", "analyze", "report", "should-bid", "profile", "solve",
            "replay", "warm", "equity")


class BowerGroup(click.Group):
    """The group that turns every failure below it into a one-line click exception; its commands load lazily."""

    _loaded: dict[str, click.Command] = {}

    def list_commands(self, ctx):
        """The command names, sorted (as click lists them)."""
        return sorted(COMMANDS)

    def get_command(self, ctx, cmd_name):
        """The command ``cmd_name``, its module imported at first use (with ``--quiet`` added), or None."""
        if cmd_name not in COMMANDS:
            return None
        if cmd_name not in self._loaded:
            import importlib

            attr = cmd_name.replace("-", "_")
            cmd = getattr(importlib.import_module(f"bower.sim.cli.{attr}"), attr)
            if not any(p.name == "quiet" for p in cmd.params):
                quiet_option(cmd)  # --quiet on every command, after its own options
            self._loaded[cmd_name] = cmd
        return self._loaded[cmd_name]

    def resolve_command(self, ctx, args):
        """click's, with the closest command named for a mistyped one (``No such command 'simulat': did you mean
        'simulate'?``)."""
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError as e:
            from bower.sim.text import did_you_mean  # (sim.text loads NumPy: only on this error)

            name = str(args[0]) if args else ""
            hint = "" if name in COMMANDS or name.startswith("-") else did_you_mean(name, COMMANDS)
            if not hint:
                raise
            raise click.UsageError(f"No such command {name!r}{hint}", ctx=e.ctx) from None

    def make_context(self, info_name, args, parent=None, **extra):
        """click's, with a usage error of the group's own options as one line."""
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as e:
            if isinstance(e, UserError):
                raise
            raise CommandLineError(e.format_message()) from None
        except KeyboardInterrupt as e:
            raise _stopped(e) from None

    def invoke(self, ctx):
        """Run the command; usage errors, interrupts, OSError and MemoryError become one-line click exceptions."""
        try:
            return super().invoke(ctx)
        except (UserError, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except click.UsageError as e:
            raise CommandLineError(e.format_message()) from None
        except KeyboardInterrupt as e:
            raise _stopped(e) from None
        except Exception as e:
            if _RECEIVED:  # a stop whose exception was lost on its way (turned into another in an import: ``main``)
                raise _stopped(_STOPS[_RECEIVED[0]]()) from None
            if not isinstance(e, (OSError, MemoryError)):
                raise
            if isinstance(e, OSError) and e.errno == errno.EPIPE:
                raise  # click's standalone mode quiets a closed pipe
            raise fault_error(e) from None


@click.group(cls=BowerGroup, invoke_without_command=True, context_settings={
    "help_option_names": ["-h", "--help"], "auto_envvar_prefix": "BOWER"})
@click.version_option(package_name="bower-euchre", prog_name="bower", allow_from_autoenv=False)
@quiet_option
@click.pass_context
def cli(ctx):
    """bower: Monte Carlo simulation of Euchre variants.

    \b
    Exit status: 0 done; 2 bad input or a fault (one line on stderr:
    bower: error: ...; nothing is left half-written); 130 interrupted
    (Ctrl-C); 143 terminated (SIGTERM); 129 hung up (SIGHUP). Each stop
    removes the partial output. Shell completion: eval "$(_BOWER_COMPLETE=bash_source bower)"
    (zsh_source, fish_source for those shells).
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())



_STOPS = {signal.SIGINT: KeyboardInterrupt, signal.SIGTERM: Terminated, signal.SIGHUP: HungUp}
_RECEIVED: list[int] = []  # the stop signals the handler took during this ``main`` (its exception can be lost)


def _on_signal(signum, frame):
    """Stop the run: raise the stop of ``signum`` in the main thread, once.

    SIGINT, SIGTERM and SIGHUP are ignored from then on (this one, and the
    others this handler holds), so that no later signal cuts the cleanup of
    the partial output short. The others get a handler that does nothing
    rather than SIG_IGN: one already on its way would otherwise be reported
    as "ignored due to race condition".
    """
    _RECEIVED.append(signum)
    for s in _STOPS:
        if s == signum:
            signal.signal(s, signal.SIG_IGN)
        elif signal.getsignal(s) is _on_signal:
            signal.signal(s, _ignore)
    raise _STOPS[signum]()


def _lost_stop() -> None:
    """Raise again, once, the stop of a signal the handler took whose exception the command never saw.

    Called by the main thread as it starts and waits on a chunk kernel call
    (``kernels.jit.set_wait_check``): a kernel call after a stop, when no
    stop is on its way out (cleanup code, an ``except`` or ``finally`` block,
    sees it in ``sys.exc_info()``), means that its exception was swallowed,
    as C code that clears Python's errors does (``should-bid --playout pimc``
    ran on after a SIGTERM, every later signal ignored).
    """
    if _RECEIVED and not _RAISED_AGAIN and not isinstance(sys.exc_info()[1], KeyboardInterrupt):
        _RAISED_AGAIN.append(_RECEIVED[0])
        raise _STOPS[_RECEIVED[0]]()


_RAISED_AGAIN: list[int] = []  # the stop raised again in this ``main`` (``_lost_stop``, ``_redeliver``): once at most


def _ignore(signum, frame):
    """A signal that arrives while a stop is cleaning up: nothing to do."""


def _stop_signal(e: BaseException) -> int | None:
    """The signal whose stop ``e`` is (the handler's exception), None for any other exception."""
    for s, kind in sorted(_STOPS.items(), key=lambda item: -len(item[1].__mro__)):  # the most derived first
        if isinstance(e, kind):
            return s
    return None


def _unraisable(info) -> None:
    """``sys.unraisablehook`` while ``main`` runs: a stop that Python could not raise is raised again, at once.

    The handler's exception raised inside code that Python calls from C and
    whose exceptions it cannot pass on (a ctypes callback: llvmlite's object
    cache notice while Numba loads or compiles a kernel; a ``__del__``) is
    only printed ("Exception ignored on calling ctypes callback function")
    and the run went on, every later stop signal ignored: a SIGHUP then never
    ended ``bower simulate --hands 1e9``. The signal is taken again as soon
    as the main thread runs Python outside this hook (``_redeliver``).
    """
    signum = _stop_signal(info.exc_value) if _RECEIVED else None
    if signum is None:
        _PREVIOUS_HOOK[0](info)
        return
    signal.signal(signum, _redeliver)
    _again(signum)


def _again(signum) -> None:
    """Take ``signum`` in the main thread again in a moment (from another thread: once this hook has returned)."""
    import _thread
    import threading

    timer = threading.Timer(0.01, _thread.interrupt_main, (signum,))
    timer.daemon = True
    timer.start()


def _redeliver(signum, frame):
    """The stop of a signal whose exception was lost (``_unraisable``): raised once out of the hook that saw it."""
    f = frame
    while f is not None:
        if f.f_code is _unraisable.__code__:  # still inside the hook: Python would lose it again
            _again(signum)
            return
        f = f.f_back
    signal.signal(signum, signal.SIG_IGN)
    if _RAISED_AGAIN:  # raised again already (``_lost_stop``): its cleanup is under way
        return
    _RAISED_AGAIN.append(signum)
    raise _STOPS[signum]()


_PREVIOUS_HOOK = [sys.unraisablehook]


_on_sigterm = _on_signal  # the SIGTERM handler's former name


def _takes_over(signum) -> bool:
    """Whether the CLI handles ``signum``: only where Python's default stands (``nohup``'s ignored SIGHUP stays)."""
    return signal.getsignal(signum) in ((signal.default_int_handler,) if signum == signal.SIGINT
                                        else (signal.SIG_DFL,))


def _end_if_kernels_run(code) -> None:
    """End the process now, with status ``code``, if a stop left chunk kernels running in worker threads.

    A signal stops a run while its kernels still run (``ChunkKernel`` waits
    for them in slices so that the handler runs at once): the command has
    cleaned up, and nothing is left to do but wait for threads that nothing
    can stop inside the compiled code. Python would end without waiting for
    them (daemon threads), but only after finalizing the interpreter around
    them (half a second for Numba and LLVM's modules); ``os._exit`` ends it
    at once, its output flushed. Only when ``main`` is the program (called
    from ``__main__``): a caller in the same process (a test) gets its
    ``SystemExit`` and the threads finish on their own.
    """
    jit = sys.modules.get("bower.kernels.jit")  # not imported: no kernel ran (nor import it now, after a stop)
    if jit is None or not jit.left_running():
        return
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))


def main(argv=None) -> None:
    """Entry point: run the CLI in click's standalone mode (it always exits; statuses in ``cli``'s help)."""
    previous = {}
    _RECEIVED.clear()
    _RAISED_AGAIN.clear()
    if sys.unraisablehook is not _unraisable:
        _PREVIOUS_HOOK[0], sys.unraisablehook = sys.unraisablehook, _unraisable
    try:  # the handlers first: a signal during the imports below is a stop as any other
        for s in _STOPS:
            if _takes_over(s):
                previous[s] = signal.signal(s, _on_signal)
    except ValueError:  # not the main thread
        pass
    program = sys._getframe(1).f_globals.get("__name__") == "__main__"  # the console script, ``python -c``
    watching = False
    try:
        try:
            from bower.sim.progress import set_quiet, watch_compiles

            set_quiet(False)
            watch_compiles()
            watching = True
            from bower.kernels import jit

            jit.set_wait_check(_lost_stop)
        except KeyboardInterrupt as e:  # a stop while NumPy and Numba load
            stop = _stopped(e)
            stop.show()
            raise SystemExit(stop.exit_code) from None
        except Exception:
            if not _RECEIVED:
                raise
            # the stop's exception lost inside an import: CPython turns it into another at some points of its
            # import code (NumPy's ``from . import _distributor_init_local`` gave "TypeError: expected a message
            # argument", a traceback and status 1); the signal taken is the stop all the same
            stop = _stopped(_STOPS[_RECEIVED[0]]())
            stop.show()
            raise SystemExit(stop.exit_code) from None
        cli.main(args=None if argv is None else list(argv), prog_name="bower", standalone_mode=True)
    except SystemExit as e:
        if program:
            _end_if_kernels_run(e.code)
        raise
    finally:
        if watching:
            from bower.kernels import jit
            from bower.sim import distributed
            from bower.sim.progress import set_quiet, stop_watching

            jit.set_wait_check(None)
            stop_watching()
            set_quiet(False)
            distributed.set_timeout(None)
        for s, handler in previous.items():
            signal.signal(s, handler)
        sys.unraisablehook = _PREVIOUS_HOOK[0]
