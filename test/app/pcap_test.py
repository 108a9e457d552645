#!/usr/bin/env python3
"""xoff's packet captures read by tshark (Debian's Wireshark): the frames
decode as what they model, and each file holds every frame its port sent.

    pcap_test.py XOFF SOURCE_DIR WORKDIR

For three bundled scenarios run with captures on, checks with tshark:
  pfc_storm (every host)   PFC frames at h0: class 3 enabled, quanta 65535 on
                           XOFF, as many XOFF as /counters/queues pause_sent;
                           BTH opcodes RDMA WRITE FIRST/MIDDLE/LAST at h4 with
                           PSNs 0, 1, 2, ... and a RETH on FIRST only;
                           AckReq on LAST and on PSNs 255, 511, ...;
                           frames per file = tx_packets of the port (all
                           classes) + the PFC frames it sent.
  ecn_tradeoff (leaf0:p0)  CE-marked frames (ECN = 3) between the port's own
                           ecn_marked and every switch's (marks upstream
                           travel on).
  demo (every host)        TCP segments at h1 decode with ACK set and
                           match the TCP class's tx_packets.
Exit 0 passed, 1 failed, 77 skipped (no tshark).
"""
import os
import shutil
import subprocess
import sys

import h5py

XOFF, SRC, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def tshark(path, *args):
    out = subprocess.run(["tshark", "-r", path, *args], capture_output=True, text=True)
    if out.returncode != 0:
        failures.append(f"tshark failed on {path}: {out.stderr.strip()[:200]}")
    return [line for line in out.stdout.splitlines() if line.strip()]


def run(name, outdir, *extra):
    h5 = os.path.join(WORK, name + ".h5")
    subprocess.run([XOFF, "run", os.path.join(SRC, "scenarios", name + ".toml"), "-q", "-o", h5,
                    "--pcap", outdir, *extra], check=True, stdout=subprocess.DEVNULL)
    return h5py.File(h5, "r")


def queues(f, node, port):
    """{tc: (tx_packets, pause_sent, ecn_marked)} of one port."""
    q = f["counters/queues"]
    out = {}
    for i in range(len(q["node"])):
        if q["node"][i].decode() == node and int(q["port"][i]) == port:
            out[int(q["traffic_class"][i])] = (int(q["tx_packets"][i]), int(q["pause_sent"][i]),
                                               int(q["ecn_marked"][i]))
    return out


if shutil.which("tshark") is None:
    print("SKIPPED: tshark not found (scripts/setup.sh installs it)")
    sys.exit(77)
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

# --- pfc_storm: PFC and BTH -------------------------------------------------
d = os.path.join(WORK, "storm")
f = run("pfc_storm", d)
h0 = os.path.join(d, "h0_p0.pcap")
pfc = tshark(h0, "-Y", "macc.opcode == 0x0101", "-T", "fields", "-e", "macc.cbfc.enbv",
             "-e", "macc.cbfc.pause_time.c3")
xoff = [p for p in pfc if p.split("\t")[1] != "0"]
q0 = queues(f, "h0", 0)
check(len(xoff) == sum(v[1] for v in q0.values()) and len(xoff) > 0,
      f"h0: {len(xoff)} XOFF frames decoded, pause_sent says {sum(v[1] for v in q0.values())}")
check(all(p.split("\t")[0] == "0x0008" for p in pfc), "h0: every PFC frame enables class 3 only")
check(all(p.split("\t")[1] == "65535" for p in xoff), "h0: XOFF quanta 65535")
for host in ("h0", "h4"):
    path = os.path.join(d, host + "_p0.pcap")
    frames = len(tshark(path))
    npfc = len(tshark(path, "-Y", "macc"))
    tx = sum(v[0] for v in queues(f, host, 0).values())
    check(frames == tx + npfc, f"{host}: {frames} frames = {tx} tx_packets + {npfc} PFC")
bth = tshark(os.path.join(d, "h4_p0.pcap"), "-Y", "infiniband", "-T", "fields",
             "-e", "infiniband.bth.opcode", "-e", "infiniband.bth.psn",
             "-e", "infiniband.reth.dmalen", "-c", "3")
check([b.split("\t")[0] for b in bth] == ["6", "7", "7"],
      f"h4: opcodes RDMA WRITE FIRST, MIDDLE, MIDDLE ({[b.split(chr(9))[0] for b in bth]})")
check([b.split("\t")[1] for b in bth] == ["0", "1", "2"], "h4: PSNs 0, 1, 2")
check(bth[0].split("\t")[2] != "" and bth[1].split("\t")[2] == "", "h4: RETH on FIRST only")
last = tshark(os.path.join(d, "h4_p0.pcap"), "-Y", "infiniband.bth.opcode == 8", "-T", "fields",
              "-e", "infiniband.bth.a")
check(len(last) >= 1 and all(a in ("1", "True") for a in last), "h4: LAST asks for an ACK")
# ACK coalescing (nic.ack_every, default 256): a MIDDLE asks for an ACK on
# PSNs 255, 511, ... and on no other.
mid = tshark(os.path.join(d, "h4_p0.pcap"), "-Y", "infiniband.bth.opcode == 7", "-T", "fields",
             "-e", "infiniband.bth.psn", "-e", "infiniband.bth.a")
