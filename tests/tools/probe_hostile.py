#!/usr/bin/python3
"""Hostile-input probe: every case runs plab (or Python) under a time and memory limit and prints
case, exit code, peak RSS and a verdict. Re-runnable from a built tree:

    /usr/bin/python3 tests/tools/probe_hostile.py BUILD_DIR [DATA_DIR]

BUILD_DIR holds plab and python/ (the module); DATA_DIR is a data search directory holding a9a
(default ../shared/datasets, as plab's own search path). Exit status: the number of failed cases.
It takes a few minutes (not a ctest); the fast cases are ctests (test_no_silent_failures, ...).
"""
import hashlib
import json
import os
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

BUILD = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
DATA = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "../shared/datasets")
PLAB = os.path.join(BUILD, "plab")
WORK = tempfile.mkdtemp(prefix="plab-probe-")
GIB = 1 << 30
ENV = dict(os.environ, PLAB_DATA=DATA, PYTHONPATH=os.path.join(BUILD, "python"), TMPDIR=WORK)
failures = []


def path(name):
    return os.path.join(WORK, name)


def execute(cmd, *, stdin=None, mem=4 * GIB, timeout=60, signal_after=None, sig=None):
    """Runs `cmd` (a shell line) under RLIMIT_AS = mem; returns (rc, output, peak RSS MiB, seconds).
    rc is -N for a signal."""
    def limits():
        if mem:
            resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        os.setsid()
    t0 = time.time()
    p = subprocess.Popen(["/bin/bash", "-c", cmd], stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=WORK, env=ENV, preexec_fn=limits)
    if stdin is not None:
        try:
            p.stdin.write(stdin)
            p.stdin.close()
        except BrokenPipeError:
            pass
    deadline = t0 + timeout
    if signal_after is not None:
        time.sleep(signal_after)
        os.killpg(p.pid, sig)
    out = b""
    os.set_blocking(p.stdout.fileno(), False)
    while True:
        chunk = p.stdout.read()
        if chunk:
            out += chunk[: max(0, 20000 - len(out))]
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            # The shell may end before its children: a signalled bash dies at once while a niced
            # plab still runs its cleanup. What a case checks afterwards (a temporary file removed)
            # is only settled once every process of the group has exited.
            wait_group(p.pid, deadline)
            rest = p.stdout.read() or b""
            out += rest[: max(0, 20000 - len(out))]
            rc = os.waitstatus_to_exitcode(status)
            return rc, out.decode(errors="replace"), ru.ru_maxrss / 1024.0, time.time() - t0
        if time.time() > deadline:
            os.killpg(p.pid, signal.SIGKILL)
            pid, status, ru = os.wait4(p.pid, 0)
            return 124, out.decode(errors="replace"), ru.ru_maxrss / 1024.0, time.time() - t0
        time.sleep(0.02)


def wait_group(pgid, deadline):
    """Waits until no process of group pgid is left (killed with SIGKILL past the deadline)."""
    while True:
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return
        if time.time() > deadline:
            os.killpg(pgid, signal.SIGKILL)
        time.sleep(0.02)


def case(name, cmd, ok, **kw):
    """ok(rc, output) -> "" when the behaviour is right, else what is wrong."""
    rc, out, rss, secs = execute(cmd, **kw)
    crashed = rc < 0 and rc not in (-signal.SIGINT, -signal.SIGTERM, -signal.SIGHUP, -signal.SIGPIPE)
    why = "crashed (signal %d)" % -rc if crashed else ("timed out" if rc == 124 else ok(rc, out))
    verdict = "ok" if not why else "FAIL: " + why
    if why:
        failures.append(name)
    last = [l for l in out.strip().splitlines() if l.strip()]
    print(f"{name:28s} rc={rc:4d} rss={rss:8.1f} MiB {secs:6.1f} s  {verdict}")
    if last:
        print("    " + last[-1][:220])
    return rc, out


