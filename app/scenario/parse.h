#pragma once
// The sections of the scenario schema, one reader function each (load.cc calls
// them in order). Every function records problems in the reader's diagnostics
// and never throws for bad input.
#include <optional>

#include "app/config/reader.h"
#include "app/scenario/parse_util.h"
#include "app/scenario/scenario.h"

namespace xoff::app {

void read_routing(std::optional<config::TableReader> r, Names& names, RoutingConfig& out);
// [buffer], [pfc], [ecn], [classification], [scheduler], [watchdog]
void read_switch(config::TableReader& root, ScenarioConfig& s);
// [nic] (RoCE, DCQCN) and [tcp]
void read_endpoints(config::TableReader& root, ScenarioConfig& s);
void read_traffic(std::optional<config::TableReader> r, Names& names, ScenarioConfig& s);
void read_collectives(config::TableReader& root, Names& names, ScenarioConfig& s);
void read_faults(config::TableReader& root, Names& names, ScenarioConfig& s);
// [[device]] overrides, DCBX per link, and the cross-link inconsistencies
// (after read_switch: the fabric-wide settings are the defaults).
void read_devices(config::TableReader& root, Names& names, ScenarioConfig& s);
// A [watchdog] table (or a [device.watchdog]) onto `w`; present = enabled.
void read_watchdog(std::optional<config::TableReader> r, models::WatchdogConfig& w);
// An [ecn] table (or a [device.ecn]) onto `e`, from the model defaults.
void read_ecn(std::optional<config::TableReader> r, models::EcnConfig& e);
// [[buffer.profile]] and buffer.headroom_profile: per-port headroom by link
// rate and cable length (after read_endpoints: "auto" needs the frame size).
void read_buffer_profiles(config::TableReader& root, ScenarioConfig& s);
// After everything: refuses PFC headroom below the physical bound.
void check_headroom(config::TableReader& root, const ScenarioConfig& s);
void check_switch_config(config::TableReader& root, const ScenarioConfig& s);
// DCQCN's minimum rate must not exceed any host's link rate.
void check_endpoints(config::TableReader& root, const ScenarioConfig& s);
void read_monitor(std::optional<config::TableReader> r, Names& names, MonitorConfig& out);

}  // namespace xoff::app
