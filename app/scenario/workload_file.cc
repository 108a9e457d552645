#include "app/scenario/workload_file.h"

#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

#include "app/config/error.h"
#include "app/config/suggest.h"
#include "sim/unit_parse.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

constexpr uintmax_t kMaxWorkloadBytes = uintmax_t{64} << 20;
constexpr size_t kMaxSteps = 1'000'000;

struct Token {
  std::string text;
  uint32_t column = 0;  // 1-based
};

std::vector<Token> split(const std::string& line) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < line.size()) {
    if (line[i] == '#') break;
    if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r' &&
           line[i] != '#') {
      ++i;
    }
    out.push_back({line.substr(start, i - start), static_cast<uint32_t>(start + 1)});
  }
  return out;
}

class Parser {
 public:
  explicit Parser(std::string path) : path_(std::move(path)) {}
  [[noreturn]] void fail(uint32_t line, uint32_t col, const std::string& key,
                         const std::string& msg) const {
    throw config::ScenarioError(config::SourcePos{path_, line, col}, key, msg);
  }
  std::string choice(const Token& t, uint32_t line, const char* key,
                     const std::vector<std::string>& allowed) const {
    for (const auto& a : allowed) {
      if (t.text == a) return a;
    }
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    const auto near = config::nearest(t.text, allowed);
    fail(line, t.column, key,
         "\"" + t.text + "\" is not one of " + list +
             (near ? " (did you mean \"" + *near + "\"?)" : ""));
  }
  sim::Bytes bytes(const Token& t, uint32_t line) const {
    try {
      const sim::Bytes b = sim::parse_bytes(t.text);
      if (b.count() < 1 || b.count() > (int64_t{1} << 50)) throw std::invalid_argument("range");
      return b;
    } catch (const std::exception&) {
      fail(line, t.column, "size",
           "expected a size from 1B to 1PiB like \"64MB\", got \"" + t.text + "\"");
    }
  }
  sim::Duration duration(const Token& t, uint32_t line) const {
    try {
      const sim::Duration d = sim::parse_duration(t.text);
      if (d < sim::Duration::zero() || d > sim::Duration::s(1'000'000))
        throw std::invalid_argument("range");
      return d;
    } catch (const std::exception&) {
      fail(line, t.column, "compute",
           "expected a duration from 0 to 10^6 s like \"2ms\", got \"" + t.text + "\"");
    }
  }
  int64_t integer(const Token& t, uint32_t line, const char* key) const {
    int64_t v = 0;
    const auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (t.text.empty() || ec != std::errc{} || p != t.text.data() + t.text.size() || v < 0 ||
        v > (int64_t{1} << 50)) {
      fail(line, t.column, key, "expected a whole number from 0 to 2^50, got \"" + t.text + "\"");
    }
    return v;
  }

 private:
  std::string path_;
};

models::CollectiveOp op_of(const std::string& s) {
  if (s == "reduce_scatter") return models::CollectiveOp::kReduceScatter;
  if (s == "all_gather") return models::CollectiveOp::kAllGather;
  if (s == "all_to_all") return models::CollectiveOp::kAllToAll;
  return models::CollectiveOp::kAllReduce;
}

models::CollectiveAlgorithm algorithm_of(const std::string& s) {
  if (s == "halving_doubling") return models::CollectiveAlgorithm::kHalvingDoubling;
  if (s == "hierarchical") return models::CollectiveAlgorithm::kHierarchical;
  if (s == "direct") return models::CollectiveAlgorithm::kDirect;
  if (s == "tree") return models::CollectiveAlgorithm::kTree;
  return models::CollectiveAlgorithm::kRing;
}

std::vector<models::WorkloadStep> read_xoff(std::istream& in, const Parser& p) {
  std::vector<models::WorkloadStep> out;
  std::string text;
  uint32_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    const std::vector<Token> t = split(text);
    if (t.empty()) continue;
    if (out.size() >= kMaxSteps) p.fail(line, 1, "", "more than 1,000,000 workload steps");
    const std::string kind = p.choice(
        t[0], line, "step", {"compute", "allreduce", "reduce_scatter", "all_gather", "all_to_all"});
    models::WorkloadStep w;
    if (kind == "compute") {
      if (t.size() != 2) p.fail(line, t[0].column, "compute", "expected `compute <duration>`");
      w.compute = p.duration(t[1], line);
      out.push_back(w);
      continue;
    }
    if (t.size() < 2) p.fail(line, t[0].column, "size", "expected `" + kind + " <size> ...`");
    w.op = op_of(kind);
    w.size = p.bytes(t[1], line);
    w.algorithm = w.op == models::CollectiveOp::kAllToAll ? models::CollectiveAlgorithm::kDirect
                                                          : models::CollectiveAlgorithm::kRing;
    for (size_t i = 2; i < t.size(); ++i) {
      const size_t eq = t[i].text.find('=');
      const std::string key = t[i].text.substr(0, eq);
      const Token value{eq == std::string::npos ? "" : t[i].text.substr(eq + 1),
                        t[i].column + static_cast<uint32_t>(eq + 1)};
      const std::string k = p.choice({key, t[i].column}, line, "option", {"group", "algorithm"});
      if (k == "group") {
        const std::string g = p.choice(value, line, "group", {"all", "server", "rail"});
        w.group = g == "server" ? models::WorkloadGroup::kServer
                  : g == "rail" ? models::WorkloadGroup::kRail
                                : models::WorkloadGroup::kAll;
      } else {
        std::vector<std::string> allowed = {"ring"};
        if (w.op == models::CollectiveOp::kAllReduce)
          allowed = {"ring", "halving_doubling", "hierarchical", "tree"};
        if (w.op == models::CollectiveOp::kAllToAll) allowed = {"direct"};
        w.algorithm = algorithm_of(p.choice(value, line, "algorithm", allowed));
      }
    }
    out.push_back(w);
  }
  return out;
}

