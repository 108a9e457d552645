#pragma once
// One run of a scenario: load and validate, build, run with progress, check the
// invariants, summarise, write results. Shared by `xoff run` and `xoff sweep`.
#include <cstdint>
#include <optional>
#include <string>

#include "analysis/results/h5_writer.h"
#include "analysis/results/run_data.h"
#include "app/commands/commands.h"
#include "app/scenario/scenario.h"
#include "models/core/network.h"

namespace xoff::app {

struct RunOutcome {
  int exit_code = 0;        // 0 ok, 1 runtime failure, 2 bad input
  std::string output_path;  // "" when nothing was written
  analysis::RunData data;   // what the recorder collected (tables and series)
  int64_t lossless_violations = 0;
  int64_t pause_frames = 0;  // XOFF frames sent by every node
  int64_t ecn_marks = 0;
  bool traffic_finished = false;
  std::string status = "complete";  // as /meta@status
};

// Runs `a`; prints progress (unless quiet) and the summary to stdout.
RunOutcome run_scenario(const RunArgs& a);

// Default results path: out/<scenario file stem>.h5
std::string default_output(const std::string& scenario_path);

// The topology for pictures, with each link's state at the end of the run
// (`net` null: before it, every link up).
void set_topology(analysis::H5Recorder& rec, const models::Topology& t,
                  models::Network* net = nullptr);
class World;
// The end of a run, shared by xoff run and each process of xoff-mpi: counters
// and unfinished flows to the recorder, the topology as the run left it, the
// tables in canonical order, the conservation check; returns the metadata.
analysis::RunMetadata finish_run(World& w, analysis::H5Recorder& rec, const ScenarioConfig& cfg,
                                 const RunArgs& a, const std::string& status, double wall_seconds);
// The overrides a run applies, in order: --variant, the --set list, --seed.
std::vector<std::string> run_overrides(const RunArgs& a);
// The scenario as run, for /meta: the file after overrides, with the
// command-line changes appended as comments.
std::string scenario_text(const ScenarioConfig& cfg, const RunArgs& a);

}  // namespace xoff::app
