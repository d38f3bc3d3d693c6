"""The largest counts and seeds a run may ask for: plain numbers, importable without NumPy or Numba (the CLI's
option types read them before any kernel is loaded)."""

MAX_HANDS_PER_GAME = 1000
MAX_HANDS = 10**12  # hands one run may ask for: days at ten million hands a second
MAX_GAMES = 10**10  # whole games one run may ask for (each about 10 to 20 hands)
MAX_SAMPLES = 10**9  # should-bid: effective deals per action one question may ask for
MAX_SEED = 2**64 - 1  # seeds are whole numbers from 0 to this (the CLI's --seed and BOWER_SEED too)

BOT_TIMEOUT = 60.0  # seconds a Python bot may take to answer one call of an experiment (``--bot-timeout``)
STRATEGY_FIFO_WAIT = 5.0  # seconds a strategy file that is a FIFO (``--strategy <(...)``) may take to be written to
# before it is refused: fixed (a process substitution's writer starts at once; a FIFO nothing writes to is a mistake)
