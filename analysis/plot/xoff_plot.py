#!/usr/bin/env python3
"""Pictures of one xoff results file (layout: analysis/results/schema.h).

    python3 analysis/plot/xoff_plot.py RUN.h5 -o OUTDIR

Writes, when the file has the data for them:
  queue_depth.png     queue_bytes/* series over time
  pause_timeline.png  paused intervals per (node, port, tc): XOFF..XON frames
                      received in /events/pfc (else sent ones), else paused/* series
  throughput.png      tx_gbps/* series over time
  class_throughput.png  class_tx_gbps/* series (one traffic class of a port)
  pg_occupancy.png    pg_shared_bytes/* and pg_headroom_bytes/* (dashed) series
  dcqcn.png           dcqcn_rate_gbps/* (solid) and dcqcn_target_gbps/* (dashed)
                      per QP, NaN (not sending) left out
  fct_cdf.png         flow completion time CDF per protocol, log x
  fct_slowdown_by_size.png  slowdown p50 / p99 per flow-size bucket and protocol
  flow_throughput.png per-flow average throughput, flows in start order
  topology.png        /topology, hosts at the bottom and tiers upward, with a
                      recorded deadlock cycle drawn in red and links down at
                      the end of the run dashed orange
and prints the path of each file written. Exit status: 0 done, 1 missing
Python packages, 2 the file is missing or is not an xoff results file.
"""
import argparse
import os
import re
import sys

try:
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    from matplotlib.patches import FancyArrowPatch

    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from xoff_results import NotXoffResults, open_run, save, scenario, series, table
except ImportError as err:  # pragma: no cover - depends on the machine
    print(f"xoff_plot: {err}; {sys.executable} needs h5py and matplotlib "
          "(Debian: apt-get install python3-h5py python3-matplotlib)", file=sys.stderr)
    sys.exit(1)

MAX_LINES = 12  # series per line plot; the largest are kept
MAX_ROWS = 40   # rows in the pause timeline


