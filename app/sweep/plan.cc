#include "app/sweep/plan.h"

#include <toml++/toml.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "analysis/results/h5_reader.h"
#include "analysis/results/results_error.h"
#include "analysis/results/table_io.h"
#include "app/config/error.h"

namespace xoff::app::sweep {
namespace fs = std::filesystem;
namespace {

using analysis::csv_field;

// Writes `text` to path under a temporary name, then renames it into place.
void write_file(const fs::path& path, const std::string& text) {
  const fs::path tmp = path.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    if (!f.flush()) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
}

[[noreturn]] void bad_plan(const fs::path& file, const std::string& msg) {
  throw config::ScenarioError(config::SourcePos{file.string(), 0, 0}, "", msg);
}

std::vector<std::string> string_array(const toml::table& t, const char* key, const fs::path& file) {
  std::vector<std::string> out;
  const toml::array* a = t[key].as_array();
  if (a == nullptr) return out;
  for (const auto& v : *a) {
    const auto s = v.value<std::string>();
    if (!s) bad_plan(file, std::string(key) + ": expected strings");
    out.push_back(*s);
  }
  return out;
}

}  // namespace

std::string shell_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}

fs::path output_path(const fs::path& dir, const Point& p) {
  return dir / "runs" / (p.name + ".h5");
}
fs::path log_path(const fs::path& dir, const Point& p) { return dir / "logs" / (p.name + ".log"); }

std::string command(const Plan& plan, const fs::path& dir, const Point& p) {
  std::string c = plan.processes > 1 ? plan.launcher + " " + shell_quote(plan.xoff_mpi)
                                     : shell_quote(plan.xoff);
  c += " run " + shell_quote(plan.scenario);
  for (const auto& o : plan.fixed) c += " --set " + shell_quote(o);
  for (const auto& o : point_overrides(plan.axes, p)) c += " --set " + shell_quote(o);
  if (p.seed) c += " --seed " + std::to_string(*p.seed);
  c += " -q -o " + shell_quote(output_path(dir, p).string());
  c += " > " + shell_quote(log_path(dir, p).string()) + " 2>&1";
  return c;
}

void write_plan(const Plan& plan, const fs::path& dir) {
  fs::create_directories(dir / "runs");
  fs::create_directories(dir / "logs");
  toml::table t;
  t.insert("scenario", plan.scenario);
  t.insert("xoff", plan.xoff);
  if (plan.processes > 1) {
    t.insert("processes", plan.processes);
    t.insert("launcher", plan.launcher);
    t.insert("xoff_mpi", plan.xoff_mpi);
  }
  toml::array fixed;
  for (const auto& o : plan.fixed) fixed.push_back(o);
  t.insert("set", fixed);
  toml::array seeds;
  for (uint64_t s : plan.seeds) seeds.push_back(static_cast<int64_t>(s));
  t.insert("seeds", seeds);
  toml::array effective;
  for (uint64_t s : plan.effective_seeds) effective.push_back(static_cast<int64_t>(s));
  t.insert("effective_seeds", effective);
  toml::array axes;
  for (const auto& a : plan.axes) {
    toml::array values;
    for (const auto& v : a.values) values.push_back(v);
    axes.push_back(toml::table{{"key", a.key}, {"values", values}});
  }
  t.insert("axis", axes);
  std::ostringstream toml_text;
  toml_text << "# Written by `xoff sweep`: the plan that `xoff sweep --resume` and `xoff collect`\n"
               "# read. Points are the product of the axes (the last fastest), then the seeds.\n"
            << t << "\n";
  write_file(dir / "sweep.toml", toml_text.str());

  std::string manifest = "point,name";
  for (const auto& a : plan.axes) manifest += "," + csv_field(a.key);
  manifest += ",seed,output,log\n";
  std::string commands;
  for (const auto& p : plan.points) {
    manifest += std::to_string(p.index) + "," + p.name;
    for (const auto& v : p.values) {
      manifest += ',';
      manifest += csv_field(v);
    }
    const uint64_t seed = p.index < plan.effective_seeds.size() ? plan.effective_seeds[p.index]
                          : p.seed                              ? *p.seed
                                                                : 0;
    for (const std::string& f : {std::to_string(seed), csv_field(output_path(dir, p).string()),
                                 csv_field(log_path(dir, p).string())}) {
      manifest += ',';
      manifest += f;
    }
    manifest += '\n';
    commands += command(plan, dir, p);
    commands += '\n';
  }
  write_file(dir / "manifest.csv", manifest);
  write_file(dir / "commands.txt", commands);
}

