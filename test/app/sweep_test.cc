// Sweeps: the grid (product order, seeds, value splitting), validation before
// anything is written, local runs as real `xoff` processes, resume of missing
// or broken points, the emitted Slurm array, and `xoff collect`'s table
// checked against each run's own results file.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "analysis/results/h5_io.h"
#include "analysis/results/h5_reader.h"
#include "analysis/stats/stats.h"
#include "app/commands/commands.h"
#include "app/config/error.h"
#include "app/sweep/grid.h"
#include "app/sweep/plan.h"

#ifndef XOFF_BIN
#error "XOFF_BIN must name the built xoff executable (test/app/CMakeLists.txt)"
#endif

extern char** environ;

namespace xoff::app {
namespace {
namespace fs = std::filesystem;
using sweep::Axis;

TEST(SweepGrid, ValuesSplitAtCommasOutsideBracketsAndQuotes) {
  const Axis a = sweep::parse_axis("ecn.classes=[3],[3,4]");
  EXPECT_EQ(a.key, "ecn.classes");
  EXPECT_EQ(a.values, (std::vector<std::string>{"[3]", "[3,4]"}));
  const Axis b = sweep::parse_axis("scenario.name='a,b', c");
  EXPECT_EQ(b.values, (std::vector<std::string>{"'a,b'", "c"}));
  EXPECT_THROW(sweep::parse_axis("buffer.alpha"), config::ScenarioError);       // no '='
  EXPECT_THROW(sweep::parse_axis("=1,2"), config::ScenarioError);               // no key
  EXPECT_THROW(sweep::parse_axis("buffer.alpha=1,,2"), config::ScenarioError);  // empty value
  EXPECT_THROW(sweep::parse_axis("buffer.alpha=1,1"), config::ScenarioError);   // repeated
}

TEST(SweepGrid, SeedsAreRangesAndLists) {
  EXPECT_EQ(sweep::parse_seeds("1-3,10"), (std::vector<uint64_t>{1, 2, 3, 10}));
  EXPECT_EQ(sweep::parse_seeds("7"), (std::vector<uint64_t>{7}));
  for (const char* bad : {"3-1", "1,1", "1-3,2", "x", "", "1,", "-1"}) {
    EXPECT_THROW(sweep::parse_seeds(bad), config::ScenarioError) << bad;
  }
}

TEST(SweepGrid, ProductHasTheLastAxisFastestThenSeeds) {
  const std::vector<Axis> axes{{"a", {"1", "2"}}, {"b", {"x", "y", "z"}}};
  const auto p = sweep::expand(axes, {7, 8});
  ASSERT_EQ(p.size(), 2u * 3u * 2u);
  auto is = [&](size_t i, const char* a, const char* b, uint64_t seed) {
    EXPECT_EQ(p[i].index, i);
    EXPECT_EQ(p[i].values, (std::vector<std::string>{a, b})) << i;
    EXPECT_EQ(p[i].seed, seed) << i;
  };
  is(0, "1", "x", 7);
  is(1, "1", "x", 8);
  is(2, "1", "y", 7);
  is(6, "2", "x", 7);
  is(11, "2", "z", 8);
  EXPECT_EQ(p[0].name, "p0000");
  EXPECT_EQ(p[11].name, "p0011");
  EXPECT_EQ(sweep::point_overrides(axes, p[11]), (std::vector<std::string>{"a=2", "b=z"}));
  EXPECT_EQ(sweep::describe(axes, p[11]), "a=2 b=z seed=8");
  // No seeds: one point per combination, the scenario's own seed.
  const auto q = sweep::expand(axes, {});
  ASSERT_EQ(q.size(), 6u);
  EXPECT_FALSE(q[0].seed.has_value());
  EXPECT_THROW(sweep::expand({{"a", {"1"}}, {"a", {"2"}}}, {}), config::ScenarioError);
}

// A 4-host spine-leaf with Poisson RoCE flows: the seed changes the flows.
std::string tiny_scenario() {
  return std::string(R"([scenario]
name = "sweep_tiny"
duration = "300us"
seed = 1
[topology]
kind = "spine_leaf"
leaves = 2
spines = 1
hosts_per_leaf = 2
host_rate = "100Gbps"
[ecn]
enabled = true
classes = [3]
kmin = "5KB"
kmax = "200KB"
pmax = 0.01
[[traffic.poisson]]
name = "short"
hosts = ["h0", "h1", "h2", "h3"]
load = 0.5
cdf = ")") +
         XOFF_SOURCE_DIR + R"(/scenarios/cdf/hadoop.txt"
stop = "100us"
)";
}

// The CSV `xoff collect` wrote, as rows of name -> field (no quoted fields here).
std::vector<std::map<std::string, std::string>> read_csv(const fs::path& p) {
  std::ifstream f(p);
  std::string line;
  std::getline(f, line);
  auto split = [](const std::string& l) {
    std::vector<std::string> out;
    std::stringstream ss(l);
    std::string x;
    while (std::getline(ss, x, ',')) out.push_back(x);
    if (!l.empty() && l.back() == ',') out.emplace_back();
    return out;
  };
  const auto header = split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(f, line)) {
    const auto fields = split(line);
    std::map<std::string, std::string> r;
    for (size_t i = 0; i < header.size(); ++i) r[header[i]] = i < fields.size() ? fields[i] : "";
    rows.push_back(r);
  }
  return rows;
}

class SweepTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Per process too: two test runs on one machine must not share it.
    dir_ = fs::temp_directory_path() /
           ("xoff_sweep_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "tiny.toml") << tiny_scenario();
  }
  void TearDown() override { fs::remove_all(dir_); }
  SweepArgs args() const {
    SweepArgs a;
    a.scenario = (dir_ / "tiny.toml").string();
    a.grid = {"ecn.kmax=20KB,200KB"};
    a.seeds = "1-2";
    a.output_dir = (dir_ / "sw").string();
    a.jobs = 2;
    a.xoff_binary = XOFF_BIN;
    a.quiet = true;
    return a;
  }
  fs::path dir_;
};

TEST_F(SweepTest, ABadValueAnywhereIsExitTwoAndWritesNothing) {
  SweepArgs a = args();
  a.grid = {"ecn.kmax=20KB,200KB", "buffer.alpha=0.5,abc"};  // the 4th value of 8 points
  EXPECT_EQ(cmd_sweep(a), 2);
  EXPECT_FALSE(fs::exists(dir_ / "sw"));
  a.grid = {"ecn.kmax=20KB"};
  a.fixed = {"ecn.kmax=5KB"};  // swept and fixed at once
  EXPECT_EQ(cmd_sweep(a), 2);
  a.fixed = {};
  a.seeds = "2-1";
  EXPECT_EQ(cmd_sweep(a), 2);
  a.seeds = "1";
  a.emit = "pbs";
  EXPECT_EQ(cmd_sweep(a), 2);
  EXPECT_FALSE(fs::exists(dir_ / "sw"));
}

