"""Numba kernels: deal, auction, play and score on bit-mask hands. Compute only; no I/O."""
