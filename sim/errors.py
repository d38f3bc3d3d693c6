"""The base of every bad-input error: the CLI prints it as one line and exits with status 2.

Kept free of imports so that catching it costs nothing at start-up.
"""


class UserError(Exception):
    """Bad input from the user (a card, a rule option, a path, a situation): one clear line, exit 2."""
