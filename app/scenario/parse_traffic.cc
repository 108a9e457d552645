// [[traffic.*]] generators and [[collective]]: resolved to host ordinals and
// to the generator specs of models/traffic.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/scenario/data_dirs.h"
#include "app/scenario/flow_file.h"
#include "app/scenario/parse.h"
#include "app/scenario/workload_file.h"

namespace xoff::app {
namespace {
using config::TableReader;
namespace fs = std::filesystem;

sim::Time read_start(TableReader& r) {
  return sim::Time::zero() +
         r.optional<sim::Duration>("start", sim::Duration::zero(), {.min = sim::Duration::zero()});
}

sim::Bytes read_size(TableReader& r) {
  return r.required<sim::Bytes>("size", {.min = sim::Bytes(1)});
}

// Generators need distinct hosts, and at least `min` of them.
void check_hosts(TableReader& r, std::string_view key, const std::vector<uint32_t>& hosts,
                 size_t min, const models::Topology& t) {
  std::vector<uint32_t> sorted = hosts;
  std::sort(sorted.begin(), sorted.end());
  const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end()) {
    r.error_at(key, "host \"" + t.nodes[t.host_node(*dup)].name + "\" is listed twice");
  } else if (hosts.size() < min) {
    r.error_at(key, "needs at least " + std::to_string(min) + " distinct hosts, got " +
                        std::to_string(hosts.size()));
  }
}

// The rate of host `h`'s link (every host has exactly one).
sim::BitsPerSecond host_rate(const models::Topology& t, uint32_t h) {
  const uint32_t node = t.host_node(h);
  return t.links[t.peer(node, 0).link].rate;
}

void read_flows(TableReader& r, Names& names, TrafficConfig& out) {
  std::vector<std::string> flow_names;
  for (TableReader f : r.array_of_tables("flow")) {
    models::FlowPlan plan;
    plan.spec.name = f.optional<std::string>("name", "flow" + std::to_string(out.flows.size()));
    const auto src = names.host(f, "src");
    const auto dst = names.host(f, "dst");
    plan.spec.size = read_size(f);
    plan.spec.start = read_start(f);
    models::apply_class(plan.spec, read_flow_class(f, "roce"));
    plan.gap =
        f.optional<sim::Duration>("gap", sim::Duration::zero(), {.min = sim::Duration::zero()});
    for (const std::string& dep : f.array<std::string>("after")) {
      const auto it = std::find(flow_names.begin(), flow_names.end(), dep);
      if (it == flow_names.end()) {
        f.error_at("after", "no earlier flow named \"" + dep +
                                "\" (a flow can only wait on flows listed before it)");
      } else {
        plan.after.push_back(static_cast<uint32_t>(it - flow_names.begin()));
      }
    }
    if (src && dst && *src == *dst)
      f.error_at("dst", f.path_of("dst") + " must differ from " + f.path_of("src"));
    if (!f.optional<bool>("enabled", true)) continue;  // kept in the file, left out of the run
    flow_names.push_back(plan.spec.name);
    plan.spec.src = src.value_or(0);
    plan.spec.dst = dst.value_or(0);
    out.flows.push_back(std::move(plan));
  }
}

// [[traffic.file]]: a flow list (app/scenario/flow_file.h), path relative to
// the scenario file. Its flows join the explicit ones.
void read_flow_files(TableReader& r, Names& names, const std::string& scenario_file,
                     TrafficConfig& out) {
  for (TableReader f : r.array_of_tables("file")) {
    const std::string rel = f.required<std::string>("path");
    const fs::path p =
        fs::path(rel).is_absolute() ? fs::path(rel) : fs::path(scenario_file).parent_path() / rel;
    const std::string by_ext = fs::path(rel).extension() == ".csv" ? "csv" : "hpcc";
    const std::string format = f.choice("format", {"csv", "hpcc"}, by_ext);
    const models::FlowClass cls = read_flow_class(f, "roce");
    const std::string prefix = f.optional<std::string>("name", fs::path(rel).stem().string());
    if (!f.optional<bool>("enabled", true) || rel.empty()) continue;
    for (auto& plan : read_flow_file(p.string(), format, names.topology(), cls, prefix)) {
      out.flows.push_back(std::move(plan));
    }
  }
}

void read_incasts(TableReader& r, Names& names, TrafficConfig& out) {
  for (TableReader f : r.array_of_tables("incast")) {
    models::IncastSpec s;
    s.name = f.optional<std::string>("name", "incast" + std::to_string(out.incasts.size()));
    const auto rx = names.host(f, "receiver");
    for (uint32_t h : names.hosts(f, "senders", true)) {
      if (!rx || h != *rx) s.senders.push_back(h);
    }
    s.receiver = rx.value_or(0);
    s.size = read_size(f);
    s.start = read_start(f);
    s.waves = static_cast<uint32_t>(f.optional<int64_t>("waves", 1, {.min = 1, .max = 100000}));
    s.wave_gap = f.optional<sim::Duration>("wave_gap", sim::Duration::zero(),
                                           {.min = sim::Duration::zero()});
    s.cls = read_flow_class(f, "roce");
    check_hosts(f, "senders", s.senders, 1, names.topology());
    out.incasts.push_back(std::move(s));
  }
}

template <class Spec>
void read_host_sets(TableReader& r, std::string_view key, Names& names, std::vector<Spec>& out) {
  for (TableReader f : r.array_of_tables(key)) {
    Spec s;
    s.name = f.optional<std::string>("name", std::string(key) + std::to_string(out.size()));
    s.hosts = names.hosts(f, "hosts", false);
    check_hosts(f, "hosts", s.hosts, 2, names.topology());
    s.size = read_size(f);
    s.start = read_start(f);
    s.cls = read_flow_class(f, "roce");
    out.push_back(std::move(s));
  }
}

std::shared_ptr<const models::FlowSizeCdf> load_cdf(TableReader& f, const std::string& name,
                                                    const std::string& scenario_file) {
  const fs::path dir = fs::path(scenario_file).parent_path();
  const bool bundled = name.find('/') == std::string::npos && name.find('.') == std::string::npos;
  fs::path p = bundled ? dir / "cdf" / (name + ".txt") : dir / name;
  // A bundled name not found beside the scenario: the bundled CDFs.
  if (bundled && !fs::exists(p)) {
    for (const fs::path& d : bundled_scenario_dirs()) {
      if (fs::exists(d / "cdf" / (name + ".txt"))) {
        p = d / "cdf" / (name + ".txt");
        break;
      }
    }
  }
  std::error_code ec;
  if (fs::exists(p, ec) && (!fs::is_regular_file(p, ec) || fs::file_size(p, ec) > (1u << 24))) {
    f.error_at("cdf", "flow-size CDF \"" + p.string() +
                          "\" is not a regular file of at most 16 MiB (a FIFO, a device?)");
    return nullptr;
  }
  std::ifstream in(p);
  if (!in) {
    f.error_at("cdf",
               "cannot open flow-size CDF \"" + p.string() +
                   "\" (bundled: \"websearch\", \"hadoop\"; or a path relative to the scenario)");
    return nullptr;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  try {
    return std::make_shared<models::FlowSizeCdf>(models::parse_cdf(ss.str(), p.string()));
  } catch (const models::CdfError& e) {
    f.error_at("cdf", e.what());
    return nullptr;
  }
}

void read_poisson(TableReader& r, Names& names, ScenarioConfig& s) {
  for (TableReader f : r.array_of_tables("poisson")) {
    PoissonConfig pc;
    pc.spec.name =
        f.optional<std::string>("name", "poisson" + std::to_string(s.traffic.poisson.size()));
    pc.spec.hosts = names.hosts(f, "hosts", false);
    check_hosts(f, "hosts", pc.spec.hosts, 2, names.topology());
    pc.spec.load = f.required<double>("load", {.min = 0.001, .max = 1.0});
    pc.cdf_name = f.required<std::string>("cdf");
    pc.spec.start = read_start(f);
    if (f.has("stop")) pc.spec.stop = sim::Time::zero() + f.required<sim::Duration>("stop");
    pc.spec.max_flows = static_cast<uint64_t>(f.optional<int64_t>("max_flows", 0, {.min = 0}));
    pc.spec.cls = read_flow_class(f, "roce");
    if (pc.spec.stop == sim::Time::max() && pc.spec.max_flows == 0) {
      pc.spec.stop = sim::Time::zero() + s.duration;  // arrivals until the end of the run
    }
    if (!pc.spec.hosts.empty()) pc.spec.host_rate = host_rate(names.topology(), pc.spec.hosts[0]);
    if (!pc.cdf_name.empty()) pc.cdf = load_cdf(f, pc.cdf_name, s.file);
    pc.spec.cdf = pc.cdf.get();
    s.traffic.poisson.push_back(std::move(pc));
  }
}

void read_rpcs(TableReader& r, Names& names, TrafficConfig& out) {
  for (TableReader f : r.array_of_tables("rpc")) {
    RpcConfig c;
    c.name = f.optional<std::string>("name", "rpc" + std::to_string(out.rpcs.size()));
    const auto cl = names.host(f, "client");
    const auto sv = names.host(f, "server");
    c.request = f.optional<sim::Bytes>("request", c.request, {.min = sim::Bytes(1)});
    c.response = f.optional<sim::Bytes>("response", c.response, {.min = sim::Bytes(1)});
    c.start = read_start(f);
    c.interval = f.optional<sim::Duration>("interval", c.interval, {.min = sim::Duration::ns(1)});
    c.count =
        static_cast<uint32_t>(f.optional<int64_t>("count", c.count, {.min = 1, .max = 10'000'000}));
    c.cls = read_flow_class(f, "tcp");
    if (c.cls.protocol != models::Protocol::kTcp) f.error_at("protocol", "rpc probes run over tcp");
    if (cl && sv && *cl == *sv)
      f.error_at("server", f.path_of("server") + " must differ from " + f.path_of("client"));
    c.client = cl.value_or(0);
    c.server = sv.value_or(0);
    out.rpcs.push_back(std::move(c));
  }
}

}  // namespace

void read_traffic(std::optional<TableReader> r, Names& names, ScenarioConfig& s) {
  if (!r) return;
  read_flows(*r, names, s.traffic);
  read_flow_files(*r, names, s.file, s.traffic);
  read_incasts(*r, names, s.traffic);
  read_host_sets(*r, "permutation", names, s.traffic.permutations);
  read_host_sets(*r, "all_to_all", names, s.traffic.all_to_all);
  read_poisson(*r, names, s);
  read_rpcs(*r, names, s.traffic);
}

void read_collectives(TableReader& root, Names& names, ScenarioConfig& s) {
  for (TableReader f : root.array_of_tables("collective")) {
    models::CollectiveSpec c;
    const std::string op =
        f.choice("op", {"allreduce", "reduce_scatter", "all_gather", "all_to_all"}, "allreduce");
    c.op = op == "allreduce"        ? models::CollectiveOp::kAllReduce
           : op == "reduce_scatter" ? models::CollectiveOp::kReduceScatter
           : op == "all_gather"     ? models::CollectiveOp::kAllGather
                                    : models::CollectiveOp::kAllToAll;
    c.name = f.optional<std::string>("name", op + std::to_string(s.traffic.collectives.size()));
    std::string alg;
    if (c.op == models::CollectiveOp::kAllReduce) {
      alg = f.choice("algorithm", {"ring", "halving_doubling", "hierarchical", "tree"}, "ring");
    } else if (c.op == models::CollectiveOp::kAllToAll) {
      alg = f.choice("algorithm", {"direct"}, "direct");
    } else {
      alg = f.choice("algorithm", {"ring"}, "ring");
    }
    c.algorithm = alg == "ring"               ? models::CollectiveAlgorithm::kRing
                  : alg == "halving_doubling" ? models::CollectiveAlgorithm::kHalvingDoubling
                  : alg == "hierarchical"     ? models::CollectiveAlgorithm::kHierarchical
                  : alg == "tree"             ? models::CollectiveAlgorithm::kTree
                                              : models::CollectiveAlgorithm::kDirect;
    c.ranks = names.hosts(f, "hosts", true);
    if (f.has("workload")) {  // a training job's steps from a file
      if (f.has("size"))
        f.error_at("size",
                   f.path_of("size") + " and a workload both set: the workload gives the sizes");
      const std::string rel = f.required<std::string>("workload");
      const fs::path p =
          fs::path(rel).is_absolute() ? fs::path(rel) : fs::path(s.file).parent_path() / rel;
      const std::string format = f.choice("format", {"xoff", "astra"}, "xoff");
      const auto cycle = f.optional<sim::Duration>(
          "cycle", sim::Duration::ns(1), {.min = sim::Duration::ps(1), .max = sim::Duration::s(1)});
      if (!rel.empty()) c.workload = read_workload_file(p.string(), format, cycle);
      c.size = sim::Bytes(0);
    } else {
      c.size = read_size(f);
    }
    c.start = read_start(f);
    c.iterations =
        static_cast<uint32_t>(f.optional<int64_t>("iterations", 1, {.min = 1, .max = 1'000'000}));
    c.compute =
        f.optional<sim::Duration>("compute", sim::Duration::zero(), {.min = sim::Duration::zero()});
    c.channels = static_cast<uint32_t>(f.optional<int64_t>("channels", 1, {.min = 1, .max = 64}));
    c.chunk_size = f.optional<sim::Bytes>("chunk_size", c.chunk_size,
                                          {.min = sim::Bytes(1), .max = sim::Bytes(1LL << 30)});
    if (f.has("chunk_size") && c.workload.empty() &&
        (c.algorithm == models::CollectiveAlgorithm::kHalvingDoubling ||
         c.algorithm == models::CollectiveAlgorithm::kHierarchical ||
         c.algorithm == models::CollectiveAlgorithm::kDirect)) {
      f.error_at("chunk_size", f.path_of("chunk_size") +
                                   " applies to ring, reduce_scatter, all_gather and tree, not " +
                                   alg);
    }
    c.cls = read_flow_class(f, "roce");
    const size_t n = c.ranks.size();
    check_hosts(f, "hosts", c.ranks, 2, names.topology());
    if (n >= 2 && c.workload.empty() && c.size.count() < static_cast<int64_t>(n) * c.channels) {
      f.error_at("size", f.path_of("size") + " must be at least one byte per rank and channel (" +
                             std::to_string(n * c.channels) + " B)");
    }
    if (c.algorithm == models::CollectiveAlgorithm::kHalvingDoubling && (n & (n - 1)) != 0) {
      f.error_at("hosts",
                 "halving_doubling needs a power-of-two number of hosts, got " + std::to_string(n));
    }
    bool local = c.algorithm == models::CollectiveAlgorithm::kHierarchical;
    for (const auto& w : c.workload) {
      local = local || w.group != models::WorkloadGroup::kAll ||
              w.algorithm == models::CollectiveAlgorithm::kHierarchical;
    }
    const uint32_t g = s.gpus_per_server;
    bool whole_servers = g >= 2 && n % g == 0 && n / g >= 2;
    // Rank i*g + j must be GPU j of one server, the servers distinct.
    for (size_t i = 0; whole_servers && i < n; ++i) {
      whole_servers = c.ranks[i] % g == i % g && c.ranks[i] / g == c.ranks[i - i % g] / g;
    }
    // Whole servers use their intra-server path wherever the algorithm can
    // (hierarchical phases, server groups, an all-to-all's local peers).
    if (local || whole_servers) {
      if (!whole_servers) {
        f.error_at(c.workload.empty() ? "algorithm" : "workload",
                   "hierarchical (and workload groups server, rail) need topology.gpus_per_server "
                   ">= 2 (now " +
                       std::to_string(g) +
                       ") and hosts that are whole servers, at least 2, each listed GPU 0 first "
                       "(" +
                       std::to_string(n) + " hosts given)");
      }
      c.local_size = g;
      c.local_cls = c.cls;
      c.local_cls.protocol = models::Protocol::kNvlink;
      c.local_rate = s.nvlink.rate;
    }
    if (n >= 2) c.link_rate = host_rate(names.topology(), c.ranks[0]);
    if (!c.workload.empty() && n >= 2) {
      try {  // what only the whole workload shows (groups, sizes per rank)
        models::validate_collective(c);
      } catch (const models::TrafficError& e) {
        f.error_at("workload", e.what());
      }
    }
    s.traffic.collectives.push_back(std::move(c));
  }
}

}  // namespace xoff::app