def refused(*pieces, rc=2):
    def check(code, out):
        if code != rc:
            return f"exit {code}, expected {rc}"
        missing = [p for p in pieces if p not in out]
        return "message lacks " + repr(missing) if missing else ""
    return check


def succeeds(*pieces, absent=()):
    def check(code, out):
        if code != 0:
            return f"exit {code}"
        missing = [p for p in pieces if p not in out]
        bad = [p for p in absent if p in out]
        return ("lacks " + repr(missing) if missing else "") + ("has " + repr(bad) if bad else "")
    return check


def not_silent(*forbidden, need_any=()):
    """Either refused (exit != 0, no crash) or says one of need_any; never prints a forbidden piece."""
    def check(code, out):
        bad = [p for p in forbidden if p in out]
        if bad:
            return "printed " + repr(bad)
        if code == 0 and need_any and not any(p in out for p in need_any):
            return "exit 0 without " + repr(need_any)
        return ""
    return check


# ---- model-file editing with a valid checksum (docs/models.md#format-1) ----
def read_model(p):
    raw = open(p, "rb").read()
    nl = raw.index(b"\n")
    body = raw[nl + 1:]
    hl = body.index(b"\n")
    header = json.loads(body[:hl])
    arrays, pos, blob = {}, 0, body[hl + 1:]
    size = {"d": 8, "i": 8, "u": 8, "w": 4}
    for name, typ, count in header["arrays"]:
        arrays[name] = [typ, bytearray(blob[pos:pos + size[typ] * count])]
        pos += size[typ] * count
    return header, arrays


