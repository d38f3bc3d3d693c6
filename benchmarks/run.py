"""``make bench``: kernel throughput with machine, threads and commit (outside the test run).

Usage: ``python benchmarks/run.py [--quick] [--against REV] [--only CASES] [--json]``

Each case is warmed up first (compilation excluded), then timed ``--repeats``
times; the median is reported. ``--against REV`` runs the same cases on
another commit (checked out in a temporary git worktree) in the same run, so
two versions are compared on the same machine at the same moment.

A peer section compares single-threaded whole hands with OpenSpiel's euchre
played by its C++ uniform random bots (``benchmarks/peer_openspiel.py``;
needs the ``bench`` extra, which ``make bench`` installs; skipped with a note
when ``open_spiel`` is not importable).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import peer_openspiel  # noqa: E402

MEASURE = r'''
import json, os, statistics, sys, time
if os.environ.get("BOWER_BENCH_TOP_LEVEL"):  # a commit from before the install was one package, bower
    import importlib, importlib.abc, importlib.util

    class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        """bower.X is the old tree's top-level X (the same module object)."""

        def find_spec(self, name, path=None, target=None):
            if name == "bower" or name.startswith("bower."):
                return importlib.util.spec_from_loader(name, self, is_package=True)
            return None

        def create_module(self, spec):
            if spec.name == "bower":
                import types
                m = types.ModuleType("bower"); m.__path__ = []
                return m
            return importlib.import_module(spec.name[len("bower."):])

        def exec_module(self, module):
            pass

    sys.meta_path.insert(0, _Alias())
import numpy as np
import numba
from bower.sim import runner

