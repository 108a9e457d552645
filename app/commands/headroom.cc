// `xoff headroom`: the PFC headroom a lossless priority group needs for one link.
#include "models/topology/headroom.h"

#include <cstdio>

#include "app/commands/commands.h"
#include "sim/unit_parse.h"

namespace xoff::app {

int cmd_headroom(const HeadroomArgs& a) {
  models::HeadroomInput in;
  try {
    in.rate = sim::parse_rate(a.rate);
    in.cable_length_mm = sim::parse_length_mm(a.cable);
    in.mtu = sim::parse_bytes(a.mtu);
    in.response_delay = sim::parse_duration(a.response_delay);
  } catch (const sim::UnitError& e) {
    std::fprintf(stderr, "xoff headroom: error: %s\n", e.what());
    return 2;
  }
  // The same ceilings as scenario values: nothing physical is larger, and
  // larger values would wrap the arithmetic (a 2^63 B frame printed 25 KB).
  const char* bad =
      in.rate.count() <= 0 || in.rate.count() > 100'000'000'000'000
          ? "--rate must be above 0 and at most 100Tbps"
      : in.mtu.count() < 64 || in.mtu.count() > 1'000'000 ? "--frame must be between 64B and 1MB"
      : in.cable_length_mm < 0 || in.cable_length_mm > 100'000'000'000
          ? "--cable must be between 0 and 100000km"
      : in.response_delay.count_ps() < 0 || in.response_delay.count_ps() > 1'000'000'000'000
          ? "--response-delay must be between 0 and 1s"
          : nullptr;
  if (bad != nullptr) {
    std::fprintf(stderr, "xoff headroom: error: %s\n", bad);
    return 2;
  }
  try {
    const models::HeadroomResult r = models::pfc_headroom(in);
    std::printf("%s", models::describe(in, r).c_str());
    if (a.sonic) {
      models::SonicHeadroomInput s;
      s.rate = in.rate;
      s.cable_length_mm = in.cable_length_mm;
      s.frame = in.mtu;
      s.small_packet_percent = a.small_packets;
      s.peer_response_quanta = a.peer_quanta;
      try {
        s.cell_size = sim::parse_bytes(a.cell);
        s.mac_phy_delay = sim::parse_bytes(a.mac_phy);
        s.gearbox_delay = sim::parse_duration(a.gearbox);
        s.pipeline_latency = sim::parse_bytes(a.pipeline);
      } catch (const sim::UnitError& e) {
        std::fprintf(stderr, "xoff headroom: error: %s\n", e.what());
        return 2;
      }
      const char* bad_sonic =
          s.cell_size.count() < 1 || s.cell_size.count() > 65536 ? "--cell must be 1B..64KiB"
          : s.mac_phy_delay.count() < 0 || s.mac_phy_delay.count() > 100'000'000
              ? "--mac-phy must be 0..100MB"
          : s.pipeline_latency.count() < 0 || s.pipeline_latency.count() > 100'000'000
              ? "--pipeline must be 0..100MB"
          : s.gearbox_delay.count_ps() < 0 || s.gearbox_delay.count_ps() > 1'000'000'000
              ? "--gearbox must be 0..1ms"
              : nullptr;
      if (bad_sonic != nullptr) {
        std::fprintf(stderr, "xoff headroom: error: %s\n", bad_sonic);
        return 2;
      }
      const models::SonicHeadroomResult sr = models::sonic_headroom(s);
      std::printf("\n%s", models::describe(s, sr).c_str());
      std::printf("  difference        SONiC headroom - 802.1Qbb bound        %9lld B\n",
                  static_cast<long long>((sr.headroom - r.total).count()));
    }
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "xoff headroom: error: %s\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace xoff::app
