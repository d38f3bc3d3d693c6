"""The exceptions that mean bad user input (exit status 2, one line), gathered in one tuple."""

from analysis.report import OutputError
from sim.advice import AdviceError
from sim.cards import CardError
from sim.records import RecordsError
from sim.rules import RuleError
from sim.runner import RunError
from sim.strategy import StrategyError

USER_ERRORS = (AdviceError, CardError, OutputError, RecordsError, RuleError, RunError, StrategyError)
