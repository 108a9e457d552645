// `xoff sweep`: a study as a directory. The grid (the product of every
// --grid axis, seeds as replicates) is validated point by point before
// anything is written; then the plan is written (app/sweep/plan.h) and the
// points run here (-j N processes), or are handed to Slurm or GNU parallel
// (--emit). --resume runs, or emits, only the points without results.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <stdexcept>

#include "app/commands/commands.h"
#include "app/config/error.h"
#include "app/mpi/partition.h"
#include "app/scenario/scenario.h"
#include "app/sweep/collect.h"
#include "app/sweep/local.h"
#include "app/sweep/plan.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;
using sweep::Plan;

std::string key_of(const std::string& assignment) {
  const auto eq = assignment.find('=');
  return eq == std::string::npos ? assignment : assignment.substr(0, eq);
}

// Loads every point as `xoff run` would; returns the number of bad points
// (their errors printed, at most 10) and records each point's seed.
size_t validate(Plan& plan) {
  size_t bad = 0;
  plan.effective_seeds.assign(plan.points.size(), 0);
  for (const auto& p : plan.points) {
    std::vector<std::string> o = plan.fixed;
    for (const auto& s : sweep::point_overrides(plan.axes, p)) o.push_back(s);
    if (p.seed) o.push_back("scenario.seed=" + std::to_string(*p.seed));
    try {
      const ScenarioConfig cfg = load_scenario(plan.scenario, o);
      plan.effective_seeds[p.index] = cfg.seed;
      // Across processes: what xoff-mpi would refuse is refused here, before anything runs.
      if (plan.processes > 1) {
        const std::vector<std::string> why = partition_unsupported(cfg);
        if (!why.empty()) {
          if (++bad <= 10) {
            std::fprintf(stderr,
                         "xoff sweep: point %s (%s) cannot run across processes (--processes "
                         "%d): %s\n",
                         p.name.c_str(), sweep::describe(plan.axes, p).c_str(), plan.processes,
                         why.front().c_str());
          }
        }
      }
    } catch (const config::ScenarioError& e) {
      if (++bad <= 10) {
        std::fprintf(stderr, "xoff sweep: point %s (%s) is not a valid scenario:\n%s\n",
                     p.name.c_str(), sweep::describe(plan.axes, p).c_str(), e.what());
      }
    }
  }
  if (bad > 10) std::fprintf(stderr, "xoff sweep: ... and %zu more bad points\n", bad - 10);
  return bad;
}

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("xoff") : p.string();
}

// Runs or emits the points in `todo`; prints what to do next.
int dispatch(const Plan& plan, const fs::path& dir, const std::vector<size_t>& todo,
             const SweepArgs& a, bool resuming) {
  if (a.emit == "slurm") {
    const fs::path f = sweep::write_sbatch(
        plan, dir, todo, sweep::SlurmOptions{a.slurm_time, a.slurm_mem, a.slurm_partition, 1},
        resuming ? "resume.sbatch" : "sweep.sbatch");
    std::printf("%zu points: submit with\n  sbatch %s\nthen merge with\n  xoff collect %s -o %s\n",
                todo.size(), f.c_str(), dir.c_str(), (dir / "table.csv").c_str());
    if (!todo.empty() && todo.back() >= 1001) {
      std::printf(
          "note: array indices reach %zu; Slurm's default MaxArraySize is 1001 (raise it in "
          "slurm.conf, or split the sweep)\n",
          todo.back());
    }
    return 0;
  }
  if (a.emit == "parallel") {
    const fs::path f =
        sweep::write_parallel(plan, dir, todo, resuming ? "resume_parallel.txt" : "parallel.txt");
    std::printf(
        "%zu points: run with\n  parallel --jobs %d --joblog %s :::: %s\nthen merge with\n"
        "  xoff collect %s -o %s\n",
        todo.size(), a.jobs, (dir / "parallel.joblog").c_str(), f.c_str(), dir.c_str(),
        (dir / "table.csv").c_str());
    return 0;
  }
  std::vector<std::string> commands;
  for (const auto& p : plan.points) commands.push_back(sweep::command(plan, dir, p));
  if (!a.quiet) {
    std::printf("%zu points, %d at a time, in %s\n", todo.size(), a.jobs, dir.c_str());
    std::fflush(stdout);
  }
  size_t failed = 0;
  sweep::run_local(commands, todo, a.jobs, [&](const sweep::LocalResult& r, size_t done) {
    const auto& p = plan.points[r.index];
    if (r.exit_code != 0) ++failed;
    if (a.quiet && r.exit_code == 0) return;
    std::printf("[%zu/%zu] %s %s: %s (%.1f s)\n", done, todo.size(), p.name.c_str(),
                sweep::describe(plan.axes, p).c_str(),
                r.exit_code == 0 ? "ok"
                                 : ("FAILED, exit " + std::to_string(r.exit_code) + ", see " +
                                    sweep::log_path(dir, p).string())
                                       .c_str(),
                r.seconds);
    std::fflush(stdout);
  });
  const auto table = sweep::collect_table(plan, dir);
  analysis::write_table_csv(table, (dir / "table.csv").string());
  std::printf("\n");
  sweep::print_table(stdout, plan, table, sweep::default_terminal_metrics());
  std::printf("\nTable of every metric: %s\n", (dir / "table.csv").c_str());
  if (failed > 0) {
    std::fprintf(stderr,
                 "xoff sweep: %zu of %zu points failed (their logs are in %s); run them again "
                 "with: xoff sweep --resume %s\n",
                 failed, todo.size(), (dir / "logs").c_str(), dir.c_str());
    return 1;
  }
  return 0;
}

