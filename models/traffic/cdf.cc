#include "models/traffic/cdf.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

namespace xoff::models {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

struct PointError {
  size_t index;
  std::string message;
};

// First problem with `pts` (cdf already scaled to [0, 1]); values are shown
// multiplied by `shown` (100 for files written in percent).
std::optional<PointError> check_points(const std::vector<CdfPoint>& pts, double shown) {
  if (pts.empty()) return PointError{0, "no points: expected lines of 'size_bytes cdf'"};
  for (size_t i = 0; i < pts.size(); ++i) {
    const CdfPoint& p = pts[i];
    if (!std::isfinite(p.size_bytes) || p.size_bytes < 0) {
      return PointError{i, "size " + num(p.size_bytes) + " must be a finite number of bytes >= 0"};
    }
    if (!(p.cdf >= 0 && p.cdf <= 1)) {
      return PointError{i, "cdf " + num(p.cdf * shown) + " is outside [0, " + num(shown) + "]"};
    }
    if (i == 0) continue;
    const CdfPoint& q = pts[i - 1];
    if (p.size_bytes < q.size_bytes) {
      return PointError{i, "size " + num(p.size_bytes) + " is below the previous size " +
                               num(q.size_bytes) + " (sizes must not decrease)"};
    }
    if (p.cdf < q.cdf) {
      return PointError{i, "cdf " + num(p.cdf * shown) + " is below the previous cdf " +
                               num(q.cdf * shown) + " (a CDF must not decrease)"};
    }
  }
  if (pts.back().cdf != 1.0) {
    return PointError{pts.size() - 1, "the last cdf is " + num(pts.back().cdf * shown) +
                                          "; a CDF must end at 1 (or at 100 when in percent)"};
  }
  return std::nullopt;
}

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Splits on spaces/tabs/commas; returns the fields.
std::vector<std::string_view> fields(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    const auto b = s.find_first_not_of(" \t,", i);
    if (b == std::string_view::npos) break;
    auto e = s.find_first_of(" \t,", b);
    if (e == std::string_view::npos) e = s.size();
    out.push_back(s.substr(b, e - b));
    i = e;
  }
  return out;
}

std::optional<double> to_double(std::string_view s) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

FlowSizeCdf::FlowSizeCdf(std::vector<CdfPoint> points) : points_(std::move(points)) {
  if (auto err = check_points(points_, 1.0)) {
    throw CdfError("cdf point " + std::to_string(err->index + 1) + ": " + err->message, 0);
  }
  mean_ = points_[0].cdf * points_[0].size_bytes;
  for (size_t i = 1; i < points_.size(); ++i) {
    const CdfPoint& a = points_[i - 1];
    const CdfPoint& b = points_[i];
    mean_ += (b.cdf - a.cdf) * (a.size_bytes + b.size_bytes) / 2;
  }
}

double FlowSizeCdf::quantile(double u) const {
  if (u < points_.front().cdf) return points_.front().size_bytes;
  const auto it = std::upper_bound(points_.begin(), points_.end(), u,
                                   [](double v, const CdfPoint& p) { return v < p.cdf; });
  if (it == points_.end()) return points_.back().size_bytes;
  const CdfPoint& hi = *it;
  const CdfPoint& lo = *(it - 1);  // lo.cdf <= u < hi.cdf, so the segment has width
  return lo.size_bytes + (hi.size_bytes - lo.size_bytes) * (u - lo.cdf) / (hi.cdf - lo.cdf);
}

sim::Bytes FlowSizeCdf::sample(sim::Rng& rng) const {
  const auto b = static_cast<int64_t>(std::llround(quantile(rng.uniform01())));
  return sim::Bytes(std::max<int64_t>(b, 1));
}

double FlowSizeCdf::mean_bytes() const { return mean_; }

FlowSizeCdf parse_cdf(std::string_view text, std::string_view source) {
  const std::string where(source);
  std::vector<CdfPoint> pts;
  std::vector<int> lines;
  int line_no = 0;
  for (size_t pos = 0; pos <= text.size();) {
    auto eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    line = trim(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    const auto f = fields(line);
    const auto size = f.size() == 2 ? to_double(f[0]) : std::nullopt;
    const auto cdf = f.size() == 2 ? to_double(f[1]) : std::nullopt;
    if (!size || !cdf) {
      throw CdfError(where + ":" + std::to_string(line_no) +
                         ": expected two numbers 'size_bytes cdf', got '" + std::string(line) + "'",
                     line_no);
    }
    pts.push_back({*size, *cdf});
    lines.push_back(line_no);
  }
  if (pts.empty()) throw CdfError(where + ": no points: expected lines of 'size_bytes cdf'", 0);
  const bool percent = pts.back().cdf == 100.0;
  if (percent) {
    for (CdfPoint& p : pts) p.cdf /= 100.0;
  }
  if (auto err = check_points(pts, percent ? 100.0 : 1.0)) {
    const int at = lines[err->index];
    throw CdfError(where + ":" + std::to_string(at) + ": " + err->message, at);
  }
  return FlowSizeCdf(std::move(pts));
}

}  // namespace xoff::models