cases, repeats = json.loads(sys.argv[1]), int(sys.argv[2])
out = []
for name, threads, n in cases:
    numba.set_num_threads(threads)
    if name == "deal":
        try:
            from bower.kernels.deal import deal_many
        except ImportError:  # an older commit without the dealing benchmark kernel
            continue
        def once(n=n):
            n_chunks = -(-n // runner.CHUNK_SIZE)
            states = runner.chunk_states(0, 0, n_chunks)
            deal_many(states, runner.CHUNK_SIZE, n, 24, 4, 6, np.zeros(n_chunks, np.int64))
    elif name == "hand":
        def once(n=n, threads=threads):
            runner.simulate(hands=n, seed=0, threads=threads)
    elif name == "yardstick":  # the plain simulator and bower's 'hand', timed in turns: their ratio per repeat
        import importlib.util
        path = os.environ.get("BOWER_YARDSTICK", "")
        if not os.path.isfile(path):
            continue
        spec = importlib.util.spec_from_file_location("naive_ghost", path)
        plain = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(plain)
        def naive(n=n, plain=plain):
            plain.sim_parallel(3, n, 64, plain.POWER, plain.SUITMASK, plain.DB_TABLE)
        naive(6400)
        runner.simulate(hands=5000, seed=0, threads=threads)
        pairs = []
        for _ in range(repeats):
            t0 = time.perf_counter(); naive(); t1 = time.perf_counter()
            runner.simulate(hands=n, seed=0, threads=threads); t2 = time.perf_counter()
            pairs.append((t1 - t0, t2 - t1))
        ty = statistics.median(a for a, _ in pairs)
        tb = statistics.median(b for _, b in pairs)
        out.append({"kernel": name, "threads": threads, "items": n, "seconds": ty, "per_second": n / ty,
                    "ns_per_item": 1e9 * ty / n, "bower_per_second": n / tb,
                    "ratio": statistics.median(a / b for a, b in pairs)})
        continue
    elif name == "random":
        try:  # an older commit without the random strategy preset
            runner.simulate(hands=10, seed=0, threads=threads, strategy="random")
        except Exception:
            continue
        def once(n=n, threads=threads):
            runner.simulate(hands=n, seed=0, threads=threads, strategy="random")
    elif name in ("pimc", "pimc-bid"):
        # one seat playing its cards by PIMC (32 worlds), two default seats; pimc-bid: its auction searched too
        seat0 = {"pimc_worlds": 32.0} if name == "pimc" else {"pimc_worlds": 32.0, "pimc_bid": 1.0}
        try:  # an older commit without the PIMC card player (or its searched auction)
            runner.simulate(hands=10, seed=0, threads=threads, strategy=[seat0, "default", "default"])
        except Exception:
            continue
        def once(n=n, threads=threads, seat0=seat0):
            runner.simulate(hands=n, seed=0, threads=threads, strategy=[seat0, "default", "default"])
    elif name == "game":
        if not hasattr(runner, "simulate_games"):  # an older commit without whole games
            continue
        def once(n=n, threads=threads):
            runner.simulate_games(games=n, seed=0, threads=threads)
    elif name == "duplicate":
        try:
            from bower.sim.experiment import run_experiment
        except ImportError:
            continue
        def once(n=n, threads=threads):
            run_experiment(["default", "aggressive", "random"], games=n, seed=0, threads=threads)
    elif name == "swap":
        try:
            from bower.sim.variants.ghost.stats import swap_values
        except ImportError:  # before the variants became packages
            try:
                from bower.sim.stats import swap_values
            except ImportError:
                continue
        def once(n=n, threads=threads):
            swap_values(n, seed=0, threads=threads)
    elif name == "advice":
        try:
            from bower.sim.variants.ghost.advice import advise
        except ImportError:  # before the variants became packages
            try:
                from bower.sim.advice import advise
            except ImportError:
                continue
        def once(n=n, threads=threads):
            advise("JH KH TH 9H AS 9C", position=1, samples=n, seed=0, threads=threads)
    elif name == "advice-dd":
        try:  # an older commit without the double-dummy play-out
            from bower.sim.variants.ghost.advice import advise as dd_advise
            dd_advise("JH KH TH 9H AS 9C", position=1, samples=10, seed=0, threads=threads, playout="dd")
        except Exception:
            continue
        def once(n=n, threads=threads):
            dd_advise("JH KH TH 9H AS 9C", position=1, samples=n, seed=0, threads=threads, playout="dd")
    elif "advice-w" in name:  # should-bid on a weighted auction: samples are the effective sample size asked for
        import importlib
        try:  # an older commit without the weighted model (or without the variant)
            importlib.import_module("bower.sim.variants.euchre.advice").model_vector
        except Exception:
            continue
        playout = "dd" if name.endswith("-dd") else "strategy"
        prefix = name.split("advice-w")[0].rstrip("-")
        question = {
            "": ("ghost", ("JH JD AH KH 9S TC",), dict(position=3, calls="pass,3", swapped="1")),
            "ct": ("cutthroat", ("QC TS 9S KD 9H", "JS"), dict(position=2, calls="pass")),
            "hp": ("hasenpfeffer", ("JK JH JD AH KH 9C",), dict(position=3, calls="pass,4")),
            "eu": ("euchre", ("AH KH QD JD 9C", "TS"), dict(position=2, calls="pass,pass,pass,pass,pass")),
        }[prefix]
        ask = importlib.import_module(f"bower.sim.variants.{question[0]}.advice").advise
        def once(n=n, threads=threads, q=question, playout=playout, ask=ask):
            ask(*q[1], **q[2], samples=n, seed=0, threads=threads, playout=playout)
    elif name.endswith("solve"):
        try:  # an older commit without the double-dummy solver
            from bower.sim import solve as dd
            from bower.sim.variants import get_variant
        except ImportError:
            continue
        vname = {"solve": "ghost", "ct-solve": "cutthroat", "hp-solve": "hasenpfeffer", "eu-solve": "euchre"}[name]
        rows = dd.sample_deals(get_variant(vname), n, 0)
        def once(n=n, rows=rows):
            global nodes
            nodes = float(dd.solve_batch(*rows)[1].mean())
    elif name.startswith("ct-"):
        try:  # an older commit without Cutthroat
            runner.simulate("cutthroat", hands=10, seed=0, threads=threads)
        except Exception:
            continue
        if name == "ct-hand":
            def once(n=n, threads=threads):
                runner.simulate("cutthroat", hands=n, seed=0, threads=threads)
        elif name == "ct-game":
            def once(n=n, threads=threads):
                runner.simulate_games("cutthroat", games=n, seed=0, threads=threads)
        else:
            try:
                from bower.sim.variants.cutthroat.advice import advise as ct_advise
            except ImportError:  # before the variants became packages
                from bower.sim.cutthroat_advice import advise as ct_advise
            def once(n=n, threads=threads):
                ct_advise("QC TS 9S KD 9H", "JS", position=1, samples=n, seed=0, threads=threads)
    elif name.startswith("hp-"):
        try:  # an older commit without Hasenpfeffer
            runner.simulate("hasenpfeffer", hands=10, seed=0, threads=threads)
        except Exception:
            continue
        if name == "hp-hand":
            def once(n=n, threads=threads):
                runner.simulate("hasenpfeffer", hands=n, seed=0, threads=threads)
        elif name == "hp-game":
            def once(n=n, threads=threads):
                runner.simulate_games("hasenpfeffer", games=n, seed=0, threads=threads)
        else:
            try:
                from bower.sim.variants.hasenpfeffer.advice import advise as hp_advise
            except ImportError:  # before the variants became packages
                from bower.sim.hasenpfeffer_advice import advise as hp_advise
            def once(n=n, threads=threads):
                hp_advise("JK JH JD AH KH 9C", position=1, samples=n, seed=0, threads=threads)
    elif name.startswith("eu-"):
        try:  # an older commit without standard Euchre
            runner.simulate("euchre", hands=10, seed=0, threads=threads)
        except Exception:
            continue
        if name == "eu-hand":
            def once(n=n, threads=threads):
                runner.simulate("euchre", hands=n, seed=0, threads=threads)
        elif name == "eu-game":
            def once(n=n, threads=threads):
                runner.simulate_games("euchre", games=n, seed=0, threads=threads)
        else:
            from bower.sim.variants.euchre.advice import advise as eu_advise
            def once(n=n, threads=threads):
                eu_advise("JH JD AH KH 9S", "QH", position=1, samples=n, seed=0, threads=threads)
    else:
        import tempfile, os
        ext = "parquet" if name == "records-parquet" else "jsonl"
        def once(n=n, threads=threads, ext=ext):
            with tempfile.TemporaryDirectory() as d:
                runner.simulate(hands=n, seed=0, threads=threads, records_path=os.path.join(d, f"r.{ext}"))
    once(min(n, 5000)) if name not in ("deal", "pimc", "pimc-bid") else once(1000 if name == "deal" else 100)
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); once(); times.append(time.perf_counter() - t0)
    med = statistics.median(times)
    out.append({"kernel": name, "threads": threads, "items": n, "seconds": med, "per_second": n / med,
                "ns_per_item": 1e9 * med / n})
    if name.endswith("solve"):
        out[-1]["nodes_per_solve"] = nodes
