"""The stderr progress bar: drawn on a terminal with time left, silent otherwise."""

import io

from bower.sim.progress import Progress


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_bar_draws_fraction_counts_and_time_left():
    out = _Tty()
    bar = Progress("games", stream=out)
    bar(250, 1000)
    bar.last = 0.0  # let the next update through the ten-a-second limit
    bar(1000, 1000)
    bar.close()
    text = out.getvalue()
    assert "games [" in text and " 25.0% 250/1,000" in text and "s left" in text
    assert "100.0% 1,000/1,000" in text and text.endswith("\n")


def test_no_bar_when_not_a_terminal_or_disabled():
    out = io.StringIO()
    bar = Progress("hands", stream=out)
    bar(5, 10)
    bar.close()
    assert out.getvalue() == ""
    tty = _Tty()
    off = Progress("hands", enabled=False, stream=tty)
    off(5, 10)
    off.close()
    assert tty.getvalue() == ""