Plan read_plan(const fs::path& dir) {
  const fs::path file = dir / "sweep.toml";
  if (!fs::exists(file))
    bad_plan(file, "no sweep here (no sweep.toml): is this a sweep directory?");
  toml::table t;
  try {
    t = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw config::ScenarioError(
        config::SourcePos{file.string(), static_cast<uint32_t>(e.source().begin.line),
                          static_cast<uint32_t>(e.source().begin.column)},
        "", std::string(e.description()));
  }
  Plan plan;
  const auto scenario = t["scenario"].value<std::string>();
  const auto xoff = t["xoff"].value<std::string>();
  if (!scenario || !xoff) bad_plan(file, "scenario and xoff must be strings");
  plan.scenario = *scenario;
  plan.xoff = *xoff;
  plan.processes = static_cast<int>(t["processes"].value_or(int64_t{1}));
  if (plan.processes > 1) {
    const auto launcher = t["launcher"].value<std::string>();
    const auto mpi = t["xoff_mpi"].value<std::string>();
    if (!launcher || !mpi) bad_plan(file, "processes > 1 needs launcher and xoff_mpi strings");
    plan.launcher = *launcher;
    plan.xoff_mpi = *mpi;
  }
  plan.fixed = string_array(t, "set", file);
  if (const toml::array* s = t["seeds"].as_array()) {
    for (const auto& v : *s) {
      const auto n = v.value<int64_t>();
      if (!n || *n < 0) bad_plan(file, "seeds: expected non-negative integers");
      plan.seeds.push_back(static_cast<uint64_t>(*n));
    }
  }
  if (const toml::array* axes = t["axis"].as_array()) {
    for (const auto& a : *axes) {
      const toml::table* at = a.as_table();
      if (at == nullptr || !(*at)["key"].value<std::string>()) bad_plan(file, "axis: expected key");
      plan.axes.push_back(
          Axis{*(*at)["key"].value<std::string>(), string_array(*at, "values", file)});
      if (plan.axes.back().values.empty())
        bad_plan(file, "axis " + plan.axes.back().key + ": no values");
    }
  }
  plan.points = expand(plan.axes, plan.seeds);
  if (const toml::array* s = t["effective_seeds"].as_array()) {
    for (const auto& v : *s)
      plan.effective_seeds.push_back(static_cast<uint64_t>(v.value_or(int64_t{0})));
  }
  if (plan.effective_seeds.size() != plan.points.size()) plan.effective_seeds.clear();
  return plan;
}

fs::path write_sbatch(const Plan& plan, const fs::path& dir, const std::vector<size_t>& todo,
                      const SlurmOptions& opt, const std::string& name) {
  std::string array;
  // Contiguous runs become ranges: 0-11, or 3,7-9 for a resume.
  for (size_t i = 0; i < todo.size();) {
    size_t j = i;
    while (j + 1 < todo.size() && todo[j + 1] == todo[j] + 1) ++j;
    if (!array.empty()) array += ",";
    array += std::to_string(todo[i]);
    if (j > i) {
      array += '-';
      array += std::to_string(todo[j]);
    }
    i = j + 1;
  }
  const std::string job = "xoff-" + fs::path(plan.scenario).stem().string();
  std::string s = "#!/bin/bash\n";
  s += "# Written by `xoff sweep --emit slurm`: one array task per sweep point; task i runs\n";
  s += "# line i+1 of commands.txt. Submit with: sbatch " + (dir / name).string() + "\n";
  s += "# then merge with: xoff collect " + dir.string() + " -o " + (dir / "table.csv").string() +
       "\n";
  s += "#SBATCH --job-name=" + job + "\n";
  s += "#SBATCH --array=" + array + "\n";
  s += "#SBATCH --output=" + (dir / "logs" / "slurm-%A_%a.out").string() + "\n";
  // A point across processes is one MPI job step of that many tasks (srun).
  s += "#SBATCH --ntasks=" + std::to_string(std::max(1, plan.processes)) + "\n";
  s += "#SBATCH --cpus-per-task=" + std::to_string(opt.cpus) + "\n";
  s += "#SBATCH --mem=" + opt.mem + "\n";
  s += "#SBATCH --time=" + opt.time + "\n";
  if (!opt.partition.empty()) s += "#SBATCH --partition=" + opt.partition + "\n";
  s += "set -euo pipefail\n";
  s += "cmd=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " +
       shell_quote((dir / "commands.txt").string()) + ")\n";
  s += "eval \"$cmd\"\n";
  const fs::path path = dir / name;
  write_file(path, s);
  fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
  return path;
}

fs::path write_parallel(const Plan& plan, const fs::path& dir, const std::vector<size_t>& todo,
                        const std::string& name) {
  std::string s;
  for (size_t i : todo) s += command(plan, dir, plan.points[i]) + "\n";
  const fs::path path = dir / name;
  write_file(path, s);
  return path;
}

bool is_complete(const fs::path& dir, const Point& p) {
  const fs::path out = output_path(dir, p);
  if (!fs::exists(out)) return false;
  try {
    return analysis::read_results(out.string()).meta.complete();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace xoff::app::sweep
