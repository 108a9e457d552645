#pragma once
// A sweep directory: the plan of record (sweep.toml), a manifest for people
// and spreadsheets (manifest.csv), one shell command per point (commands.txt,
// run as is by the local runner, GNU parallel and the Slurm array), and the
// per-point results (runs/<point>.h5) and logs (logs/<point>.log).
//
//   DIR/sweep.toml      scenario, xoff binary, fixed --set, axes, seeds
//   DIR/manifest.csv    point, every swept key, seed, output, log
//   DIR/commands.txt    line i+1 runs point i
//   DIR/sweep.sbatch    --emit slurm: a job array, one task per point
//   DIR/parallel.txt    --emit parallel: the commands GNU parallel runs
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "app/sweep/grid.h"

namespace xoff::app::sweep {

struct Plan {
  std::string scenario;  // absolute path of the scenario file
  std::string xoff;      // absolute path of the xoff binary the points run
  // processes > 1: every point is one run across that many MPI processes,
  // `launcher` (e.g. "srun" in a Slurm allocation of that many tasks, or
  // "mpirun -np 4") starting `xoff_mpi` (xoff-mpi beside xoff).
  int processes = 1;
  std::string launcher;
  std::string xoff_mpi;
  std::vector<std::string> fixed;  // --set overrides of every point
  std::vector<Axis> axes;
  std::vector<uint64_t> seeds;  // empty: every point keeps the scenario's seed
  std::vector<Point> points;    // expand(axes, seeds)
  // The seed each point runs with (the scenario's when no seeds are swept),
  // known once the points are validated; written to the manifest.
  std::vector<uint64_t> effective_seeds;
};

std::filesystem::path output_path(const std::filesystem::path& dir, const Point& p);
std::filesystem::path log_path(const std::filesystem::path& dir, const Point& p);

// The shell command that runs one point (absolute paths: a Slurm task starts
// elsewhere); its stdout and stderr go to the point's log.
std::string command(const Plan& plan, const std::filesystem::path& dir, const Point& p);

// Writes sweep.toml, manifest.csv and commands.txt (each under a temporary
// name, then renamed) and creates runs/ and logs/. dir must be absolute.
void write_plan(const Plan& plan, const std::filesystem::path& dir);

// Reads DIR/sweep.toml back (points re-expanded from the axes and seeds). Throws
// config::ScenarioError when it is missing or malformed.
Plan read_plan(const std::filesystem::path& dir);

struct SlurmOptions {
  std::string time = "01:00:00";  // --time per task
  std::string mem = "2G";         // --mem per task
  std::string partition;          // --partition, "" = the cluster's default
  int cpus = 1;                   // --cpus-per-task: a run is one thread
};

// DIR/<name>: a Slurm job array over `todo` (point indices).
std::filesystem::path write_sbatch(const Plan& plan, const std::filesystem::path& dir,
                                   const std::vector<size_t>& todo, const SlurmOptions& opt,
                                   const std::string& name = "sweep.sbatch");
// DIR/<name>: the commands of `todo`, one per line, for `parallel :::: FILE`.
std::filesystem::path write_parallel(const Plan& plan, const std::filesystem::path& dir,
                                     const std::vector<size_t>& todo,
                                     const std::string& name = "parallel.txt");

// A point is complete when its results file exists, reads back as an xoff
// results file (a run writes it under a temporary name and renames it only
// when whole, so a killed run leaves no file) and says the run reached its
// end (/meta@status "complete": not interrupted, not cut by a budget).
bool is_complete(const std::filesystem::path& dir, const Point& p);

std::string shell_quote(const std::string& s);

}  // namespace xoff::app::sweep
