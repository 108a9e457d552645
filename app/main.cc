// The `xoff` command: parses arguments and hands each subcommand to its function.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "app/commands/commands.h"
#include "app/config/suggest.h"
#include "app/run/huge_pages.h"

namespace {
using namespace xoff::app;

void add_run(CLI::App& cli, RunArgs& a) {
  auto* run = cli.add_subcommand("run", "Run a scenario and write its results (HDF5)");
  run->add_option("scenario", a.scenario, "Scenario file (.toml)")->required();
  run->add_option("-o,--output", a.output, "Results file (default: out/<scenario>.h5)");
  run->add_option("--seed", a.seed, "Override the scenario's seed");
  run->add_option("--set", a.overrides, "Override a scenario value: key=value (repeatable)");
  run->add_option("--variant", a.variant,
                  "Merge the scenario's [variant.NAME] table (= --set scenario.variant=NAME)");
  run->add_flag("-q,--quiet", a.quiet, "No progress display");
  run->add_flag("--no-output", a.no_output, "Do not write a results file");
  run->add_flag("--reproducible", a.reproducible,
                "Record no wall time, so equal runs give byte-identical files");
  run->add_flag("--stats", a.stats,
                "Print where the events went: count and share per event kind (what the "
                "scenario costs), the windows, peak memory and the packet pool's peak");
  run->add_option("--max-events", a.max_events,
                  "Stop after this many events; the results are kept, marked partial (exit 3)");
  run->add_option("--max-wall", a.max_wall,
                  "Stop after this many wall-clock seconds; results kept, marked partial (exit 3)");
  run->add_option("--max-memory", a.max_memory,
                  "Refuse a scenario estimated to need more (a size like 8GB, or off; "
                  "default 80% of this machine's memory)");
  run->add_option("--pcap", a.pcap_dir,
                  "Write pcap files of transmitted frames to DIR ([[monitor.pcap]] ports, or "
                  "every host's NIC port)");
  run->add_option("--log-level", a.log_level, "trace|debug|info|warn|error|off")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
}

void add_sweep(CLI::App& cli, SweepArgs& a) {
  auto* sw = cli.add_subcommand(
      "sweep", "Run a scenario over a grid of values and seeds (here, or on Slurm / GNU parallel)");
  sw->add_option("scenario", a.scenario, "Scenario file (.toml)");
  sw->add_option("--grid", a.grid, "KEY=V1,V2,...: values of one key (repeatable: the product)");
  sw->add_option("--seeds", a.seeds, "Replicate seeds: 1-5, or 1,3,7");
  sw->add_option("--set", a.fixed, "Fixed override of every point: key=value (repeatable)");
  sw->add_option("-o,--output-dir", a.output_dir,
                 "Sweep directory (default: out/sweep_<scenario>)");
  sw->add_option("-j,--jobs", a.jobs, "Points run at once, as local processes")
      ->capture_default_str();
  sw->add_option("--emit", a.emit,
                 "Write the job for another engine instead of running: slurm (DIR/sweep.sbatch, "
                 "a job array) or parallel (DIR/parallel.txt)");
  sw->add_option("--resume", a.resume,
                 "Sweep directory: run (or --emit) only the points without complete results");
  sw->add_option("--slurm-time", a.slurm_time, "Slurm --time per point")->capture_default_str();
  sw->add_option("--slurm-mem", a.slurm_mem, "Slurm --mem per point")->capture_default_str();
  sw->add_option("--slurm-partition", a.slurm_partition, "Slurm --partition");
  sw->add_option("--processes", a.processes,
                 "Run each point across N MPI processes with xoff-mpi (srun under --emit "
                 "slurm, mpirun -np N otherwise)")
      ->capture_default_str();
  sw->add_flag("-q,--quiet", a.quiet, "Report failed points only");
}

void add_collect(CLI::App& cli, CollectArgs& a) {
  auto* c = cli.add_subcommand("collect", "Merge a sweep's runs into one table (.csv or .h5)");
  c->add_option("dir", a.dir, "Sweep directory")->required();
  c->add_option("-o,--output", a.output, "Table file: .csv or .h5");
  c->add_option("--metrics", a.metrics,
                "Columns of the terminal table (default: the headline ones)")
      ->delimiter(',');
}

}  // namespace

