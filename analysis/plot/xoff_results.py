"""Reading xoff results files (layout: analysis/results/schema.h) from Python.

    from xoff_results import open_run, table, series
    with open_run("run.h5") as f:
        flows = table(f, "flows")          # {column: numpy array}, strings decoded
        queues = series(f, "queue_bytes")  # [(name, unit, time_us, values)]

With pandas: pd.DataFrame(table(f, "flows")).
"""
import os

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FORMAT = "xoff-results"
SCHEMA_VERSION = 1


class NotXoffResults(Exception):
    """The path is missing, not HDF5, not an xoff results file, or too new."""


def fail(message):
    raise NotXoffResults(message)


def open_run(path):
    """The open h5py.File; raises NotXoffResults saying why it cannot be read."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    try:
        f = h5py.File(path, "r")
    except OSError:
        fail(f"{path}: not an HDF5 file")
    meta = f.get("meta")
    if meta is None or meta.attrs.get("format") != FORMAT:
        fail(f"{path}: not an xoff results file (no /meta format attribute)")
    version = int(meta.attrs.get("schema_version", 0))
    if version > SCHEMA_VERSION:
        fail(f"{path}: schema_version {version} is newer than this script reads "
             f"({SCHEMA_VERSION})")
    return f


def table(f, name):
    """The table at /name as {column: numpy array} (strings decoded), or None when
    the file has no such table or it has no rows."""
    group = f.get(name)
    if group is None:
        return None
    cols = {}
    for key, ds in group.items():
        cols[key] = ds.asstr()[:] if ds.dtype.kind == "O" else ds[:]
    rows = len(next(iter(cols.values()))) if cols else 0
    return cols if rows > 0 else None


def series(f, prefix):
    """[(name, unit, time_us, values)] for series named prefix/..., in file order."""
    out = []
    for group in f.get("series", {}).values():
        name = group.attrs.get("name", "")
        if name.startswith(prefix + "/") and len(group["time_ps"]) > 0:
            out.append((name, group.attrs.get("unit", ""), group["time_ps"][:] / 1e6,
                        group["value"][:]))
    return out


def scenario(f):
    return f["meta"].attrs.get("scenario_name", "") or "xoff run"


def save(fig, outdir, name):
    path = os.path.join(outdir, name)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(path)
    return path
