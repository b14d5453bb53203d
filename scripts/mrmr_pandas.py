"""The MRMR job as a pandas + numpy user writes it: read the file (pandas read_csv or
read_parquet), bin every float column at its 8 quantiles (numpy partition for the
edges, searchsorted for the codes), integer columns with at most 256 values as codes,
then greedy MRMR (MID) with bincount joint histograms. The same definitions as the
Rust example (edge i = the sorted value at i*n//k; a value's bin = the edges <= it),
so the two select the same features.
Usage: mrmr_pandas.py FILE TARGET K BINS"""

import sys
import time

import numpy as np
import pandas as pd


def codes_of(col, bins):
    values = col.to_numpy()
    if np.issubdtype(values.dtype, np.integer) and len(np.unique(values)) <= 256:
        levels, codes = np.unique(values, return_inverse=True)
        return codes.astype(np.int64), len(levels)
    n = len(values)
    idx = [i * n // bins for i in range(1, bins)]
    edges = np.partition(values, idx)[idx]
    return np.searchsorted(edges, values, side="right").astype(np.int64), bins


def mutual_information(x, kx, y, ky):
    joint = np.bincount(x * ky + y, minlength=kx * ky).reshape(kx, ky).astype(np.float64)
    n = joint.sum()
    px, py = joint.sum(1, keepdims=True), joint.sum(0, keepdims=True)
    nz = joint > 0
    return float((joint[nz] / n * np.log(joint[nz] * n / (px @ py)[nz])).sum())


def main():
    path, target, k, bins = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    t0 = time.perf_counter()
    df = pd.read_parquet(path) if path.endswith((".parquet", ".pq")) else pd.read_csv(path)
    t1 = time.perf_counter()
    y, ky = codes_of(df[target], bins)
    names = [c for c in df.columns if c != target]
    coded = [codes_of(df[c], bins) for c in names]
    t2 = time.perf_counter()
    relevance = [mutual_information(x, kx, y, ky) for x, kx in coded]
    picks, redundancy = [], np.zeros(len(names))
    for _ in range(min(k, len(names))):
        if picks:
            last, klast = coded[picks[-1]]
            for j, (x, kx) in enumerate(coded):
                if j not in picks:
                    redundancy[j] += mutual_information(x, kx, last, klast)
        scores = [relevance[j] - (redundancy[j] / len(picks) if picks else 0.0) if j not in picks else -np.inf
                  for j in range(len(names))]
        picks.append(int(np.argmax(scores)))
    t3 = time.perf_counter()
    print("selected:", " ".join(names[j] for j in picks))
    print(f"time: read {t1 - t0:.2f}s, bin {t2 - t1:.2f}s, select {t3 - t2:.2f}s; total {t3 - t0:.2f}s")


if __name__ == "__main__":
    main()
