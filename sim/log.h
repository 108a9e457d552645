#pragma once
// Named loggers per subsystem ("pfc", "mmu", "dcqcn", ...) with the sim time in
// the pattern: `[12.345678us] [pfc] sw3/p2 tc3 XOFF ...`. Per-packet traces use
// XOFF_TRACE, compiled out unless XOFF_ENABLE_TRACE is defined.
#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace xoff::sim {

// Returns the logger for `subsystem`, creating it (stderr, sim-time pattern).
std::shared_ptr<spdlog::logger> logger(const std::string& subsystem);
// Sets the level of every xoff logger (default: warn).
void set_log_level(spdlog::level::level_enum level);

}  // namespace xoff::sim

#ifdef XOFF_ENABLE_TRACE
#define XOFF_TRACE(lg, ...) (lg)->trace(__VA_ARGS__)
#else
#define XOFF_TRACE(lg, ...) \
  do {                      \
  } while (0)
#endif