std::vector<models::WorkloadStep> read_astra(std::istream& in, const Parser& p,
                                             sim::Duration cycle) {
  std::vector<std::vector<Token>> lines;
  std::vector<uint32_t> numbers;
  std::string text;
  uint32_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    std::vector<Token> t = split(text);
    if (t.empty()) continue;
    lines.push_back(std::move(t));
    numbers.push_back(line);
  }
  if (lines.empty()) p.fail(1, 1, "", "empty workload file");
  const Token& kind = lines[0][0];
  if (kind.text != "DATA") {
    p.fail(numbers[0], kind.column, "parallelism",
           "only the DATA (data-parallel) loop is supported, got \"" + kind.text +
               "\": model-parallel groups (HYBRID_*) have no mapping to xoff ranks yet");
  }
  if (lines.size() < 2) p.fail(numbers[0], 1, "layers", "expected the number of layers on line 2");
  const int64_t layers = p.integer(lines[1][0], numbers[1], "layers");
  if (static_cast<int64_t>(lines.size()) - 2 != layers) {
    p.fail(numbers[1], lines[1][0].column, "layers",
           "says " + std::to_string(layers) + " layers but the file describes " +
               std::to_string(lines.size() - 2));
  }
  struct Comm {
    sim::Duration compute;
    std::optional<models::CollectiveOp> op;
    sim::Bytes size;
  };
  struct Layer {
    Comm fwd, ig, wg;
    sim::Duration update;
  };
  const auto cycles = [&](const Token& t, uint32_t ln, const char* key) {
    const int64_t c = p.integer(t, ln, key);
    if (cycle.count_ps() > 0 && c > sim::Duration::s(1'000'000).count_ps() / cycle.count_ps())
      p.fail(ln, t.column, key, "compute time beyond 10^6 s");
    return sim::Duration::ps(c * cycle.count_ps());
  };
  const auto comm = [&](const std::vector<Token>& t, size_t at, uint32_t ln, const char* what) {
    Comm c;
    c.compute = cycles(t[at], ln, what);
    const std::string type =
        p.choice(t[at + 1], ln, "comm_type",
                 {"ALLREDUCE", "ALLGATHER", "REDUCESCATTER", "ALLTOALL", "NONE"});
    const int64_t size = p.integer(t[at + 2], ln, "comm_size");
    if (type != "NONE" && size > 0) {
      c.op = type == "ALLREDUCE"       ? models::CollectiveOp::kAllReduce
             : type == "ALLGATHER"     ? models::CollectiveOp::kAllGather
             : type == "REDUCESCATTER" ? models::CollectiveOp::kReduceScatter
                                       : models::CollectiveOp::kAllToAll;
      c.size = sim::Bytes(size);
    }
    return c;
  };
  std::vector<Layer> ls;
  for (size_t i = 2; i < lines.size(); ++i) {
    const auto& t = lines[i];
    if (t.size() != 12) {
      p.fail(numbers[i], t.back().column, "layer",
             "a layer has 12 fields (name reserved fwd_compute fwd_type fwd_size ig_compute "
             "ig_type ig_size wg_compute wg_type wg_size update_delay), got " +
                 std::to_string(t.size()));
    }
    Layer l;
    l.fwd = comm(t, 2, numbers[i], "fwd_compute");
    l.ig = comm(t, 5, numbers[i], "ig_compute");
    l.wg = comm(t, 8, numbers[i], "wg_compute");
    l.update = cycles(t[11], numbers[i], "update_delay");
    ls.push_back(l);
  }
  std::vector<models::WorkloadStep> out;
  const auto emit = [&](const Comm& c) {
    models::WorkloadStep w;
    w.compute = c.compute;
    if (c.op) {
      w.op = *c.op;
      w.size = c.size;
      w.algorithm = w.op == models::CollectiveOp::kAllToAll ? models::CollectiveAlgorithm::kDirect
                                                            : models::CollectiveAlgorithm::kRing;
    }
    out.push_back(w);
  };
  for (const Layer& l : ls) emit(l.fwd);
  // Backward as ASTRA-sim's DATA loop: per layer from the last, the weight
  // gradient, then the input gradient (none for the first layer).
  for (auto it = ls.rbegin(); it != ls.rend(); ++it) {
    emit(it->wg);
    if (std::next(it) != ls.rend()) emit(it->ig);
    models::WorkloadStep upd;
    upd.compute = it->update;
    out.push_back(upd);
  }
  return out;
}

}  // namespace

std::vector<models::WorkloadStep> read_workload_file(const std::string& path,
                                                     const std::string& format,
                                                     sim::Duration cycle) {
  const Parser p(path);
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    p.fail(0, 0, "", "cannot read the workload file: not a regular file (or missing)");
  }
  if (fs::file_size(path, ec) > kMaxWorkloadBytes)
    p.fail(0, 0, "", "workload file larger than 64 MiB");
  std::ifstream in(path);
  if (!in) p.fail(0, 0, "", "cannot open the workload file");
  std::vector<models::WorkloadStep> steps =
      format == "astra" ? read_astra(in, p, cycle) : read_xoff(in, p);
  bool any = false;
  for (const auto& w : steps) any = any || w.size.count() > 0;
  if (!any) p.fail(0, 0, "", "the workload has no collective step");
  return steps;
}

}  // namespace xoff::app
