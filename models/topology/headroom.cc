#include "models/topology/headroom.h"

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

}  // namespace xoff::models
