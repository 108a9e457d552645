#pragma once
// The subcommands of `xoff`, one function each; main() only parses arguments.
// Each returns the process exit code: 0 success, 1 runtime failure, 2 bad input.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/results/run_data.h"

namespace xoff::app {

struct RunArgs {
  std::string scenario;                // path to the .toml file
  std::string output;                  // results file; "" = out/<name>.h5
  std::optional<uint64_t> seed;        // overrides scenario.seed
  std::string variant;                 // --variant NAME: merged before the overrides
  std::vector<std::string> overrides;  // --set key=value
  bool quiet = false;                  // no progress, summary only
  bool no_output = false;              // run without writing results
  bool print_summary = true;           // tests turn the terminal summary off
  bool reproducible = false;           // record no wall time: byte-identical files
  bool stats = false;                  // count events per kind, print the profile
  uint64_t max_events = 0;             // stop after this many events (0 = none)
  double max_wall = 0;                 // stop after this many wall seconds (0 = none)
  std::string max_memory;              // --max-memory SIZE ("" = 80 % of RAM, "off")
  std::string pcap_dir;                // --pcap DIR: captures there ("" = [[monitor.pcap]] only)
  std::string log_level = "warn";
  std::string partition = "leaf";  // xoff-mpi: "leaf" (contiguous groups) | "metis"
};

struct CheckArgs {
  std::vector<std::string> scenarios;
  std::string variant;  // --variant NAME
  std::vector<std::string> overrides;
};

struct HeadroomArgs {
  std::string rate = "100Gbps";
  std::string cable = "100m";
  std::string mtu = "9KB";
  std::string response_delay = "1us";
  // --sonic: SONiC's dynamic buffer calculation with these ASIC terms.
  bool sonic = false;
  std::string cell = "144B";
  double small_packets = 0;  // percent
  std::string mac_phy = "0B";
  int64_t peer_quanta = -1;  // -1: IEEE 802.3 31B.3.7 for the rate
  std::string gearbox = "0ns";
  std::string pipeline = "0B";
};

struct ListArgs {
  std::string directory = "scenarios";
};

struct SweepArgs {
  std::string scenario;            // a new sweep's scenario file
  std::vector<std::string> fixed;  // --set key=value for every point
  std::vector<std::string> grid;   // --grid KEY=V1,V2,... (repeatable)
  std::string seeds;               // --seeds 1-5: replicates ("" = the scenario's seed)
  std::string output_dir;          // -o DIR ("" = out/sweep_<scenario stem>)
  std::string resume;              // --resume DIR: run what is missing there
  int jobs = 1;                    // -j N local processes at once
  std::string emit;                // "" run here | "slurm" | "parallel": write, do not run
  std::string slurm_time = "01:00:00";
  std::string slurm_mem = "2G";
  std::string slurm_partition;
  std::string xoff_binary;  // what each point runs ("" = this process's executable)
  int processes = 1;        // > 1: each point runs across that many MPI processes (xoff-mpi)
  bool quiet = false;       // no per-point progress lines
};

struct CollectArgs {
  std::string dir;                   // a sweep directory
  std::string output;                // table.csv or table.h5 ("" = terminal only)
  std::vector<std::string> metrics;  // terminal columns ("" = the headline ones)
};

struct CompareArgs {
  std::string before;  // A.h5
  std::string after;   // B.h5
  bool all = false;    // also list the metrics that are equal
};

// One metric of two runs; change_percent = 100 (after - before) / |before|,
// NaN when either is missing or before is 0 and after is not.
struct CompareRow {
  std::string name;
  double before = 0;
  double after = 0;
  double change_percent = 0;
};
std::vector<CompareRow> compare_runs(const analysis::RunData& a, const analysis::RunData& b);

struct ExportArgs {
  std::string format = "hpcc";
  std::string input;   // RUN.h5
  std::string output;  // directory
};

int cmd_run(const RunArgs& a);
int cmd_export(const ExportArgs& a);

struct ImportArgs {
  std::string format = "hpcc";
  std::string input;   // the other simulator's config file
  std::string output;  // scenario to write ("" = out/hpcc_import.toml)
};
int cmd_import(const ImportArgs& a);

struct CountersArgs {
  std::string input;  // RUN.h5
  std::string node;   // "" = every node
  int port = -1;      // -1 = every port
  bool all = false;   // zeros too
};
int cmd_counters(const CountersArgs& a);
int cmd_compare(const CompareArgs& a);
int cmd_check(const CheckArgs& a);
int cmd_headroom(const HeadroomArgs& a);
int cmd_list(const ListArgs& a);
int cmd_sweep(const SweepArgs& a);
int cmd_collect(const CollectArgs& a);

}  // namespace xoff::app
