#pragma once
// Runs sweep points as local processes, at most `jobs` at a time: each point
// is its command line (plan.h) given to /bin/sh, exactly what GNU parallel
// and a Slurm task run. A point that fails does not stop the others.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace xoff::app::sweep {

struct LocalResult {
  size_t index = 0;    // the point
  int exit_code = 0;   // the command's; 128 + signal when it was killed
  double seconds = 0;  // wall time
};

// Runs commands[i] for every i in `todo`; calls on_done as each finishes
// (done counts finished points so far). Returns the results in finishing order.
std::vector<LocalResult> run_local(
    const std::vector<std::string>& commands, const std::vector<size_t>& todo, int jobs,
    const std::function<void(const LocalResult&, size_t done)>& on_done);

}  // namespace xoff::app::sweep
