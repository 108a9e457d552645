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
  try {
    const models::HeadroomResult r = models::pfc_headroom(in);
    std::printf("%s", models::describe(in, r).c_str());
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "xoff headroom: error: %s\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace xoff::app
