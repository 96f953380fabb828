#!/usr/bin/python3
"""Times plab against the peer C++ toolbox KOL (LIBOL's kernel online learning library) on the same
LIBSVM files and writes the side-by-side table into docs/performance.md (stdlib only):

    bench_peers.py --kol KOL_CHECKOUT [--plab build/plab] [--build-dir build/kol] [--repeats 5]
                   [--out docs/performance.md] [--only LEARNER,...] [--datasets a9a,ijcnn1]
    bench_peers.py --render build/kol/results.json [--out docs/performance.md]   (the table again, no runs)
    bench_peers.py --self-test

`make bench-peers KOL=<checkout>` runs it. It builds the KOL checkout with CMake (Debian's Eigen)
into --build-dir, records KOL's git commit and the CPU (model name, SIMD flags), finds a9a and
ijcnn1 on plab's data search path (`plab datasets`), writes one uncompressed copy of each with its
labels rewritten to the integers +1/-1 (KOL reads the label as an integer and stops at ijcnn1's
`-1.0`), and runs both programs on those copies, alternating KOL and plab, --repeats times each:
whole-process wall time and user+sys CPU time (os.wait4), minimum and median. PLAB_SIMD passes
through to plab: under PLAB_SIMD=X the table goes between the markers bench-peers-X:begin/end
instead of bench-peers:begin/end. Raw timings go to BUILD_DIR/results.json."""
import argparse
import bz2
import datetime
import gzip
import json
import lzma
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SECTION = "## Against the peer toolbox"

# The data sets: the paper's kernel widths (JMLR 2009 Table 1) and the budgets of experiments/specs/B1.json.
DATASETS = {
    "a9a": {"gamma": 0.04, "budget": 793},
    "ijcnn1": {"gamma": 8.0, "budget": 400},
}

# Where KOL's rule is not plab's (or KOL cannot run it), read in KOL's sources (file names are KOL's).
_SAME = "same rule"
NOTES = {
    "kernel-perceptron": _SAME + " (KOL: `src/kernel/kernel_perceptron.h`; it scores in float and counts a zero "
                         "score as -1, so its mistake count can differ by a round or two)",
    "forgetron": _SAME + " as read: self-tuned Forgetron, oldest support removed, φ from the 15/32 quadratic "
                 "(KOL: `src/kernel/kernel_forgetron.h`); KOL keeps the coefficients in float, and on ijcnn1 the "
                 "two runs part ways (not traced further)",
    "rbp": "not reproducible there: KOL reseeds `rand()` from the clock (`srand(time(NULL))`) at every eviction "
           "(`src/kernel/kernel_RBP.h`), so the evictions of one second all take the same slot and each run differs; "
           "plab draws from its seeded stream (`--seed 1`)",
    "pa1": "KOL has a kernel PA (`src/kernel/kernel_pa.h`, coefficient y min(C, l): PA-I when k(x,x) = 1) but "
           "`GetOptimizer` in `src/main.cpp` has no name for it, so its command line cannot run it "
           "(its `-cpa` defaults to 10000, `src/Params.cpp`); plab alone, C = 1",
    "bpa-s": _SAME + " for k(x,x) = 1, as the Gaussian kernel has (KOL: `src/kernel/kernel_bpas.h`, `-cbpas 1`); "
             "ties in the removal's arg min go to the first support in storage order, the oldest in KOL's list, a "
             "swapped slot in plab's array: with γ = 8 many supports tie (coefficient ±1, k ≈ 0), probably why "
             "the ijcnn1 runs differ",
    "nogd": "not the same switch: KOL (`src/kernel/kernel_nogd.h`) starts the linear phase from w = 0 (the kernel "
            "phase's f is dropped, not projected on the eigenfunctions) and steps with `-eta1` (0.5 here); its "
            "eigenpairs are the first k that Eigen's general `EigenSolver` returns (unsorted in principle; on these "
            "two matrices they were the k largest); kernel phase the same; its printed instance count restarts at the "
            "switch, its error rate divides by the file's rows",
    "bogd": "not the same removal: KOL (`src/kernel/kernel_bogd.h`, `delete_SV()` in `src/kernel/kernel_optim.h`) "
            "removes the oldest support and does not rescale by B/(B-1); plab draws the removal uniformly, "
            "rescales (ICML 2012) and caps the coefficients as the authors' code does (`--cap 2`, "
            "[learners.md#bogd-cap](learners.md#bogd-cap))",
    "fogd": "not the same map: KOL (`src/kernel/kernel_fogd.h`) uses a parabolic sin and sgn(u.x) abs(cos(u.x)); the "
            "parabola exceeds 1, so sqrt(1 - s^2) is NaN on some coordinate in most rounds (about 65% of a9a's, 73% of "
            "ijcnn1's, counted in an instrumented copy), which score NaN and never update; frequencies seeded from "
            "the clock "
            "([conventions.md#fogd-libol](conventions.md#fogd-libol))",
    "projectron++": "not the same algorithm: KOL's (`src/kernel/kernel_projectronpp.h`) is a budget variant that adds "
                    "every mistake until B supports and then always projects (no threshold η on ‖δ‖); plab's is "
                    "the paper's (η = 0.1 on a9a, 0.98 on ijcnn1, DOGMA convention, no budget)",
}


