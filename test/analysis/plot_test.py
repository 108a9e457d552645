#!/usr/bin/env python3
"""Checks the PNGs that analysis/plot/xoff_plot.py wrote into a directory.

    python3 test/analysis/plot_test.py OUTDIR [NAME.png ...]

Each expected picture (by default all five) must exist, be larger than 10 KB and
not be a single colour (pixel standard deviation > 0). Writes nothing. Prints
'N passed, N failed' and exits 1 if any check failed.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402

EXPECTED = ["queue_depth.png", "pause_timeline.png", "throughput.png", "fct_cdf.png",
            "topology.png"]
MIN_BYTES = 10 * 1024


def check(path):
    """None if the picture is fine, else what is wrong with it."""
    if not os.path.isfile(path):
        return "missing"
    size = os.path.getsize(path)
    if size <= MIN_BYTES:
        return f"only {size} bytes (want > {MIN_BYTES})"
    pixels = mpimg.imread(path)
    if pixels.std() <= 0:
        return "a single colour"
    return None


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    outdir, names = argv[1], argv[2:] or EXPECTED
    failed = 0
    for name in names:
        problem = check(os.path.join(outdir, name))
        print(f"{'FAIL' if problem else 'ok  '} {name}" + (f": {problem}" if problem else ""))
        failed += problem is not None
    print(f"{len(names) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
