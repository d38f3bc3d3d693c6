"""``bower replay --dd`` over many hands: a table by player, the costliest cards, the mean cost by trick number.

Each replayed hand's ``costs`` (``bower.sim.replay.replay_hand`` with
``dd``: one per card played, its double-dummy ``cost`` and how many
``legal`` cards the seat had) are counted by player: the names a file gives
its seats (a records reader's ``player_names``, e.g. an EGN file's
``players``) or else ``seat N``. Per player: cards played, cards with a
choice (more than one legal card), cards that cost at least one trick, and
the tricks lost (the sum of the costs; a renege's cost can be negative) as
the maker's side and as the defenders. The costliest cards are listed with
their position (file, record, hand, trick). ``draw_plot`` draws the mean
cost per card by trick number. A folder is read as its record files in
sorted name order. No variant is named here: the file formats and the
player names come from the ``Variant`` interface (``file_formats``).
"""

from __future__ import annotations

import os
import tempfile

from bower.sim.replay import ReplayError

PLAIN_FORMATS = (".jsonl", ".parquet")
MAX_LINES = 8  # the plot draws one line per player up to this many players, else one per side
# Okabe & Ito's colour-blind-safe palette
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
SIDES = ("maker's side", "defenders")


def record_formats() -> tuple[str, ...]:
    """The file name endings replay reads: ``.jsonl``, ``.parquet`` and each variant's own formats."""
    from bower.sim.variants import all_variants

    own = sorted({ext.lower() for v in all_variants() for ext in v.file_formats})
    return (*PLAIN_FORMATS, *own)


def record_files(path: str) -> tuple[list[str], bool]:
    """(the files to replay, whether ``path`` is a folder): a folder's record files in sorted name order, else
    ``[path]``. ReplayError for a folder with none."""
    path = str(path)
    if not os.path.isdir(path):
        return [path], False
    exts = record_formats()
    try:
        names = sorted(n for n in os.listdir(path) if n.lower().endswith(exts)
                       and not n.startswith(".") and os.path.isfile(os.path.join(path, n)))
    except OSError as e:
        from bower.sim.errors import os_reason

        raise ReplayError(f"cannot read the folder {path}: {os_reason(e)}") from None
    if not names:
        raise ReplayError(f"{path}: the folder has no record files ({', '.join(exts)})")
    return [os.path.join(path, n) for n in names], True


def player_names(path: str) -> list[str] | None:
    """The players' names by seat that ``path`` gives (its format's ``player_names``), or None."""
    from bower.sim.records import own_format

    own = own_format(path)
    get = getattr(own, "player_names", None) if own is not None else None
    return get(path) if get is not None else None


def check_plot_path(path: str) -> None:
    """ReplayError (one line) unless ``path`` ends in .png and its folder exists."""
    if not str(path).lower().endswith(".png"):
        raise ReplayError(f"--plot needs a file name ending in .png, got {path!r}")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ReplayError(f"--plot {path}: no folder {folder}")
    if os.path.isdir(path):
        raise ReplayError(f"--plot {path}: it is a folder")