def learner_cases(only=None):
    """The rows: (row label, data set, KOL argv tail or None, plab argv tail, note key, budget)."""
    rows = []
    for ds, p in DATASETS.items():
        B, g = p["budget"], p["gamma"]
        pp_eta = 0.1 if ds == "a9a" else 0.98
        cases = [
            ("kernel Perceptron", "kernel-perceptron", ["-opt", "KERNEL-PERCEPTRON"], ["--algo", "kernel-perceptron"], None),
            ("Forgetron", "forgetron", ["-opt", "KERNEL-FORGETRON", "-B", B], ["--algo", "forgetron", "--budget", B], B),
            ("RBP", "rbp", ["-opt", "KERNEL-RBP", "-B", B], ["--algo", "rbp", "--budget", B, "--seed", 1], B),
            ("PA-I (C = 1)", "pa1", None, ["--algo", "pa1", "--C", 1], None),
            ("BPA-S (C = 1)", "bpa-s", ["-opt", "KERNEL-BPAS", "-B", B, "-cbpas", 1],
             ["--algo", "bpa-s", "--budget", B, "--C", 1], B),
            ("NOGD (k = 20)", "nogd", ["-opt", "KERNEL-NOGD", "-B", B, "-knogd", 20, "-eta", 0.5, "-eta1", 0.5],
             ["--algo", "nogd", "--budget", B, "--rank", 20, "--eta", 0.5], B),
            ("BOGD", "bogd", ["-opt", "KERNEL-BOGD", "-B", B, "-eta", 0.5, "-lambda", 0.001],
             ["--algo", "bogd", "--budget", B, "--eta", 0.5, "--lambda", 0.001, "--seed", 1], B),
            ("BOGD (B = 1600)", "bogd", ["-opt", "KERNEL-BOGD", "-B", 1600, "-eta", 0.5, "-lambda", 0.001],
             ["--algo", "bogd", "--budget", 1600, "--eta", 0.5, "--lambda", 0.001, "--seed", 1], 1600),
            ("FOGD (D = 400)", "fogd", ["-opt", "KERNEL-FOGD", "-D", 400, "-eta", 0.5],
             ["--algo", "fogd", "--features", 400, "--eta", 0.5, "--seed", 1], None),
            ("Projectron++", "projectron++", ["-opt", "KERNEL-PROJECTRONPP", "-B", B],
             ["--algo", "projectron++", "--eta", pp_eta, "--eta-convention", "dogma"], B),
        ]
        for label, key, kol, plab, budget in cases:
            if only and key not in only and label not in only:
                continue
            kol_argv = None if kol is None else [str(a) for a in kol] + ["-gamma", f"{g:g}", "-passes", "1"]
            plab_argv = [str(a) for a in plab] + ["--kernel", "rbf", "--gamma", f"{g:g}"]
            rows.append({"label": label, "data": ds, "key": key, "kol": kol_argv, "plab": plab_argv,
                         "budget": budget, "note": NOTES[key]})
    return rows


