#!/usr/bin/env python3
"""How far one sweep's choices hold in other sweeps of the same host and build.

    scripts/winner-consistency.py ENTRY.json ENTRY.json ...

Takes entries of one kernel from separate sweeps of one build, e.g. those `TQ_KEEP=1
cargo bench --bench tuning_quality` keeps (each run's refined entry is the first
`verify ... (PATH)` line of its output). Every other entry's measured points judge each
entry, by their medians over all runs:

- winners: at a point two entries both measured, one's winner (lowest median) against
  the other's fastest: the share of such pairs where it ran over 1.15x slower, overall
  and per (decade of n_samples, n_features up to 5) where the kernel has those axes.
  Where that share is high no single table can be right in every process: which
  candidate is fastest there changes between processes.
- tables: each entry's region table answers the other entries' points: regret
  geomean, shares above 1.15 and 1.5, and against the best single fixed candidate
  (lowest geomean over the same points) the geomean of t(fixed)/t(table) and the share
  of points below 0.97.

Entries of different builds must not be judged together: a variant's code, and so its
times, may differ between them.
"""
import collections
import json
import math
import statistics
import sys


def candidate(m):
    return m["variant"] + (f"/{m['block_size']}" if m.get("block_size") else "")


def key(point):
    return tuple(sorted(point.items()))


def medians(entry):
    runs = collections.defaultdict(lambda: collections.defaultdict(list))
    for m in entry["measurements"]:
        runs[key(m["point"])][candidate(m)] += m["samples_ns"]
    return {k: {c: statistics.median(s) for c, s in v.items()} for k, v in runs.items()}


def chosen(entry, point):
    """The first region whose conditions all hold at `point`."""
    values = dict(point)
    for region in entry["regions"]:
        def holds(axis, condition):
            if "le" in condition:
                return values[axis] <= math.floor(condition["le"])
            return values[axis] == condition.get("eq")

        if all(holds(a, c) for a, c in region["when"].items()):
            return region["variant"] + (f"/{region['block_size']}" if region.get("block_size") else "")
    return None


def geomean(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def winners(sweeps):
    by_class = collections.defaultdict(list)
    for a, one in enumerate(sweeps):
        for b, other in enumerate(sweeps):
            if a == b:
                continue
            for point in one.keys() & other.keys():
                winner = min(one[point], key=one[point].get)
                if winner in other[point]:
                    values = dict(point)
                    cls = (
                        round(math.log10(values["n_samples"])) if "n_samples" in values else None,
                        min(values["n_features"], 5) if "n_features" in values else None,
                    )
                    by_class[cls].append(other[point][winner] / min(other[point].values()))
    every = [r for rs in by_class.values() for r in rs]
    if not every:
        sys.exit("no point measured by two entries")
    above = sum(r > 1.15 for r in every) / len(every)
    print(f"winners: {len(every)} judged pairs, geomean {geomean(every):.3f}, above 1.15 {above:.3f}")
    if any(cls != (None, None) for cls in by_class):
        print("  decade of n_samples x n_features (5: 5 or more): share above 1.15 (pairs)")
        for cls in sorted(by_class, key=str):
            rs = by_class[cls]
            print(f"  1e{cls[0]} x {cls[1]}: {sum(r > 1.15 for r in rs) / len(rs):.2f} ({len(rs)})")


def tables(entries, sweeps):
    regrets, times = [], []
    for a, entry in enumerate(entries):
        for b, other in enumerate(sweeps):
            if a == b:
                continue
            for point, cost in other.items():
                c = chosen(entry, point)
                if c in cost:
                    regrets.append(cost[c] / min(cost.values()))
                    times.append((cost, cost[c]))
    if not regrets:
        sys.exit("no table answered a measured point")
    fixed = collections.defaultdict(list)
    for cost, tuned in times:
        for c, t in cost.items():
            fixed[c].append((t, tuned))
    # The best fixed candidate among those timed at nearly every judged point.
    common = [c for c, v in fixed.items() if len(v) >= 0.95 * len(times)]
    best = min(common, key=lambda c: geomean([cost[c] / min(cost.values()) for cost, _ in times if c in cost]))
    speedups = [t / tuned for t, tuned in fixed[best]]
    print(
        f"tables: {len(regrets)} judged points, regret geomean {geomean(regrets):.3f}, "
        f"above 1.15 {sum(r > 1.15 for r in regrets) / len(regrets):.3f}, "
        f"above 1.5 {sum(r > 1.5 for r in regrets) / len(regrets):.3f}; "
        f"against always {best}: geomean {geomean(speedups):.3f}, "
        f"below 0.97 {sum(s < 0.97 for s in speedups) / len(speedups):.3f}"
    )


def main(paths):
    if len(paths) < 2:
        sys.exit(__doc__)
    entries = [json.load(open(p)) for p in paths]
    sweeps = [medians(e) for e in entries]
    print(f"{len(paths)} entries")
    winners(sweeps)
    tables(entries, sweeps)


if __name__ == "__main__":
    main(sys.argv[1:])
