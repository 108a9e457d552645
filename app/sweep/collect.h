#pragma once
// Merging a sweep's runs into one table (`xoff collect`, and the end of a
// local `xoff sweep`): one row per point with every swept key, the seed, the
// run's status and its headline metrics (analysis/stats/run_metrics.h); and
// the terminal view, one line per combination of swept keys with the mean and
// spread over seeds.
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis/results/table_io.h"
#include "app/sweep/plan.h"

namespace xoff::app::sweep {

// Columns: point, name, <each swept key> (text), seed, status ("ok" |
// "missing" | "unreadable" | a partial run's /meta@status: "interrupted",
// "event_budget", "wall_budget"), then the metrics in first-seen order (NaN
// where a run lacks one; a partial run's are what it reached). Missing runs
// are rows too, so nothing silently vanishes; the terminal view averages
// complete runs only.
std::vector<analysis::TableColumn> collect_table(const Plan& plan,
                                                 const std::filesystem::path& dir);

// The headline metrics shown when the user names none.
std::vector<std::string> default_terminal_metrics();

// One line per combination of swept keys: n (runs with results) and, per
// metric, the mean, with "+- sd" (population) when several seeds ran; metrics
// no row has are left out. Returns the number of rows that are not "ok".
size_t print_table(std::FILE* f, const Plan& plan, const std::vector<analysis::TableColumn>& table,
                   const std::vector<std::string>& metrics);

}  // namespace xoff::app::sweep
