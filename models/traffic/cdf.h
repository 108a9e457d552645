#pragma once
// An empirical flow-size distribution given as CDF points, sampled by
// piecewise-linear interpolation between the points, as the HPCC and pFabric
// traffic generators do (HPCC traffic_gen/custom_rand.py: uniform percentile,
// linear interpolation of size within the segment it falls in).
//
// Text format ("size_bytes cdf", the two-column format of the HPCC/ns-3
// traffic generator): one point per line, '#' starts a comment, blank lines
// are skipped. Sizes in bytes, non-decreasing; cdf non-decreasing in [0, 1]
// and ending at exactly 1. A file whose last cdf is exactly 100 is read as
// percent (the HPCC files are) and divided by 100.
//
// Semantics: P(size <= s) is linear between consecutive points. A first point
// with cdf c0 > 0 is a point mass c0 at its size; a repeated size with a rising
// cdf is a point mass there. Samples are rounded to whole bytes, at least 1.
// mean_bytes() is the exact mean of that piecewise-linear distribution
// (trapezoids), before rounding.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/rng.h"
#include "sim/units.h"

namespace xoff::models {

struct CdfPoint {
  double size_bytes = 0;
  double cdf = 0;  // in [0, 1]
};

// A malformed CDF. line() is 1-based in the parsed text (0 when built from points).
class CdfError : public std::runtime_error {
 public:
  CdfError(const std::string& what, int line) : std::runtime_error(what), line_(line) {}
  int line() const { return line_; }

 private:
  int line_;
};

class FlowSizeCdf {
 public:
  // Validates the points; throws CdfError naming the first bad point.
  explicit FlowSizeCdf(std::vector<CdfPoint> points);

  // Size at cumulative probability u in [0, 1], interpolated (not rounded).
  double quantile(double u) const;
  sim::Bytes sample(sim::Rng& rng) const;
  double mean_bytes() const;
  const std::vector<CdfPoint>& points() const { return points_; }

 private:
  std::vector<CdfPoint> points_;
  double mean_ = 0;
};

// Parses the text format above. `source` names the file in error messages:
// "websearch.txt:7: size 5000 is below the previous size 10000 ...".
FlowSizeCdf parse_cdf(std::string_view text, std::string_view source = "<cdf>");

}  // namespace xoff::models