// The plan in `dir`, or nullopt after printing why it cannot be read.
std::optional<Plan> load_plan(const fs::path& dir) {
  try {
    return sweep::read_plan(dir);
  } catch (const config::ScenarioError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return std::nullopt;
  }
}

int resume(const SweepArgs& a) {
  const fs::path dir = fs::absolute(a.resume);
  const std::optional<Plan> loaded = load_plan(dir);
  if (!loaded) return 2;
  const Plan& plan = *loaded;
  std::vector<size_t> todo;
  for (const auto& p : plan.points) {
    if (!sweep::is_complete(dir, p)) todo.push_back(p.index);
  }
  std::printf("%s: %zu of %zu points have results, %zu to run\n", dir.c_str(),
              plan.points.size() - todo.size(), plan.points.size(), todo.size());
  if (todo.empty() && a.emit.empty()) {
    const auto table = sweep::collect_table(plan, dir);
    sweep::print_table(stdout, plan, table, sweep::default_terminal_metrics());
    return 0;
  }
  return dispatch(plan, dir, todo, a, true);
}

}  // namespace

int cmd_sweep(const SweepArgs& a) {
  if (!a.emit.empty() && a.emit != "slurm" && a.emit != "parallel") {
    std::fprintf(stderr, "xoff sweep: --emit %s: expected slurm or parallel\n", a.emit.c_str());
    return 2;
  }
  if (a.jobs < 1) {
    std::fprintf(stderr, "xoff sweep: -j %d: expected at least 1\n", a.jobs);
    return 2;
  }
  if (!a.resume.empty()) {
    if (!a.scenario.empty() || !a.grid.empty() || !a.seeds.empty() || !a.fixed.empty()) {
      std::fprintf(stderr,
                   "xoff sweep: --resume DIR takes the plan from DIR/sweep.toml; give no "
                   "scenario, --grid, --seeds or --set with it\n");
      return 2;
    }
    return resume(a);
  }
  if (a.scenario.empty()) {
    std::fprintf(stderr, "xoff sweep: give a scenario file (or --resume DIR)\n");
    return 2;
  }
  Plan plan;
  plan.scenario = fs::absolute(a.scenario).string();
  plan.xoff = a.xoff_binary.empty() ? self_executable() : a.xoff_binary;
  plan.fixed = a.fixed;
  if (a.processes < 1) {
    std::fprintf(stderr, "xoff sweep: --processes %d: expected at least 1\n", a.processes);
    return 2;
  }
  if (a.processes > 1) {
    plan.processes = a.processes;
    plan.xoff_mpi = (fs::path(plan.xoff).parent_path() / "xoff-mpi").string();
    std::error_code ec;
    if (!fs::exists(plan.xoff_mpi, ec)) {
      std::fprintf(stderr,
                   "xoff sweep: --processes %d runs points with xoff-mpi, which is not beside "
                   "%s (it is built when OpenMPI is installed: scripts/setup.sh)\n",
                   a.processes, plan.xoff.c_str());
      return 2;
    }
    // Under Slurm the array task's allocation holds the tasks; elsewhere mpirun starts them.
    plan.launcher =
        a.emit == "slurm" ? std::string("srun") : "mpirun -np " + std::to_string(a.processes);
  }
  try {
    for (const auto& g : a.grid) plan.axes.push_back(sweep::parse_axis(g));
    if (!a.seeds.empty()) plan.seeds = sweep::parse_seeds(a.seeds);
    plan.points = sweep::expand(plan.axes, plan.seeds);
  } catch (const config::ScenarioError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  std::set<std::string> fixed_keys;
  for (const auto& f : plan.fixed) fixed_keys.insert(key_of(f));
  for (const auto& ax : plan.axes) {
    if (fixed_keys.count(ax.key) != 0) {
      std::fprintf(stderr, "xoff sweep: %s is both swept (--grid) and fixed (--set); give one\n",
                   ax.key.c_str());
      return 2;
    }
  }
  if (!plan.seeds.empty() && fixed_keys.count("scenario.seed") != 0) {
    std::fprintf(stderr,
                 "xoff sweep: scenario.seed is both swept (--seeds) and fixed (--set); give one\n");
    return 2;
  }
  const fs::path dir = fs::absolute(
      a.output_dir.empty() ? "out/sweep_" + fs::path(a.scenario).stem().string() : a.output_dir);
  if (fs::exists(dir / "sweep.toml")) {
    std::fprintf(stderr,
                 "xoff sweep: %s already holds a sweep; continue it with --resume %s, or give "
                 "another -o\n",
                 dir.c_str(), dir.c_str());
    return 2;
  }
  if (fs::exists(dir) && !fs::is_directory(dir)) {
    std::fprintf(stderr, "xoff sweep: -o %s exists and is not a directory\n", dir.c_str());
    return 2;
  }
  if (validate(plan) != 0) return 2;  // nothing written
  try {
    sweep::write_plan(plan, dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xoff sweep: cannot write the plan in %s: %s\n", dir.c_str(), e.what());
    return 1;
  }
  std::vector<size_t> todo;
  for (const auto& p : plan.points) todo.push_back(p.index);
  return dispatch(plan, dir, todo, a, false);
}

int cmd_collect(const CollectArgs& a) {
  const fs::path dir = fs::absolute(a.dir);
  const std::optional<Plan> loaded = load_plan(dir);
  if (!loaded) return 2;
  const Plan& plan = *loaded;
  const std::string ext = fs::path(a.output).extension().string();
  if (!a.output.empty() && ext != ".csv" && ext != ".h5") {
    std::fprintf(stderr, "xoff collect: -o %s: expected a .csv or .h5 file name\n",
                 a.output.c_str());
    return 2;
  }
  const auto table = sweep::collect_table(plan, dir);
  const auto metrics = a.metrics.empty() ? sweep::default_terminal_metrics() : a.metrics;
  for (const auto& m : a.metrics) {
    bool known = false;
    for (const auto& c : table) known = known || c.name == m;
    if (!known) {
      std::string names;
      for (const auto& c : table) {
        if (!c.text && c.name != "point" && c.name != "seed") names += " " + c.name;
      }
      std::fprintf(stderr, "xoff collect: --metrics %s: no such column; the table has:%s\n",
                   m.c_str(), names.c_str());
      return 2;
    }
  }
  const size_t not_ok = sweep::print_table(stdout, plan, table, metrics);
  if (!a.output.empty()) {
    try {
      const auto parent = fs::path(a.output).parent_path();
      if (!parent.empty()) fs::create_directories(parent);
      if (ext == ".csv") {
        analysis::write_table_csv(table, a.output);
      } else {
        analysis::write_table_h5(table, a.output);
      }
    } catch (const std::exception& e) {
      std::fprintf(stderr, "xoff collect: cannot write %s: %s\n", a.output.c_str(), e.what());
      return 1;
    }
    std::printf("%zu rows (%zu points without results) -> %s\n", plan.points.size(), not_ok,
                a.output.c_str());
  }
  return 0;
}

}  // namespace xoff::app