# ---------------------------------------------------------------------------------------------
# Pure parts (checked by --self-test)

def parse_kol_output(text):
    """KOL's stdout: {'rounds', 'error' (percent), 'support'}; keys missing when not printed."""
    out = {}
    m = re.search(r"#Training Instances:\s*(\d+)", text)
    if m:
        out["rounds"] = int(m.group(1))
    m = re.search(r"Learn acuracy:\s*([-+0-9.eEnaNif]+)%", text)
    if m:
        try:
            out["error"] = 100.0 - float(m.group(1))
        except ValueError:
            pass
    m = re.search(r"#SV:\s*(\d+)", text)
    if m:
        out["support"] = int(m.group(1))
    return out


def parse_plab_summary(obj):
    """plab run --summary's JSON: {'rounds', 'error' (percent), 'support'}."""
    r = obj["results"]
    return {"rounds": r["rounds"], "error": 100.0 * r["mistakes"] / max(1, r["rounds"]),
            "support": r["support_size"], "mistakes": r["mistakes"]}


def pm1_label_line(line):
    """One LIBSVM line with its label rewritten to +1 or -1 (positive -> +1, else -1); None for a blank line."""
    s = line.strip()
    if not s:
        return None
    head, _, rest = s.partition(" ")
    lab = "+1" if float(head) > 0 else "-1"
    rest = rest.strip()
    return lab + (" " + rest if rest else "") + "\n"


def simd_flags(flags):
    """The SIMD extensions among /proc/cpuinfo's flags, in a fixed order."""
    known = ["sse4_2", "avx", "avx2", "fma", "avx512f", "avx512dq", "avx512cd", "avx512bw", "avx512vl",
             "avx512_vnni", "avx512_bf16", "avx512_fp16", "avx512vpopcntdq", "amx_tile"]
    have = set(flags)
    return [f for f in known if f in have]


def plab_simd_path(flags, env):
    """The path plab runs (numerics/simd.cpp): the widest the CPU has, lowered by PLAB_SIMD."""
    order = ["scalar", "avx2", "avx512"]
    best = "avx512" if "avx512f" in flags else "avx2" if ("avx2" in flags and "fma" in flags) else "scalar"
    if env in order and order.index(env) < order.index(best):
        return env
    return best


def fmt_s(x):
    return "–" if x is None else f"{x:.3f}" if x < 10 else f"{x:.2f}"


def summarize(runs):
    """{wall_min, wall_med, cpu_min, errors[]} of a list of {'wall','cpu','error'} runs; None if none ok."""
    ok = [r for r in runs if r.get("ok")]
    if not ok:
        return None
    walls = [r["wall"] for r in ok]
    return {"wall_min": min(walls), "wall_med": statistics.median(walls), "cpu_min": min(r["cpu"] for r in ok),
            "errors": [r["error"] for r in ok if r.get("error") is not None], "n": len(ok),
            "support": ok[-1].get("support"), "rounds": ok[-1].get("rounds")}


def fmt_time_cell(s):
    if s is None:
        return "–"
    return f"{fmt_s(s['wall_min'])} ({fmt_s(s['wall_med'])}; CPU {fmt_s(s['cpu_min'])})"


def fmt_err_cell(s):
    if s is None or not s["errors"]:
        return "–"
    lo, hi = min(s["errors"]), max(s["errors"])
    return f"{lo:.2f}%" if abs(hi - lo) < 0.005 else f"{lo:.2f}–{hi:.2f}%"