asked = [int(m.split("\t")[0]) for m in mid if m.split("\t")[1] in ("1", "True")]
check(len(asked) > 0 and all((psn + 1) % 256 == 0 for psn in asked) and
      len(asked) == sum(1 for m in mid if (int(m.split("\t")[0]) + 1) % 256 == 0),
      f"h4: MIDDLE asks for an ACK exactly on PSNs 255, 511, ... ({len(asked)} of {len(mid)})")

# --- limits: max_packets and the time window ----------------------------------
scen = os.path.join(WORK, "limited.toml")
with open(os.path.join(SRC, "scenarios", "pfc_storm.toml")) as src:
    text = src.read()
with open(scen, "w") as out:
    out.write(text + '\n[[monitor.pcap]]\nnode = "h4"\nport = 0\nmax_packets = 100\n'
              'start = "50us"\nstop = "1ms"\n[[monitor.pcap]]\nnode = "h5"\nstart = "1900us"\n')
d = os.path.join(WORK, "limited")
subprocess.run([XOFF, "run", scen, "-q", "--no-output", "--pcap", d], check=True,
               stdout=subprocess.DEVNULL)
check(sorted(os.listdir(d)) == ["h4_p0.pcap", "h5_p0.pcap"], "only the named ports are captured")
times = [float(t) for t in tshark(os.path.join(d, "h4_p0.pcap"), "-T", "fields",
                                  "-e", "frame.time_relative")]
first = tshark(os.path.join(d, "h4_p0.pcap"), "-T", "fields", "-e", "frame.time_epoch", "-c", "1")
check(len(times) == 100, f"h4: max_packets = 100 frames ({len(times)})")
check(len(first) == 1 and float(first[0]) >= 50e-6, "h4: nothing before start = 50 us")
late = [float(t) for t in tshark(os.path.join(d, "h5_p0.pcap"), "-T", "fields",
                                 "-e", "frame.time_epoch")]
check(len(late) > 0 and min(late) >= 1900e-6, "h5: nothing before start = 1900 us")

# --- ecn_tradeoff: CE marks at leaf0 towards h0 -------------------------------
d = os.path.join(WORK, "ecn")
scen = os.path.join(WORK, "ecn.toml")
with open(os.path.join(SRC, "scenarios", "ecn_tradeoff.toml")) as src:
    text = src.read().replace('cdf = "hadoop"',
                              f'cdf = "{os.path.join(SRC, "scenarios", "cdf", "hadoop.txt")}"')
with open(scen, "w") as out:
    out.write(text + '\n[[monitor.pcap]]\nnode = "leaf0"\nport = 0\nmax_packets = 100000000\n')
h5 = os.path.join(WORK, "ecn.h5")
subprocess.run([XOFF, "run", scen, "-q", "-o", h5, "--pcap", d,
                "--set", "scenario.duration=1ms"], check=True, stdout=subprocess.DEVNULL)
f = h5py.File(h5, "r")
# A frame leaving leaf0 towards h0 carries CE if leaf0 marked it here or a
# switch upstream (the spine) did: at least this port's marks, at most all.
cap = os.path.join(d, "leaf0_p0.pcap")
ce = len(tshark(cap, "-Y", "ip.dsfield.ecn == 3"))
ect = len(tshark(cap, "-Y", "ip.dsfield.ecn == 2"))
here = sum(v[2] for v in queues(f, "leaf0", 0).values())
q = f["counters/queues"]
everywhere = int(sum(q["ecn_marked"][:]))
check(here > 0 and here <= ce <= everywhere,
      f"leaf0:p0: {ce} CE frames decoded, between its own {here} marks and all {everywhere}")
check(ce + ect + len(tshark(cap, "-Y", "ip.dsfield.ecn == 0")) == len(tshark(cap, "-Y", "ip")),
      "leaf0:p0: every IP frame decodes as CE, ECT(0) or Not-ECT")

# --- demo: TCP ------------------------------------------------------------------
d = os.path.join(WORK, "demo")
f = run("demo", d, "--set", "scenario.duration=1ms")
h1 = os.path.join(d, "h1_p0.pcap")
tcp = tshark(h1, "-Y", "tcp", "-T", "fields", "-e", "tcp.flags.ack", "-e", "ip.dsfield.dscp")
tcp_class = queues(f, "h1", 0).get(1, (0, 0, 0))[0]
check(len(tcp) == tcp_class and len(tcp) > 0,
      f"h1: {len(tcp)} TCP segments decoded, class-1 tx_packets says {tcp_class}")
check(all(t.split("\t")[0] in ("1", "True") for t in tcp), "h1: every TCP segment has ACK set")

# Capturing only reads: the run is the same simulation with or without it.
plain = os.path.join(WORK, "plain.h5")
subprocess.run([XOFF, "run", os.path.join(SRC, "scenarios", "demo.toml"), "-q", "-o", plain,
                "--set", "scenario.duration=1ms"], check=True, stdout=subprocess.DEVNULL)
check(h5py.File(plain, "r")["meta"].attrs["fingerprint"] == f["meta"].attrs["fingerprint"],
      "demo: same fingerprint with and without captures")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
