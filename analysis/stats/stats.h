#pragma once
// Summary statistics for results: percentiles, moments, Jain's fairness index, CDF
// points, and the per-protocol flow summary the terminal prints.
//
// Percentiles follow numpy.percentile's default method ("linear", Hyndman & Fan
// type 7): for sorted x[0..n-1] the q-th percentile sits at rank h = (n-1)*q/100 and
// is x[floor h] + (h - floor h) * (x[floor h + 1] - x[floor h]). So 1..100 has
// p50 = 50.5 and p99 = 99.01. Standard deviation is the population one (numpy's
// default ddof=0). Statistics of an empty sample are NaN.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "models/monitor/recorder.h"

namespace xoff::analysis {

// q in [0, 100]; throws std::invalid_argument outside it.
double percentile(std::span<const double> values, double q);
// Several percentiles with one sort; same definition.
std::vector<double> percentiles(std::span<const double> values, std::span<const double> qs);

double mean(std::span<const double> values);
double stddev(std::span<const double> values);  // population (ddof = 0)

// Jain's fairness index (sum x)^2 / (n * sum x^2): 1 when all equal, 1/n when one
// value holds everything. NaN for an empty sample or all zeros.
double jain_index(std::span<const double> values);

// Empirical CDF: the sorted values with fraction = rank/n (rank from 1), thinned to at
// most `max_points` points evenly by rank; the largest value is always the last point.
struct CdfPoint {
  double value = 0;
  double fraction = 0;
};
std::vector<CdfPoint> cdf(std::span<const double> values, size_t max_points = 1000);

struct Distribution {
  size_t count = 0;
  double mean = 0;
  double stddev = 0;
  double min = 0;
  double p50 = 0;
  double p95 = 0;
  double p99 = 0;
  double p999 = 0;
  double max = 0;
};
Distribution describe(std::span<const double> values);

struct ProtocolSummary {
  std::string protocol;  // "all", "roce", "tcp", ...
  size_t flows = 0;
  int64_t bytes = 0;
  Distribution fct_us;         // finish - start, microseconds
  Distribution slowdown;       // FCT / ideal FCT (flows without an ideal are left out)
  double throughput_jain = 0;  // Jain index of per-flow size/FCT
};

struct FlowSummary {
  ProtocolSummary all;
  std::vector<ProtocolSummary> by_protocol;  // sorted by protocol name
};
// Finished flows only: percentiles of unfinished ones would be of times cut by
// the run's end. Callers report how many did not finish beside them.
FlowSummary summarize_flows(const std::vector<models::FlowRecord>& flows);

}  // namespace xoff::analysis