TEST_F(SweepTest, LocalRunsGiveOneFileEachAndCollectMatchesThem) {
  ASSERT_EQ(cmd_sweep(args()), 0);
  const fs::path sw = dir_ / "sw";
  const auto rows = read_csv(sw / "table.csv");  // written by the local run
  ASSERT_EQ(rows.size(), 4u);
  // Order: kmax 20KB seeds 1, 2; then 200KB seeds 1, 2.
  const char* kmax[] = {"20KB", "20KB", "200KB", "200KB"};
  const char* seed[] = {"1", "2", "1", "2"};
  std::vector<double> p99;
  for (size_t i = 0; i < 4; ++i) {
    const auto& r = rows[i];
    EXPECT_EQ(r.at("ecn.kmax"), kmax[i]);
    EXPECT_EQ(r.at("seed"), seed[i]);
    EXPECT_EQ(r.at("status"), "ok");
    // The run's own file, read back independently.
    const auto d = analysis::read_results((sw / "runs" / r.at("name")).string() + ".h5");
    EXPECT_EQ(d.meta.seed, std::stoull(seed[i]));
    EXPECT_NE(d.meta.scenario_text.find(std::string("# --set ecn.kmax=") + kmax[i]),
              std::string::npos);
    std::vector<double> fct;
    for (const auto& f : d.flows) fct.push_back((f.finish - f.start).to_us());
    ASSERT_FALSE(fct.empty());
    EXPECT_NEAR(std::stod(r.at("fct_p99_us_all")), analysis::percentile(fct, 99),
                1e-6 * analysis::percentile(fct, 99));
    EXPECT_EQ(std::stod(r.at("flows_finished")), static_cast<double>(d.flows.size()));
    EXPECT_EQ(std::stod(r.at("flows_unfinished")), 0.0);  // 300 us leave time to finish
    p99.push_back(analysis::percentile(fct, 99));
  }
  // The seeds are replicates that differ: Poisson arrivals change with the seed.
  EXPECT_NE(p99[0], p99[1]);
  // ...and one seed's flows are the same whatever the swept key (no marks at
  // this load: ECN thresholds do not change anything here).
  EXPECT_EQ(std::stoi(rows[0].at("flows_finished")), std::stoi(rows[2].at("flows_finished")));

  // The same table as HDF5.
  CollectArgs c;
  c.dir = sw.string();
  c.output = (dir_ / "t.h5").string();
  ASSERT_EQ(cmd_collect(c), 0);
  {
    const analysis::h5::Handle f(H5Fopen(c.output.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    ASSERT_GE(f.get(), 0);
    const auto g = analysis::h5::open_group(f, "table");
    const auto v = analysis::h5::read_column<double>(g, "fct_p99_us_all");
    ASSERT_EQ(v.size(), 4u);
    for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(v[i], p99[i], 1e-6 * p99[i]);
    EXPECT_EQ(analysis::h5::read_strings(g, "ecn.kmax")[2], "200KB");
  }
  c.output = (dir_ / "t.txt").string();
  EXPECT_EQ(cmd_collect(c), 2);  // neither .csv nor .h5
  c.output.clear();
  c.metrics = {"no_such_metric"};
  EXPECT_EQ(cmd_collect(c), 2);
}

TEST_F(SweepTest, ResumeRunsOnlyMissingOrBrokenPoints) {
  ASSERT_EQ(cmd_sweep(args()), 0);
  const fs::path runs = dir_ / "sw" / "runs";
  const auto kept = fs::last_write_time(runs / "p0000.h5");
  fs::remove(runs / "p0001.h5");
  std::ofstream(runs / "p0002.h5", std::ios::trunc) << "not hdf5";
  // A sweep directory is not started twice.
  EXPECT_EQ(cmd_sweep(args()), 2);
  SweepArgs r;
  r.resume = (dir_ / "sw").string();
  r.emit = "slurm";
  r.quiet = true;
  ASSERT_EQ(cmd_sweep(r), 0);
  std::ifstream sb(dir_ / "sw" / "resume.sbatch");
  const std::string text((std::istreambuf_iterator<char>(sb)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("#SBATCH --array=1-2\n"), std::string::npos) << text;
  r.emit.clear();
  ASSERT_EQ(cmd_sweep(r), 0);
  for (const char* p : {"p0001.h5", "p0002.h5"}) {
    EXPECT_NO_THROW((void)analysis::read_results((runs / p).string())) << p;
  }
  EXPECT_EQ(fs::last_write_time(runs / "p0000.h5"), kept);  // not run again
  SweepArgs bad;
  bad.resume = (dir_ / "nowhere").string();
  EXPECT_EQ(cmd_sweep(bad), 2);
}

TEST_F(SweepTest, EmitWritesTheArrayAndTheCommandsWithoutRunning) {
  SweepArgs a = args();
  a.emit = "slurm";
  a.slurm_mem = "3G";
  a.slurm_partition = "short";
  ASSERT_EQ(cmd_sweep(a), 0);
  const fs::path sw = dir_ / "sw";
  std::ifstream sb(sw / "sweep.sbatch");
  const std::string text((std::istreambuf_iterator<char>(sb)), std::istreambuf_iterator<char>());
  for (const char* line : {"#SBATCH --array=0-3\n", "#SBATCH --mem=3G\n",
                           "#SBATCH --partition=short\n", "#SBATCH --cpus-per-task=1\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line;
  }
  std::ifstream cmds(sw / "commands.txt");
  std::vector<std::string> lines;
  for (std::string l; std::getline(cmds, l);) lines.push_back(l);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[3].find("--set 'ecn.kmax=200KB' --seed 2 -q -o '" +
                          (sw / "runs" / "p0003.h5").string()),
            std::string::npos)
      << lines[3];
  EXPECT_TRUE(fs::is_empty(sw / "runs"));  // nothing ran
  // The manifest: a header and one row per point.
  std::ifstream m(sw / "manifest.csv");
  std::string header;
  std::getline(m, header);
  EXPECT_EQ(header, "point,name,ecn.kmax,seed,output,log");
}

// --processes 2 under Slurm: each array task holds 2 tasks and runs its point
// as one xoff-mpi job step (srun); the plan remembers it for --resume.
TEST_F(SweepTest, ProcessesMakeEachArrayTaskOneMpiRunOfThatManyTasks) {
  SweepArgs a = args();
  a.emit = "slurm";
  a.processes = 2;
  const fs::path mpi = fs::path(XOFF_BIN).parent_path() / "xoff-mpi";
  if (!fs::exists(mpi)) {
    EXPECT_EQ(cmd_sweep(a), 2);  // refused: nothing to run the points with
    EXPECT_FALSE(fs::exists(dir_ / "sw"));
    GTEST_SKIP() << "xoff-mpi not built (no MPI): only the refusal was checked";
  }
  ASSERT_EQ(cmd_sweep(a), 0);
  const fs::path sw = dir_ / "sw";
  std::ifstream sb(sw / "sweep.sbatch");
  const std::string text((std::istreambuf_iterator<char>(sb)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("#SBATCH --ntasks=2\n"), std::string::npos) << text;
  std::ifstream cmds(sw / "commands.txt");
  std::string first;
  std::getline(cmds, first);
  EXPECT_EQ(first.rfind("srun '" + mpi.string() + "' run ", 0), 0u) << first;
  const sweep::Plan plan = sweep::read_plan(sw);
  EXPECT_EQ(plan.processes, 2);
  EXPECT_EQ(plan.launcher, "srun");
  a = args();
  a.output_dir = (dir_ / "sw0").string();
  a.processes = 0;
  EXPECT_EQ(cmd_sweep(a), 2);
  EXPECT_FALSE(fs::exists(dir_ / "sw0"));
}

TEST_F(SweepTest, AnEventBudgetKeepsPartialResultsAndResumeRunsThemAgain) {
  RunArgs r;
  r.scenario = (dir_ / "tiny.toml").string();
  r.output = (dir_ / "part.h5").string();
  r.quiet = true;
  r.print_summary = false;
  r.max_events = 300;
  EXPECT_EQ(cmd_run(r), 3);
  const auto d = analysis::read_results(r.output);
  EXPECT_EQ(d.meta.status, "event_budget");
  EXPECT_EQ(d.meta.events, 300u);  // stops exactly at the budget
  EXPECT_FALSE(d.meta.complete());

  ASSERT_EQ(cmd_sweep(args()), 0);
  const fs::path out = dir_ / "sw" / "runs" / "p0003.h5";
  fs::copy_file(r.output, out, fs::copy_options::overwrite_existing);  // as if cut short
  SweepArgs again;
  again.resume = (dir_ / "sw").string();
  again.quiet = true;
  ASSERT_EQ(cmd_sweep(again), 0);
  EXPECT_TRUE(analysis::read_results(out.string()).meta.complete());
}

TEST_F(SweepTest, SigintWritesResultsMarkedInterruptedAndExits130) {
  // A 1,024-host fat-tree (about 12 s of CPU): still running after 1 s,
  // whether it is building the fabric or simulating.
  const std::string out = (dir_ / "int.h5").string();
  const std::string scen = std::string(XOFF_SOURCE_DIR) + "/bench/scenarios/fat_tree_128.toml";
  std::vector<std::string> argv_s = {XOFF_BIN,        "run", scen, "--set",
                                     "topology.k=16", "-q",  "-o", out};
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, XOFF_BIN, nullptr, nullptr, argv.data(), environ), 0);
  std::this_thread::sleep_for(std::chrono::seconds(1));
  ASSERT_EQ(kill(pid, SIGINT), 0);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  const auto d = analysis::read_results(out);
  EXPECT_EQ(d.meta.status, "interrupted");
  // Every flow is a row (1,024: one per host), not all of them finished.
  ASSERT_EQ(d.flows.size(), 1024u);
  EXPECT_LT(
      std::count_if(d.flows.begin(), d.flows.end(), [](const auto& f) { return f.finished(); }),
      1024);
  for (const auto& e : fs::directory_iterator(dir_)) {  // no temporary left behind
    EXPECT_EQ(e.path().filename().string().find("int.h5.tmp"), std::string::npos) << e.path();
  }
}

TEST(Compare, ChangeIsRelativeToTheFirstRun) {
  auto run = [](std::initializer_list<int> fct_us, int64_t xoff) {
    analysis::RunData d;
    for (int us : fct_us) {
      models::FlowRecord f;
      f.protocol = "roce";
      f.finish = sim::Time::zero() + sim::Duration::ps(int64_t{us} * 1'000'000);
      d.flows.push_back(f);
    }
    d.queues.push_back({"leaf0", 1, 3, 0, 0, 0, 0, 0, xoff, 0, {}});
    return d;
  };
  const auto rows = compare_runs(run({10, 20}, 8), run({10, 30}, 6));
  std::map<std::string, CompareRow> by;
  for (const auto& r : rows) by[r.name] = r;
  EXPECT_DOUBLE_EQ(by.at("fct_max_us_all").before, 20);
  EXPECT_DOUBLE_EQ(by.at("fct_max_us_all").after, 30);
  EXPECT_DOUBLE_EQ(by.at("fct_max_us_all").change_percent, 50);  // (30 - 20) / 20
  EXPECT_DOUBLE_EQ(by.at("xoff_frames").change_percent, -25);    // (6 - 8) / 8
  EXPECT_DOUBLE_EQ(by.at("ecn_marks").change_percent, 0);        // 0 -> 0
  CompareArgs c;
  c.before = "/nonexistent/a.h5";
  c.after = "/nonexistent/b.h5";
  EXPECT_EQ(cmd_compare(c), 2);
}

}  // namespace
}  // namespace xoff::app