print(json.dumps(out))
'''


FLAGS_THAT_MATTER = ("avx2", "avx512f", "avx512bw", "avx512vl", "bmi2", "popcnt", "lzcnt", "abm")


def cpu_info() -> dict:
    """The CPU as /proc/cpuinfo names it: model name, vendor, family, model, and the flags the kernels' code uses."""
    out = {"cpu": platform.processor() or "unknown", "vendor": None, "family": None, "model": None, "flags": []}
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return out
    first = text.split("\n\n", 1)[0]
    for line in first.splitlines():
        key, _, value = (x.strip() for x in line.partition(":"))
        if key == "model name":
            out["cpu"] = value
        elif key == "vendor_id":
            out["vendor"] = value
        elif key == "cpu family":
            out["family"] = int(value) if value.isdigit() else value
        elif key == "model":
            out["model"] = int(value) if value.isdigit() else value
        elif key == "flags":
            have = set(value.split())
            out["flags"] = [f for f in FLAGS_THAT_MATTER if f in have]
    return out


def machine() -> dict:
    """Machine (CPU vendor, family, model, flags), Python, Numba and commit this run measures."""
    info = cpu_info()
    cpu = info["cpu"]
    import numba

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return {
        "cpu": cpu,
        "cpu_vendor": info["vendor"],
        "cpu_family": info["family"],
        "cpu_model": info["model"],
        "cpu_flags": info["flags"],
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "commit": commit + ("+dirty" if dirty else ""),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
    }


YARDSTICK = ROOT.parent / "shared" / "bench" / "naive_ghost.py"  # the plain Numba simulator bower is measured against


def link_package(tree: Path, farm: Path) -> str:
    """Make ``farm/bower`` the package of another checkout ``tree`` (symlinks, as the install maps the folders:
    ``api/`` as ``bower``, ``sim/``, ``kernels/``, ``analysis/`` under it); returns the ``PYTHONPATH`` that
    puts it before the installed one."""
    pkg = farm / "bower"
    pkg.mkdir()
    for item in (tree / "api").iterdir():
        (pkg / item.name).symlink_to(item)
    for sub in ("sim", "kernels", "analysis"):
        (pkg / sub).symlink_to(tree / sub)
    return str(farm)


def measure(tree: Path, cases, repeats: int) -> list[dict]:
    """Run the cases in a fresh interpreter whose ``bower`` comes from ``tree``.

    A tree with ``api/`` is imported as the install maps it (``bower`` is
    ``api/``, ``bower.sim`` is ``sim/``...), through a folder of links, so
    another commit is measured and not the installed checkout (this checkout is
    imported as installed, so its kernel cache is reused); an older tree's
    top-level ``sim``/``kernels`` are taken under the ``bower`` name.
    """
    with tempfile.TemporaryDirectory(prefix="bower-bench-") as farm:
        env = dict(os.environ, BOWER_YARDSTICK=str(YARDSTICK))
        if tree.resolve() == ROOT.resolve():
            pass  # this checkout: the install maps bower here (and the kernel cache stays where it is)
        elif (tree / "api").is_dir():
            env["PYTHONPATH"] = link_package(tree, Path(farm))
        else:
            env.update(PYTHONPATH=str(tree), BOWER_BENCH_TOP_LEVEL="1")
        proc = subprocess.run([sys.executable, "-c", MEASURE, json.dumps(cases), str(repeats)], cwd=tree, env=env,
                              capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark failed in {tree}:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--against", metavar="REV", help="also measure this commit, in the same run")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--only", metavar="CASES", help="a comma list of cases to run (e.g. solve,hp-solve)")
    args = ap.parse_args()
    repeats = args.repeats or (3 if args.quick else 5)
    threads = sorted({1, min(2, os.cpu_count() or 1)})
    sizes = {
        "deal": [1_000_000, 10_000_000],
        "hand": [100_000, 1_000_000, 4_000_000],
        "yardstick": [1_000_000],
        "game": [100_000, 400_000],
        "duplicate": [120_000],
        "swap": [1_000_000],
        "advice": [100_000],
        "advice-dd": [20_000],
        "advice-w": [100_000],
        "advice-w-dd": [20_000],
        "ct-advice-w": [100_000],
        "ct-advice-w-dd": [20_000],
        "hp-advice-w": [100_000],
        "hp-advice-w-dd": [20_000],
        "eu-advice-w": [100_000],
        "eu-advice-w-dd": [20_000],
        "records": [20_000],
        "records-parquet": [1_000_000],
        "ct-hand": [1_000_000, 4_000_000],
        "ct-game": [100_000],
        "ct-advice": [200_000],
        "hp-hand": [1_000_000, 4_000_000],
        "hp-game": [100_000],
        "hp-advice": [100_000],
        "eu-hand": [1_000_000, 4_000_000],
        "eu-game": [100_000],
        "eu-advice": [100_000],
        "solve": [20_000],
        "ct-solve": [20_000],
        "hp-solve": [5_000],
        "eu-solve": [20_000],
    }
    if args.quick:
        sizes = {"deal": [1_000_000], "hand": [1_000_000], "yardstick": [1_000_000], "game": [100_000], "duplicate": [60_000], "swap": [200_000],
                 "advice": [20_000], "advice-dd": [5_000], "advice-w": [20_000], "advice-w-dd": [5_000],
                 "ct-advice-w": [20_000], "ct-advice-w-dd": [5_000], "hp-advice-w": [20_000],
                 "hp-advice-w-dd": [5_000], "eu-advice-w": [20_000], "eu-advice-w-dd": [5_000],
                 "records": [10_000], "records-parquet": [200_000], "ct-hand": [1_000_000],
                 "ct-game": [50_000], "ct-advice": [50_000], "hp-hand": [1_000_000], "hp-game": [50_000], "hp-advice": [20_000],
                 "eu-hand": [1_000_000], "eu-game": [50_000], "eu-advice": [20_000], "solve": [5_000],
                 "ct-solve": [5_000], "hp-solve": [1_000], "eu-solve": [5_000]}
    cases = [(k, t, n) for k, ns in sizes.items() for n in ns for t in threads]
    cases.append(("random", 1, 1_000_000))  # the peer comparison's second bower figure: 1 thread only
    cases.append(("pimc", 1, 2_000 if args.quick else 5_000))  # per thread: fewer hands than a chunk (4,096) per run
    cases.append(("pimc-bid", 1, 500 if args.quick else 1_000))
    if args.only:
        wanted = {c.strip() for c in args.only.split(",") if c.strip()}
        unknown = wanted - {c[0] for c in cases}
        if unknown:
            raise SystemExit(f"unknown case(s) {', '.join(sorted(unknown))}; the cases are {', '.join(sizes)}, random, pimc, "
                             "pimc-bid")
        cases = [c for c in cases if c[0] in wanted]
    info = machine()
    results = {"this": measure(ROOT, cases, repeats)}
    if args.only:
        peer = {"skipped": True, "reason": "--only runs the cases named", "how": "run without --only for it"}
    else:
        peer = peer_section(results["this"], 20_000 if args.quick else 100_000, repeats)
    if args.against:
        with tempfile.TemporaryDirectory() as d:
            wt = Path(d) / "base"
            subprocess.run(["git", "worktree", "add", "--detach", "-q", str(wt), args.against], cwd=ROOT, check=True)
            try:
                results[args.against] = measure(wt, cases, repeats)
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(wt)], cwd=ROOT)
    if args.json:
        print(json.dumps({"machine": info, "results": results, "peer": peer}, indent=2))
        return
    print(f"bower benchmarks: {info['date']}, commit {info['commit']}")
    print(f"machine: {info['cpu']} ({info['cpu_vendor']}, family {info['cpu_family']}, model {info['cpu_model']}; "
          f"{' '.join(info['cpu_flags']) or 'no AVX2'}), {info['cores']} cores; Python {info['python']}, "
          f"Numba {info['numba']}")
    print(f"median of {repeats} runs after warm-up; 'hand' = deal + swap + auction + 6 tricks + score, summary mode;")
    print("'game' = whole games to 32 (default strategy); 'duplicate' = experiment games (default/aggressive/random);")
    print("'swap' = deals of the paired swap analysis (each decision point played twice);")
    print("'advice' = should-bid samples per action (position 1, 18 actions: each sample plays 18 hands; the softmax "
          "auction model: samples are the effective sample size asked for);")
    print("'advice-dd' = the same with the double-dummy play-out (each action's contract solved);")
    print("'advice-w', 'ct-', 'hp-', 'eu-advice-w' (and '-dd') = should-bid after calls the model must weigh: Ghost Hand "
          "position 3 after pass,3 (position 1 swapped), Cutthroat position 2 after a pass, Hasenpfeffer position 3 "
          "after pass,4, Euchre round two at position 2; items are the effective sample size (ESS) asked for")
    print("'random' = 'hand' with the random strategy in every seat (the peer comparison below);")
    print("'ct-hand', 'ct-game', 'ct-advice' = the same for Cutthroat (games to 10; should-bid at position 1, 3 actions);")
    print("'hp-hand', 'hp-game', 'hp-advice' = the same for Hasenpfeffer (games to 10 by side; should-bid at position 1, 7 actions);")
    print("'eu-hand', 'eu-game', 'eu-advice' = the same for standard Euchre (games to 10 by side; should-bid at position 1, round one)")
    print("'solve', 'ct-solve', 'hp-solve', 'eu-solve' = double-dummy solves of full deals from the first lead "
          "(sim.solve.sample_deals, seed 0), with nodes per solve")
    print("'yardstick' = the plain simulator of ../shared/bench (per second; bower's ratio to it below)")
    print("'pimc' = 'hand' (Ghost Hand) with seat 0 playing its cards by PIMC, 32 worlds per decision (the "
          "'pimc-cards' preset), against two default seats; 1 thread")
    print("'pimc-bid' = the same with seat 0's swap, calls and trump searched too (pimc_bid: the 'pimc' preset)")
    print()
    header = f"{'kernel':<9} {'items':>11} {'threads':>7} {'per second':>14} {'ns/item':>9}"
    if args.against:
        header += f" {args.against + ' /s':>14} {'ratio':>6}"
    print(header)
    base = {(r["kernel"], r["threads"], r["items"]): r for r in results.get(args.against, [])}
    single = {(r["kernel"], r["items"]): r["per_second"] for r in results["this"] if r["threads"] == 1}
    for r in results["this"]:
        line = f"{r['kernel']:<9} {r['items']:>11,} {r['threads']:>7} {r['per_second']:>14,.0f} {r['ns_per_item']:>9.1f}"
        if args.against:
            b = base.get((r["kernel"], r["threads"], r["items"]))
            line += f" {b['per_second']:>14,.0f} {r['per_second'] / b['per_second']:>6.2f}" if b else f" {'-':>14} {'-':>6}"
        if "nodes_per_solve" in r:
            line += f"   {r['nodes_per_solve']:,.0f} nodes/solve"
        if r["threads"] > 1 and (r["kernel"], r["items"]) in single:
            eff = r["per_second"] / (r["threads"] * single[(r["kernel"], r["items"])])
            line += f"   parallel efficiency {100 * eff:.0f}%"
        print(line)
    print_yardstick(results["this"])
    print_peer(peer)


def print_yardstick(rows: list[dict]) -> None:
    """bower's Ghost Hand hands against the plain simulator of ``../shared/bench``, timed in turns in this run."""
    ys = [r for r in rows if r["kernel"] == "yardstick"]
    print()
    if not ys:
        print(f"yardstick skipped: {YARDSTICK} is not there (or the case was not asked for)")
        return
    print(f"yardstick: {YARDSTICK.name} (trivial bidding, no swap, greedy play) and bower's 'hand' (default strategy), "
          "timed in turns, 1,000,000 hands each; ratio = median over the repeats of bower's speed over the plain one's")
    one = {r["items"]: r for r in ys if r["threads"] == 1}
    for r in ys:
        line = (f"  {r['threads']} thread(s): plain {r['per_second']:>12,.0f} hands/s, bower {r['bower_per_second']:>12,.0f}"
                f" hands/s, ratio {r['ratio']:.2f}")
        base = one.get(r["items"])
        if r["threads"] > 1 and base:
            line += (f"; parallel efficiency plain {100 * r['per_second'] / (r['threads'] * base['per_second']):.0f}%,"
                     f" bower {100 * r['bower_per_second'] / (r['threads'] * base['bower_per_second']):.0f}%")
        print(line)


def _bower_hand(rows: list[dict], kernel: str) -> dict | None:
    """The 1-thread row of ``kernel`` with 1,000,000 items (else the largest) from this run's results."""
    mine = [r for r in rows if r["kernel"] == kernel and r["threads"] == 1]
    exact = [r for r in mine if r["items"] == 1_000_000]
    return (exact or sorted(mine, key=lambda r: r["items"]))[-1] if mine else None


def peer_section(rows: list[dict], hands: int, repeats: int) -> dict:
    """OpenSpiel euchre hands/s (random bots, 1 thread) against bower's 1-thread hands/s (default and random)."""
    ok, why = peer_openspiel.available()
    out: dict = {"note": peer_openspiel.NOTE}
    for key, kernel in (("bower_default", "hand"), ("bower_random", "random")):
        r = _bower_hand(rows, kernel)
        out[key] = None if r is None else {"strategy": "default" if kernel == "hand" else "random", "threads": 1,
                                           "hands": r["items"], "hands_per_second": r["per_second"]}
    if not ok:
        out.update(skipped=True, reason=f"open_spiel is not importable ({why})", how=peer_openspiel.INSTALL_HINT)
        return out
    try:
        out["openspiel"] = peer_openspiel.measure(hands, repeats)
    except Exception as e:  # a broken install must not lose the bower figures above
        out.update(skipped=True, reason=f"OpenSpiel failed: {type(e).__name__}: {e}", how=peer_openspiel.INSTALL_HINT)
        return out
    out["skipped"] = False
    peer_rate = out["openspiel"]["hands_per_second"]
    out["ratios"] = {
        key: out[key]["hands_per_second"] / peer_rate for key in ("bower_default", "bower_random") if out[key]
    }
    return out


def print_peer(peer: dict) -> None:
    """The peer section of the text report."""
    print()
    if peer.get("skipped"):
        print(f"peer comparison skipped: {peer['reason']}; {peer['how']}")
        return
    o = peer["openspiel"]
    print(f"peer: OpenSpiel {o['version']} {o['game']} {o['parameters']}, {o['bots']} bots, "
          f"{o['hands']:,} hands, median of {o['repeats']}, 1 thread")
    print(f"{'engine':<48} {'hands/s':>12} {'us/hand':>9} {'x OpenSpiel':>12}")
    print(f"{'OpenSpiel euchre, uniform random bots':<48} {o['hands_per_second']:>12,.0f} {o['us_per_hand']:>9.2f} {1:>12.2f}")
    for key, label in (("bower_default", "bower Ghost Hand, default strategy"), ("bower_random", "bower Ghost Hand, random strategy")):
        b = peer[key]
        if b is None:
            print(f"{label + ', 1 thread':<48} {'-':>12}")
            continue
        print(f"{label + ', 1 thread':<48} {b['hands_per_second']:>12,.0f} {1e6 / b['hands_per_second']:>9.2f} "
              f"{peer['ratios'][key]:>12.2f}")
    print(f"note: {peer['note']}")


if __name__ == "__main__":
    main()
