#!/usr/bin/env python3
"""One metric of a sweep against one swept key (the table `xoff collect` writes).

    python3 analysis/plot/xoff_sweep_plot.py TABLE.csv --x buffer.alpha --y fct_p99_us_all -o fig.png

TABLE is the .csv (or .h5) of `xoff collect DIR -o TABLE`. The swept keys are
the columns between `name` and `seed`. One line per combination of the other
swept keys; each point is the mean over the seeds that ran (rows with status
"ok"), with an error bar of one standard deviation (population, as in the
terminal table) when there are several. X values that read as numbers, with
or without a unit (5KB, 10us, 100Gbps), are placed on a numeric axis in that
unit's base; others are categories in table order. Prints one line per curve
and the file written. Exit status: 0 done, 1 missing Python packages, 2 bad
input (no such file, column or metric).
"""
import argparse
import csv
import math
import os
import re
import sys

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError as err:  # pragma: no cover - depends on the machine
    print(f"xoff_sweep_plot: {err}; {sys.executable} needs matplotlib "
          "(Debian: apt-get install python3-matplotlib)", file=sys.stderr)
    sys.exit(1)

UNITS = {  # multiplier to the unit's base (bytes, seconds, bit/s); decimal as in xoff
    "": 1, "B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3,
    "ps": 1e-12, "ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1,
    "bps": 1, "Kbps": 1e3, "Mbps": 1e6, "Gbps": 1e9, "Tbps": 1e12,
}
BASE = {"B": "bytes", "KB": "bytes", "MB": "bytes", "GB": "bytes", "KiB": "bytes", "MiB": "bytes",
        "GiB": "bytes", "ps": "s", "ns": "s", "us": "s", "ms": "s", "s": "s", "bps": "bit/s",
        "Kbps": "bit/s", "Mbps": "bit/s", "Gbps": "bit/s", "Tbps": "bit/s"}
NUMBER = re.compile(r"^\s*([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)\s*([A-Za-z]*)\s*$")


def fail(msg):
    print(f"xoff_sweep_plot: {msg}", file=sys.stderr)
    sys.exit(2)


def read_table(path):
    """Column name -> list of strings, and the column order."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    if path.endswith(".h5"):
        try:
            import h5py
        except ImportError as err:  # pragma: no cover
            print(f"xoff_sweep_plot: {err}", file=sys.stderr)
            sys.exit(1)
        with h5py.File(path, "r") as f:
            if "table" not in f:
                fail(f"{path}: not an xoff table (no /table)")
            g = f["table"]
            order = list(g.keys())
            cols = {}
            for k in order:
                c = g[k]
                cols[k] = ([s for s in c.asstr()[:]] if c.dtype.kind == "O"
                           else ["" if math.isnan(v) else repr(float(v)) for v in c[:]])
            return cols, order
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        fail(f"{path}: empty")
    order = rows[0]
    cols = {k: [r[i] if i < len(r) else "" for r in rows[1:]] for i, k in enumerate(order)}
    return cols, order


def as_number(text):
    m = NUMBER.match(text)
    if not m or m.group(4) not in UNITS:
        return None
    return float(m.group(1)) * UNITS[m.group(4)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table")
    ap.add_argument("--x", required=True, help="a swept key")
    ap.add_argument("--y", required=True, help="a metric column, e.g. fct_p99_us_all")
    ap.add_argument("-o", "--output", required=True, help="picture to write (.png, .pdf, .svg)")
    ap.add_argument("--logx", action="store_true")
    ap.add_argument("--logy", action="store_true")
    a = ap.parse_args()

    cols, order = read_table(a.table)
    if "name" not in order or "seed" not in order:
        fail(f"{a.table}: not an xoff collect table (no name/seed columns)")
    keys = order[order.index("name") + 1:order.index("seed")]
    if a.x not in keys:
        fail(f"--x {a.x}: not a swept key; the table sweeps: {', '.join(keys) or '(nothing)'}")
    if a.y not in cols or a.y in keys or a.y in ("point", "name", "seed", "status"):
        metrics = [k for k in order[order.index("status") + 1:]]
        fail(f"--y {a.y}: no such metric; the table has: {' '.join(metrics)}")
    others = [k for k in keys if k != a.x]
    n = len(cols[a.x])
    status = cols.get("status", ["ok"] * n)

    xs_text = []  # x values in table order
    for v in cols[a.x]:
        if v not in xs_text:
            xs_text.append(v)
    numeric = all(as_number(v) is not None for v in xs_text)
    xpos = {v: (as_number(v) if numeric else i) for i, v in enumerate(xs_text)}

    curves = {}  # label -> {x text: [values]}
    for r in range(n):
        if status[r] != "ok" or cols[a.y][r] == "":
            continue
        label = ", ".join(f"{k}={cols[k][r]}" for k in others) or a.y
        curves.setdefault(label, {}).setdefault(cols[a.x][r], []).append(float(cols[a.y][r]))
    if not curves:
        fail(f"--y {a.y}: no run has a value")

    fig, ax = plt.subplots(figsize=(8, 5))
    for label, by_x in curves.items():
        pts = sorted(by_x.items(), key=lambda kv: xpos[kv[0]])
        x = [xpos[k] for k, _ in pts]
        mean = [sum(v) / len(v) for _, v in pts]
        sd = [math.sqrt(sum((y - m) ** 2 for y in v) / len(v)) for (_, v), m in zip(pts, mean)]
        ax.errorbar(x, mean, yerr=sd, marker="o", capsize=4, linewidth=1.5, label=label)
        seeds = max(len(v) for _, v in pts)
        print(f"{label}: {len(pts)} points, up to {seeds} seeds each")
    if not numeric:
        ax.set_xticks(range(len(xs_text)), xs_text)
    if a.logx:
        ax.set_xscale("log")
    if a.logy:
        ax.set_yscale("log")
    suffixes = {NUMBER.match(v).group(4) for v in xs_text} if numeric else set()
    bases = {BASE[u] for u in suffixes if u in BASE}
    ax.set_xlabel(f"{a.x} ({bases.pop()})" if len(bases) == 1 else a.x)
    ax.set_ylabel(a.y)
    ax.grid(True, alpha=0.3)
    ax.set_title(f"{a.y} against {a.x} (mean and sd over seeds)")
    if len(curves) > 1 or others:
        ax.legend(fontsize=8)
    fig.tight_layout()
    parent = os.path.dirname(os.path.abspath(a.output))
    os.makedirs(parent, exist_ok=True)
    fig.savefig(a.output, dpi=120)
    print(a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
