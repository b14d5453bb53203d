#!/usr/bin/env python3
"""How often one sweep's winner is slow in another sweep of the same host.

    scripts/winner-consistency.py ENTRY.json ENTRY.json ...

Takes entries of one kernel (`joint_hist_batched`: axes n_samples, pair_table,
n_features, loc) from separate sweeps, e.g. those `TQ_KEEP=1 cargo bench --bench
tuning_quality` keeps (each run's refined entry is the first `verify ... (PATH)` line
of its output). For every point that two entries both measured, the winner of one
(lowest median over all its runs) is judged by the other's medians: the share of such
pairs where it ran more than 1.15x slower than the other's fastest, overall and per
(decade of n_samples, n_features up to 5). Where the share is high, no single table can
be right in every process: which candidate is fastest there changes between processes.
"""
import collections
import json
import math
import statistics
import sys


def candidate(m):
    return m["variant"] + (f"/{m['block_size']}" if m.get("block_size") else "")


def medians(entry):
    runs = collections.defaultdict(lambda: collections.defaultdict(list))
    for m in entry["measurements"]:
        p = m["point"]
        if p.get("loc", "host") != "host":
            continue
        runs[(p["n_samples"], p["pair_table"], p["n_features"])][candidate(m)] += m["samples_ns"]
    return {k: {c: statistics.median(s) for c, s in v.items()} for k, v in runs.items()}


def main(paths):
    if len(paths) < 2:
        sys.exit(__doc__)
    sweeps = [medians(json.load(open(p))) for p in paths]
    by_class = collections.defaultdict(list)
    for a, one in enumerate(sweeps):
        for b, other in enumerate(sweeps):
            if a == b:
                continue
            for point in one.keys() & other.keys():
                winner = min(one[point], key=one[point].get)
                if winner in other[point]:
                    regret = other[point][winner] / min(other[point].values())
                    cls = (round(math.log10(point[0])), min(point[2], 5))
                    by_class[cls].append(regret)
    every = [r for rs in by_class.values() for r in rs]
    if not every:
        sys.exit("no point measured by two entries")
    geomean = math.exp(sum(map(math.log, every)) / len(every))
    share = sum(r > 1.15 for r in every) / len(every)
    print(f"{len(paths)} sweeps, {len(every)} judged pairs: geomean {geomean:.3f}, above 1.15 {share:.3f}")
    print("decade of n_samples, n_features (5: 5 or more): share above 1.15 (pairs)")
    for cls in sorted(by_class):
        rs = by_class[cls]
        print(f"  1e{cls[0]} x {cls[1]}: {sum(r > 1.15 for r in rs) / len(rs):.2f} ({len(rs)})")


if __name__ == "__main__":
    main(sys.argv[1:])
