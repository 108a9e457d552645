// Hostile input, continuously: seeded mutants of every bundled scenario
// (a line deleted or doubled, a value replaced by an edge value or a wrong
// type, a name by an unknown one) must each end cleanly: load_scenario
// either accepts the file or throws config::ScenarioError with a position
// (what `xoff` turns into exit 2), and an accepted one must build and run a
// bounded number of events without an abort. A crash or an abort fails the
// test; the failing mutant is printed first so it can be reproduced.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "app/config/error.h"
#include "app/run/runner.h"
#include "app/scenario/scenario.h"
#include "sim/rng.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

const char* const kEdgeValues[] = {"0",
                                   "-1",
                                   "9223372036854775807",
                                   "-9223372036854775808",
                                   "1e308",
                                   "-1e308",
                                   "nan",
                                   "inf",
                                   "\"\"",
                                   "\"abc\"",
                                   "[]",
                                   "{}",
                                   "true",
                                   "\"0ps\"",
                                   "\"1ps\"",
                                   "\"10s\"",
                                   "\"1e30Gbps\"",
                                   "\"9223372036854775807B\"",
                                   "\"99999999999999999999KB\"",
                                   "\"-5us\"",
                                   "\"1.5ps\"",
                                   "\"h999999\"",
                                   "\"nosuchnode\"",
                                   "[\"h0\", \"h0\"]",
                                   "0.5",
                                   "1e-300",
                                   "\"100Gbps\"",
                                   "\"1000000s\"",
                                   "\"0B\"",
                                   "[[1]]"};

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l + "\n";
  return s;
}

// One mutation of `lines`, chosen by `rng`; returns a description.
std::string mutate(std::vector<std::string>& lines, sim::Rng& rng) {
  if (lines.empty()) return "empty";
  const size_t i = rng.uniform_int(lines.size());
  switch (rng.uniform_int(5)) {
    case 0: {
      const std::string d = "delete line " + std::to_string(i + 1) + ": " + lines[i];
      lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(i));
      return d;
    }
    case 1:
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(i), lines[i]);
      return "double line " + std::to_string(i + 1) + ": " + lines[i];
    default: {
      // Replace the value of a `key = value` line (search forward for one).
      for (size_t k = 0; k < lines.size(); ++k) {
        const size_t j = (i + k) % lines.size();
        const auto eq = lines[j].find(" = ");
        if (eq == std::string::npos || lines[j][0] == '#') continue;
        const char* v = kEdgeValues[rng.uniform_int(std::size(kEdgeValues))];
        const std::string before = lines[j];
        lines[j] = lines[j].substr(0, eq) + " = " + v;
        return "line " + std::to_string(j + 1) + ": " + before + "  ->  " + lines[j];
      }
      return "no value line";
    }
  }
}

TEST(ScenarioMutants, EveryMutantLoadsOrIsRefusedWithAPositionAndRunsWithoutAbort) {
  // Per process: two test runs on one machine (a clone's CI beside a
  // working tree's) must not remove each other's mutants.
  const fs::path dir = fs::temp_directory_path() / ("xoff_mutants_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "cdf");
  const fs::path src = fs::path(XOFF_SOURCE_DIR) / "scenarios";
  for (const auto& e : fs::directory_iterator(src / "cdf")) {
    fs::copy_file(e.path(), dir / "cdf" / e.path().filename());
  }
  fs::copy(src / "workloads", dir / "workloads");  // the AI cluster's workload files
  std::vector<fs::path> bundled;
  for (const auto& e : fs::directory_iterator(src)) {
    if (e.path().extension() == ".toml") bundled.push_back(e.path());
  }
  std::sort(bundled.begin(), bundled.end());
  ASSERT_FALSE(bundled.empty());
  // A fixed, seeded set: 150 per bundled scenario in CI (about 1,000), more
  // with XOFF_MUTANTS_PER_FILE (the `slow` run: ctest -L slow).
  const char* env = std::getenv("XOFF_MUTANTS_PER_FILE");
  const int per_file = env != nullptr ? std::max(1, std::atoi(env)) : 150;
  int refused = 0;
  int ran = 0;
  for (const fs::path& file : bundled) {
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const char* seed_env = std::getenv("XOFF_MUTANTS_SEED");  // other sets, for exploring
    sim::Rng rng(seed_env != nullptr ? std::strtoull(seed_env, nullptr, 10) : 7,
                 file.filename().string());
    // A 1,024-host fabric takes about half a second to build: fewer mutants.
    const bool big = file.filename().string().starts_with("ai_cluster_1024");
    const int count = big ? std::max(1, per_file / 15) : per_file;
    for (int m = 0; m < count; ++m) {
      std::vector<std::string> lines = lines_of(text);
      std::string what = mutate(lines, rng);
      if (rng.uniform_int(3) == 0) what += "; " + mutate(lines, rng);
      const fs::path mutant = dir / (file.stem().string() + "_" + std::to_string(m) + ".toml");
      std::ofstream(mutant) << join(lines);
      SCOPED_TRACE(mutant.string() + ": " + what);
      std::printf("[mutant] %s: %s\n", mutant.filename().c_str(), what.c_str());
      std::fflush(stdout);
      bool loaded = false;
      try {
        (void)load_scenario(mutant.string(), {});
        loaded = true;
      } catch (const config::ScenarioError& e) {
        const std::string msg = e.what();
        // Positioned: "file:line:col: error: ..." (or "--set ...", or file:0:0 for a file).
        EXPECT_NE(msg.find(": error: "), std::string::npos) << msg;
        ++refused;
      } catch (const std::exception& e) {
        ADD_FAILURE() << "not a ScenarioError: " << e.what();
      }
      if (!loaded) continue;
      RunArgs a;
      a.scenario = mutant.string();
      a.no_output = true;
      a.quiet = true;
      a.print_summary = false;
      a.max_events = 20'000;
      a.log_level = "off";
      const RunOutcome o = run_scenario(a);  // an abort here fails the test
      EXPECT_TRUE(o.exit_code == 0 || o.exit_code == 2 || o.exit_code == 3) << o.exit_code;
      ++ran;
    }
  }
  std::printf("%d mutants refused with a position, %d loaded and ran\n", refused, ran);
  EXPECT_GT(refused, 0);
  EXPECT_GT(ran, 0);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace xoff::app
