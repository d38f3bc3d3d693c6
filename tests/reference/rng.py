"""Plain-Python xoshiro256** and the bounded draws the deal uses.

The twin of ``kernels/rng.py``, written with Python ints (every operation is
masked to 64 bits explicitly) so the two can be compared draw by draw.

- ``Xoshiro256ss``: the generator of Blackman & Vigna, state of four 64-bit
  words; ``next_u64`` advances it by one step.
- ``next_u32``: each 64-bit output serves two 32-bit draws, its high half
  first, its low half on the following draw (the held half survives between
  hands of the same chunk).
- ``bounded(n)``: uniform in ``[0, n)`` by Lemire's multiply-shift method with
  rejection, so there is no modulo bias.
- ``chunk_rng(seed, chunk)``: the generator of one chunk of hands, seeded from
  ``numpy.random.SeedSequence(seed, spawn_key=(chunk,))``.
- ``decision_chunk_rng(seed, chunk)``: the chunk's decision stream (random
  strategies draw from it, never from the deal stream), seeded from
  ``SeedSequence(seed, spawn_key=(chunk, 1))``.
- Whole games: ``splitmix64_state(x)`` gives four splitmix64 outputs, the
  state of a fresh generator; a game's deal stream is seeded with its game
  seed, its decision stream with ``game_seed ^ (DECISION_MIX * (a + 1))``.
"""

from __future__ import annotations

import numpy as np

MASK32 = (1 << 32) - 1
MASK64 = (1 << 64) - 1


def rotl(x: int, k: int) -> int:
    """Rotate the 64-bit word ``x`` left by ``k`` bits."""
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro256ss:
    """xoshiro256** on Python ints, with a held 32-bit half for ``next_u32``."""

    def __init__(self, state):
        self.s = [int(w) & MASK64 for w in state]
        if len(self.s) != 4:
            raise ValueError("xoshiro256** needs four 64-bit state words")
        self.held: int | None = None  # the unused low half of the last 64-bit output

    def copy(self) -> "Xoshiro256ss":
        other = Xoshiro256ss(self.s)
        other.held = self.held
        return other

    def next_u64(self) -> int:
        s0, s1, s2, s3 = self.s
        result = (rotl((s1 * 5) & MASK64, 7) * 9) & MASK64
        t = (s1 << 17) & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def next_u32(self) -> int:
        if self.held is not None:
            low, self.held = self.held, None
            return low
        x = self.next_u64()
        self.held = x & MASK32
        return x >> 32

    def bounded(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, ``1 <= n <= 2**32`` (Lemire, with rejection)."""
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"bounded draw needs 1 <= n <= 2**32, got {n}")
        m = self.next_u32() * n
        low = m & MASK32
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = self.next_u32() * n
                low = m & MASK32
        return m >> 32


def chunk_state(seed: int, chunk: int) -> list[int]:
    """The four state words of chunk ``chunk`` of a run with ``seed``."""
    words = np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, np.uint64)
    return [int(w) for w in words]


def chunk_rng(seed: int, chunk: int) -> Xoshiro256ss:
    """A fresh generator for chunk ``chunk`` (no held half)."""
    return Xoshiro256ss(chunk_state(seed, chunk))


# --------------------------------------------------------------------------
# Decision streams and whole games


def splitmix64_state(seed: int) -> list[int]:
    """Four successive splitmix64 outputs from ``seed``: the state of a fresh xoshiro256** generator.

    splitmix64 (Steele, Lea & Flood; Vigna's reference code): the counter
    advances by the golden-ratio constant and each output is the counter
    mixed by two xor-shift-multiply rounds and a final xor-shift.
    """
    x = int(seed) & MASK64
    out = []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & MASK64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        out.append(z ^ (z >> 31))
    return out


def decision_chunk_state(seed: int, chunk: int) -> list[int]:
    """State words of the decision stream of hand chunk ``chunk``: ``SeedSequence(seed, spawn_key=(chunk, 1))``."""
    words = np.random.SeedSequence(seed, spawn_key=(chunk, 1)).generate_state(4, np.uint64)
    return [int(w) for w in words]


def decision_chunk_rng(seed: int, chunk: int) -> Xoshiro256ss:
    """A fresh decision-stream generator for hand chunk ``chunk`` (no held half)."""
    return Xoshiro256ss(decision_chunk_state(seed, chunk))


DECISION_MIX = 0xD1B54A32D192ED03


def game_deal_rng(game_seed: int) -> Xoshiro256ss:
    """The deal stream of a game: xoshiro256** seeded by splitmix64 from the game seed."""
    return Xoshiro256ss(splitmix64_state(game_seed))


def game_decision_rng(game_seed: int, assignment: int) -> Xoshiro256ss:
    """The decision stream of the game of assignment ``assignment`` (0-based) played from ``game_seed``."""
    mixed = int(game_seed) ^ ((DECISION_MIX * (assignment + 1)) & MASK64)
    return Xoshiro256ss(splitmix64_state(mixed))
