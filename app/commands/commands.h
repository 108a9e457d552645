#pragma once
// The subcommands of `xoff`, one function each; main() only parses arguments.
// Each returns the process exit code: 0 success, 1 runtime failure, 2 bad input.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace xoff::app {

struct RunArgs {
  std::string scenario;                // path to the .toml file
  std::string output;                  // results file; "" = out/<name>.h5
  std::optional<uint64_t> seed;        // overrides scenario.seed
  std::vector<std::string> overrides;  // --set key=value
  bool quiet = false;                  // no progress, summary only
  bool no_output = false;              // run without writing results
  bool print_summary = true;           // tests turn the terminal summary off
  bool reproducible = false;           // record no wall time: byte-identical files
  bool stats = false;                  // count events per kind, print the profile
  std::string log_level = "warn";
};

struct CheckArgs {
  std::vector<std::string> scenarios;
  std::vector<std::string> overrides;
};

struct HeadroomArgs {
  std::string rate = "100Gbps";
  std::string cable = "100m";
  std::string mtu = "9KB";
  std::string response_delay = "1us";
};

struct ListArgs {
  std::string directory = "scenarios";
};

struct SweepArgs {
  RunArgs base;
  std::string parameter;            // key to vary, e.g. buffer.alpha
  std::vector<std::string> values;  // values, each as in --set
  std::string output_dir;           // one results file per value
};

int cmd_run(const RunArgs& a);
int cmd_check(const CheckArgs& a);
int cmd_headroom(const HeadroomArgs& a);
int cmd_list(const ListArgs& a);
int cmd_sweep(const SweepArgs& a);

}  // namespace xoff::app
