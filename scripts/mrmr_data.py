"""Writes the MRMR comparison table as CSV and Parquet: N rows of P normal float
features (5 decimals) and an integer `class` (0..3); every third feature is shifted by
0.5 × class, so a third of the features are informative. Seeded: the same files every
time. Usage: mrmr_data.py ROWS FEATURES OUT_PREFIX  (writes OUT_PREFIX.csv, .parquet)"""

import sys

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq


def main():
    rows, features, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = np.random.default_rng(42)
    cls = rng.integers(0, 4, rows)
    columns = {}
    for j in range(features):
        x = rng.standard_normal(rows)
        if j % 3 == 0:
            x += 0.5 * cls
        columns[f"f{j:02d}"] = np.round(x, 5)
    columns["class"] = cls.astype(np.int64)
    table = pa.table(columns)
    pacsv.write_csv(table, f"{prefix}.csv", pacsv.WriteOptions(quoting_style="none"))
    pq.write_table(table, f"{prefix}.parquet")


if __name__ == "__main__":
    main()
