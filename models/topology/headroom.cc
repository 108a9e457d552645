#include "models/topology/headroom.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "sim/unit_parse.h"

namespace xoff::models {
namespace {

// Bytes `rate` carries in `d`, rounded up: bytes_in rounds down, so add one byte
// unless d x rate is a whole number of bytes (exact 128-bit remainder).
sim::Bytes bytes_in_ceil(sim::Duration d, sim::BitsPerSecond rate) {
  const sim::Bytes floor = sim::bytes_in(d, rate);
  const sim::Int128 bits_x_1e12 = static_cast<sim::Int128>(d.count_ps()) * rate.count();
  const bool whole = bits_x_1e12 % (static_cast<sim::Int128>(8) * 1'000'000'000'000) == 0;
  return whole ? floor : floor + sim::Bytes(1);
}

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(std::string("headroom: ") + what);
}

std::string line(const char* term, const std::string& how, sim::Bytes b) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "  %-17s %-38s %9lld B\n", term, how.c_str(),
                static_cast<long long>(b.count()));
  return buf;
}

}  // namespace

HeadroomResult pfc_headroom_for_delay(sim::BitsPerSecond rate, sim::Duration cable_delay,
                                      sim::Bytes mtu, sim::Duration response_delay) {
  require(rate.count() > 0, "rate must be positive");
  require(mtu.count() > 0, "MTU must be positive");
  require(cable_delay >= sim::Duration::zero(), "cable delay must not be negative");
  require(response_delay >= sim::Duration::zero(), "response delay must not be negative");
  HeadroomResult r;
  r.cable_delay = cable_delay;
  r.cable_round_trip = bytes_in_ceil(cable_delay * 2, rate);
  r.local_frame = mtu;
  r.upstream_frame = mtu;
  r.response = bytes_in_ceil(response_delay, rate);
  r.pause_frame = kPauseFrameBytes;
  r.total = r.cable_round_trip + r.local_frame + r.upstream_frame + r.response + r.pause_frame;
  return r;
}

HeadroomResult pfc_headroom(const HeadroomInput& in) {
  require(in.cable_length_mm >= 0, "cable length must not be negative");
  require(in.propagation_ps_per_m >= 0, "propagation delay per metre must not be negative");
  // length [mm] x ps/m / 1000 mm/m, rounded up to a whole picosecond.
  const int64_t one_way_ps = (in.cable_length_mm * in.propagation_ps_per_m + 999) / 1000;
  return pfc_headroom_for_delay(in.rate, sim::Duration::ps(one_way_ps), in.mtu, in.response_delay);
}

std::string describe(const HeadroomInput& in, const HeadroomResult& r) {
  using sim::format_bytes;
  using sim::format_duration;
  const std::string rate = sim::format_rate(in.rate);
  char head[200];
  std::snprintf(head, sizeof head, "PFC headroom at %s, %.3f m cable, MTU %s, response %s:\n",
                rate.c_str(), static_cast<double>(in.cable_length_mm) / 1000.0,
                format_bytes(in.mtu).c_str(), format_duration(in.response_delay).c_str());
  std::string out = head;
  out += line("cable round trip", "2 x " + format_duration(r.cable_delay) + " at " + rate,
              r.cable_round_trip);
  out += line("local frame", "1 MTU ahead of the PAUSE (MTU[R])", r.local_frame);
  out += line("upstream frame", "1 MTU finished by the sender (MTU[S])", r.upstream_frame);
  out += line("response delay", format_duration(in.response_delay) + " at " + rate, r.response);
  out += line("PAUSE frame", "64 B PFC frame on the wire", r.pause_frame);
  out += line("total", "= " + format_bytes(r.total), r.total);
  return out;
}

int64_t ieee_pause_quanta(sim::BitsPerSecond rate) {
  struct Row {
    int64_t per_100mbps;  // the rate in units of 100 Mb/s
    int64_t quanta;
  };
  static constexpr Row kTable[] = {{1, 1},     {10, 2},     {100, 67},   {250, 80},  {400, 118},
                                   {500, 147}, {1000, 394}, {2000, 453}, {4000, 905}};
  if (rate.count() % 100'000'000 != 0) return -1;
  for (const Row& row : kTable) {
    if (row.per_100mbps == rate.count() / 100'000'000) return row.quanta;
  }
  return -1;
}