class PlayerTable:
    """The counts by player over the hands ``add``ed (each a ``replay_hand`` result with ``dd``)."""

    def __init__(self):
        self.hands = 0
        self.played = 0
        self.rows: dict[str, dict] = {}
        self.order: dict[str, tuple] = {}
        self.cards: list[dict] = []  # every card that cost at least one trick, in play order
        self.by_trick: dict[str, dict[int, list]] = {}  # player or side -> trick -> [sum of costs, cards]
        self.by_side: dict[str, dict[int, list]] = {s: {} for s in SIDES}
        self.files: list[str] = []
        self.tricks = 0

    def add(self, r: dict, file: str, names: list[str] | None = None) -> None:
        """Count the cards of one replayed hand ``r`` of ``file`` (``names``: the players by seat, or None)."""
        if file not in self.files:
            self.files.append(file)
        self.hands += 1
        costs = r.get("costs") or []
        if r.get("thrown_in") or not costs:
            return
        self.played += 1
        side = set(r["side"])
        fi = self.files.index(file)
        for c in costs:
            seat = c["seat"]
            who = names[seat] if names and seat < len(names) else f"seat {seat}"
            row = self.rows.get(who)
            if row is None:
                row = self.rows[who] = {"player": who, "cards": 0, "choice": 0, "cost_a_trick": 0,
                                        "lost_as_maker": 0, "lost_defending": 0}
                self.order[who] = (names is None, fi, seat) if names else (True, 0, seat)
            maker = seat in side
            row["cards"] += 1
            row["choice"] += c.get("legal", 2) > 1
            row["cost_a_trick"] += c["cost"] >= 1
            row["lost_as_maker" if maker else "lost_defending"] += c["cost"]
            t = c["trick"]
            self.tricks = max(self.tricks, t)
            for key, table in ((who, self.by_trick.setdefault(who, {})),
                               (SIDES[0] if maker else SIDES[1], self.by_side[SIDES[0] if maker else SIDES[1]])):
                cell = table.setdefault(t, [0, 0])
                cell[0] += c["cost"]
                cell[1] += 1
            if c["cost"] >= 1:
                self.cards.append({"file": file, "record": r["record"], "hand": r["hand"], "trick": t,
                                   "player": who, "seat": seat, "side": "maker" if maker else "defender",
                                   "card": c["card"], "best": list(c["best"]), "cost": c["cost"]})

    def players(self) -> list[dict]:
        """The rows, one per player: seats by number, named players in the order first met."""
        return [dict(self.rows[k]) for k in sorted(self.rows, key=lambda k: self.order[k])]

    def costliest(self, top: int = 10) -> list[dict]:
        """The ``top`` cards that cost the most tricks, most first (ties in play order)."""
        return sorted(self.cards, key=lambda x: -x["cost"])[:max(top, 0)]

    def mean_by_trick(self, sides: bool = False) -> dict[str, list]:
        """The mean cost per card by trick number (1 ..), per player (or per side): None where no card was played."""
        src = self.by_side if sides else {p["player"]: self.by_trick[p["player"]] for p in self.players()}
        return {k: [(d[t][0] / d[t][1]) if t in d else None for t in range(1, self.tricks + 1)]
                for k, d in src.items()}

    def as_json(self, top: int = 10) -> dict:
        """The table, the costliest cards and the means by trick, for ``--json``."""
        return {"players": self.players(), "costliest": self.costliest(top), "hands": self.hands,
                "played": self.played, "files": list(self.files),
                "mean_cost_by_trick": self.mean_by_trick(), "mean_cost_by_trick_side": self.mean_by_trick(True)}

    def text(self, top: int = 10) -> str:
        """The table and the costliest cards as text."""
        rows = self.players()
        width = max([len("player")] + [len(r["player"]) for r in rows])
        cols = (("cards", "cards"), ("choice", "with a choice"), ("cost_a_trick", "cost a trick"),
                ("lost_as_maker", "lost as maker"), ("lost_defending", "lost defending"))
        lines = [f"by player, double dummy ({self.played:,} hand(s) played"
                 + (f" in {len(self.files):,} files" if len(self.files) > 1 else "") + "):",
                 "  " + "player".ljust(width) + "".join(f"  {h:>{len(h)}}" for _, h in cols)]
        for r in rows:
            lines.append("  " + r["player"].ljust(width) + "".join(f"  {r[k]:>{len(h)},}" for k, h in cols))
        if rows:
            total = {k: sum(r[k] for r in rows) for k, _ in cols}
            lines.append("  " + "all".ljust(width) + "".join(f"  {total[k]:>{len(h)},}" for k, h in cols))
        best = self.costliest(top)
        if not best:
            lines.append("no card cost a trick")
            return "\n".join(lines)
        lines.append(f"costliest cards ({len(best)} of {len(self.cards):,} that cost a trick):")
        many = len(self.files) > 1
        for x in best:
            where = (f"{x['file']}: " if many else "") + f"record {x['record']}, hand {x['hand']}, trick {x['trick']}"
            seat = f" (seat {x['seat']})" if not x["player"].startswith("seat ") else ""
            lines.append(f"  {where}: {x['player']}{seat}, {x['side']}, played {x['card']}, best "
                         f"{' '.join(x['best'])}: {x['cost']} trick(s) lost")
        return "\n".join(lines)


def draw_plot(table: PlayerTable, path: str) -> None:
    """Draw the mean cost per card by trick number to ``path`` (PNG, written atomically): one line per player, or
    per side with more than ``MAX_LINES`` players. ReplayError (one line) when it cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sides = len(table.rows) > MAX_LINES
    means = table.mean_by_trick(sides)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    styles = ("-", "--", "-.", ":")
    markers = ("o", "s", "^", "D", "v", "P", "X", "*")
    x = list(range(1, table.tricks + 1))
    drawn = 0
    for i, (who, ys) in enumerate(means.items()):
        if all(y is None for y in ys):
            continue
        ax.plot(x, [float("nan") if y is None else y for y in ys], color=PALETTE[i % len(PALETTE)],
                linestyle=styles[i % len(styles)], marker=markers[i % len(markers)], ms=5, label=who)
        drawn += 1
    if drawn:
        ax.set_xticks(x)
        ax.legend(fontsize=8, title="side" if sides else "player", title_fontsize=8)
    else:
        ax.text(0.5, 0.5, "no card played", ha="center", va="center", transform=ax.transAxes)
    ax.axhline(0, color="#999999", linewidth=0.8)
    ax.set_xlabel("trick number")
    ax.set_ylabel("mean double-dummy cost per card (tricks)")
    ax.set_title(f"Double-dummy cost per card by trick ({table.played:,} hand(s) played)", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".bower-", suffix=".png.part", dir=folder)
        os.close(fd)
        fig.savefig(tmp, format="png", dpi=110)
        os.replace(tmp, path)
    except OSError as e:
        from bower.sim.errors import os_reason

        raise ReplayError(f"--plot {path}: cannot write it: {os_reason(e)}") from None
    finally:
        plt.close(fig)
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