def line_plot(f, outdir, prefix, scale, ylabel, what, filename, rank, decorate=None):
    found = series(f, prefix)
    if not found:
        return None
    found.sort(key=lambda s: -rank(s[3]))
    shown = found[:MAX_LINES]
    fig, ax = plt.subplots(figsize=(9, 5))
    for name, _, t_us, v in shown:
        ax.plot(t_us, v * scale, label=name[len(prefix) + 1:], linewidth=1.2)
    more = f" (largest {len(shown)} of {len(found)})" if len(found) > len(shown) else ""
    ax.set_title(f"{what} — {scenario(f)}{more}")
    ax.set_xlabel("time (µs)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    if decorate is not None:
        decorate(ax)
    ax.legend(fontsize=8, loc="best")
    return save(fig, outdir, filename)


def mark_events(ax, f):
    """Vertical lines at the instants that explain a picture: faults (link
    down/up, a storm's start and end, a PFC frame, a slow receiver), deadlocks
    formed and detected, watchdog storms and restorations."""
    seen = set()

    def line(t_ps, color, style, label):
        ax.axvline(t_ps / 1e6, color=color, linestyle=style, linewidth=1,
                   label=None if label in seen else label)
        seen.add(label)

    doc = scenario_as_run(f) or {}
    for fault in doc.get("fault", []):
        kind = fault.get("kind", "fault")
        for key in ("at", "start", "stop"):
            t_us = scenario_us(fault.get(key, ""))
            if t_us is not None:
                what = f"fault: {kind}" if key != "stop" else f"fault: {kind} ends"
                line(t_us * 1e6, "0.4", "-.", what)
    deadlock = table(f, "events/deadlock")
    if deadlock is not None:
        for t in deadlock["formed_ps"]:
            line(t, "red", "--", "deadlock formed")
        for t in deadlock["detected_ps"]:
            line(t, "red", ":", "deadlock detected")
    wd = table(f, "events/watchdog")
    if wd is not None:
        for t, state in zip(wd["time_ps"], wd["state"]):
            line(t, "purple", "--" if state == "stormed" else ":", f"watchdog: {state}")
    if seen:
        ax.legend(fontsize=8, loc="best")


SIZE_UNITS = {"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 1024, "MiB": 1024**2,
              "GiB": 1024**3}


def scenario_bytes(text):
    """'200KB' -> 200000.0, or None."""
    m = re.match(r"^\s*([0-9.]+)\s*([A-Za-z]+)\s*$", str(text))
    return float(m.group(1)) * SIZE_UNITS[m.group(2)] if m and m.group(2) in SIZE_UNITS else None


def merge(into, other):
    """Tables merge key by key, anything else replaces (xoff's variants)."""
    for k, v in other.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            merge(into[k], v)
        else:
            into[k] = v


def scenario_as_run(f):
    """The scenario text stored in /meta with its variant (`# --variant NAME`)
    merged in and its `# --set PATH=VALUE` lines applied (dotted paths without
    array indices), as xoff read it; None when it cannot be parsed."""
    try:
        import tomllib
        text = f["meta"].attrs["scenario_text"]
        if isinstance(text, bytes):
            text = text.decode()
        doc = tomllib.loads(text)
    except Exception:  # noqa: BLE001 - a picture without thresholds is still a picture
        return None
    sets, variant = [], doc.get("scenario", {}).get("variant")
    for line in text.splitlines():
        if line.startswith("# --variant "):
            variant = line[len("# --variant "):].strip()
        elif line.startswith("# --set ") and "=" in line:
            sets.append(line[len("# --set "):].split("=", 1))
            if sets[-1][0].strip() == "scenario.variant":
                variant = sets[-1][1].strip().strip('"')
    if variant:  # merged before the overrides, as xoff does
        merge(doc, doc.get("variant", {}).get(variant, {}))
    for path, value in sets:
        if "[" in path:
            continue
        try:
            value = tomllib.loads(f"v = {value}")["v"]
        except Exception:  # noqa: BLE001 - not TOML: taken as text, as xoff does
            pass
        *tables, key = path.strip().split(".")
        node = doc
        for t in tables:
            node = node.setdefault(t, {})
        node[key] = value
    return doc


TIME_UNITS = {"ps": 1e-6, "ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def scenario_us(text):
    """'50us' -> 50.0 (microseconds), or None."""
    m = re.match(r"^\s*([0-9.]+)\s*([a-z]+)\s*$", str(text))
    return float(m.group(1)) * TIME_UNITS[m.group(2)] if m and m.group(2) in TIME_UNITS else None


def ecn_thresholds(f):
    """(kmin, kmax) bytes from the scenario as run, when ECN is on."""
    doc = scenario_as_run(f)
    if doc is None:
        return None
    ecn = doc.get("ecn", {})
    if not ecn or not ecn.get("enabled", True):
        return None
    lo, hi = scenario_bytes(ecn.get("kmin", "5KB")), scenario_bytes(ecn.get("kmax", "200KB"))
    return (lo, hi) if lo is not None and hi is not None else None


def plot_queue_depth(f, outdir):
    def decorate(ax):
        k = ecn_thresholds(f)
        if k:
            ax.axhline(k[0] / 1e3, color="green", linestyle=":", linewidth=1, label="ECN Kmin")
            ax.axhline(k[1] / 1e3, color="green", linestyle="--", linewidth=1, label="ECN Kmax")
        mark_events(ax, f)
    return line_plot(f, outdir, "queue_bytes", 1e-3, "queue depth (KB)",
                     "Queue depth", "queue_depth.png", np.max, decorate)


def plot_throughput(f, outdir):
    return line_plot(f, outdir, "tx_gbps", 1.0, "throughput (Gb/s)",
                     "Throughput", "throughput.png", np.mean)


def plot_class_throughput(f, outdir):
    return line_plot(f, outdir, "class_tx_gbps", 1.0, "throughput (Gb/s)",
                     "Throughput per class", "class_throughput.png", np.mean)


def paired_plot(f, outdir, solid, dashed, scale, ylabel, what, filename):
    """Series `solid`/* as lines and their `dashed`/* counterparts dashed, in
    the same colour (one key per pair)."""
    a = series(f, solid)
    b = {x[0][len(dashed) + 1:]: x for x in series(f, dashed)}
    if not a:
        return None
    fig, ax = plt.subplots(figsize=(9, 5))
    for name, _, t_us, v in a[:MAX_LINES]:
        key = name[len(solid) + 1:]
        line, = ax.plot(t_us, v * scale, label=f"{key} ({solid})", linewidth=1.2)
        if key in b:
            _, _, bt, bv = b[key]
            ax.plot(bt, bv * scale, linestyle="--", color=line.get_color(), linewidth=1.0,
                    label=f"{key} ({dashed})")
    ax.set_title(f"{what} — {scenario(f)}")
    ax.set_xlabel("time (µs)")
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    return save(fig, outdir, filename)


def plot_pg_occupancy(f, outdir):
    return paired_plot(f, outdir, "pg_shared_bytes", "pg_headroom_bytes", 1e-3, "bytes (KB)",
                       "Ingress priority groups: shared (solid), headroom (dashed)",
                       "pg_occupancy.png")


def plot_dcqcn(f, outdir):
    return paired_plot(f, outdir, "dcqcn_rate_gbps", "dcqcn_target_gbps", 1.0, "rate (Gb/s)",
                       "DCQCN: current rate (solid), target (dashed)", "dcqcn.png")


def pause_intervals_from_pfc(f, end_us, sent):
    """{"node pP tcC": [(start_us, length_us)]} from XOFF .. XON frames that ports
    received (sent=False: the paused egress queue itself) or sent (sent=True)."""
    pfc = table(f, "events/pfc")
    if pfc is None:
        return {}
    rows, quantum = {}, {}
    rates = port_rates(f)
    order = np.argsort(pfc["time_ps"], kind="stable")
    for i in order:
        if bool(pfc["sent"][i]) != sent:
            continue
        node, port = pfc["node"][i], int(pfc["port"][i])
        key = f"{node} p{port} tc{pfc['traffic_class'][i]}"
        rows.setdefault(key, []).append((pfc["time_ps"][i] / 1e6, int(pfc["quanta"][i])))
        rate = rates.get((node, port))
        quantum[key] = 512.0 / rate * 1e6 if rate else None  # one quantum: 512 bit times
    return {key: runs(frames, end_us, quantum.get(key)) for key, frames in rows.items()}


def natural(text):
    """Sort key that puts sw2 before sw10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


def runs(frames, end_us, quantum_us=None):
    """Paused intervals from (time_us, quanta) frames: from an XOFF until the
    next XON, or until the pause runs out (quanta x 512 bit times, when the
    port's rate is known: quantum_us) if no XOFF refreshes it first."""
    out, since, until = [], None, None
    for t, quanta in frames:
        if since is not None and until is not None and t > until:
            out.append((since, until - since))  # expired before this frame
            since, until = None, None
        if quanta > 0:
            if since is None:
                since = t
            until = t + quanta * quantum_us if quantum_us else None
        elif since is not None:
            out.append((since, t - since))
            since, until = None, None
    if since is not None:
        stop = min(end_us, until) if until is not None else end_us
        out.append((since, max(stop - since, 0)))
    return out


def port_rates(f):
    """{(node, port): rate_bps} from /topology/links."""
    links = table(f, "topology/links")
    rates = {}
    if links is None:
        return rates
    for a, b, pa, pb, r in zip(links["a"], links["b"], links["a_port"], links["b_port"],
                               links["rate_bps"]):
        rates[(a, int(pa))] = float(r)
        rates[(b, int(pb))] = float(r)
    return rates


def pause_intervals_from_series(f, end_us):
    out = {}
    for name, _, t_us, v in series(f, "paused"):
        frames = [(t, 1 if x > 0.5 else 0) for t, x in zip(t_us, v)]
        out[" ".join(name.split("/")[1:])] = runs(frames, end_us)
    return out


def plot_pause_timeline(f, outdir):
    end_us = f["meta"].attrs.get("sim_time_ps", 0) / 1e6
    rows = pause_intervals_from_pfc(f, end_us, sent=False)
    ylabel = "paused egress queue (node, port, class)"
    if not rows:
        rows = pause_intervals_from_pfc(f, end_us, sent=True)
        ylabel = "port sending PAUSE (node, port, class)"
    if not rows:
        rows = pause_intervals_from_series(f, end_us)
        ylabel = "paused queue (paused/* series)"
    rows = {k: v for k, v in rows.items() if v}
    if not rows:
        return None
    keys = sorted(rows, key=natural)[:MAX_ROWS]
    fig, ax = plt.subplots(figsize=(9, max(3, 0.45 * len(keys) + 1.5)))
    for y, key in enumerate(keys):
        ax.broken_barh(rows[key], (y - 0.35, 0.7), facecolors="tab:orange")
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels(keys, fontsize=8)
    ax.invert_yaxis()  # first queue on top
    mark_events(ax, f)
    ax.set_title(f"PFC pause timeline — {scenario(f)}")
    ax.set_xlabel("time (µs)")
    ax.set_ylabel(ylabel)
    ax.set_xlim(0, max(end_us, max(s + w for k in keys for s, w in rows[k])))
    ax.grid(True, axis="x", alpha=0.3)
    return save(fig, outdir, "pause_timeline.png")


def finished_flows(f):
    """The /flows columns restricted to finished flows (files with a `state`
    column also list running and waiting flows, which have no FCT)."""
    flows = table(f, "flows")
    if flows is None or "state" not in flows:
        return flows
    keep = flows["state"] == "finished"
    return {k: v[keep] for k, v in flows.items()}


def plot_fct_cdf(f, outdir):
    flows = finished_flows(f)
    if flows is None or len(flows["fct_ps"]) == 0:
        return None
    fct_us = flows["fct_ps"] / 1e6
    fig, ax = plt.subplots(figsize=(9, 5))
    for protocol in sorted(set(flows["protocol"])):
        x = np.sort(fct_us[flows["protocol"] == protocol])
        y = np.arange(1, len(x) + 1) / len(x)
        p50, p99 = np.percentile(x, [50, 99])
        ax.step(x, y, where="post",
                label=f"{protocol}: {len(x)} flows, p50 {p50:.1f} µs, p99 {p99:.1f} µs")
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    ax.set_ylim(0, 1.02)
    ax.set_title(f"Flow completion time CDF — {scenario(f)}")
    ax.set_xlabel("flow completion time (µs, log scale)")
    ax.set_ylabel("fraction of flows")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return save(fig, outdir, "fct_cdf.png")


def plot_flow_throughput(f, outdir):
    """Average throughput of every finished flow (payload x 8 / FCT), flows in
    start order, one colour per protocol: who got what share."""
    flows = finished_flows(f)
    if flows is None or len(flows["fct_ps"]) == 0:
        return None
    order = np.argsort(flows["start_ps"], kind="stable")
    gbps = flows["size_bytes"][order] * 8.0 / (flows["fct_ps"][order] / 1e12) / 1e9
    protocols = flows["protocol"][order]
    fig, ax = plt.subplots(figsize=(9, 5))
    x = np.arange(len(gbps))
    for protocol in sorted(set(protocols)):
        sel = protocols == protocol
        ax.bar(x[sel], gbps[sel], width=0.8,
               label=f"{protocol}: mean {gbps[sel].mean():.1f} Gb/s over {sel.sum()} flows")
    ax.set_title(f"Per-flow average throughput — {scenario(f)}")
    ax.set_xlabel("flow (in start order)")
    ax.xaxis.set_major_locator(matplotlib.ticker.MaxNLocator(integer=True))
    if len(x) <= 24:  # few flows: name them
        ax.set_xticks(x, [str(n) for n in flows["name"][order]], rotation=45, ha="right",
                      fontsize=7)
    ax.set_ylabel("size x 8 / FCT (Gb/s)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    return save(fig, outdir, "flow_throughput.png")


def layout(nodes, links):
    """{name: (x, y)}: y = tier; within a tier nodes spread evenly, hosts ordered
    under the switch they attach to so that their links do not cross."""
    tiers = {}
    for name, tier in zip(nodes["name"], nodes["tier"]):
        tiers.setdefault(int(tier), []).append(name)
    width = max(len(v) for v in tiers.values())
    pos = {}
    for tier in sorted(tiers, reverse=True):
        names = tiers[tier]
        if tier == 0:
            names = sorted(names, key=lambda n: neighbour_x(n, links, pos))
        step = width / len(names)
        for i, name in enumerate(names):
            pos[name] = (step * (i + 0.5), float(tier))
    return pos


def neighbour_x(name, links, pos):
    xs = [pos[b][0] for a, b in zip(links["a"], links["b"]) if a == name and b in pos]
    xs += [pos[a][0] for a, b in zip(links["a"], links["b"]) if b == name and a in pos]
    return sum(xs) / len(xs) if xs else 0.0


def draw_link(ax, p, q, step, **style):
    """A straight line, except between same-tier nodes that are not neighbours (a
    ring's closing link): an arc above the tier, clear of the nodes in between."""
    rad = 0.0
    if p[1] == q[1] and abs(q[0] - p[0]) > 1.5 * step:
        rad = -0.25 if q[0] > p[0] else 0.25  # arc3 bends right of p->q for rad > 0
    ax.add_patch(FancyArrowPatch(p, q, connectionstyle=f"arc3,rad={rad}",
                                 shrinkA=12, shrinkB=12, **style))


def deadlock_cycle(f):
    deadlock = table(f, "events/deadlock")
    if deadlock is None:
        return [], ""
    members = deadlock["members"][0]
    return [m.split(":")[0] for m in members.split(" -> ")], members


def plot_topology(f, outdir):
    nodes, links = table(f, "topology/nodes"), table(f, "topology/links")
    if nodes is None:
        return None
    links = links or {"a": [], "b": []}
    pos = layout(nodes, links)
    step = min(abs(p[0] - q[0]) for p in pos.values() for q in pos.values()
               if p[1] == q[1] and p != q) if len(pos) > 1 else 1.0
    fig, ax = plt.subplots(figsize=(9, 5))
    up = links["up"] if "up" in links else [1] * len(links["a"])
    failed = 0
    for a, b, u in zip(links["a"], links["b"], up):
        if u:
            draw_link(ax, pos[a], pos[b], step, arrowstyle="-", color="0.55", linewidth=1.2)
        else:  # down when the run ended (a link fault)
            draw_link(ax, pos[a], pos[b], step, arrowstyle="-", color="orange", linewidth=1.5,
                      linestyle=(0, (2, 2)))
            failed += 1
    if failed:
        ax.plot([], [], color="orange", linestyle=":", label=f"{failed} link(s) down at the end")
        ax.legend(fontsize=8, loc="upper right")
    cycle, members = deadlock_cycle(f)
    for a, b in zip(cycle, cycle[1:] + cycle[:1]):
        if a in pos and b in pos and a != b:
            draw_link(ax, pos[a], pos[b], step, arrowstyle="-|>", mutation_scale=18,
                      color="red", linewidth=2.5)
    for name, kind in zip(nodes["name"], nodes["kind"]):
        x, y = pos[name]
        host = kind == "host"
        ax.scatter([x], [y], s=260 if host else 520, marker="s" if host else "o", zorder=3,
                   color="0.75" if host else "tab:blue",
                   edgecolors="red" if name in cycle else "black", linewidths=2)
        ax.annotate(name, (x, y), xytext=(0, -20 if host else 18), textcoords="offset points",
                    ha="center", fontsize=8)
    tiers = sorted(set(int(t) for t in nodes["tier"]))
    ax.set_yticks(tiers)
    ax.set_ylim(min(tiers) - 0.6, max(tiers) + 1.0)  # room for arcs above the top tier
    ax.set_xticks([])
    ax.set_xlabel("nodes of each tier, left to right")
    ax.set_ylabel("tier (0 = hosts)")
    title = f"Topology — {scenario(f)}"
    ax.set_title(title + (f"\ndeadlock cycle (red): {members}" if members else ""))
    return save(fig, outdir, "topology.png")


SIZE_BUCKETS = [(0, 10e3, "< 10 KB"), (10e3, 100e3, "10-100 KB"), (100e3, 1e6, "100 KB-1 MB"),
                (1e6, 10e6, "1-10 MB"), (10e6, float("inf"), ">= 10 MB")]


def plot_slowdown_by_size(f, outdir):
    """FCT slowdown (FCT / ideal FCT) per flow-size bucket, median and 99th
    percentile, per protocol: the picture the HPCC simulator's analysis script
    draws."""
    flows = finished_flows(f)
    if flows is None or len(flows["fct_ps"]) == 0:
        return None
    ok = np.isfinite(flows["slowdown"]) & (flows["slowdown"] > 0)
    if not ok.any():
        return None
    fig, ax = plt.subplots(figsize=(9, 5))
    protocols = sorted(set(flows["protocol"][ok]))
    width = 0.8 / max(1, 2 * len(protocols))
    labels = [b[2] for b in SIZE_BUCKETS]
    for k, protocol in enumerate(protocols):
        sel = ok & (flows["protocol"] == protocol)
        p50, p99, counts = [], [], []
        for lo, hi, _ in SIZE_BUCKETS:
            s_ = flows["slowdown"][sel & (flows["size_bytes"] >= lo) & (flows["size_bytes"] < hi)]
            counts.append(len(s_))
            p50.append(np.percentile(s_, 50) if len(s_) else np.nan)
            p99.append(np.percentile(s_, 99) if len(s_) else np.nan)
        x = np.arange(len(SIZE_BUCKETS)) + (2 * k - len(protocols) + 0.5) * width
        ax.bar(x, p50, width, label=f"{protocol} p50")
        ax.bar(x + width, p99, width, label=f"{protocol} p99", alpha=0.6)
        for xi, c in zip(x, counts):
            if c:
                ax.annotate(f"n={c}", (xi + width / 2, 0), textcoords="offset points",
                            xytext=(0, 2), ha="center", fontsize=7)
    ax.set_xticks(np.arange(len(SIZE_BUCKETS)), labels)
    ax.axhline(1.0, color="gray", linewidth=0.8)
    ax.set_title(f"FCT slowdown by flow size — {scenario(f)}")
    ax.set_xlabel("flow size")
    ax.set_ylabel("slowdown (FCT / ideal FCT)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    return save(fig, outdir, "fct_slowdown_by_size.png")


PLOTS = [plot_queue_depth, plot_pause_timeline, plot_throughput, plot_class_throughput,
         plot_pg_occupancy, plot_dcqcn, plot_flow_throughput, plot_fct_cdf,
         plot_slowdown_by_size, plot_topology]


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot an xoff results file.")
    parser.add_argument("run", help="results file written by `xoff run` (.h5)")
    parser.add_argument("-o", "--outdir", help="directory for the PNGs (default: RUN_plots)")
    args = parser.parse_args(argv)
    try:
        f = open_run(args.run)
    except NotXoffResults as err:
        print(f"xoff_plot: {err}", file=sys.stderr)
        return 2
    outdir = args.outdir or os.path.splitext(args.run)[0] + "_plots"
    os.makedirs(outdir, exist_ok=True)
    with f:
        written = [p for p in (plot(f, outdir) for plot in PLOTS) if p]
    if not written:
        print(f"xoff_plot: {args.run}: nothing to plot (no series, events, flows or topology)",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
