#pragma once
// Runs a bundled scenario in-process (no results file, no terminal output) and
// gives the tests what the recorder collected.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app/run/runner.h"

namespace xoff::app::testing {

// The whole text of a file (e.g. a bundled scenario to extend).
inline std::string text_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Writes `text` as `file_name` in the temporary directory; returns its path.
// In a directory of this process: CTest runs the tests of one file as parallel
// processes, which must not write each other's scenario.
inline std::string write_temp(const std::string& file_name, const std::string& text) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("xoff_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path p = dir / file_name;
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  return p.string();
}

// Runs the scenario file at `path` (any path) with no output.
inline RunOutcome run_file(const std::string& path, std::vector<std::string> overrides = {}) {
  RunArgs a;
  a.scenario = path;
  a.overrides = std::move(overrides);
  a.quiet = true;
  a.no_output = true;
  a.print_summary = false;
  return run_scenario(a);
}

// `scenario` is a bundled scenario name, or a path under the source tree
// (e.g. "test/app/data/x.toml").
inline RunOutcome run(const std::string& scenario, std::vector<std::string> overrides = {}) {
  return run_file(std::string(XOFF_SOURCE_DIR) +
                      (scenario.find('/') == std::string::npos ? "/scenarios/" : "/") + scenario,
                  std::move(overrides));
}

// Mean of a sampled series over [from_us, to_us).
inline double mean_between(const analysis::RunData& d, const std::string& series, double from_us,
                           double to_us) {
  const analysis::SeriesData* s = d.find_series(series);
  if (s == nullptr) return -1;
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < s->time_ps.size(); ++i) {
    const double t = static_cast<double>(s->time_ps[i]) / 1e6;
    if (t >= from_us && t < to_us) {
      sum += s->value[i];
      ++n;
    }
  }
  return n > 0 ? sum / n : -1;
}

inline int64_t drops(const RunOutcome& o, const std::string& reason) {
  int64_t n = 0;
  for (const auto& d : o.data.drops) {
    if (d.reason == reason) n += d.packets;
  }
  return n;
}

}  // namespace xoff::app::testing
