#pragma once
// A sweep's points: the cartesian product of --grid axes, with seeds as
// replicates (the innermost loop). Pure data, no files: the plan (plan.h)
// writes them out, the runners run them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace xoff::app::sweep {

struct Axis {
  std::string key;                  // scenario key path, as for --set
  std::vector<std::string> values;  // each as --set would take it
};

struct Point {
  size_t index = 0;
  std::string name;                 // "p0007": fixed width, sorts in index order
  std::vector<std::string> values;  // one per axis, in axis order
  std::optional<uint64_t> seed;     // unset: the scenario's own seed
};

// "KEY=V1,V2,...". Values split at commas outside brackets and quotes, so
// `ecn.classes=[3],[3,4]` is two values. Throws config::ScenarioError naming
// the --grid argument (empty key, no '=', an empty value, a repeated value).
Axis parse_axis(const std::string& spec);

// "1-5", "1,3,7", "1-3,10": replicate seeds in the order given. Throws
// config::ScenarioError on anything else (a reversed range, a repeat, not a
// number, more than 10^6 seeds).
std::vector<uint64_t> parse_seeds(const std::string& spec);

// Every combination, the last axis varying fastest, then the seeds. With no
// seeds each combination is one point with the scenario's seed. Throws
// config::ScenarioError when two axes name the same key.
std::vector<Point> expand(const std::vector<Axis>& axes, const std::vector<uint64_t>& seeds);

// The --set overrides of one point: KEY=VALUE per axis.
std::vector<std::string> point_overrides(const std::vector<Axis>& axes, const Point& p);

// "buffer.alpha=0.5 ecn.kmin=10KB seed=2" for messages and progress.
std::string describe(const std::vector<Axis>& axes, const Point& p);

}  // namespace xoff::app::sweep
