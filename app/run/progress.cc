#include "app/run/progress.h"

#include <unistd.h>

#include <cstdio>

#include "sim/unit_parse.h"

namespace xoff::app {

Progress::Progress(bool enabled, sim::Duration total)
    : enabled_(enabled && isatty(STDERR_FILENO) != 0),
      total_(total),
      start_(Clock::now()),
      last_print_(start_) {}

double Progress::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

void Progress::update(sim::Time now, uint64_t events, uint64_t flows_done, uint64_t flows_total) {
  if (!enabled_) return;
  const auto t = Clock::now();
  if (t - last_print_ < std::chrono::milliseconds(250)) return;
  last_print_ = t;
  const double wall = elapsed_seconds();
  const double frac = total_.count_ps() > 0 ? static_cast<double>(now.count_ps()) /
                                                  static_cast<double>(total_.count_ps())
                                            : 0.0;
  const double eta = frac > 0 ? wall * (1 - frac) / frac : 0.0;
  std::fprintf(
      stderr, "\r  sim %s / %s (%3.0f%%)  %.2f M events/s  flows %llu/%llu  ETA <= %.0fs   ",
      sim::format_duration(now.since_epoch()).c_str(), sim::format_duration(total_).c_str(),
      100 * frac, wall > 0 ? static_cast<double>(events) / wall / 1e6 : 0.0,
      static_cast<unsigned long long>(flows_done), static_cast<unsigned long long>(flows_total),
      eta);
  printed_ = true;
}

void Progress::finish() {
  if (printed_) std::fprintf(stderr, "\r%*s\r", 100, "");
}

}  // namespace xoff::app
