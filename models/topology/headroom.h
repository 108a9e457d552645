#pragma once
// PFC headroom calculator: the buffer a lossless priority group must keep free
// above its XOFF threshold so that nothing is dropped between the moment the
// receiver R decides to send PAUSE and the moment the sender S stops.
//
// Terms (worst case, each converted to bytes at the link rate):
//   cable round trip  2 x cable delay x rate: the bytes already on the wire when
//                     PAUSE leaves R, plus those S sends while PAUSE travels to S.
//   local frame       1 MTU: PAUSE cannot pre-empt the frame R has just started
//                     sending towards S, so PAUSE waits behind it (MTU[R]).
//   upstream frame    1 MTU: when S reacts it may have just started a maximum
//                     frame, which it completes (MTU[S]).
//   response delay    response_delay x rate: S's time to parse PAUSE and stop
//                     (802.1Qbb bounds it by link speed, in pause quanta).
//   PAUSE frame       64 B: S keeps sending while the 64-byte PFC frame itself
//                     is serialised.
//   total = 2 x cable + 2 x MTU + response + 64 B
//
// Sources: IEEE Std 802.1Qbb-2011 Annex N ("Buffer requirements"), as laid out in
// the Cisco white paper "Priority Flow Control: Build Reliable Layer 2
// Infrastructure" (Nexus 5000, c11-542809: MTU[R], wire speed both ways,
// transceiver latency, response time, MTU[S]) and in the D-Max-Frame-Len / D-Pause
// / D-Cable / D-Resp breakdown of Annex N (D-Cable ~5 ns/m, hence the default
// propagation_ps_per_m = 5000). Mellanox's mlxsw driver uses the same shape:
// headroom = 2 x MTU + delay bytes (Linux commit 9f7ec052b75e).
//
// Not included: the 20 B of preamble + inter-frame gap per frame and the PHY/MAC
// interface latency (Annex N's D-Intf, e.g. 122880 bit times at 100G); add the
// latter to response_delay when modelling a specific ASIC. Every term is rounded
// up to a whole byte, since headroom must never fall short.
#include <cstdint>
#include <string>

#include "models/core/packet.h"  // kPauseFrameBytes
#include "sim/units.h"

namespace xoff::models {

struct HeadroomInput {
  sim::BitsPerSecond rate;
  int64_t cable_length_mm = 0;
  sim::Bytes mtu;                       // largest frame on the link, any priority
  sim::Duration response_delay;         // PAUSE received -> sender stops
  int64_t propagation_ps_per_m = 5000;  // ~5 ns/m in fibre (~2/3 c); copper is a bit faster
};

struct HeadroomResult {
  sim::Duration cable_delay;    // one way
  sim::Bytes cable_round_trip;  // 2 x cable_delay at rate
  sim::Bytes local_frame;       // MTU[R], ahead of the PAUSE
  sim::Bytes upstream_frame;    // MTU[S], finished by the sender
  sim::Bytes response;          // response_delay at rate
  sim::Bytes pause_frame;       // 64 B
  sim::Bytes total;
};

// Throws std::invalid_argument on a non-positive rate or MTU, or a negative
// length, delay or propagation speed.
HeadroomResult pfc_headroom(const HeadroomInput& in);
// The same from a link's one-way delay (LinkSpec::delay) instead of a length.
HeadroomResult pfc_headroom_for_delay(sim::BitsPerSecond rate, sim::Duration cable_delay,
                                      sim::Bytes mtu, sim::Duration response_delay);

// Multi-line breakdown for people (the `xoff headroom` command), one term a line.
std::string describe(const HeadroomInput& in, const HeadroomResult& r);

// The headroom as SONiC's dynamic buffer calculation sizes it (the vendor
// plugins cfgmgr/buffer_headroom_<vendor>.lua of sonic-swss; the terms of its
// "Dynamically Headroom Calculation" design), so a vendor profile can be
// set beside the 802.1Qbb bound above. Its terms, in bytes:
//   worst_case_factor  cell > 128 B: cell / 64; else 2 x cell / (1 + cell):
//                      how many bytes of buffer a 64 B packet costs
//   cell_occupancy     (100 - p + p x worst_case_factor) / 100 for p % of
//                      small packets
//   bytes_on_cable     2 x cable length x rate / (1.98e8 m/s) / 8: the round
//                      trip (light at about 2/3 c)
//   bytes_on_gearbox   rate x gearbox delay / 8, counted both ways
//   mac_phy_delay      bytes in the switch's egress pipeline and PHY when XOFF
//                      is generated (an ASIC constant)
//   peer_response      bytes the peer still sends after receiving XOFF: its
//                      response time in pause quanta x 64 B (512 bit times),
//                      IEEE 802.3 Annex 31B.3.7 (394 quanta at 100G), doubled
//                      at 400G as the SONiC plugins do
//   propagation        frame + bytes_on_cable + 2 x gearbox + mac_phy + peer
//   xoff               frame + propagation x cell_occupancy
//   xon                pipeline_latency (an ASIC constant)
//   headroom           xoff + xon
// (The Mellanox plugin counts the cable term twice more, 4 x one way; the
// Barefoot one, followed here, the round trip.) Every term is rounded up.
struct SonicHeadroomInput {
  sim::BitsPerSecond rate;
  int64_t cable_length_mm = 0;
  sim::Bytes frame;                 // the lossless MTU (frame on the wire)
  sim::Bytes cell_size{144};        // ASIC buffer cell
  double small_packet_percent = 0;  // share of 64 B packets, 0..100
  sim::Bytes mac_phy_delay{0};
  int64_t peer_response_quanta = -1;  // -1: IEEE 802.3 31B.3.7's value for the rate
  sim::Duration gearbox_delay;
  sim::Bytes pipeline_latency{0};
};

struct SonicHeadroomResult {
  double worst_case_factor = 1;
  double cell_occupancy = 1;
  sim::Bytes bytes_on_cable;
  sim::Bytes bytes_on_gearbox;
  int64_t peer_response_quanta = 0;
  bool peer_response_doubled = false;  // at 400G, as the SONiC plugins do
  sim::Bytes peer_response;
  sim::Bytes propagation;
  sim::Bytes xoff;
  sim::Bytes xon;
  sim::Bytes headroom;
};

// IEEE 802.3 Annex 31B.3.7: the most pause quanta a MAC may take to stop at
// a given speed (100 Mb/s .. 400 Gb/s); -1 for speeds it does not list.
int64_t ieee_pause_quanta(sim::BitsPerSecond rate);
SonicHeadroomResult sonic_headroom(const SonicHeadroomInput& in);
std::string describe(const SonicHeadroomInput& in, const SonicHeadroomResult& r);

}  // namespace xoff::models
