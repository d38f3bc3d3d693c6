"""bower: Monte Carlo simulation of Euchre variants, as a Python library.

The API is filled in below; the engine lives in ``bower.sim`` (``sim/``), the
compiled kernels in ``bower.kernels`` (``kernels/``) and the analysis layer in
``bower.analysis`` (``analysis/``).
"""

from bower.sim import __version__  # noqa: F401
