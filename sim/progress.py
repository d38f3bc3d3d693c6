"""A progress bar with time left, on stderr, for long runs (only when stderr is a terminal)."""

from __future__ import annotations

import sys
import time


class Progress:
    """Callable ``progress(done, total)`` that redraws a one-line bar at most ten times a second."""

    def __init__(self, label: str, enabled: bool | None = None, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label = label
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        frac = min(done / total, 1.0) if total else 1.0
        elapsed = now - self.t0
        left = elapsed * (1 - frac) / frac if frac > 0 else float("nan")
        width = 30
        bar = "#" * int(width * frac) + "." * (width - int(width * frac))
        eta = f"{left:5.0f} s left" if frac < 1 and left == left else f"{elapsed:5.1f} s"
        self.stream.write(f"\r{self.label} [{bar}] {100 * frac:5.1f}% {done:,}/{total:,} {eta}")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """End the bar's line (if one was drawn)."""
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