SonicHeadroomResult sonic_headroom(const SonicHeadroomInput& in) {
  require(in.rate.count() > 0, "rate must be positive");
  require(in.frame.count() > 0, "frame must be positive");
  require(in.cell_size.count() > 0, "cell size must be positive");
  require(in.small_packet_percent >= 0 && in.small_packet_percent <= 100,
          "small-packet share must be 0..100 %");
  require(in.cable_length_mm >= 0, "cable length must not be negative");
  SonicHeadroomResult r;
  const double cell = static_cast<double>(in.cell_size.count());
  r.worst_case_factor = cell > 2 * 64 ? cell / 64 : (2 * cell) / (1 + cell);
  r.cell_occupancy =
      (100 - in.small_packet_percent + in.small_packet_percent * r.worst_case_factor) / 100;
  const double bps = static_cast<double>(in.rate.count());
  auto up = [](double b) { return sim::Bytes(static_cast<int64_t>(std::ceil(b - 1e-9))); };
  // 2 x length [m] x rate [bit/s] / (1.98e8 m/s) / 8 bit/B
  r.bytes_on_cable = up(2.0 * static_cast<double>(in.cable_length_mm) / 1000.0 * bps / 1.98e8 / 8);
  r.bytes_on_gearbox = up(bps * static_cast<double>(in.gearbox_delay.count_ps()) * 1e-12 / 8);
  r.peer_response_quanta =
      in.peer_response_quanta >= 0 ? in.peer_response_quanta : ieee_pause_quanta(in.rate);
  require(r.peer_response_quanta >= 0,
          "no IEEE 802.3 31B.3.7 pause quanta for this rate: give the peer response in quanta");
  r.peer_response_doubled = in.rate.count() == 400'000'000'000;
  r.peer_response = sim::Bytes(r.peer_response_quanta * 64 * (r.peer_response_doubled ? 2 : 1));
  r.propagation =
      in.frame + r.bytes_on_cable + r.bytes_on_gearbox * 2 + in.mac_phy_delay + r.peer_response;
  r.xoff = in.frame + up(static_cast<double>(r.propagation.count()) * r.cell_occupancy);
  r.xon = in.pipeline_latency;
  r.headroom = r.xoff + r.xon;
  return r;
}

std::string describe(const SonicHeadroomInput& in, const SonicHeadroomResult& r) {
  using sim::format_bytes;
  const std::string rate = sim::format_rate(in.rate);
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "PFC headroom as SONiC's dynamic buffer calculation sizes it, at %s, %.3f m "
                "cable, frame %s, cell %s, %g %% small packets:\n",
                rate.c_str(), static_cast<double>(in.cable_length_mm) / 1000.0,
                format_bytes(in.frame).c_str(), format_bytes(in.cell_size).c_str(),
                in.small_packet_percent);
  std::string out = buf;
  char factor[64];
  std::snprintf(factor, sizeof factor, "worst-case factor %.4f", r.worst_case_factor);
  std::snprintf(buf, sizeof buf, "  %-17s %-38s %9.4f\n", "cell occupancy", factor,
                r.cell_occupancy);
  out += buf;
  out += line("bytes on cable", "round trip at 1.98e8 m/s", r.bytes_on_cable);
  out += line("bytes on gearbox", "x 2 (both ways): " + format_bytes(r.bytes_on_gearbox * 2),
              r.bytes_on_gearbox);
  out += line("MAC/PHY delay", "ASIC constant", in.mac_phy_delay);
  out += line("peer response",
              std::to_string(r.peer_response_quanta) + " quanta x 64 B" +
                  (r.peer_response_doubled ? " x 2 (400G)" : ""),
              r.peer_response);
  out += line("propagation", "frame + cable + 2 gearbox + MAC/PHY + peer", r.propagation);
  out += line("xoff", "frame + propagation x occupancy", r.xoff);
  out += line("xon", "pipeline latency", r.xon);
  out += line("headroom", "xoff + xon = " + format_bytes(r.headroom), r.headroom);
  return out;
}

}  // namespace xoff::models
