"""What the library's functions return: results with the run's dict and its tables as tidy DataFrames.

Every result keeps ``summary``, the dict the command's ``--json`` prints, so
nothing is lost; the DataFrames are views of it in long, tidy form (one row
per strategy, pair, action or value; a 95% interval as two columns
``*_low`` and ``*_high``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import weakref
from collections.abc import Iterator

import pandas as pd


def flat_row(d: dict, skip=()) -> dict:
    """A dict's scalar fields as one row: ``x_ci95: [lo, hi]`` becomes ``x_low`` and ``x_high``; nested dicts go."""
    row = {}
    for k, x in d.items():
        if k in skip or isinstance(x, dict):
            continue
        if k.endswith("_ci95") or k == "ci95":
            base = k[:-5] if k.endswith("_ci95") else "ci"
            lo, hi = x if isinstance(x, (list, tuple)) else (None, None)
            row[f"{base}_low"], row[f"{base}_high"] = lo, hi
        elif isinstance(x, (list, tuple)):
            continue
        else:
            row[k] = x
    return row


class Simulation:
    """``bower.simulate``'s result: ``summary`` (the ``--json`` dict), ``tables()`` and ``records()``.

    The records of a run without ``records=`` are made when first asked for:
    the same hands played again from the same seed into a temporary Parquet
    file (kept while this object lives), so ``tables()`` and ``records()``
    describe exactly the hands the summary counted.

    Examples:
        >>> run = bower.simulate("ghost", hands=2_000, seed=1)
        >>> run
        <bower Simulation: ghost, 2,000 hands, seed 1, strategy default>
        >>> len(run.records()), int(run.summary["played"]) + int(run.summary["thrown_in"])
        (2000, 2000)
        >>> run.tables()["moon_odds"].columns.tolist()
        ['trumps', 'bowers', 'moons_called', 'moons_made', 'make_rate', 'make_low', 'make_high', 'mean_points',
         'points_low', 'points_high']
    """

    def __init__(self, summary: dict, run: dict, records_path: str | None):
        self.summary = summary
        self._run = run  # simulate's arguments, to make the records again
        self._path = records_path
        self._tables = None
        self._tmp = None

    @property
    def games(self) -> bool:
        """Whether this was a run of whole games (``games=``) rather than independent hands."""
        return "games" in self.summary

    def __repr__(self) -> str:
        s = self.summary
        what = f"{s['games']:,} games" if self.games else f"{s['hands']:,} hands"
        return f"<bower Simulation: {s['variant']}, {what}, seed {s['seed']}, strategy {s['strategy']}>"

    def records_path(self) -> str:
        """The records file of this run (the one given as ``records=``, or a temporary Parquet file made now).

        The temporary file lives as long as this object; DuckDB or polars can
        read it straight from the path.

        Examples:
            >>> run = bower.simulate("ghost", hands=1_000, seed=1)
            >>> run.records_path().endswith(".parquet")
            True
            >>> bower.simulate("ghost", hands=1_000, seed=1, records="hands.jsonl").records_path()
            'hands.jsonl'
        """
        from bower.sim.errors import UserError

        if self.games:
            raise UserError("records are written for independent hands; run bower.simulate without games= for them")
        if self._path is None:
            from bower.sim import runner

            folder = tempfile.mkdtemp(prefix="bower-records-")
            self._tmp = weakref.finalize(self, shutil.rmtree, folder, True)
            path = os.path.join(folder, "records.parquet")
            r = self._run
            runner.simulate(variant=r["variant"], hands=r["hands"], seed=r["seed"], threads=r["threads"],
                            rules=r["rules"], strategy=r["strategy"], records_path=path, scheduler=r["scheduler"])
            self._path = path
        return self._path

    def records(self, batch_size: int | None = None,
                columns: list[str] | None = None) -> pd.DataFrame | Iterator[pd.DataFrame]:
        """Every hand's record as a DataFrame of Arrow-backed columns (``bower.read_records``).

        ``batch_size``: an iterator of DataFrames of that many, for big runs;
        ``columns``: only these fields. A nullable int (``maker``, ``bid``)
        stays an int, with ``<NA>`` for a hand thrown in.

        Examples:
            >>> run = bower.simulate("ghost", hands=1_000, seed=1)
            >>> df = run.records(columns=["bid", "maker"])
            >>> df.dtypes.astype(str).to_dict()
            {'bid': 'int64[pyarrow]', 'maker': 'int64[pyarrow]'}
            >>> df.head(3)
               bid  maker
            0    3      1
            1    3      0
            2    3      0
            >>> [len(b) for b in run.records(batch_size=400, columns=["bid"])]
            [400, 400, 200]
        """
        from bower.data import read_records

        return read_records(self.records_path(), batch_size=batch_size, columns=columns)

    def tables(self) -> dict[str, pd.DataFrame]:
        """The analysis tables (``bower analyze``'s) of these hands; for games, the win shares by position.

        A dict of table name -> DataFrame, each in tidy form (a 95% interval as
        ``*_low`` and ``*_high`` columns); made once, from ``records()``.

        Examples:
            >>> run = bower.simulate("ghost", hands=1_000, seed=1)
            >>> sorted(run.tables())[:4]
            ['bid_by_bowers', 'bid_by_estimate', 'bid_by_off_aces', 'bid_by_position']
            >>> games = bower.simulate("ghost", games=96, seed=1)
            >>> games.tables()["win_share"].columns.tolist()
            ['start', 'win_share', 'win_share_low', 'win_share_high']
        """
        if self.games:
            return {"win_share": _win_share(self.summary)}
        if self._tables is None:
            from bower.data import analyze

            self._tables = analyze(self.records_path(), strategy=self._run["first_strategy"],
                                          threads=self._run["threads"])
        return dict(self._tables)