def write_model(p, header, arrays):
    header = dict(header)
    header["arrays"] = [[n, t, len(b) // (4 if t == "w" else 8)] for n, (t, b) in arrays.items()]
    body = json.dumps(header, separators=(",", ":")).encode() + b"\n" + b"".join(bytes(b) for _, b in arrays.values())
    first = b"plab-model format 1 bytes %d sha256 %s\n" % (len(body), hashlib.sha256(body).hexdigest().encode())
    open(p, "wb").write(first + body)


def edited(src, dst, edit):
    h, a = read_model(src)
    edit(h, a)
    write_model(dst, h, a)
    return dst


def set_double(a, name, i, v):
    struct.pack_into("<d", a[name][1], 8 * i, v)


def a9a_rows(n, test=False):
    out = subprocess.run(f"xz -dc {DATA}/a9a/a9a{'.t' if test else ''}.xz | head -{n}", shell=True,
                         capture_output=True, check=True).stdout
    return out


def py(code):
    f = path("case_%d.py" % abs(hash(code)))
    open(f, "w").write("import numpy as np, scipy.sparse as sp, perceptron_lab as pl\n" + code)
    return f"/usr/bin/python3 {f}"


def main():
    if not os.access(PLAB, os.X_OK):
        sys.exit(f"no plab in {BUILD}: build first")
    print(f"plab {PLAB}, data {DATA}, work {WORK}")
    print("== 1. silent wrong answers")
    open(path("big.svm"), "w").write("".join(f"{'+1' if i % 2 else '-1'} 1:1e110 5:-1e110 9:1e110\n" for i in range(10)))
    case("kernel_poly_model", f"{PLAB} run --algo kernel-perceptron --kernel poly --degree 3 --gamma 1 --data a9a "
         f"--limit 300 --quiet --no-bounds --save-model {path('poly.model')}", succeeds())
    case("nan_scores_predict", f"{PLAB} predict --model {path('poly.model')} --data {path('big.svm')} >/dev/null",
         not_silent("error 0.0000%", need_any=("no finite score",)))
    case("nan_scores_run_test", f"{PLAB} run --algo kernel-perceptron --kernel poly --degree 3 --gamma 1 --data a9a "
         f"--limit 300 --no-bounds --test {path('big.svm')}", not_silent("test error 0.0000%", need_any=("no finite",)))
    case("nan_scores_sklearn", py(
        "from perceptron_lab.sklearn import OnlineKernelClassifier as C\n"
        "X=np.zeros((40,3)); X[:,0]=np.r_[np.ones(20),-np.ones(20)]; y=np.r_[np.ones(20),-np.ones(20)]\n"
        "c=C(algo='kernel-perceptron',kernel='poly',degree=3,gamma=1).fit(X,y)\n"
        "B=np.full((10,3),1e110); B[:,1]=-1e110\n"
        "s=c.score(B,np.ones(10)); print('score', s); assert s <= 0.5, s\n"), not_silent(need_any=("score",)))
    case("linear_model", f"{PLAB} run --algo kernel-perceptron --data a9a --limit 200 --quiet --no-bounds "
         f"--save-model {path('k.model')}", succeeds())
    case("model_nan_alpha", f"{PLAB} predict --model " + edited(path("k.model"), path("nan.model"),
         lambda h, a: set_double(a, "f.alpha", 0, float("nan"))) + f" --data {path('big.svm')}",
         refused("nan.model", "f.alpha"))
    case("model_degree_2^40", f"{PLAB} model show " + edited(path("poly.model"), path("deg.model"),
         lambda h, a: h["kernel"].__setitem__("degree", 2 ** 40)) + " >/dev/null", refused("deg.model", "degree"))
    case("budget_model", f"{PLAB} run --algo stoptron --budget 30 --kernel rbf --data a9a --limit 300 --quiet "
         f"--no-bounds --save-model {path('b.model')}", succeeds())
    case("model_budget_1_of_30", f"{PLAB} run --init-model " + edited(path("b.model"), path("b1.model"),
         lambda h, a: h["options"].__setitem__("budget", 1)) + " --data a9a --limit 10 --quiet --no-bounds",
         refused("b1.model", "budget"))
    case("model_sv_sq_edited", f"{PLAB} predict --model " + edited(path("k.model"), path("sq.model"),
         lambda h, a: set_double(a, "f.sv.sq", 0, 99.0)) + f" --data {path('big.svm')}", refused("sq.model", "f.sv.sq"))
    case("averaged_model", f"{PLAB} run --algo averaged-perceptron --data a9a --limit 100 --quiet --no-bounds "
         f"--save-model {path('avg.model')}", succeeds())
    case("model_averaged_T_0", f"{PLAB} predict --model " + edited(path("avg.model"), path("t0.model"),
         lambda h, a: struct.pack_into("<q", a["T"][1], 0, 0)) + f" --data {path('big.svm')}", refused("t0.model", "T"))
    case("model_rounds_2^63-5", f"{PLAB} run --init-model " + edited(path("k.model"), path("r63.model"),
         lambda h, a: h.__setitem__("rounds", 2 ** 63 - 5)) + " --data a9a --limit 10 --quiet --no-bounds",
         refused("r63.model", "rounds"))
    cut = a9a_rows(49, test=True) + b"+1 3:1 10:0."
    case("stream_cut_mid_line", f"{PLAB} run --algo perceptron --data - --no-bounds", not_silent(
        need_any=("no newline", "cut")), stdin=cut)
    case("py_duplicate_column", py(
        "l=pl.Learner('kernel-perceptron',dim=4)\n"
        "x=sp.csr_matrix((np.array([2.,1.]),np.array([1,1]),np.array([0,2])),shape=(1,4))\n"
        "try:\n r=l.learn_one(x,1); print('kxx', r['kxx']); assert r['kxx']==9, r\n"
        "except (ValueError, pl.DataError) as e: print('refused:', e)\n"), not_silent(need_any=("kxx 9", "refused")))
    case("py_complex_x", py("pl.run('perceptron', np.ones((4,2))*(1+1j), np.array([1,-1,1,-1]))\n"),
         not_silent(need_any=("complex",)))
    case("py_degree_2.9", py("pl.run('kernel-perceptron', np.eye(4), np.array([1,-1,1,-1]), kernel='poly', degree=2.9)\n"),
         not_silent(need_any=("degree",)))
    case("py_classes_1_1_2", py("pl.Learner('multiclass-perceptron', dim=3, classes=[1,1,2])\n"),
         not_silent(need_any=("classes",)))
    three = "1 1:1 2:0.1\n2 1:-1 2:0.2\n3 2:1\n1 1:0.9\n2 1:-0.8 2:0.1\n3 1:0 2:1.2\n1 1:1.1\n2 1:-1.2\n3 2:0.9\n"
    open(path("three.svm"), "w").write(three)
    rc, _ = case("multiclass_trace", f"{PLAB} run --algo multiclass-perceptron --data {path('three.svm')} --quiet "
                 f"--trace {path('mc.csv')}", succeeds())
    lines = open(path("mc.csv")).read().splitlines()
    cols = lines[1].split(",")
    for i in range(2, len(lines)):
        c = lines[i].split(",")
        if c[cols.index("mistake")] == "0":
            c[cols.index("pred")] = "0" if c[cols.index("y")] != "0" else "1"
            lines[i] = ",".join(c)
            break
    open(path("mc_pred.csv"), "w").write("\n".join(lines) + "\n")
    case("multiclass_trace_pred!=y", f"{PLAB} bounds --trace {path('mc_pred.csv')}", refused("mc_pred.csv", "column 'pred'"))
    case("projectron++_trace", f"{PLAB} run --algo projectron++ --kernel rbf --gamma 1 --eta 0.3 "
         f"--data synthetic:dekel:n=400,seed=2 --quiet --trace {path('pp.csv')}", succeeds())
    pp = open(path("pp.csv")).read().splitlines()
    meta = json.loads(pp[0][2:])
    meta["algo"] = "perceptron"
    open(path("pp_as_p.csv"), "w").write("\n".join(["# " + json.dumps(meta)] + pp[1:]) + "\n")
    case("projectron++_as_perceptron", f"{PLAB} bounds --trace {path('pp_as_p.csv')}",
         refused("pp_as_p.csv", "column 'update'"))

    print("== 2. crashes and unbounded resources")
    case("threads_200_ulimit_1GB", f"{PLAB} run --algo perceptron --data a9a --limit 2000 --threads 200 --no-bounds "
         "--quiet", lambda rc, out: "" if rc in (0, 2) else f"exit {rc}", mem=1000000 * 1024)
    case("py_threads_1024_6GB", py("r=pl.run('perceptron', np.eye(8), np.array([1,-1]*4), threads=1024, bounds=False)\n"
                                   "print('mistakes', r.mistakes)\n"), lambda rc, out: "" if rc in (0, 1) else f"exit {rc}",
         mem=6 * GIB)
    case("py_threads_10^6", py("pl.run('perceptron', np.eye(8), np.array([1,-1]*4), threads=10**6, bounds=False)\n"),
         not_silent(need_any=("threads",)))
    open(path("wide.svm"), "w").write("+1 1:1\n-1 2147483648:1\n")
    case("primal_model", f"{PLAB} run --algo perceptron --data a9a --limit 100 --quiet --no-bounds "
         f"--save-model {path('p.model')}", succeeds())
    case("index_2^31_predict", f"{PLAB} predict --model {path('p.model')} --data {path('wide.svm')} >/dev/null",
         lambda rc, out: "" if rc == 0 else f"exit {rc}", mem=2 * GIB)
    case("index_2^31_init_model", f"{PLAB} run --init-model {path('p.model')} --data {path('wide.svm')} --quiet "
         "--no-bounds", refused("wide.svm: row 2", "feature index 2147483648", "16.0 GiB"), mem=2 * GIB)
    case("index_2^31_run", f"{PLAB} run --algo perceptron --data {path('wide.svm')} --quiet --no-bounds",
         refused("wide.svm: row 2", "feature index 2147483648"), mem=2 * GIB)
    case("index_2^31_stream", f"{PLAB} run --algo perceptron --data - --quiet --no-bounds",
         refused("<stdin>: row 2", "feature index 2147483648"), mem=2 * GIB, stdin=b"+1 1:1\n-1 2147483648:1\n")
    h, a = read_model(path("p.model"))
    h["dim"] = 2 ** 27
    write_model(path("dim27.model"), h, a)
    case("py_load_model_dim_2^27", py(f"l=pl.load_model({path('dim27.model')!r}); print('loaded')\n"),
         succeeds("loaded"), mem=1 * GIB)
    case("model_show_/dev/zero", f"{PLAB} model show /dev/zero", refused("/dev/zero"), mem=1 * GIB, timeout=20)
    case("predict_model_/dev/zero", f"{PLAB} predict --model /dev/zero --data a9a", refused("/dev/zero"), mem=1 * GIB,
         timeout=20)
    case("py_load_model_/dev/zero", py("pl.load_model('/dev/zero')\n"), not_silent(need_any=("/dev/zero",)),
         mem=1 * GIB, timeout=20)
    case("stdin_/dev/zero", f"{PLAB} run --algo perceptron --data - --no-bounds < /dev/zero",
         refused("longer than 64 MiB"), mem=1 * GIB, timeout=60)
    with open(path("labels1m.svm"), "w") as f:
        for i in range(1000000):
            f.write(f"{i} 1:{(i % 97) / 97:.3f} 2:{(i % 89) / 89:.3f}\n")
    case("labels_1M_limit_100", f"{PLAB} run --algo multiclass-perceptron --data {path('labels1m.svm')} --limit 100 "
         "--quiet", refused("1000000 classes"), timeout=120)
    with open(path("labels20k.svm"), "w") as f:
        for i in range(20000):
            f.write(f"{i} 1:{(i % 97) / 97:.3f} 2:{(i % 89) / 89:.3f}\n")
    case("labels_20k_limit_2000", f"{PLAB} run --algo multiclass-perceptron --data {path('labels20k.svm')} "
         "--limit 2000 --quiet", refused("20000 classes"), timeout=120)

    print("== 3. lost output")
    case("predict_>/dev/full", f"{PLAB} predict --model {path('k.model')} --data {path('big.svm')} > /dev/full",
         lambda rc, out: "" if rc != 0 else "exit 0")
    case("model_show_>/dev/full", f"{PLAB} model show {path('k.model')} > /dev/full",
         lambda rc, out: "" if rc != 0 else "exit 0")
    big = a9a_rows(30000)
    open(path("a9a30k.svm"), "wb").write(big)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        tr = path(f"sig{sig.name}.csv")
        # A writer that stalls after 30k rows: the signal comes while the trace's rows are half written.
        rc, _ = case(f"trace_tmp_after_{sig.name}", f"(cat {path('a9a30k.svm')}; sleep 30) | {PLAB} run --algo "
                     f"kernel-perceptron --kernel rbf --data - --quiet --no-bounds --trace {tr}",
                     lambda rc, out: "" if rc < 0 else f"exit {rc}: the signal came after the run", signal_after=3, sig=sig)
        left = [f for f in os.listdir(WORK) if f.startswith(os.path.basename(tr) + ".rows.tmp")]
        if left:
            failures.append(f"trace_tmp_after_{sig.name}")
            print(f"    FAIL: left {left}")
    rc, _ = case("trace_-_SIGPIPE", f"{PLAB} run --algo kernel-perceptron --kernel rbf --data - --quiet --no-bounds "
                 f"--trace - < {path('a9a30k.svm')} | head -c 100 >/dev/null", lambda rc, out: "")
    left = [f for f in os.listdir(WORK) if f.startswith("plab-trace.rows.tmp")]
    if left:
        failures.append("trace_-_SIGPIPE")
        print(f"    FAIL: left {left}")

    print("== 4. messages")
    case("model_missing", f"{PLAB} predict --model {path('none.model')} --data a9a", refused("none.model"))
    case("init_model_-", f"{PLAB} run --init-model - --data a9a", lambda rc, out: "" if rc == 2 else f"exit {rc}")
    case("model_bad_labels", f"{PLAB} predict --model " + edited(path("k.model"), path("lab.model"),
         lambda h, a: h.__setitem__("labels", "nonsense:")) + " --data a9a", refused("lab.model", "labels"))
    case("model_type_error", f"{PLAB} model show " + edited(path("k.model"), path("typ.model"),
         lambda h, a: h.__setitem__("learner", 5)), refused("typ.model", "learner"))
    case("model_show_escapes", f"{PLAB} model show " + edited(path("k.model"), path("esc.model"),
         lambda h, a: h.__setitem__("code", "\x1b[31m\x07\r")),
         lambda rc, out: "raw ESC/BEL/CR echoed" if any(c in out for c in "\x1b\x07\r") else "")
    case("py_eta_nan", py("pl.run('projectron++', np.eye(4), np.array([1,-1,1,-1]), kernel='rbf', eta=float('nan'))\n"),
         not_silent("parse error", need_any=("eta",)))
    case("py_indptr_decreasing", py(
        "X=sp.csr_matrix((np.ones(2),np.array([0,1]),np.array([0,2,1])),shape=(2,2),copy=False)\n"
        "X.indptr=np.array([0,2,1],dtype=X.indptr.dtype)\n"
        "pl.run('perceptron', X, np.array([1,-1]))\n"), not_silent("_M_default_append", need_any=("indptr",)))
    open(path("wide1.svm"), "w").write("+1 2147483647:1\n-1 1:1\n")
    case("pm1-to-01_index_2^31-1", f"{PLAB} run --algo perceptron --data {path('wide1.svm')} --preprocess pm1-to-01 "
         "--quiet --no-bounds", refused("pm1-to-01", "GiB"), mem=2 * GIB)

    hostile_json_traces_states()

    print(f"{len(failures)} failed: {failures} (inputs kept in {WORK})" if failures else "every case behaved")
    if not failures:
        shutil.rmtree(WORK, ignore_errors=True)
    return len(failures)


def deep_model(src, dst, field, depth=100000):
    """src with header field `field` replaced by a `depth`-deep array, re-signed."""
    h, a = read_model(src)
    write_model(dst, h, a)
    raw = open(dst, "rb").read()
    body = raw[raw.index(b"\n") + 1:]
    hl = body.index(b"\n")
    header = json.loads(body[:hl])
    header[field] = "@@DEEP@@"
    text = json.dumps(header, separators=(",", ":")).replace('"@@DEEP@@"', "[" * depth + "]" * depth).encode()
    body = text + body[hl:]
    open(dst, "wb").write(b"plab-model format 1 bytes %d sha256 %s\n" % (len(body), hashlib.sha256(body).hexdigest().encode())
                          + body)
    return dst


def trace_lines(p):
    return open(p).read().splitlines()


def edited_trace(src, dst, *, meta=None, row=None, col=None, value=None, pick=None):
    """src with metadata keys set (meta: {key: value}, "a/b" for nested) or, on the first row that
    pick(cells) accepts, column col set to value."""
    ls = trace_lines(src)
    m = json.loads(ls[0][2:])
    for k, v in (meta or {}).items():
        d = m
        parts = k.split("/")
        for q in parts[:-1]:
            d = d.setdefault(q, {})
        d[parts[-1]] = v
    ls[0] = "# " + json.dumps(m)
    if col is not None:
        head = ls[1].split(",")
        for i in range(2, len(ls)):
            c = ls[i].split(",")
            row_cells = dict(zip(head, c))
            if pick is None or pick(row_cells):
                c[head.index(col)] = value
                ls[i] = ",".join(c)
                break
    open(dst, "w").write("\n".join(ls) + "\n")
    return dst


def hostile_json_traces_states():
    print("== 5. nesting, budget traces, model states, counts, Python readings")
    deep = "[" * 100000 + "]" * 100000
    dm = deep_model(path("k.model"), path("deep.model"), "labels")
    case("model_show_deep_json", f"{PLAB} model show {dm}", refused("deep.model", "field 'labels'"))
    case("predict_deep_json", f"{PLAB} predict --model {dm} --data {path('big.svm')}", refused("deep.model", "labels"))
    case("init_model_deep_json", f"{PLAB} run --init-model {dm} --data a9a --limit 5 --quiet",
         refused("deep.model", "labels"))
    case("py_load_model_deep_json", py(f"pl.load_model({dm!r})\n"), refused("deep.model", "labels", rc=1))
    case("trace_model", f"{PLAB} run --algo kernel-perceptron --kernel rbf --data a9a --limit 200 --quiet "
         f"--trace {path('kp.csv')}", succeeds())
    ls = trace_lines(path("kp.csv"))
    open(path("deep_meta.csv"), "w").write('# {"notes": ' + deep + ", " + ls[0][3:] + "\n" + "\n".join(ls[1:]) + "\n")
    case("bounds_trace_deep_json", f"{PLAB} bounds --trace {path('deep_meta.csv')}",
         refused("deep_meta.csv:1:", "field 'notes'"))
    os.makedirs(path("deep_specs"), exist_ok=True)
    open(path("deep_specs/D1.json"), "w").write('{"name": ' + deep + "}")
    case("spec_deep_json", f"{PLAB} reproduce --specs {path('deep_specs')} --results {path('deep_results')} --no-plots",
         refused("D1.json", "field 'name'"))

    for algo, extra in (("bogd", "--budget 30"), ("fogd", ""), ("bpa-s", "--budget 30")):
        case(f"trace_{algo}", f"{PLAB} run --algo {algo} {extra} --kernel rbf --data a9a --limit 400 --quiet "
             f"--trace {path(algo + '.csv')}", succeeds())
    b, f, a = path("bogd.csv"), path("fogd.csv"), path("bpa-s.csv")
    step = lambda c: c["tau"] != ""
    traces = {
        "fogd_as_bogd": edited_trace(f, path("t1.csv"), meta={"algo": "bogd", "options/budget": 30}),
        "bogd_as_fogd": edited_trace(b, path("t2.csv"), meta={"algo": "fogd"}),
        "bpa_as_bogd": edited_trace(a, path("t3.csv"), meta={"algo": "bogd", "options": {"budget": 30}}),
        "bogd_tau_x10": edited_trace(b, path("t4.csv"), col="tau", value="5", pick=step),
        "bogd_tau_neg": edited_trace(b, path("t5.csv"), col="tau", value="-0.5", pick=step),
        "bpa_tau_7": edited_trace(a, path("t6.csv"), col="tau", value="7", pick=step),
        "fogd_delta_5": edited_trace(f, path("t7.csv"), col="delta_norm", value="5", pick=step),
        "bogd_delta_neg": edited_trace(b, path("t8.csv"), col="delta_norm", value="-3",
                                       pick=lambda c: c["update"] == "evict"),
        "bogd_kxx_100": edited_trace(b, path("t9.csv"), col="kxx", value="100"),
        "bogd_support_999": edited_trace(b, path("t10.csv"), col="support_size", value="999",
                                         pick=lambda c: c["t"] == "50"),
        "bogd_project_kind": edited_trace(b, path("t11.csv"), col="update", value="project", pick=step),
        "bogd_eta_edited": edited_trace(b, path("t12.csv"), meta={"options/eta": 0.05}),
        "bogd_lambda_edited": edited_trace(b, path("t13.csv"), meta={"options/lambda": 0.1}),
        "bogd_f_norm2_exact": edited_trace(b, path("t14.csv"), meta={"f_norm2_exact": 1e6}),
    }
    for name, p in traces.items():
        case(f"trace_{name}", f"{PLAB} bounds --trace {p}", refused(os.path.basename(p) + ":"))

    case("bogd_model", f"{PLAB} run --algo bogd --budget 10 --kernel rbf --data a9a --limit 200 --quiet --no-bounds "
         f"--save-model {path('bogd.model')}", succeeds())
    case("fogd_model", f"{PLAB} run --algo fogd --features 20 --kernel rbf --data a9a --limit 200 --quiet --no-bounds "
         f"--save-model {path('fogd.model')}", succeeds())
    bm = path("bogd.model")
    states = {
        "gram_diag_1e6": edited(bm, path("g1.model"), lambda h, a: set_double(a, "gram", 0, 1e6)),
        "gram_asym": edited(bm, path("g2.model"), lambda h, a: set_double(a, "gram", 1, 0.123)),
        "gram_zero": edited(bm, path("g3.model"), lambda h, a: a["gram"].__setitem__(1, bytearray(len(a["gram"][1])))),
        "bogd_norm2_-1": edited(bm, path("g4.model"), lambda h, a: set_double(a, "norm2", 0, -1.0)),
        "fogd_norm2_-1": edited(path("fogd.model"), path("g5.model"), lambda h, a: set_double(a, "norm2", 0, -1.0)),
        "rng_zero": edited(bm, path("g6.model"), lambda h, a: a["rng"].__setitem__(1, bytearray(len(a["rng"][1])))),
        "bogd_as_bpa-s": edited(bm, path("g7.model"), lambda h, a: (h.__setitem__("learner", "bpa-s"),
                                                                    h.__setitem__("options", {"budget": 10}))),
        "bogd_as_rbp": edited(bm, path("g8.model"), lambda h, a: (h.__setitem__("learner", "rbp"),
                                                                  h.__setitem__("options", {"budget": 10}))),
    }
    for name, p in states.items():
        case(f"model_{name}", f"{PLAB} model show {p} >/dev/null && {PLAB} predict --model {p} --data {path('big.svm')}",
             refused(os.path.basename(p)))

    case("budget_2^64", f"{PLAB} run --algo rbp --kernel rbf --budget 18446744073709551616 --data a9a --limit 5 --quiet",
         refused("--budget"))
    case("features_2^63+50", f"{PLAB} run --algo fogd --kernel rbf --features 9223372036854775858 --data a9a --limit 5 "
         "--quiet", refused("--features"))
    case("py_features_1e9", py("pl.run('fogd', np.eye(4), np.array([1,-1,1,-1]), kernel='rbf', features=10**9)\n"),
         refused("features", "bytes", rc=1))
    for name, code in {
        "indptr_7": "X.indptr[2] = 7", "indptr_5": "X.indptr[2] = 5", "indptr_-1": "X.indptr[2] = -1",
        "indptr_100": "X.indptr[2] = 100", "indptr_1e8": "X.indptr[2] = 10**8"}.items():
        case(f"py_{name}", py("X = sp.csr_matrix(np.eye(6)); X.indptr = X.indptr.astype(np.int64); " + code + "\n"
                              "pl.run('perceptron', X, np.array([1,-1]*3))\n"), refused("X.indptr", rc=1))
        case(f"py_sklearn_{name}", py("from perceptron_lab.sklearn import OnlineKernelClassifier as C\n"
                                      "X = sp.csr_matrix(np.eye(6)); X.indptr = X.indptr.astype(np.int64); " + code + "\n"
                                      "C().fit(X, np.array([1,-1]*3))\n"), refused("X.indptr", rc=1))
    for name, code in {
        "learn_one_str": "pl.Learner('perceptron', dim=3).learn_one({1: '2.5'}, 1)",
        "learn_one_complex_row": "pl.Learner('perceptron', dim=3).learn_one(sp.csr_matrix(np.array([[1j, 0, 0]])), 1)",
        "bounds_f_norm2_-1": "pl.bounds(np.eye(4), np.array([1,-1,1,-1]), mistakes=[1,0,0,0], f_norm2=-1.0)",
        "binary_with_classes": "pl.Learner('bpa-s', classes=[0, 1], budget=5)",
        "budget_2.5": "pl.Learner('rbp', budget=2.5)",
    }.items():
        case(f"py_{name}", py(code + "\n"), refused("Error", rc=1))
    case("py_budget_2.0_and_0d", py("pl.Learner('rbp', budget=2.0); pl.Learner('rbp', budget=np.array(5)); "
                                    "pl.Learner('kernel-perceptron', kernel='poly', degree=2.0); print('ok')\n"),
         succeeds("ok"))


if __name__ == "__main__":
    sys.exit(main())
