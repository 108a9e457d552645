#!/usr/bin/env python3
"""Unit checks of analysis/plot/xoff_plot.py's arithmetic (no pictures).

    python3 test/analysis/plot_units_test.py SOURCE_DIR

runs(): a pause lasts until the next XON, or until it runs out: quanta x 512
bit times (802.1Qbb), 65535 quanta at 100 Gb/s = 65535 x 5.12 ns = 335.5392 us,
unless an XOFF refreshes it first. scenario_bytes(): the scenario's units.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "analysis", "plot"))
sys.dont_write_bytecode = True
import xoff_plot  # noqa: E402

q100 = 512 / 100e9 * 1e6  # one quantum at 100 Gb/s, in us: 0.00512
fails = []


def close(a, b):
    return len(a) == len(b) and all(math.isclose(x[0], y[0]) and math.isclose(x[1], y[1])
                                    for x, y in zip(a, b))


cases = [
    # one XOFF, no XON: it expires after 335.5392 us
    (xoff_plot.runs([(0.0, 65535)], 1000.0, q100), [(0.0, 335.5392)]),
    # refreshed every 100 us until 300 us: runs until 300 + 335.5392
    (xoff_plot.runs([(0.0, 65535), (100.0, 65535), (200.0, 65535), (300.0, 65535)], 1000.0,
                    q100), [(0.0, 635.5392)]),
    # XON ends it at once
    (xoff_plot.runs([(10.0, 65535), (50.0, 0)], 1000.0, q100), [(10.0, 40.0)]),
    # expired, then paused again: two intervals
    (xoff_plot.runs([(0.0, 1000), (100.0, 1000)], 1000.0, q100),
     [(0.0, 5.12), (100.0, 5.12)]),
    # the run ends first
    (xoff_plot.runs([(900.0, 65535)], 1000.0, q100), [(900.0, 100.0)]),
    # rate unknown: until the next XON or the end, as before
    (xoff_plot.runs([(0.0, 1000)], 1000.0, None), [(0.0, 1000.0)]),
]
for i, (got, want) in enumerate(cases):
    if not close(got, want):
        fails.append(f"runs case {i}: got {got}, want {want}")
for text, want in [("5KB", 5000.0), ("200KB", 200000.0), ("48KiB", 49152.0), ("1.5MB", 1.5e6),
                   ("lots", None)]:
    if xoff_plot.scenario_bytes(text) != want:
        fails.append(f"scenario_bytes({text!r}) = {xoff_plot.scenario_bytes(text)}, want {want}")


# The scenario as xoff ran it: the file, its variant merged, then the --set
# lines (the ECN thresholds on the queue pictures come from it).
class FakeRun:
    def __init__(self, text):
        self.attrs = {"scenario_text": text}

    def __getitem__(self, key):
        return self


base = """[ecn]
enabled = false
kmin = "5KB"
[variant.tuned.ecn]
enabled = true
kmax = "400KB"
"""
checks = [
    (base, None),                                      # ECN off in the file
    (base + "\n# --variant tuned", (5000.0, 400000.0)),  # the variant turns it on
    (base + "\n# --variant tuned\n# --set ecn.kmin=50KB", (50000.0, 400000.0)),
    (base + "\n# --set scenario.variant=tuned", (5000.0, 400000.0)),
    ('[scenario]\nvariant = "tuned"\n' + base, (5000.0, 400000.0)),
]
for text, want in checks:
    got = xoff_plot.ecn_thresholds(FakeRun(text))
    if got != want:
        fails.append(f"ecn_thresholds of {text!r}: got {got}, want {want}")
for text, want in [("50us", 50.0), ("1.5ms", 1500.0), ("100ns", 0.1), ("2s", 2e6), ("soon", None)]:
    if xoff_plot.scenario_us(text) != want:
        fails.append(f"scenario_us({text!r}) = {xoff_plot.scenario_us(text)}, want {want}")
for f in fails:
    print("FAIL", f)
print(f"{len(cases) + 5 + len(checks) + 5 - len(fails)} passed, {len(fails)} failed")
sys.exit(1 if fails else 0)
