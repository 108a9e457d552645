#include "app/scenario/flow_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "app/config/error.h"
#include "app/config/suggest.h"
#include "sim/unit_parse.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

struct Field {
  std::string text;
  uint32_t column = 0;  // 1-based
};

class Reader {
 public:
  Reader(std::string path, const models::Topology& topo) : path_(std::move(path)), topo_(topo) {
    for (uint32_t h = 0; h < topo.num_hosts(); ++h) {
      const std::string& n = topo.nodes[topo.host_node(h)].name;
      by_name_.emplace(n, h);
      names_.push_back(n);
    }
  }
  [[noreturn]] void fail(uint32_t line, uint32_t col, const std::string& key,
                         const std::string& msg) const {
    throw config::ScenarioError(config::SourcePos{path_, line, col}, key, msg);
  }
  uint32_t host(const Field& f, uint32_t line, const char* key) const {
    const std::string& t = f.text;
    if (!t.empty() &&
        std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      uint64_t v = 0;
      std::from_chars(t.data(), t.data() + t.size(), v);
      if (t.size() > 10 || v >= topo_.num_hosts()) {
        fail(line, f.column, key,
             "host ordinal " + t + " is out of range (the topology has " +
                 std::to_string(topo_.num_hosts()) + " hosts, 0.." +
                 std::to_string(topo_.num_hosts() - 1) + ")");
      }
      return static_cast<uint32_t>(v);
    }
    const auto it = by_name_.find(t);
    if (it == by_name_.end()) {
      const auto near = config::nearest(t, names_);
      fail(line, f.column, key,
           "no host named \"" + t + "\"" + (near ? " (did you mean \"" + *near + "\"?)" : ""));
    }
    return it->second;
  }
  int64_t integer(const Field& f, uint32_t line, const char* key, int64_t lo, int64_t hi) const {
    int64_t v = 0;
    const auto [p, ec] = std::from_chars(f.text.data(), f.text.data() + f.text.size(), v);
    if (f.text.empty() || ec != std::errc{} || p != f.text.data() + f.text.size() || v < lo ||
        v > hi) {
      fail(line, f.column, key,
           "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
               "], got \"" + f.text + "\"");
    }
    return v;
  }
  sim::Bytes size(const Field& f, uint32_t line) const {
    sim::Bytes b;
    try {
      const bool bare = !f.text.empty() && std::all_of(f.text.begin(), f.text.end(),
                                                       [](char c) { return c >= '0' && c <= '9'; });
      b = bare ? sim::Bytes(integer(f, line, "size", 1, int64_t{1} << 50))
               : sim::parse_bytes(f.text);
    } catch (const config::ScenarioError&) {
      throw;
    } catch (const std::exception& e) {
      fail(line, f.column, "size",
           std::string("expected a size like \"64KB\" or bytes: ") + e.what());
    }
    if (b.count() < 1 || b.count() > (int64_t{1} << 50)) {
      fail(line, f.column, "size", "must be between 1 B and 1 PiB, got \"" + f.text + "\"");
    }
    return b;
  }
  sim::Time start(const Field& f, uint32_t line) const {
    if (f.text == "0") return sim::Time::zero();
    sim::Duration d;
    try {
      d = sim::parse_duration(f.text);
    } catch (const std::exception& e) {
      fail(line, f.column, "start", std::string("expected a duration like \"10us\": ") + e.what());
    }
    if (d < sim::Duration::zero() || d > sim::Duration::s(1'000'000)) {
      fail(line, f.column, "start", "must be between 0 and 10^6 s, got \"" + f.text + "\"");
    }
    return sim::Time::zero() + d;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const models::Topology& topo_;
  std::unordered_map<std::string, uint32_t> by_name_;
  std::vector<std::string> names_;
};

std::vector<Field> split(const std::string& line, char sep) {
  std::vector<Field> out;
  size_t i = 0;
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  for (;;) {
    if (sep == ' ') {
      while (i < line.size() && is_space(line[i])) ++i;
      if (i >= line.size()) break;
      size_t j = i;
      while (j < line.size() && !is_space(line[j])) ++j;
      out.push_back({line.substr(i, j - i), static_cast<uint32_t>(i + 1)});
      i = j;
      continue;
    }
    size_t j = line.find(sep, i);
    if (j == std::string::npos) j = line.size();
    size_t b = i;
    size_t e = j;
    while (b < e && is_space(line[b])) ++b;
    while (e > b && is_space(line[e - 1])) --e;
    out.push_back({line.substr(b, e - b), static_cast<uint32_t>(b + 1)});
    if (j == line.size()) break;
    i = j + 1;
  }
  return out;
}

bool skip(const std::string& line) {
  const auto p = line.find_first_not_of(" \t\r");
  return p == std::string::npos || line[p] == '#';
}

std::vector<models::FlowPlan> read_csv(std::istream& in, const Reader& r,
                                       const models::FlowClass& defaults,
                                       const std::string& prefix) {
  std::string line;
  uint32_t n = 0;
  std::vector<Field> header;
  while (std::getline(in, line)) {
    ++n;
    if (skip(line)) continue;
    header = split(line, ',');
    break;
  }
  if (header.empty()) r.fail(n, 0, "", "empty flow file: expected a header row (src,dst,size,...)");
  std::unordered_map<std::string, size_t> col;
  static const std::vector<std::string> known = {"src",   "dst",  "size",     "start",
                                                 "class", "dscp", "protocol", "name"};
  for (size_t i = 0; i < header.size(); ++i) {
    const std::string& h = header[i].text;
    if (std::find(known.begin(), known.end(), h) == known.end()) {
      const auto near = config::nearest(h, known);
      r.fail(n, header[i].column, "",
             "unknown column \"" + h + "\"" + (near ? " (did you mean \"" + *near + "\"?)" : "") +
                 "; columns: src, dst, size, start, class, dscp, protocol, name");
    }
    if (!col.emplace(h, i).second) r.fail(n, header[i].column, "", "column \"" + h + "\" twice");
  }
  for (const char* need : {"src", "dst", "size"}) {
    if (!col.count(need))
      r.fail(n, 1, "", std::string("the header has no \"") + need + "\" column");
  }
  std::vector<models::FlowPlan> out;
  while (std::getline(in, line)) {
    ++n;
    if (skip(line)) continue;
    const std::vector<Field> f = split(line, ',');
    if (f.size() != header.size()) {
      r.fail(n, 1, "",
             "expected " + std::to_string(header.size()) + " fields (as the header), got " +
                 std::to_string(f.size()));
    }
    if (out.size() >= kMaxFileFlows) r.fail(n, 1, "", "more than 10^7 flows in one file");
    models::FlowPlan p;
    p.spec.src = r.host(f[col["src"]], n, "src");
    p.spec.dst = r.host(f[col["dst"]], n, "dst");
    if (p.spec.src == p.spec.dst) r.fail(n, f[col["dst"]].column, "dst", "must differ from src");
    p.spec.size = r.size(f[col["size"]], n);
    if (col.count("start")) p.spec.start = r.start(f[col["start"]], n);
    models::FlowClass c = defaults;
    if (col.count("protocol")) {
      const Field& pf = f[col["protocol"]];
      if (pf.text != "roce" && pf.text != "tcp") {
        r.fail(n, pf.column, "protocol", "expected \"roce\" or \"tcp\", got \"" + pf.text + "\"");
      }
      c.protocol = pf.text == "tcp" ? models::Protocol::kTcp : models::Protocol::kRoce;
    }
    if (col.count("class")) {
      const auto k = static_cast<uint8_t>(r.integer(f[col["class"]], n, "class", 0, 7));
      c.tc = k;
      c.pcp = k;
      c.dscp = static_cast<uint8_t>(k * 8);
    }
    if (col.count("dscp"))
      c.dscp = static_cast<uint8_t>(r.integer(f[col["dscp"]], n, "dscp", 0, 63));
    models::apply_class(p.spec, c);
    p.spec.name = col.count("name") && !f[col["name"]].text.empty()
                      ? f[col["name"]].text
                      : prefix + "/" + std::to_string(out.size());
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<models::FlowPlan> read_hpcc(std::istream& in, const Reader& r,
                                        const models::FlowClass& defaults,
                                        const std::string& prefix) {
  std::string line;
  uint32_t n = 0;
  int64_t count = -1;
  std::vector<models::FlowPlan> out;
  while (std::getline(in, line)) {
    ++n;
    if (skip(line)) continue;
    const std::vector<Field> f = split(line, ' ');
    if (count < 0) {
      if (f.size() != 1) r.fail(n, 1, "", "the first line must be the number of flows");
      count = r.integer(f[0], n, "count", 0, static_cast<int64_t>(kMaxFileFlows));
      out.reserve(static_cast<size_t>(count));
      continue;
    }
    if (static_cast<int64_t>(out.size()) == count) {
      r.fail(n, 1, "",
             "more flows than the " + std::to_string(count) + " the first line announces");
    }
    if (f.size() != 6) {
      r.fail(n, 1, "",
             "expected 6 fields `src dst priority dport size start_s`, got " +
                 std::to_string(f.size()));
    }
    models::FlowPlan p;
    p.spec.src = r.host(f[0], n, "src");
    p.spec.dst = r.host(f[1], n, "dst");
    if (p.spec.src == p.spec.dst) r.fail(n, f[1].column, "dst", "must differ from src");
    const auto pg = static_cast<uint8_t>(r.integer(f[2], n, "priority", 0, 7));
    (void)r.integer(f[3], n, "dport", 0, 65535);
    p.spec.size = sim::Bytes(r.integer(f[4], n, "size", 1, int64_t{1} << 50));
    double s = 0;
    const auto [ptr, ec] =
        std::from_chars(f[5].text.data(), f[5].text.data() + f[5].text.size(), s);
    if (ec != std::errc{} || ptr != f[5].text.data() + f[5].text.size() || !(s >= 0) || s > 1e6) {
      r.fail(n, f[5].column, "start", "expected seconds in [0, 10^6], got \"" + f[5].text + "\"");
    }
    p.spec.start = sim::Time::from_ps(std::llround(s * 1e12));
    models::FlowClass c = defaults;
    c.tc = pg;
    c.pcp = pg;
    c.dscp = static_cast<uint8_t>(pg * 8);
    models::apply_class(p.spec, c);
    p.spec.name = prefix + "/" + std::to_string(out.size());
    out.push_back(std::move(p));
  }
  if (count < 0)
    r.fail(n, 0, "", "empty flow file: expected the number of flows on the first line");
  if (static_cast<int64_t>(out.size()) != count) {
    r.fail(n, 0, "",
           "the first line announces " + std::to_string(count) + " flows, the file has " +
               std::to_string(out.size()));
  }
  return out;
}

}  // namespace

std::vector<models::FlowPlan> read_flow_file(const std::string& path, const std::string& format,
                                             const models::Topology& topo,
                                             const models::FlowClass& defaults,
                                             const std::string& prefix) {
  const Reader r(path, topo);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    r.fail(0, 0, "", "cannot read the flow file: not a regular file (or missing)");
  }
  if (fs::file_size(path, ec) > kMaxFlowFileBytes) r.fail(0, 0, "", "flow file larger than 2 GiB");
  std::ifstream in(path);
  if (!in) r.fail(0, 0, "", "cannot open the flow file");
  return format == "csv" ? read_csv(in, r, defaults, prefix) : read_hpcc(in, r, defaults, prefix);
}

}  // namespace xoff::app
