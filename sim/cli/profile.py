"""``bower profile``: throughput, ns per item, parallel efficiency and peak memory of each kernel."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import CommaChoice, Count, json_option, variant_option
from bower.sim.profiling import KERNELS
from bower.sim.text import limit_text

MAX_PROFILE_HANDS = 10**8  # the solve case holds hands/50 deals in memory; larger runs time nothing new


@click.command()
@click.option(
    "--kernel", "kernel", default="all", show_default=True, type=CommaChoice((*KERNELS, "all"), "kernel", empty_ok=False),
    help="Kernels to time (a comma list is allowed; auction and play: Ghost Hand only).",
)
@click.option("--hands", default=1_000_000, show_default=True, type=Count(high=MAX_PROFILE_HANDS),
              help="Size of each timed run: deals/hands; games = hands/15; should-bid samples = hands/20; "
                   f"solve: hands/50 full deals (at most {limit_text(MAX_PROFILE_HANDS)}).")
@click.option("--threads", "threads", default=None, metavar="1,2",
              help="Comma list of thread counts (default: 1 and all cores).")
@variant_option
@json_option
def profile(kernel, hands, threads, variant, as_json):
    """Time each kernel at each thread count (after compiling or loading it), median of 3 runs."""
    from bower.sim import profiling

    from bower.sim.rules import get_variant

    v = get_variant(variant)
    kernels = profiling.parse_kernels(kernel, v.name)
    thread_list = profiling.parse_threads(threads)
    result = profiling.profile(kernels, hands=hands, threads=thread_list, variant=v.name)
    if as_json:
        click.echo(json.dumps(result, indent=2))
    else:
        click.echo(format_profile(result))


def format_profile(r: dict) -> str:
    """The human-readable table of a ``bower.sim.profiling.profile`` result."""
    m = r["machine"]
    verb = "compiled the kernels first" if r["compiled"] else "loaded the kernels from Numba's cache"
    detail = ", ".join(f"{c['name']} {c['seconds']:.2f} s" + (" (compiled)" if c["compiled"] else "") for c in r["compile"])
    from bower.sim.rules import get_variant

    lines = [
        f"bower profile ({get_variant(r.get('variant', 'ghost')).title}): {r['hands']:,} hands, threads {','.join(map(str, r['threads']))}, "
        f"median of {r['repeats']} runs after a warm-up",
        f"machine: {m['cpu']}, {m['cores']} cores ({m['max_threads']} kernel threads); "
        f"Python {m['python']}, NumPy {m['numpy']}, Numba {m['numba']}",
        f"compile time: {verb}: {r['compile_s']:.2f} s ({detail})"
        + (", cached for later runs" if r["compiled"] else ""),
        "",
        f"{'kernel':<14} {'unit':<15} {'items':>11} {'threads':>7} {'per second':>14} {'ns/item':>11} "
        f"{'efficiency':>10} {'peak RSS':>12}",
    ]
    for row in r["kernels"]:
        eff = "" if row["parallel_efficiency"] is None else f"{100 * row['parallel_efficiency']:.0f}%"
        ps = "-" if row["per_second"] is None else f"{row['per_second']:,.0f}"
        name = row["name"] + (" *" if row["derived"] else "")
        lines.append(
            f"{name:<14} {row['unit']:<15} {row['items']:>11,} {row['threads']:>7} {ps:>14} "
            f"{row['ns_per_item']:>11,.1f} {eff:>10} {row['peak_rss_mib']:>8.1f} MiB"
        )
    lines.append("")
    for row in r["kernels"]:
        if row["name"] == "game":
            lines.append(f"game at {row['threads']} thread(s): {row['hands_per_second']:,.0f} hands/s "
                         f"({row['hands']:,} hands in {row['items']:,} games)")
    from bower.sim.profiling import FUSED_NOTE

    from bower.sim.rules import get_variant

    v = get_variant(r.get("variant", "ghost"))
    if any(row["derived"] for row in r["kernels"]):
        if not v.phases:
            lines.append("* derived row: auction+play = hand minus deal (everything after the deal, fused in "
                         f"kernels/{v.name}/drivers.py simulate_chunks).")
        else:
            lines.append("* " + FUSED_NOTE)
    for row in r.get("derived_skipped", []):
        lines.append(f"derived row {row['name']} at {row['threads']} thread(s) left out: {row['reason']}")
    for row in r["kernels"]:
        if row["name"] == "solve":
            lines.append(f"solve at {row['threads']} thread(s): {row['per_second'] / row['threads']:,.0f} solves/s per "
                         f"thread, {row['nodes_per_solve']:,.0f} nodes per solve")
    if any(row["name"] == "solve" for row in r["kernels"]):
        lines.append("solve: full deals double dummy from the first lead, the maker's side against the rest (random "
                     "deals, seed 0; trump the maker side's longest suit).")
    if any(row["name"] == "should-bid" for row in r["kernels"]):
        lines.append(v.profile_notes.get("should-bid", "should-bid: samples per action per second."))
    lines.append("efficiency = per second at T threads / (T x per second at 1 thread); "
                 "peak RSS = the process's peak resident set size after the run (it never goes down).")
    return "\n".join(lines)
