#!/usr/bin/python3
"""Writes docs/performance.md from the Google Benchmark JSON
files that `make bench-report` leaves in one folder (stdlib only):

    bench_report.py DIR OUT.md

DIR holds peak.json (bench_projectron FmaPeak and MulAddPeak), triad.json (bench_threads StreamTriad/1),
a9a.json (bench_learners), a9a_avx2.json (the same under PLAB_SIMD=avx2, when the CPU has AVX-512) and,
when MNIST was found, mnist.json and mnist_avx2.json (bench_multiclass WholePassMnist),
each run with --benchmark_repetitions (the fastest repetition reported), and load_before and load_after
(/proc/loadavg when the benchmarks started and ended)."""
import datetime
import json
import os
import re
import subprocess
import sys

import bench_peers  # its cpuinfo(): both reports name the CPU alike

_UNIT = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# The last section of OUT.md is written by `make bench-peers` (scripts/bench_peers.py); kept as it is.
_PEERS = "## Against the peer toolbox"


def peers_section(path):
    """OUT.md's text from the heading _PEERS to its end ('' when absent), to be written back unchanged."""
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        text = f.read()
    i = text.find("\n" + _PEERS + "\n")
    return text[i + 1:] if i >= 0 else ""


def fastest(path, key="cpu_time"):
    """{benchmark name: its repetition of least `key` time} of one JSON file; {} when the file is
    missing. Other work on the machine only ever adds time, so the fastest repetition is the
    steadiest estimate of a benchmark's own cost (on a shared 2-vCPU VM the median of 3 moved by
    up to 30% between runs). Aggregates, and rows that were skipped (no AVX-512, no data set),
    are left out."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        rows = json.load(f)["benchmarks"]
    out = {}
    for r in rows:
        if r.get("error_occurred"):
            continue
        if r.get("run_type") == "aggregate":
            continue
        # "BM_WholePassA9a/pa1/iterations:3" -> "BM_WholePassA9a/pa1"
        name = re.sub(r"/(iterations:\d+|real_time|repeats:\d+)", "", r.get("run_name", r["name"]))
        if name not in out or seconds(r, key) < seconds(out[name], key):
            out[name] = r
    return out


def seconds(row, key):
    return row[key] * _UNIT[row["time_unit"]]


def cpu_model():
    """The CPU as bench_peers.py names it: model name, family and model numbers."""
    return bench_peers.cpuinfo()[0]


def git_revision(src):
    def git(*args):
        return subprocess.run(["git", *args], cwd=src, capture_output=True, text=True).stdout.strip()
    rev = git("rev-parse", "--short=12", "HEAD") or "unknown"
    # The files this script writes are outputs, not what was measured.
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)docs/performance.md")
    return rev + (" (with uncommitted changes)" if dirty else "")


def fmt_time(s):
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"


def floor_seconds(r, gfma, bw):
    """A pass's floor: the larger of its FMA-pipe operations at the peak and its bytes at the
    bandwidth (bench/learner_floors.hpp); None without a count."""
    if "floor_fma" not in r or not gfma:
        return None
    return max(r["floor_fma"] / (gfma * 1e9), r.get("floor_bytes", 0.0) / (bw * 1e9) if bw else 0.0)


def learner_rows(rows, prefix, peak_gfma, avx2=None, avx2_gfma=None, bw=None):
    """(name, wall s, cpu s, mistakes, support, floor s or None, fmas, AVX2 cpu s or None, AVX2 floor s or
    None) for every row named prefix/<learner>; the AVX2 columns from `avx2`, the same benchmarks run
    under PLAB_SIMD=avx2, against the AVX2 peak."""
    out = []
    for name, r in sorted(rows.items()):
        if not name.startswith(prefix + "/"):
            continue
        floor = floor_seconds(r, peak_gfma, bw)
        a = (avx2 or {}).get(name)
        a_cpu = seconds(a, "cpu_time") if a else None
        a_floor = floor_seconds(r, avx2_gfma, bw) if a else None
        out.append((name.split("/", 1)[1], seconds(r, "real_time"), seconds(r, "cpu_time"), int(r["mistakes"]),
                    int(r["support"]), floor, r.get("floor_fma"), a_cpu, a_floor))
    return out


def table(rows, floor_text):
    avx2 = any(r[7] is not None for r in rows)
    head = "| learner | wall time | CPU time | mistakes | supports at the end | floor at the peak | CPU time / floor |"
    rule = "|---|---|---|---|---|---|---|"
    if avx2:
        head += " CPU time, AVX2 path | AVX2 CPU time / AVX2 floor |"
        rule += "---|---|"
    lines = [head, rule]
    for name, wall, cpu, mistakes, support, floor, fma, a_cpu, a_floor in rows:
        fl = f"{fma:.3g} operations ({floor_text}): {fmt_time(floor)}" if floor else "–"
        ratio = f"{cpu / floor:.2f}" if floor else "–"
        line = f"| `{name}` | {fmt_time(wall)} | {fmt_time(cpu)} | {mistakes} | {support} | {fl} | {ratio} |"
        if avx2:
            line += (f" {fmt_time(a_cpu)} |" if a_cpu is not None else " – |") + (f" {a_cpu / a_floor:.2f} |" if a_floor else " – |")
        lines.append(line)
    return "\n".join(lines)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    d, out = sys.argv[1], sys.argv[2]
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    peak, triad = fastest(os.path.join(d, "peak.json")), fastest(os.path.join(d, "triad.json"), "real_time")
    a9a, mnist = fastest(os.path.join(d, "a9a.json")), fastest(os.path.join(d, "mnist.json"))
    a9a_avx2, mnist_avx2 = fastest(os.path.join(d, "a9a_avx2.json")), fastest(os.path.join(d, "mnist_avx2.json"))
    if not peak or not a9a:
        sys.exit(f"bench_report: {d} lacks peak.json or a9a.json results (is a9a on the data search path?)")
    # The learners run the widest path the CPU has (numerics/simd.hpp), so the floor uses the widest peak.
    widths = [(w, peak[f"BM_FmaPeak{w}"]["GFLOP/s"]) for w in ("Avx512", "Avx2") if f"BM_FmaPeak{w}" in peak]
    path, gflops = widths[0]
    gfma = gflops / 2
    bw = triad.get("BM_StreamTriad/1", {}).get("GB/s")
    with open(os.path.join(d, "load_before")) as f:
        load_before = f.read().split()[:3]
    with open(os.path.join(d, "load_after")) as f:
        load_after = f.read().split()[:3]
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cpu, rev = cpu_model(), git_revision(src)
    names = {"Avx512": "AVX-512", "Avx2": "AVX2"}
    peaks = ", ".join(f"{names[w]} {g:.1f} GFLOP/s" for w, g in widths)
    avx2_gfma = dict(widths).get("Avx2", 0) / 2 if path != "Avx2" else None
    # Lane-sum terms (a product, then an add) at their own rate, beside the FMA peak of each width.
    terms = [(w, peak[f"BM_MulAddPeak{w}"]["GFLOP/s"] / 2, g / 2) for w, g in widths if f"BM_MulAddPeak{w}" in peak]
    a9a_rows = learner_rows(a9a, "BM_WholePassA9a", gfma, a9a_avx2, avx2_gfma, bw)
    mnist_rows = learner_rows(mnist, "BM_WholePassMnist", gfma, mnist_avx2, avx2_gfma, bw)

    md = [
        "# Performance",
        "",
        "<!-- Written by `make bench-report` (scripts/bench_report.py from the JSON of bench/), except the last "
        "section, written by `make bench-peers` (scripts/bench_peers.py); do not edit. -->",
        "",
        f"Measured at commit `{rev}` on {when} by `make bench-report`, one core of the CPU {cpu} "
        f"({os.cpu_count()} logical CPUs). Load average (1, 5, 15 min) {' '.join(load_before)} before, "
        f"{' '.join(load_after)} after: above about 0.5 a core, other work shared the cores and wall "
        "times are inflated; CPU time (the measuring thread's) is then the steadier number. Each benchmark's "
        "figures below are those of the fastest of its 3 repetitions, by CPU time (the bandwidth's by wall "
        "time): other work only ever adds time, and the median of 3 moved by up to 30% between runs of this report.",
        "",
        f"- **FP64 FMA peak of one core:** {peaks} (`bench_projectron --benchmark_filter=FmaPeak`, 12 "
        f"independent FMA chains); the floors below use {names[path]}'s {gfma:.1f} GFMA/s"
        + (f", and the AVX2 path's columns (the same benchmarks under `PLAB_SIMD=avx2`) AVX2's {avx2_gfma:.1f} GFMA/s."
           if avx2_gfma and (a9a_avx2 or mnist_avx2) else "."),
    ] + ([
        "- **Lane-sum terms of one core** (a product rounded, then added: the terms of every score, kernel-row dot "
        "and map, whose order [learners.md#lane-sums](learners.md#lane-sums) fixes): "
        + ", ".join(f"{names[w]} {t:.1f} G terms/s ({t / f:.2f} of its FMA rate)" for w, t, f in terms)
        + " (`bench_projectron --benchmark_filter=MulAddPeak`, 8 independent chains of a multiply and an add). "
        "The floors count such a term as one FMA-pipe operation, the add beside it; where the adds share the FMA "
        "pipes this rate, not the FMA peak, bounds those learners."] if terms else []) + [
        "- **Memory bandwidth, one thread:** " + (f"{bw:.1f} GB/s" if bw else "not measured") +
        " (`bench_threads --benchmark_filter=StreamTriad/1`: a = b + s c over 3 x 64 MB, 24 bytes an element).",
        "",
        "## a9a",
        "",
        "`bench_learners`: one pass over a9a in file order, Gaussian kernel γ = 0.04, budgets B = 793, "
        "Projectron(++) η = 0.1 in the DOGMA convention, PA-I, BPA-S and BPA-NN C = 1, NORMA λ = 0.01, Λ = 0.5, ρ = 1, "
        "τ = 1000, BOGD(++), FOGD and NOGD at their defaults (η = 0.5, λ = 0.001, D = 400, k = 20); the primal `perceptron` is linear; `bogd/B1600` is BOGD at B = 1600. The learners run "
        "as without bounds ([learners.md#bookkeeping](learners.md#bookkeeping)) and, as `plab run --no-bounds --quiet`, "
        "with no observer of the rounds and no record kept. 3 timed passes a repetition, after one untimed pass "
        "that gives the floor its rounds. "
        "Floor: the operations each learner's rule cannot skip, counted from the pass's records "
        "([learners.md#floors](learners.md#floors)): the kernel row of every score (21 fma and products a "
        "Gaussian value; for a9a's binary rows the table's lookup, the coefficient's product and the count, "
        "nnz(x) / 64 a support), the Projectron(++)'s forward solves z_t = L⁻¹k_t (n(n+1)/2 fmas at |S| = n), "
        "NOGD's map, FOGD's map with its cos and sin, and what a budget learner's rule does beyond its score "
        "(its removal's search, rescaling and extra kernel rows); at the FMA peak, or the data read once at the "
        "bandwidth when that takes longer.",
        "",
        table(a9a_rows, "the rule's"),
        "",
    ]
    if mnist_rows:
        md += ["## MNIST", "",
               "`bench_multiclass`: one pass over the 60000 MNIST training digits (pixels/255) in file order, "
               "polynomial kernel (0.006⟨x,x'⟩ + 1/2)^7, η = 0.1 DOGMA, B = 2000, C = 1; the learners run as without "
               "bounds ([learners.md#bookkeeping](learners.md#bookkeeping)); a pass a repetition. "
               "Floor: every round's kernel row, nnz(x_t) |S| fmas ([learners.md#layout](learners.md#layout)); "
               "for `multiclass-projectron++` also the forward solves of the rounds that project, "
               "n_c(n_c + 1)/2 fmas for each of the two classes ([learners.md#floors](learners.md#floors)).",
               "", table(mnist_rows, "kernel rows"), ""]
    else:
        md += ["MNIST was not found on the data search path: no multiclass passes.", ""]
    peers = peers_section(out)
    with open(out, "w") as f:
        f.write("\n".join(md) + ("\n" + peers if peers else ""))

    def brief(rows):
        return ", ".join(f"`{n}` {fmt_time(w)}" + (f" (CPU time {c / fl:.2f}x its floor)" if fl else "")
                         for n, w, c, _, _, fl, _, _, _ in rows)
    head = (f"On one core of the CPU {cpu} (FMA peak {gflops:.0f} GFLOP/s"
            + (f", {bw:.0f} GB/s" if bw else "") + f"; load average {load_before[0]} at the start), "
            f"commit `{rev}`, the whole pass over a9a took: {brief(a9a_rows)}")
    if mnist_rows:
        head += f"; over MNIST: {brief(mnist_rows)}"
    head += f". Written to {out}."
    print(head)  # the console's summary; the numbers live in OUT.md alone


if __name__ == "__main__":
    main()