def _win_share(s: dict) -> pd.DataFrame:
    """Game win shares by starting position (or side) with their 95% intervals."""
    rows = [{"start": k, "win_share": x, "win_share_low": s["win_share_ci95_by_start"][k][0],
             "win_share_high": s["win_share_ci95_by_start"][k][1]} for k, x in s["win_share_by_start"].items()]
    return pd.DataFrame(rows)


class Experiment:
    """``bower.experiment``'s result: ``summary`` (the ``--json`` dict), ``strategies``, ``pairs``, ``make_rates``.

    Examples:
        >>> ex = bower.experiment(["cautious", "default"], games=384, seed=2)
        >>> ex
        <bower Experiment: ghost, cautious vs default, 384 games, seed 2>
        >>> ex.make_rates.columns.tolist()[:4]
        ['strategy', 'bid', 'won', 'made']
    """

    def __init__(self, summary: dict):
        self.summary = summary
        self.strategies = pd.DataFrame([flat_row(s) for s in summary["strategies"]])
        self.pairs = pd.DataFrame([flat_row(p) for p in summary["pairs"]],
                                  columns=["a", "b", "win_rate_diff", "ci_low", "ci_high", "excludes_zero", "better"])
        rows = []
        for s in summary["strategies"]:
            for bid, m in (s.get("make_rate_by_bid") or {}).items():
                rows.append({"strategy": s["name"], "bid": bid, **flat_row(m)})
        self.make_rates = pd.DataFrame(rows)

    def __repr__(self) -> str:
        s = self.summary
        return (f"<bower Experiment: {s['variant']}, {' vs '.join(x['name'] for x in s['strategies'])}, "
                f"{s['games']:,} games, seed {s['seed']}>")


class Advice:
    """``bower.should_bid``'s result: ``actions`` (a DataFrame), ``recommendation``, ``verdict``, ``summary``.

    ``actions``: one row per action open at the turn, best expected points
    first, each estimate with its 95% interval (``*_low``, ``*_high``);
    ``recommendation``: the best action, whether it is clearly better than
    the runner-up and by how much; ``verdict``: that in words (or the
    answer to ``bid=`` when asked).

    Examples:
        >>> advice = bower.should_bid("JH JD AH KH 9S TC", position=2, calls=["pass"], samples=2000, seed=1)
        >>> advice.verdict
        '4 H — clearly better than 3 H by +1.307 points a hand (+1.230 to +1.384)'
        >>> advice.actions[["action", "expected_points"]].head(3).round(3)
                                   action  expected_points
        0                             4 H            3.999
        1                             3 H            2.692
        2  swap, then the strategy's call            1.486
    """

    def __init__(self, summary: dict):
        from bower.sim.advice import recommendation_line

        self.summary = summary
        self.actions = _actions(summary["actions"])
        self.recommendation = dict(summary["recommendation"])
        self.actions_dd = _actions(summary["actions_dd"]) if "actions_dd" in summary else None
        question = summary.get("question")
        if question and question.get("verdict"):
            self.verdict = question["verdict"]
        else:
            self.verdict = recommendation_line(self.recommendation).removeprefix("recommendation: ")

    def __repr__(self) -> str:
        return f"<bower Advice: {self.summary['variant']}, {' '.join(self.summary['hand'])}: {self.verdict}>"


def _actions(actions: list) -> pd.DataFrame:
    """One row per action, best expected points first."""
    df = pd.DataFrame([flat_row(a) for a in actions])
    return df.sort_values("expected_points", ascending=False, kind="stable").reset_index(drop=True)
