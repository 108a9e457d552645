// Fuzz target for the scenario loader and what a loaded scenario builds.
//
// One input = the bytes of a scenario file. It is written into a work
// directory holding copies of the bundled cdf/ and workloads/ (so references
// from the corpus resolve), then:
//   - load_scenario either accepts it or throws config::ScenarioError whose
//     message is positioned ("<where>: error: ..."), i.e. `xoff` exits 2 with
//     a message; any other exception is a finding;
//   - an accepted scenario estimated above 256 MB is refused, as `xoff run
//     --max-memory` would (exit 2), so a fuzzer cannot ask for a fabric that
//     takes minutes to build;
//   - the rest is built (World, which must not throw: the loader is meant to
//     refuse what the models cannot take) and run for at most 20,000 events,
//     then conservation is checked. A broken invariant aborts.
// Built two ways from this file (test/fuzz/CMakeLists.txt):
//   - with clang and -fsanitize=fuzzer (+ address, undefined): libFuzzer
//     drives it (scripts/fuzz.sh);
//   - with any compiler, linked with fuzz_driver.cc: a seeded, bounded
//     mutation run over the corpus as a normal CTest test.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>

#include "analysis/results/h5_writer.h"
#include "app/config/error.h"
#include "app/run/estimate.h"
#include "app/run/world.h"
#include "app/scenario/scenario.h"
#include "sim/log.h"

namespace {
namespace fs = std::filesystem;

constexpr uint64_t kMaxMemory = 256ull << 20;
constexpr uint64_t kMaxEvents = 20'000;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "scenario_fuzz: FINDING: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

const fs::path& work_dir() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("xoff_fuzz_" + std::to_string(getpid()));
    std::error_code ec;
    fs::remove_all(d, ec);
    fs::create_directories(d);
    const fs::path src = fs::path(XOFF_SOURCE_DIR) / "scenarios";
    for (const char* sub : {"cdf", "workloads"}) {
      fs::copy(src / sub, d / sub, fs::copy_options::recursive, ec);
    }
    xoff::sim::set_log_level(spdlog::level::off);
    std::atexit([] {
      std::error_code e;
      fs::remove_all(work_dir(), e);
    });
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path file = work_dir() / "input.toml";
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  xoff::app::ScenarioConfig cfg;
  try {
    cfg = xoff::app::load_scenario(file.string(), {});
  } catch (const xoff::config::ScenarioError& e) {
    const std::string msg = e.what();
    if (msg.find(": error: ") == std::string::npos) finding("unpositioned error: " + msg);
    return 0;  // exit 2 with a message
  } catch (const std::exception& e) {
    finding(std::string("load_scenario threw a non-ScenarioError: ") + e.what());
  }
  if (xoff::app::estimate_memory(cfg).bytes > kMaxMemory) return 0;  // refused up front
  xoff::analysis::H5Recorder rec;
  std::unique_ptr<xoff::app::World> world;
  try {
    world = std::make_unique<xoff::app::World>(cfg, rec);
  } catch (const std::exception& e) {
    finding(std::string("the loader accepted what the models refuse: ") + e.what());
  }
  world->start();
  xoff::app::World::Limits limits;
  limits.max_events = kMaxEvents;
  (void)world->run(nullptr, limits);
  world->net().report_counters();
  world->traffic().report_unfinished();
  world->net().check_conservation();
  return 0;
}