int xoff_main(int argc, char** argv) {
  CLI::App cli{
      "xoff: packet-level simulator of lossless Ethernet fabrics (RoCEv2, PFC, ECN/DCQCN, TCP)"};
  cli.set_version_flag("--version", std::string("xoff ") + XOFF_VERSION);
  cli.require_subcommand(0, 1);
  std::string help_topic;
  auto* help = cli.add_subcommand("help", "Commands and options; `xoff help CMD` for one command");
  help->add_option("command", help_topic, "A command");
  RunArgs run;
  CheckArgs check;
  HeadroomArgs headroom;
  ListArgs list;
  SweepArgs sweep;
  CollectArgs collect;
  CompareArgs compare;
  ExportArgs exp;
  ImportArgs imp;
  CountersArgs counters;
  add_run(cli, run);
  add_sweep(cli, sweep);
  add_collect(cli, collect);
  auto* cmp =
      cli.add_subcommand("compare", "Two runs side by side: every headline metric and its change");
  cmp->add_option("before", compare.before, "Results file A (.h5)")->required();
  cmp->add_option("after", compare.after, "Results file B (.h5)")->required();
  cmp->add_flag("--all", compare.all, "Also list the metrics that are equal");
  auto* ex = cli.add_subcommand(
      "export",
      "A run's results in another simulator's text formats (hpcc: fct.txt, pfc.txt, qlen.txt)");
  ex->add_option("format", exp.format, "hpcc")->required()->check(CLI::IsMember({"hpcc"}));
  ex->add_option("results", exp.input, "Results file (.h5)")->required();
  ex->add_option("-o,--output", exp.output, "Directory for the text files")->required();
  auto* ct = cli.add_subcommand(
      "counters", "A run's port counters as NICs and switches name them (pause, ECN, watermarks)");
  ct->add_option("results", counters.input, "Results file (.h5)")->required();
  ct->add_option("--node", counters.node, "Only this node");
  ct->add_option("--port", counters.port, "Only this port");
  ct->add_flag("--all", counters.all, "Print zero counters too");
  auto* im = cli.add_subcommand(
      "import", "Another simulator's run configuration as a scenario (hpcc: mix/config.txt)");
  im->add_option("format", imp.format, "hpcc")->required()->check(CLI::IsMember({"hpcc"}));
  im->add_option("config", imp.input, "Its configuration file")->required();
  im->add_option("-o,--output", imp.output,
                 "Scenario file to write (default out/hpcc_import.toml)");
  auto* chk = cli.add_subcommand("check", "Validate scenario files without running them");
  chk->add_option("scenarios", check.scenarios, "Scenario files")->required();
  chk->add_option("--set", check.overrides, "Override a scenario value: key=value");
  chk->add_option("--variant", check.variant, "Check with the scenario's [variant.NAME] merged");
  auto* hr = cli.add_subcommand("headroom", "PFC headroom a lossless priority group needs");
  hr->add_option("--rate", headroom.rate, "Link rate")->capture_default_str();
  hr->add_option("--cable", headroom.cable, "Cable length")->capture_default_str();
  // The largest frame on the wire, headers included (not nic.mtu, which is RoCE payload);
  // --mtu is the old name, still accepted.
  hr->add_option("--frame,--mtu", headroom.mtu,
                 "Largest frame on the wire, headers included (nic.mtu + 62 B for RoCE)")
      ->capture_default_str();
  hr->add_option("--response-delay", headroom.response_delay, "Sender's PFC reaction time")
      ->capture_default_str();
  hr->add_flag("--sonic", headroom.sonic,
               "Also size it as SONiC's dynamic buffer calculation does (the ASIC terms below)");
  hr->add_option("--cell", headroom.cell, "--sonic: ASIC buffer cell size")->capture_default_str();
  hr->add_option("--small-packets", headroom.small_packets,
                 "--sonic: share of 64 B packets, percent")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  hr->add_option("--mac-phy", headroom.mac_phy, "--sonic: bytes in the egress pipeline and PHY")
      ->capture_default_str();
  hr->add_option("--peer-quanta", headroom.peer_quanta,
                 "--sonic: peer response in pause quanta (default: IEEE 802.3 31B.3.7)")
      ->check(CLI::Range(int64_t{0}, int64_t{65535}));
  hr->add_option("--gearbox", headroom.gearbox, "--sonic: gearbox delay")->capture_default_str();
  hr->add_option("--pipeline", headroom.pipeline, "--sonic: pipeline latency (the XON term)")
      ->capture_default_str();
  auto* ls = cli.add_subcommand("list", "List the bundled scenarios");
  ls->add_option("directory", list.directory, "Scenario directory")->capture_default_str();
  // A first word that is not an option must be a command: suggest the nearest.
  std::vector<std::string> commands;
  for (const CLI::App* s : cli.get_subcommands({})) commands.push_back(s->get_name());
  if (argc > 1 && argv[1][0] != '-') {
    const std::string word = argv[1];
    bool known = false;
    for (const auto& c : commands) known = known || c == word;
    if (!known) {
      const auto near = xoff::config::nearest(word, commands);
      std::string names;
      for (const auto& c : commands) names += (names.empty() ? "" : ", ") + c;
      std::fprintf(stderr, "xoff: unknown command \"%s\"%s; the commands are: %s (xoff help)\n",
                   word.c_str(), near ? (" (did you mean \"" + *near + "\"?)").c_str() : "",
                   names.c_str());
      return 2;
    }
  }
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli.exit(e) == 0 ? 0 : 2;
  }
  if (cli.get_subcommands().empty() || cli.got_subcommand("help")) {
    if (help_topic.empty()) {  // the top level's help (help() would give the subcommand's)
      std::printf("%s",
                  cli.get_formatter()->make_help(&cli, "xoff", CLI::AppFormatMode::Normal).c_str());
      return 0;
    }
    for (const CLI::App* s : cli.get_subcommands({})) {
      if (s->get_name() == help_topic) {
        std::printf("%s", s->help().c_str());
        return 0;
      }
    }
    const auto near = xoff::config::nearest(help_topic, commands);
    std::fprintf(stderr, "xoff help: no command \"%s\"%s\n", help_topic.c_str(),
                 near ? (" (did you mean \"" + *near + "\"?)").c_str() : "");
    return 2;
  }
  if (cli.got_subcommand("run")) return cmd_run(run);
  if (cli.got_subcommand("sweep")) return cmd_sweep(sweep);
  if (cli.got_subcommand("collect")) return cmd_collect(collect);
  if (cli.got_subcommand("compare")) return cmd_compare(compare);
  if (cli.got_subcommand("export")) return cmd_export(exp);
  if (cli.got_subcommand("import")) return cmd_import(imp);
  if (cli.got_subcommand("counters")) return cmd_counters(counters);
  if (cli.got_subcommand("check")) return cmd_check(check);
  if (cli.got_subcommand("headroom")) return cmd_headroom(headroom);
  return cmd_list(list);
}

// Out of memory is a resource failure (exit 1 with a message), not the broken
// invariant that exit 134 (abort) means.
int main(int argc, char** argv) {
  xoff::app::use_huge_pages(argv);  // may start this program again (huge_pages.h)
  try {
    return xoff_main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr,
                 "xoff: error: out of memory (the scenario needs more than this machine has: "
                 "fewer hosts, flows or samples, or a shorter duration)\n");
    return 1;
  }
}
