#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""run_bench.py - runs the benchmark suite (bench/README.md) and prints its
tables. Orchestration only: each kernel's host program (a C program on the
host library: input generation, launches, CPU check) does the work.

For every kernel of the catalog (--kernel NAME=HOST:SMALL:LARGE, from
bench/bench.mk), it runs HOST --device URI --n SIZE --seed 1:
  - on the model (model?warps=W&lanes=L&policy=P&stats=FILE) for every
    configuration of --model-configs and every reconvergence policy the
    model accepts (simty, pc, ipdom: the contract /work/spec/bench-policy.md,
    docs/bench.md); a policy the model refuses is reported unavailable and
    skipped, and without policy= at all the model's own rule runs as
    "simty";
  - on the simulated board (sim?warps=W&lanes=L) for every configuration
    of --sim-configs (the RTL has one policy, Simty's);
  - with --racecheck, once more on model?racecheck=1&seed=7 (4x4, warps in
    a random order): a reported data race fails the run.
Each run must print PASS (its CPU check); the counters come from its
output (summed over the launches), the def-use distances from the model's
stats=FILE (one JSON object per launch) when the model has that option.
The model's and the board's counters of one kernel and configuration must
agree but for cycles and sched_idle_cycles (docs/architecture.md,
"Performance counters"). Under every policy, each kernel's
thread_insts and mem_requests must be the same (policies change the
schedule, not the threads' work). Exit status 0 when every run passed and
every check held, 1 otherwise.

Writes OUT/results.json (every run: kernel, device, config, policy,
counters, defuse) and OUT/logs/*.log (each run's output); prints the tables.

usage: run_bench.py --kernel NAME=HOST:SMALL:LARGE ... --size small|large
                    --out DIR [--model-configs 4x4,8x8,1x32]
                    [--sim-configs 4x4,8x8] [--policies simty,pc,ipdom]
                    [--jobs N] [--racecheck] [--check-only]
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time

POLICIES = ["simty", "pc", "ipdom"]
# Counters that depend on the pipeline, not only on the kernel and launch.
TIMING_COUNTERS = {"cycles", "sched_idle_cycles"}
# Counters every policy must agree on (per-thread work, not the schedule).
SCHEDULE_FREE = ["thread_insts", "mem_requests"]
DEFUSE_LABELS = ["1", "2", "3", "4-7", "8-15", "16-31", "32-63", ">=64"]


def parse_counters(text):
    """The 'NAME = VALUE' lines of a host program's counter dump."""
    out = {}
    for m in re.finditer(r"^([a-z_]+) = ([0-9.]+)$", text, re.M):
        v = m.group(2)
        out[m.group(1)] = float(v) if "." in v else int(v)
    return out


def read_stats(path):
    """Sums the per-launch JSON objects of a stats file: counters added
    (cct_peak: the maximum), def-use counts added. None if no file."""
    if not os.path.exists(path):
        return None
    total = {"launches": 0, "counters": {}, "defuse": None}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            obj = json.loads(line)
            total["launches"] += 1
            for k, v in obj.get("counters", {}).items():
                if k == "cct_peak":
                    total["counters"][k] = max(total["counters"].get(k, 0), v)
                else:
                    total["counters"][k] = total["counters"].get(k, 0) + v
            du = obj.get("defuse")
            if du:
                if total["defuse"] is None:
                    total["defuse"] = {"bins": du["bins"], "counts": [0] * len(du["counts"])}
                for i, c in enumerate(du["counts"]):
                    total["defuse"]["counts"][i] += c
    return total


def derived(counters, lanes):
    """SIMD efficiency, IPC, transactions per request, replays, uniform and
    affine shares (of warp instructions)."""
    g = lambda k: counters.get(k, 0)
    wi = g("warp_insts")
    return {
        "simd_eff": g("thread_insts") / (wi * lanes) if wi else 0.0,
        "ipc": wi / g("cycles") if g("cycles") else 0.0,
        "tx_per_req": g("mem_transactions") / g("mem_requests") if g("mem_requests") else 0.0,
        "replays": g("replays_mem") + g("replays_indirect"),
        "uniform": g("uniform_vectors") / wi if wi else 0.0,
        "affine": g("affine_vectors") / wi if wi else 0.0,
    }


def run_one(a, job):
    """Runs one kernel on one device; returns its result record."""
    name, host, n, device, config, policy, uri, stats = job
    os.makedirs(os.path.join(a.out, "logs"), exist_ok=True)
    log = os.path.join(a.out, "logs", "%s.%s-%s-%s.log" % (name, device, config, policy))
    if stats and os.path.exists(stats):
        os.remove(stats)
    start = time.time()
    try:
        r = subprocess.run([host, "--device", uri, "--n", str(n), "--seed", "1"],
                           capture_output=True, text=True, timeout=a.timeout)
        out, rc = r.stdout + r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode(errors="replace") + "\n[time-out]\n", -1
    seconds = time.time() - start
    with open(log, "w") as f:
        f.write("$ %s --device '%s' --n %d --seed 1\n%s" % (host, uri, n, out))
    w, l = (int(x) for x in config.split("x"))
    rec = {"kernel": name, "device": device, "config": config, "policy": policy,
           "n": n, "warps": w, "lanes": l, "uri": uri, "log": log,
           "seconds": round(seconds, 2),
           "passed": rc == 0 and re.search(r": PASS", out) is not None
                     and "race on" not in out,
           "exit": rc, "counters": parse_counters(out), "defuse": None}
    st = read_stats(stats) if stats else None
    if st:
        rec["defuse"] = st["defuse"]
        rec["stats_launches"] = st["launches"]
        # The stats file's counters are the model's own: they must be the
        # ones the host program read.
        for k, v in st["counters"].items():
            if k in rec["counters"] and rec["counters"][k] != v:
                rec["stats_mismatch"] = "%s: stats %s, counters %s" % (k, v, rec["counters"][k])
    rec["derived"] = derived(rec["counters"], l)
    if not rec["passed"]:
        tail = "\n".join(out.strip().splitlines()[-6:])
        rec["failure"] = tail
    return rec


def probe(a, policy_opt):
    """Whether the model device accepts a URI option: opens it through the
    first kernel's host program (a refused option fails the open with the
    option's name)."""
    name, host, small, _ = a.kernels[0]
    uri = "model?" + policy_opt
    r = subprocess.run([host, "--device", uri, "--n", str(small), "--quiet"],
                       capture_output=True, text=True, timeout=a.timeout)
    text = r.stdout + r.stderr
    return r.returncode == 0, text.strip().splitlines()[-1] if text.strip() else ""


def table(headers, rows, aligns):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) if rows else len(h)
              for i, h in enumerate(headers)]
    def line(cells):
        return "  ".join((str(c).rjust(wd) if al == "r" else str(c).ljust(wd))
                         for c, wd, al in zip(cells, widths, aligns))
    out = [line(headers), line(["-" * wd for wd in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", action="append", required=True,
                    help="NAME=HOST:SMALL:LARGE")
    ap.add_argument("--size", choices=["small", "large"], default="small")
    ap.add_argument("--out", required=True)
    ap.add_argument("--model-configs", default="4x4,8x8,1x32")
    ap.add_argument("--sim-configs", default="4x4,8x8")
    ap.add_argument("--policies", default=",".join(POLICIES))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("BENCH_JOBS", "2")))
    ap.add_argument("--timeout", type=int, default=3600)
    ap.add_argument("--racecheck", action="store_true",
                    help="also run each kernel once on model?racecheck=1&seed=7 (4x4): "
                         "a data race fails it")
    ap.add_argument("--check-only", action="store_true",
                    help="only the PASS/FAIL line of each run (the bench-check suite)")
    a = ap.parse_args()
    a.kernels = []
    for k in a.kernel:
        name, rest = k.split("=", 1)
        host, small, large = rest.rsplit(":", 2)
        a.kernels.append((name, host, int(small), int(large)))
    os.makedirs(a.out, exist_ok=True)
    model_configs = [c for c in a.model_configs.split(",") if c]
    sim_configs = [c for c in a.sim_configs.split(",") if c]

    # Which policies (and stats=) the model takes.
    policies, unavailable = [], []
    for p in a.policies.split(","):
        ok, why = probe(a, "policy=" + p)
        if ok:
            policies.append(p)
        else:
            unavailable.append((p, why))
    has_policy = bool(policies)
    if not has_policy:
        policies = ["simty"]  # the model's one rule, without the option
    has_stats, stats_why = probe(a, "stats=" + os.path.join(os.path.abspath(a.out), "probe.jsonl"))
    print("bench: %s inputs; model policies: %s%s" % (
        a.size, ", ".join(policies), "" if has_policy else " (no policy= option: the model's own rule)"))
    for p, why in unavailable:
        print("bench: policy %s unavailable on the model (%s)" % (p, why))
    if not has_stats:
        print("bench: the model has no stats= option (%s): no def-use distances" % stats_why)

    jobs = []
    for name, host, small, large in a.kernels:
        n = small if a.size == "small" else large
        for cfg in model_configs:
            w, l = cfg.split("x")
            for p in policies:
                uri = "model?warps=%s&lanes=%s" % (w, l)
                if has_policy:
                    uri += "&policy=" + p
                stats = None
                if has_stats:
                    stats = os.path.join(os.path.abspath(a.out), "stats",
                                         "%s.%s.%s.jsonl" % (name, cfg, p))
                    os.makedirs(os.path.dirname(stats), exist_ok=True)
                    uri += "&stats=" + stats
                jobs.append((name, host, n, "model", cfg, p, uri, stats))
        if a.racecheck:
            jobs.append((name, host, n, "model-racecheck", "4x4", "simty",
                         "model?warps=4&lanes=4&racecheck=1&seed=7", None))
        for cfg in sim_configs:
            w, l = cfg.split("x")
            jobs.append((name, host, n, "sim", cfg, "simty",
                         "sim?warps=%s&lanes=%s" % (w, l), None))

    start = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        for rec in pool.map(lambda j: run_one(a, j), jobs):
            results.append(rec)
            if not rec["passed"]:
                print("FAIL %s on %s %s policy %s: exit %s, output in %s" % (
                    rec["kernel"], rec["device"], rec["config"], rec["policy"],
                    rec["exit"], rec["log"]))
                for line in rec["failure"].splitlines():
                    print("    | " + line)
    failed = [r for r in results if not r["passed"]]
    elapsed = time.time() - start

    # The board against the model: every counter but the timing ones.
    disagreements = []
    by_key = {(r["kernel"], r["device"], r["config"], r["policy"]): r for r in results}
    pairs = 0
    for r in results:
        if r["device"] != "sim" or not r["passed"]:
            continue
        m = by_key.get((r["kernel"], "model", r["config"], "simty"))
        if not m or not m["passed"]:
            continue
        pairs += 1
        for k, v in sorted(r["counters"].items()):
            if k in TIMING_COUNTERS or isinstance(v, float):
                continue
            if m["counters"].get(k) != v:
                disagreements.append("%s %s: %s board %s, model %s" % (
                    r["kernel"], r["config"], k, v, m["counters"].get(k)))
    stats_bad = [r for r in results if r.get("stats_mismatch")]

    # Policies change the schedule only: each thread runs the same
    # instructions and memory accesses whatever the order of the paths.
    policy_diffs = []
    for name, _, _, _ in a.kernels:
        for cfg in model_configs:
            runs = [r for r in results if r["kernel"] == name and r["device"] == "model"
                    and r["config"] == cfg and r["passed"]]
            for k in SCHEDULE_FREE:
                vals = {r["policy"]: r["counters"].get(k) for r in runs}
                if len(set(vals.values())) > 1:
                    policy_diffs.append("%s %s: %s %s" % (name, cfg, k, ", ".join(
                        "%s %s" % pv for pv in sorted(vals.items()))))

    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"size": a.size, "policies": policies, "has_policy": has_policy,
                   "unavailable": [p for p, _ in unavailable], "has_stats": has_stats,
                   "model_configs": model_configs, "sim_configs": sim_configs,
                   "defuse_labels": DEFUSE_LABELS, "seconds": round(elapsed, 1),
                   "pairs": pairs, "disagreements": disagreements,
                   "policy_diffs": policy_diffs,
                   "kernels": [{"name": k[0], "host": k[1], "small": k[2], "large": k[3]}
                               for k in a.kernels],
                   "results": results}, f, indent=1)

    if not a.check_only:
        print_tables(results, policies, model_configs, sim_configs)
    for r in results:
        if a.check_only:
            print("%-4s %-10s %-5s %-4s %-5s %6.2f s  simd_efficiency %.3f" % (
                "PASS" if r["passed"] else "FAIL", r["kernel"], r["device"], r["config"],
                r["policy"], r["seconds"], r["derived"]["simd_eff"]))
    for line in disagreements:
        print("DISAGREE " + line)
    for line in policy_diffs:
        print("POLICY-DIFF " + line)
    for r in stats_bad:
        print("STATS %s %s %s: %s" % (r["kernel"], r["config"], r["policy"], r["stats_mismatch"]))
    print("bench: %d runs, %d passed, %d failed; %d board/model pairs, %d counter "
          "disagreements; %d policy differences in thread work; %.0f s; results in %s" % (
              len(results), len(results) - len(failed), len(failed), pairs,
              len(disagreements), len(policy_diffs), elapsed, os.path.join(a.out, "results.json")))
    return 1 if failed or disagreements or stats_bad or policy_diffs else 0


def print_tables(results, policies, model_configs, sim_configs):
    # Table 1: every counter figure, the board's row under the model's.
    print("\n== Counters (model under Simty's rule; the simulated board's row "
          "below the model's of the same configuration)")
    headers = ["kernel", "device", "WxL", "cycles", "warp_insts", "thread_insts",
               "SIMD eff", "IPC", "tx/req", "replays", "uniform", "affine"]
    rows = []
    order = sorted(results, key=lambda r: (
        r["kernel"], (model_configs + [c for c in sim_configs if c not in model_configs]).index(r["config"]),
        r["device"] != "model"))
    for r in order:
        if r["policy"] != "simty":
            continue
        c, d = r["counters"], r["derived"]
        rows.append([r["kernel"], r["device"], r["config"], c.get("cycles", "-"),
                     c.get("warp_insts", "-"), c.get("thread_insts", "-"),
                     "%.3f" % d["simd_eff"], "%.3f" % d["ipc"], "%.2f" % d["tx_per_req"],
                     d["replays"], "%.3f" % d["uniform"], "%.3f" % d["affine"]])
    print(table(headers, rows, "lllrrrrrrrrr"))

    # Table 2: the policies side by side (model).
    print("\n== SIMD efficiency by policy (model)")
    headers = ["kernel"] + ["%s %s" % (cfg, p) for cfg in model_configs for p in policies]
    rows = []
    kernels = sorted({r["kernel"] for r in results})
    for k in kernels:
        row = [k]
        for cfg in model_configs:
            for p in policies:
                r = next((x for x in results if x["kernel"] == k and x["device"] == "model"
                          and x["config"] == cfg and x["policy"] == p), None)
                row.append("%.3f" % r["derived"]["simd_eff"] if r and r["passed"]
                           else "FAIL" if r else "-")
        rows.append(row)
    print(table(headers, rows, "l" + "r" * (len(headers) - 1)))

    # Table 3: def-use distances, at the first configuration.
    cfg = model_configs[0] if model_configs else None
    if cfg is None:
        return
    print("\n== Operand def-use distance (model %s, Simty's rule; %% of source operands "
          "per distance in the warp's issued instructions)" % cfg)
    rows = []
    for k in kernels:
        r = next((x for x in results if x["kernel"] == k and x["device"] == "model"
                  and x["config"] == cfg and x["policy"] == "simty"), None)
        du = r and r.get("defuse")
        if du and sum(du["counts"][1:]):
            tot = sum(du["counts"][1:])
            rows.append([k] + ["%.1f" % (100.0 * c / tot) for c in du["counts"][1:]])
        else:
            rows.append([k] + ["-"] * len(DEFUSE_LABELS))
    print(table(["kernel"] + DEFUSE_LABELS, rows, "l" + "r" * len(DEFUSE_LABELS)))


if __name__ == "__main__":
    sys.exit(main())
