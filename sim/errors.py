"""The errors the command line shows as one line: bad input (status 2) and a stop by a signal (130, 143, 129).

``UserError`` is a ``click.ClickException``, so click's standalone mode
prints it (``bower: error: ...``, one line) and exits with its status; the
library raises it for bad input and callers that are not the CLI catch it
like any exception. ``Terminated`` (SIGTERM) and ``HungUp`` (SIGHUP) are
what the CLI's signal handler raises in the main thread: ``KeyboardInterrupt``s,
so every cleanup that runs on Ctrl-C (temporary ``.bower-*.part`` files,
``.bower-*/`` staging folders) runs on them too.
"""

from __future__ import annotations

import re
from typing import IO

import click

EXIT_BAD_INPUT = 2  # bad input, a fault (a full disk, an unreadable file)
EXIT_INTERRUPTED = 130  # SIGINT (Ctrl-C): 128 + 2
EXIT_TERMINATED = 143  # SIGTERM (kill, timeout, systemd, batch schedulers): 128 + 15
EXIT_HUNG_UP = 129  # SIGHUP (the terminal or the ssh session closed): 128 + 1
LONG_WORD = 200  # characters: a word of an error line past this (100,000 digits typed in) is shown cut
_LONG_WORD = re.compile(r"\S{%d,}" % (LONG_WORD + 1))


def one_line(text: str) -> str:
    """``text`` with its lines joined by spaces, so an error is always one line."""
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def short_words(text: str) -> str:
    """``text`` with each word (a run without spaces) past ``LONG_WORD`` characters cut to its first 60 and
    ``...``: an input of any length, echoed by a message, leaves a line a person can read."""
    return _LONG_WORD.sub(lambda m: m.group()[:60] + "...", text)


def os_reason(e: OSError) -> str:
    """Why an OSError happened, in words (``No space left on device``), whoever raised it (Python or Arrow)."""
    import os

    if e.errno:
        return os.strerror(e.errno)
    return one_line(str(e)) or type(e).__name__


FIFO = "a FIFO (named pipe)"  # ``not_a_file``'s word for a named pipe


def not_a_file(path) -> str | None:
    """What ``path`` is when it is there but neither a file nor a directory (``FIFO``, ``"a socket"``, ``"a
    character device"``, ``"a block device"``), else None (a file, a folder, or not there: the open that follows
    says so). Reading such a path may wait for a writer, or never end."""
    import os
    import stat

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return None
    kinds = ((stat.S_ISFIFO, FIFO), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"))
    return next((word for test, word in kinds if test(mode)), None)


def fault_error(e: BaseException):
    """The one-line ``UserError`` a fault that nobody named more closely becomes (OSError, MemoryError), or None."""
    if isinstance(e, UserError):
        return e
    if isinstance(e, OSError):
        reason = os_reason(e)
        return UserError(f"{reason}: {e.filename}" if e.filename else reason)
    if isinstance(e, MemoryError):
        return UserError("out of memory (ask for a smaller run)")
    return None


class UserError(click.ClickException):
    """Bad input from the user (a card, a rule option, a path, a situation) or a fault: one clear line, exit 2.

    The library raises it as ``bower.BowerError``; its text is the line the
    command prints after ``bower: error:``, naming the function's argument.

    Examples:
        >>> try:
        ...     bower.simulate(hands=0)
        ... except bower.BowerError as e:
        ...     print(e)
        hands= must be a positive integer, got 0
    """

    exit_code = EXIT_BAD_INPUT

    def format_message(self) -> str:
        """The message, each word past ``LONG_WORD`` characters cut (``short_words``).

        Examples:
            >>> e = bower.BowerError("unknown variant '" + "x" * 300 + "'")
            >>> len(e.format_message()) < 100, e.format_message()[:20]
            (True, "unknown variant 'xxx")
        """
        return short_words(self.message)

    def __str__(self) -> str:
        return self.format_message()

    def show(self, file: IO[str] | None = None) -> None:
        """Print ``bower: error: MESSAGE`` (one line) on stderr, or on ``file``.

        Examples:
            >>> import sys
            >>> bower.BowerError("no such file: hands.parquet").show(sys.stdout)
            bower: error: no such file: hands.parquet
        """
        click.echo(f"bower: error: {one_line(self.format_message())}", file=file, err=file is None)


class CommandLineError(UserError):
    """A command line click could not parse (an unknown option, a bad value), shown as one line."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so that the cleanup of an interrupt runs."""


class HungUp(Terminated):
    """SIGHUP, raised in the main thread so that the cleanup of an interrupt runs."""


class Stopped(click.ClickException):
    """A run stopped by SIGINT (130), SIGTERM (143) or SIGHUP (129): ``bower: interrupted`` (``terminated``...)."""

    def __init__(self, terminated: bool = False, hung_up: bool = False):
        """``hung_up``: SIGHUP (129); ``terminated``: SIGTERM (143); otherwise SIGINT (130)."""
        super().__init__("hung up" if hung_up else "terminated" if terminated else "interrupted")
        self.exit_code = EXIT_HUNG_UP if hung_up else EXIT_TERMINATED if terminated else EXIT_INTERRUPTED

    def show(self, file=None) -> None:
        """Print ``bower: interrupted``, ``bower: terminated`` or ``bower: hung up`` on stderr."""
        click.echo(f"bower: {self.format_message()}", file=file, err=file is None)