def table(rows):
    lines = ["| learner | data | KOL s | plab s | KOL/plab | KOL error | plab error | note |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        k, p = r.get("kol_summary"), r.get("plab_summary")
        ratio = "–"
        if k and p and p["wall_min"] > 0:
            ratio = f"{k['wall_min'] / p['wall_min']:.2f}"
            if p["cpu_min"] > 0:
                ratio += f" (CPU {k['cpu_min'] / p['cpu_min']:.2f})"
        note = r["note"]
        if r.get("kol") is not None and k is None:
            note = "KOL failed: " + r.get("kol_failure", "no successful run") + "; " + note
        if p is None:
            note = "plab failed: " + r.get("plab_failure", "no successful run") + "; " + note
        # KOL's NOGD restarts its printed round count at the switch (`curIterNum = 1`, kernel_nogd.h).
        if k and p and k.get("rounds") and p.get("rounds") and k["rounds"] != p["rounds"] and r.get("key") != "nogd":
            note = f"rounds differ (KOL {k['rounds']}, plab {p['rounds']}); " + note
        lines.append(f"| {r['label']} | {r['data']} | {fmt_time_cell(k)} | {fmt_time_cell(p)} | {ratio} | "
                     f"{fmt_err_cell(k)} | {fmt_err_cell(p)} | {note} |")
    return "\n".join(lines)


def markers(simd_env):
    tag = "bench-peers" + (f"-{simd_env}" if simd_env else "")
    return f"<!-- {tag}:begin -->", f"<!-- {tag}:end -->"


def splice(text, block, simd_env):
    """text with `block` between this run's markers: replaced when they are there, else added at the end of
    the section SECTION (which is appended to the file when missing)."""
    begin, end = markers(simd_env)
    m = re.search(re.escape(begin) + r".*?" + re.escape(end), text, re.S)
    new = f"{begin}\n{block.rstrip()}\n{end}"
    if m:
        return text[:m.start()] + new + text[m.end():]
    if SECTION not in text:
        return text.rstrip("\n") + f"\n\n{SECTION}\n\n{new}\n"
    # After the section's last bench-peers block, or at its end (the section runs to the next "## " heading).
    start = text.index(SECTION)
    nxt = re.search(r"^## ", text[start + len(SECTION):], re.M)
    stop = start + len(SECTION) + nxt.start() if nxt else len(text)
    body = text[start:stop].rstrip("\n")
    return text[:start] + body + f"\n\n{new}\n" + ("\n" + text[stop:] if nxt else "")


def self_test():
    kol_out = ("--------------------------------------------------\nAlgorithm:  kernel_perceptron\n0\t10000\t"
               "20000\t30000\t\n#Training Instances:32561\nLearn acuracy: 79.453949%\n#SV:6691\n"
               "Learning time: 8.963379 s\n")
    k = parse_kol_output(kol_out)
    assert k["rounds"] == 32561 and k["support"] == 6691 and abs(k["error"] - 20.546051) < 1e-6, k
    assert parse_kol_output("garbage") == {}
    p = parse_plab_summary({"results": {"rounds": 32561, "mistakes": 6691, "support_size": 6691}})
    assert abs(p["error"] - 20.549) < 1e-3 and p["support"] == 6691
    assert pm1_label_line("-1.0 1:0.5 13:0.0 \n") == "-1 1:0.5 13:0.0\n"
    assert pm1_label_line("1.0 3:1\n") == "+1 3:1\n" and pm1_label_line("+1\n") == "+1\n"
    assert pm1_label_line("0 2:1") == "-1 2:1\n" and pm1_label_line("  \n") is None
    assert simd_flags(["fpu", "avx2", "sse4_2", "fma", "avx512f"]) == ["sse4_2", "avx2", "fma", "avx512f"]
    assert plab_simd_path(["avx2", "fma", "avx512f"], None) == "avx512"
    assert plab_simd_path(["avx2", "fma", "avx512f"], "avx2") == "avx2"
    assert plab_simd_path(["avx2", "fma"], "avx512") == "avx2"
    s = summarize([{"ok": True, "wall": 2.0, "cpu": 1.9, "error": 20.0, "rounds": 5},
                   {"ok": True, "wall": 1.0, "cpu": 1.0, "error": 20.0, "rounds": 5},
                   {"ok": False}])
    assert s["wall_min"] == 1.0 and s["wall_med"] == 1.5 and fmt_err_cell(s) == "20.00%"
    assert fmt_time_cell(s) == "1.000 (1.500; CPU 1.000)"
    rows = [{"label": "RBP", "data": "a9a", "note": "n", "kol": ["x"], "kol_summary": s, "plab_summary": s},
            {"label": "PA-I", "data": "a9a", "note": "m", "kol": None, "plab_summary": s}]
    t = table(rows)
    assert "| RBP | a9a | 1.000 (1.500; CPU 1.000) | 1.000 (1.500; CPU 1.000) | 1.00 (CPU 1.00) | 20.00% | 20.00% | n |" in t, t
    assert "| PA-I | a9a | – | 1.000 (1.500; CPU 1.000) | – | – | 20.00% | m |" in t, t
    assert all("|" not in n for n in NOTES.values()), "a | in a note breaks the Markdown table"
    doc = "# Performance\n\nintro\n\n## a9a\n\ntable\n"
    d1 = splice(doc, "T1", None)
    assert d1.endswith(f"{SECTION}\n\n<!-- bench-peers:begin -->\nT1\n<!-- bench-peers:end -->\n"), d1
    d2 = splice(d1, "T2", "avx2")
    assert d2.index("bench-peers:end") < d2.index("bench-peers-avx2:begin") and d2.endswith("avx2:end -->\n"), d2
    d3 = splice(d2, "T1b", None)
    assert "T1b" in d3 and "T1\n" not in d3 and "T2" in d3 and d3.count(SECTION) == 1
    d4 = splice(doc + f"\n{SECTION}\n\nhow-to\n\n## Later\n\nx\n", "T", None)
    assert d4.index("how-to") < d4.index("bench-peers:begin") < d4.index("## Later"), d4
    print("bench_peers.py: self-test passed")


# ---------------------------------------------------------------------------------------------
# Side effects

def log(msg):
    print(f"bench_peers: {msg}", file=sys.stderr, flush=True)


def cpuinfo():
    """The first CPU's model name with its family and model numbers (a virtual machine may name it only
    "AMD EPYC"), and its flags."""
    fields, flags = {}, []
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "flags" and not flags:
                    flags = value.split()
                elif key in ("model name", "cpu family", "model"):
                    fields.setdefault(key, value.strip())
    except OSError:
        pass
    model = fields.get("model name", "unknown CPU")
    if "cpu family" in fields and "model" in fields:
        model += f" (family {fields['cpu family']}, model {fields['model']})"
    return model, flags


def git(cwd, *args):
    try:
        r = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    except OSError:
        return ""
    return r.stdout.strip() if r.returncode == 0 else ""


def kol_sources(kol, build_dir):
    """(source dir, commit or None). A bare git directory (no work tree) is exported with git archive."""
    kol = os.path.abspath(kol)
    if os.path.isfile(os.path.join(kol, "CMakeLists.txt")):
        return kol, (git(kol, "rev-parse", "HEAD") or None)
    if git(kol, "rev-parse", "--is-bare-repository") == "true" or os.path.isfile(os.path.join(kol, "HEAD")):
        commit = git(kol, "--git-dir", kol, "rev-parse", "HEAD")
        if commit:
            src = os.path.join(build_dir, "src")
            shutil.rmtree(src, ignore_errors=True)
            os.makedirs(src)
            archive = subprocess.run(["git", "--git-dir", kol, "archive", "HEAD"], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", src], input=archive.stdout, check=True)
            return src, commit
    sys.exit(f"bench_peers: {kol} is neither a KOL checkout (no CMakeLists.txt) nor a git directory")


def eigen_dir():
    # KOL's sources say `#include <Eigen>`: the include directory is Eigen's own folder.
    for d in ("/usr/include/eigen3/Eigen", "/usr/local/include/eigen3/Eigen"):
        if os.path.isfile(os.path.join(d, "Eigen")):
            return d
    sys.exit("bench_peers: Eigen not found (Debian: apt-get install libeigen3-dev), or pass --eigen DIR/Eigen")


def build_kol(src, build_dir, eigen, cxxflags, jobs):
    bdir = os.path.join(build_dir, "build")
    os.makedirs(bdir, exist_ok=True)
    cfg = ["cmake", "-S", src, "-B", bdir, f"-DEIGEN_DIR={eigen}", "-DCMAKE_POLICY_VERSION_MINIMUM=3.5",
           "-Wno-dev", "-Wno-deprecated"]
    if cxxflags:
        cfg.append(f"-DCMAKE_CXX_FLAGS={cxxflags}")
    for cmd in (cfg, ["cmake", "--build", bdir, "--target", "KOL", "-j", str(jobs)]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"bench_peers: building KOL failed: {' '.join(cmd)}\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}")
    exe = os.path.join(bdir, "bin", "KOL")
    if not os.access(exe, os.X_OK):
        sys.exit(f"bench_peers: the KOL build left no {exe}")
    return exe


def find_dataset(plab, name):
    """The training file of a registered data set, as plab resolves it on its data search path."""
    r = subprocess.run([plab, "datasets", "--no-verify", name], capture_output=True, text=True)
    line = next((l for l in r.stdout.splitlines() if l.split()[:1] == [name]), "")
    if r.returncode != 0 or not line or "MISSING" in line:
        sys.exit(f"bench_peers: `plab datasets {name}` does not find it on the data search path "
                 f"(PLAB_DATA):\n{r.stdout}{r.stderr}")
    # `plab run` names the file it loads ("registered data set 'a9a' (PATH)"); one round is enough.
    r = subprocess.run([plab, "run", "--algo", "perceptron", "--data", name, "--limit", "1", "--no-bounds",
                        "--threads", "1"], capture_output=True, text=True)
    m = re.search(r"registered data set '" + re.escape(name) + r"' \((.*)\)", r.stderr)
    if not m or not os.path.isfile(m.group(1)):
        sys.exit(f"bench_peers: could not learn the file of {name} from plab:\n{r.stderr}")
    return m.group(1)


def uncompressed_pm1(path, dest):
    """Writes the uncompressed file with labels +1/-1; returns (rows, positives)."""
    opener = {".xz": lzma.open, ".bz2": bz2.open, ".gz": gzip.open}.get(os.path.splitext(path)[1], open)
    rows = pos = 0
    with opener(path, "rt") as f, open(dest, "w") as out:
        for line in f:
            s = pm1_label_line(line)
            if s is None:
                continue
            out.write(s)
            rows += 1
            pos += s.startswith("+")
    return rows, pos


TIMEOUT = 1800.0  # seconds a run may take (--timeout)


def timed(argv, stdout_path):
    """Runs argv; (exit code, wall s, user+sys CPU s). A run past TIMEOUT is killed (exit -9)."""
    with open(stdout_path, "w") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
        killer = threading.Timer(TIMEOUT, proc.kill)
        killer.start()
        try:
            _, status, ru = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, wall, ru.ru_utime + ru.ru_stime


def run_kol(kol, argv, data, tmp):
    log_path = os.path.join(tmp, "kol.out")
    rc, wall, cpu = timed([kol, "-i", data, *argv], log_path)
    with open(log_path, errors="replace") as f:
        text = f.read()
    res = {"ok": rc == 0, "wall": wall, "cpu": cpu, **parse_kol_output(text)}
    if rc != 0 or "error" not in res:
        res["ok"] = False
        res["failure"] = f"exit {rc}: " + " ".join(text.strip().splitlines()[-2:])[:200]
    return res


def run_plab(plab, argv, data, tmp, threads):
    summary = os.path.join(tmp, "plab_summary.json")
    if os.path.exists(summary):
        os.remove(summary)
    log_path = os.path.join(tmp, "plab.out")
    rc, wall, cpu = timed([plab, "run", *argv, "--data", data, "--format", "libsvm", "--no-bounds", "--quiet",
                           "--threads", str(threads), "--summary", summary], log_path)
    res = {"ok": rc == 0, "wall": wall, "cpu": cpu}
    if rc == 0:
        with open(summary) as f:
            obj = json.load(f)
        res.update(parse_plab_summary(obj))
        res["git"] = obj.get("git")
    else:
        with open(log_path, errors="replace") as f:
            res["failure"] = f"exit {rc}: " + " ".join(f.read().strip().splitlines()[-2:])[:200]
    return res


def render(m, rows):
    """The block between the markers: how it was measured, then the table."""
    kol_rev = f"`{m['kol_commit'][:12]}`" if m.get("kol_commit") else "(not a git checkout)"
    env = m.get("simd_env")
    text = (
        f"Measured on {m['when']} by `{m['command']}`, plab built from commit `{m['plab_commit']}`, against KOL "
        f"commit {kol_rev} (built with {m['kol_flags']}), on the CPU {m['cpu']} ({m['cpus']} logical CPUs; SIMD "
        f"flags {', '.join(m['simd_flags']) or 'none'}). plab ran its **{m['simd_path']}** path "
        f"({'PLAB_SIMD=' + env if env else 'PLAB_SIMD unset'}) on {m['plab_threads']} learning thread(s) (`--threads`; "
        "it reads the file on another thread while it learns and takes its checksum on a third where the machine has a core for it, docs/inputs.md#read-while-learning, "
        "and its CPU time counts them), built as `make build` "
        "builds it (Release, `-O3 -march=x86-64-v3`); KOL is single-threaded. "
        f"Load average (1, 5, 15 min) {' '.join(m['load_before'])} before, {' '.join(m['load_after'])} after"
        + (": above the cores, other work shared them, so wall times are inflated and CPU times are the "
           "steadier numbers. " if float(m["load_before"][0]) > (m["cpus"] or 1) - 0.5 else ". ") +
        f"{m['repeats']} runs of each program, alternating; seconds are the whole process's: minimum wall time "
        "(median wall time; minimum user+sys CPU time). KOL/plab is the ratio of the minimum wall times (of the "
        "minimum CPU times). Errors are the online (mistake) rates of the one pass; a range when the runs differ. "
        "Both read the same uncompressed copy of each file with the labels written as +1/-1 integers "
        "(KOL parses the label as an integer and stops at ijcnn1's `-1.0`). One pass in file order (KOL has "
        "no permutation; `-passes 1`); Gaussian kernel exp(-γ‖x - x'‖²) with KOL's `-gamma` = γ "
        "(its kernel in `src/kernel/kernel_optim.h` multiplies the squared distance by it; its help calls it "
        "sigma), a9a γ = 0.04, B = 793; ijcnn1 γ = 8, B = 400; η = 0.5, λ = 0.001, C = 1, k = 20, D = 400 on "
        "both sides."
    )
    return text + "\n\n" + table(rows)


def write_doc(out, meta, rows):
    doc = "# Performance\n"
    if os.path.exists(out):
        with open(out) as f:
            doc = f.read()
    with open(out, "w") as f:
        f.write(splice(doc, render(meta, rows), meta.get("simd_env")))
    log(f"wrote {out} between {' ... '.join(markers(meta.get('simd_env')))}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kol", help="KOL checkout (or its git directory)")
    ap.add_argument("--plab", default="build/plab")
    ap.add_argument("--build-dir", default="build/kol", help="KOL's build folder (and results.json)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--out", default="docs/performance.md")
    ap.add_argument("--only", help="comma-separated learner keys or row labels (default: all)")
    ap.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated (default: a9a,ijcnn1)")
    ap.add_argument("--plab-threads", type=int, default=1, help="plab run --threads (KOL is single-threaded)")
    ap.add_argument("--eigen", help="Eigen's include folder DIR/Eigen (default: Debian's)")
    ap.add_argument("--kol-cxxflags", default="", help="CMAKE_CXX_FLAGS for KOL (default: its CMakeLists' own)")
    ap.add_argument("--jobs", type=int, default=1, help="build jobs for KOL")
    ap.add_argument("--command", default=None, help="the command line to name in the doc")
    ap.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds one run may take (then killed)")
    ap.add_argument("--render", metavar="RESULTS_JSON",
                    help="no runs: write the table of an earlier run's results.json (notes as in this script)")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    globals()["TIMEOUT"] = a.timeout
    if a.self_test:
        self_test()
        return
    if a.render:
        with open(a.render) as f:
            res = json.load(f)
        rows = res.pop("rows")
        for r in rows:
            r["note"] = NOTES[r["key"]]
        write_doc(a.out, res, rows)
        return
    if not a.kol:
        ap.error("--kol is required")
    if not os.access(a.plab, os.X_OK):
        sys.exit(f"bench_peers: no plab at {a.plab} (make build)")
    plab = os.path.abspath(a.plab)
    build_dir = os.path.abspath(a.build_dir)
    os.makedirs(build_dir, exist_ok=True)
    simd_env = os.environ.get("PLAB_SIMD") or None

    src, commit = kol_sources(a.kol, build_dir)
    log(f"building KOL from {src}" + (f" (commit {commit[:12]})" if commit else " (not a git checkout)"))
    kol = build_kol(src, build_dir, a.eigen or eigen_dir(), a.kol_cxxflags, a.jobs)
    model, flags = cpuinfo()
    path = plab_simd_path(flags, simd_env)
    only = set(s.strip() for s in a.only.split(",")) if a.only else None
    wanted = [d.strip() for d in a.datasets.split(",") if d.strip()]
    for d in wanted:
        if d not in DATASETS:
            sys.exit(f"bench_peers: unknown data set {d} (known: {', '.join(DATASETS)})")
    rows = [r for r in learner_cases(only) if r["data"] in wanted]
    if not rows:
        sys.exit("bench_peers: no learner selected")

    load_before = open("/proc/loadavg").read().split()[:3]
    with tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp:
        files = {}
        for d in wanted:
            orig = find_dataset(plab, d)
            dest = os.path.join(tmp, f"{d}.libsvm")
            n, pos = uncompressed_pm1(orig, dest)
            files[d] = dest
            log(f"{d}: {orig} -> {n} rows ({pos} positive), labels written +1/-1")
        for r in rows:
            kol_runs, plab_runs = [], []
            for i in range(a.repeats):
                if r["kol"] is not None:
                    kol_runs.append(run_kol(kol, r["kol"], files[r["data"]], tmp))
                plab_runs.append(run_plab(plab, r["plab"], files[r["data"]], tmp, a.plab_threads))
            r["kol_runs"], r["plab_runs"] = kol_runs, plab_runs
            r["kol_summary"], r["plab_summary"] = summarize(kol_runs), summarize(plab_runs)
            for side, runs in (("kol", kol_runs), ("plab", plab_runs)):
                bad = [x for x in runs if not x["ok"]]
                if bad:
                    r[f"{side}_failure"] = bad[0].get("failure", "failed")
            k, p = r["kol_summary"], r["plab_summary"]
            log(f"{r['label']:<18} {r['data']:<7} KOL {fmt_time_cell(k):<28} plab {fmt_time_cell(p):<28} "
                f"errors {fmt_err_cell(k)} / {fmt_err_cell(p)}")
    load_after = open("/proc/loadavg").read().split()[:3]

    # The commit plab was built from, as it says in its summaries (`-dirty`: with uncommitted changes).
    rev = next((x["git"] for r in rows for x in r["plab_runs"] if x.get("git")), None) or "unknown"
    command = a.command or ("make bench-peers KOL=<checkout>" + (f" REPEATS={a.repeats}" if a.repeats != 5 else ""))
    if simd_env and not command.startswith("PLAB_SIMD"):
        command = f"PLAB_SIMD={simd_env} {command}"
    meta = {"when": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": command, "plab_commit": rev, "kol_commit": commit,
            "kol_flags": a.kol_cxxflags or "its CMakeLists' own flags, `-O2`", "cpu": model,
            "cpus": os.cpu_count(), "simd_flags": simd_flags(flags), "simd_path": path, "simd_env": simd_env,
            "plab_threads": a.plab_threads, "load_before": load_before, "load_after": load_after,
            "repeats": a.repeats}
    with open(os.path.join(build_dir, "results.json" if not simd_env else f"results-{simd_env}.json"), "w") as f:
        json.dump({**meta, "rows": rows}, f, indent=1, default=str)
    write_doc(a.out, meta, rows)
    print(table(rows))


if __name__ == "__main__":
    main()
