#include "app/scenario/topology_file.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "app/config/error.h"
#include "sim/unit_parse.h"

namespace xoff::app {
namespace {
namespace fs = std::filesystem;

struct Token {
  std::string text;
  uint32_t line = 0;
  uint32_t column = 0;
};

// Whitespace-separated tokens with their positions; '#' starts a comment.
std::vector<Token> tokens(std::istream& in) {
  std::vector<Token> out;
  std::string line;
  uint32_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      if (i >= line.size()) break;
      size_t j = i;
      while (j < line.size() && !std::isspace(static_cast<unsigned char>(line[j]))) ++j;
      out.push_back({line.substr(i, j - i), n, static_cast<uint32_t>(i + 1)});
      i = j;
    }
  }
  return out;
}

class Parser {
 public:
  Parser(std::string path, std::vector<Token> t) : path_(std::move(path)), t_(std::move(t)) {}
  [[noreturn]] void fail(const Token* at, const std::string& msg) const {
    // At the end of the file: just after its last token.
    const uint32_t line = at ? at->line : (t_.empty() ? 0 : t_.back().line);
    const uint32_t col =
        at ? at->column
           : (t_.empty() ? 0 : t_.back().column + static_cast<uint32_t>(t_.back().text.size()));
    throw config::ScenarioError(config::SourcePos{path_, line, col}, "", msg);
  }
  const Token& next(const char* what) {
    if (i_ >= t_.size())
      fail(nullptr, std::string("the file ends where ") + what + " was expected");
    return t_[i_++];
  }
  uint64_t integer(const char* what, uint64_t max) {
    const Token& k = next(what);
    uint64_t v = 0;
    const auto [p, ec] = std::from_chars(k.text.data(), k.text.data() + k.text.size(), v);
    if (ec != std::errc{} || p != k.text.data() + k.text.size() || v > max) {
      fail(&k, std::string("expected ") + what + " (an integer up to " + std::to_string(max) +
                   "), got \"" + k.text + "\"");
    }
    return v;
  }
  bool done() const { return i_ >= t_.size(); }
  const Token* peek() const { return i_ < t_.size() ? &t_[i_] : nullptr; }

 private:
  std::string path_;
  std::vector<Token> t_;
  size_t i_ = 0;
};

}  // namespace

models::Topology read_hpcc_topology(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw config::ScenarioError(config::SourcePos{path, 0, 0}, "",
                                "cannot read the topology file: not a regular file (or missing)");
  }
  if (fs::file_size(path, ec) > (uintmax_t{1} << 30)) {
    throw config::ScenarioError(config::SourcePos{path, 0, 0}, "",
                                "topology file larger than 1 GiB");
  }
  std::ifstream in(path);
  Parser p(path, tokens(in));
  constexpr uint64_t kMaxNodes = 1'000'000;
  const uint64_t n = p.integer("the node count", kMaxNodes);
  const uint64_t s = p.integer("the switch count", n);
  const uint64_t l = p.integer("the link count", 16 * kMaxNodes);
  std::vector<bool> is_switch(n, false);
  for (uint64_t i = 0; i < s; ++i) {
    const Token* at = p.peek();
    const uint64_t id = p.integer("a switch id", n == 0 ? 0 : n - 1);
    if (is_switch[id]) p.fail(at, "switch " + std::to_string(id) + " is listed twice");
    is_switch[id] = true;
  }
  // xoff node index per HPCC id: hosts first (h0, h1, ... in id order), then switches.
  std::vector<uint32_t> index(n);
  std::vector<models::NodeSpec> nodes;
  for (uint64_t id = 0; id < n; ++id) {
    if (is_switch[id]) continue;
    index[id] = static_cast<uint32_t>(nodes.size());
    nodes.push_back({"h" + std::to_string(nodes.size()), models::NodeKind::kHost, 0});
  }
  for (uint64_t id = 0; id < n; ++id) {
    if (!is_switch[id]) continue;
    index[id] = static_cast<uint32_t>(nodes.size());
    nodes.push_back({"sw" + std::to_string(id), models::NodeKind::kSwitch, 1});
  }
  std::vector<models::LinkInput> links;
  std::vector<std::vector<uint32_t>> adj(nodes.size());
  for (uint64_t k = 0; k < l; ++k) {
    const Token* at = p.peek();
    const uint64_t a = p.integer("a link's first node id", n == 0 ? 0 : n - 1);
    const uint64_t b = p.integer("a link's second node id", n == 0 ? 0 : n - 1);
    if (a == b) p.fail(at, "a link from node " + std::to_string(a) + " to itself");
    models::LinkInput li;
    li.a = index[a];
    li.b = index[b];
    const Token& rate = p.next("a link rate");
    try {
      li.rate = sim::parse_rate(rate.text);
    } catch (const std::exception& e) {
      p.fail(&rate, std::string("link rate: ") + e.what());
    }
    if (li.rate.count() <= 0) p.fail(&rate, "link rate must be positive");
    const Token& delay = p.next("a link delay");
    try {
      li.delay = sim::parse_duration(delay.text);
    } catch (const std::exception& e) {
      p.fail(&delay, std::string("link delay: ") + e.what());
    }
    if (li.delay < sim::Duration::zero() || li.delay > sim::Duration::s(1)) {
      p.fail(&delay, "link delay must be between 0 and 1 s");
    }
    const Token& err = p.next("a link error rate");
    double e = 0;
    const auto [ptr, ecode] =
        std::from_chars(err.text.data(), err.text.data() + err.text.size(), e);
    if (ecode != std::errc{} || ptr != err.text.data() + err.text.size()) {
      p.fail(&err, "expected an error rate (a number), got \"" + err.text + "\"");
    }
    if (e != 0) p.fail(&err, "error rate " + err.text + ": xoff models no bit errors (use 0)");
    adj[li.a].push_back(li.b);
    adj[li.b].push_back(li.a);
    links.push_back(li);
  }
  if (!p.done()) p.fail(p.peek(), "more links than the " + std::to_string(l) + " announced");
  // Tiers: 1 for a switch next to a host, else 1 + its lowest-tier neighbour
  // (breadth first from the host-facing switches), capped at 3.
  std::vector<int> tier(nodes.size(), std::numeric_limits<int>::max());
  std::vector<uint32_t> frontier;
  for (uint32_t v = 0; v < nodes.size(); ++v) {
    if (nodes[v].kind == models::NodeKind::kHost) continue;
    for (uint32_t w : adj[v]) {
      if (nodes[w].kind == models::NodeKind::kHost) {
        tier[v] = 1;
        frontier.push_back(v);
        break;
      }
    }
  }
  while (!frontier.empty()) {
    std::vector<uint32_t> next;
    for (uint32_t v : frontier) {
      for (uint32_t w : adj[v]) {
        if (nodes[w].kind == models::NodeKind::kSwitch && tier[w] > tier[v] + 1) {
          tier[w] = tier[v] + 1;
          next.push_back(w);
        }
      }
    }
    frontier = std::move(next);
  }
  for (uint32_t v = 0; v < nodes.size(); ++v) {
    if (nodes[v].kind == models::NodeKind::kSwitch) {
      nodes[v].tier = tier[v] == std::numeric_limits<int>::max() ? 1 : std::min(tier[v], 3);
    }
  }
  return models::explicit_topology(std::move(nodes), links);
}

}  // namespace xoff::app
