#include "analysis/results/h5_reader.h"

#include <filesystem>

#include "analysis/results/h5_io.h"
#include "analysis/results/h5_read_tables.h"
#include "analysis/results/schema.h"

namespace xoff::analysis {
namespace {

using detail::TableReader;
using sim::Duration;
using sim::Time;

h5::Handle open_results_file(const std::string& path) {
  if (!std::filesystem::exists(path)) throw ResultsError("", "no such file");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw ResultsError("", "not an HDF5 file");
  h5::Handle file(h5::check_id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), "open file"),
                  H5Fclose);
  const bool tagged = h5::has_link(file, schema::meta::kGroup) && [&] {
    const h5::Handle g = h5::open_group(file, schema::meta::kGroup);
    return h5::has_attr(g, schema::meta::kFormatAttr) &&
           h5::read_string_attr(g, schema::meta::kFormatAttr) == schema::kFormat;
  }();
  if (!tagged) throw ResultsError("", "not an xoff results file (no /meta@format)");
  return file;
}

uint32_t schema_version(hid_t file) {
  const h5::Handle g = h5::open_group(file, schema::meta::kGroup);
  const auto version = h5::read_attr<uint32_t>(g, schema::meta::kSchemaVersion);
  if (version > schema::kVersion) {
    throw ResultsError("", "schema_version " + std::to_string(version) +
                               " is newer than this xoff reads (" +
                               std::to_string(schema::kVersion) + ")");
  }
  return version;
}

RunMetadata read_meta(hid_t file) {
  namespace m = schema::meta;
  const h5::Handle g = h5::open_group(file, m::kGroup);
  RunMetadata meta;
  meta.xoff_version = h5::read_string_attr(g, m::kXoffVersion);
  meta.scenario_name = h5::read_string_attr(g, m::kScenarioName);
  meta.scenario_text = h5::read_string_attr(g, m::kScenarioText);
  meta.seed = h5::read_attr<uint64_t>(g, m::kSeed);
  meta.fingerprint = h5::read_attr<uint64_t>(g, m::kFingerprint);
  meta.events = h5::read_attr<uint64_t>(g, m::kEvents);
  meta.sim_time = Time::from_ps(h5::read_attr<int64_t>(g, m::kSimTime));
  meta.wall_seconds = h5::read_attr<double>(g, m::kWallSeconds);
  if (h5::has_attr(g, m::kStatus)) meta.status = h5::read_string_attr(g, m::kStatus);
  if (h5::has_attr(g, m::kFlowsPlanned))
    meta.flows_planned = h5::read_attr<uint64_t>(g, m::kFlowsPlanned);
  if (h5::has_attr(g, m::kCollectivesPlanned)) {
    meta.collectives_planned = h5::read_attr<uint64_t>(g, m::kCollectivesPlanned);
  }
  return meta;
}

std::vector<models::FlowRecord> read_flows(hid_t file) {
  TableReader t(file, schema::flows::kGroup);
  const auto id = t.get<uint32_t>("flow_id");
  const auto name = t.strings("name");
  const auto protocol = t.strings("protocol");
  const auto src = t.get<uint32_t>("src_host");
  const auto dst = t.get<uint32_t>("dst_host");
  const auto tc = t.get<uint8_t>("traffic_class");
  const auto size = t.get<int64_t>("size_bytes");
  const auto start = t.get<int64_t>("start_ps");
  const auto finish = t.get<int64_t>("finish_ps");
  const auto ideal = t.get<int64_t>("ideal_fct_ps");
  const auto retx = t.get<int64_t>("retransmitted_bytes");
  const bool states = t.has("state");  // files of before it: finished flows only
  const auto state = states ? t.strings("state") : std::vector<std::string>{};
  const auto delivered = states ? t.get<int64_t>("bytes_delivered") : std::vector<int64_t>{};
  const bool cnps = t.has("cnps_received");  // files of before it: unknown
  const auto cnp = cnps ? t.get<int64_t>("cnps_received") : std::vector<int64_t>{};
  std::vector<models::FlowRecord> flows(t.rows());
  for (size_t i = 0; i < flows.size(); ++i) {
    models::FlowRecord& f = flows[i];
    f.flow_id = id[i];
    f.name = name[i];
    f.protocol = protocol[i];
    f.src_host = src[i];
    f.dst_host = dst[i];
    f.traffic_class = tc[i];
    f.size_bytes = size[i];
    f.start = Time::from_ps(start[i]);
    f.finish = Time::from_ps(finish[i]);
    f.ideal_fct = Duration::ps(ideal[i]);
    f.retransmitted_bytes = retx[i];
    f.bytes_delivered = states ? delivered[i] : size[i];
    f.cnps_received = cnps ? cnp[i] : -1;
    if (states && state[i] != schema::flows::kFinished) {
      if (state[i] == schema::flows::kRunning) {
        f.state = models::FlowRecord::State::kRunning;
      } else if (state[i] == schema::flows::kWaiting) {
        f.state = models::FlowRecord::State::kWaiting;
      } else {
        throw ResultsError("", "/flows/state: unknown state \"" + state[i] + "\"");
      }
    }
  }
  return flows;
}

std::vector<models::CollectiveRecord> read_collectives(hid_t file) {
  TableReader t(file, schema::collectives::kGroup);
  const auto name = t.strings("name");
  const auto algorithm = t.strings("algorithm");
  const auto ranks = t.get<uint32_t>("ranks");
  const auto size = t.get<int64_t>("size_bytes");
  const auto start = t.get<int64_t>("start_ps");
  const auto finish = t.get<int64_t>("finish_ps");
  const auto ideal = t.get<int64_t>("ideal_ps");
  std::vector<models::CollectiveRecord> cs(t.rows());
  for (size_t i = 0; i < cs.size(); ++i) {
    cs[i].name = name[i];
    cs[i].algorithm = algorithm[i];
    cs[i].ranks = ranks[i];
    cs[i].size_bytes = size[i];
    cs[i].start = Time::from_ps(start[i]);
    cs[i].finish = Time::from_ps(finish[i]);
    cs[i].ideal = Duration::ps(ideal[i]);
  }
  if (t.has("op")) {  // files of before it: every collective an allreduce
    const auto op = t.strings("op");
    for (size_t i = 0; i < cs.size(); ++i) cs[i].op = op[i];
  }
  if (t.has("path_flows")) {  // not in files of before the critical path
    const auto flows = t.get<uint32_t>("path_flows");
    const auto bw = t.get<int64_t>("path_bandwidth_ps");
    const auto over = t.get<int64_t>("path_overhead_ps");
    const auto cong = t.get<int64_t>("path_congestion_ps");
    const auto wait = t.get<int64_t>("path_wait_ps");
    for (size_t i = 0; i < cs.size(); ++i) {
      cs[i].path_flows = flows[i];
      cs[i].path_bandwidth = Duration::ps(bw[i]);
      cs[i].path_overhead = Duration::ps(over[i]);
      cs[i].path_congestion = Duration::ps(cong[i]);
      cs[i].path_wait = Duration::ps(wait[i]);
    }
  }
  TableReader s(file, schema::collectives::kStepsGroup);
  const auto owner = s.get<uint32_t>("collective");
  const auto duration = s.get<int64_t>("duration_ps");
  const bool detail = s.has("unloaded_ps");  // not in files of before the columns
  const auto unloaded = detail ? s.get<int64_t>("unloaded_ps") : std::vector<int64_t>{};
  const auto mean_fct = detail ? s.get<int64_t>("mean_fct_ps") : std::vector<int64_t>{};
  const auto max_fct = detail ? s.get<int64_t>("max_fct_ps") : std::vector<int64_t>{};
  for (size_t i = 0; i < s.rows(); ++i) {
    if (owner[i] >= cs.size()) throw ResultsError("", "collective step for a missing row");
    auto& c = cs[owner[i]];
    c.step_times.push_back(Duration::ps(duration[i]));
    if (detail) {
      c.step_unloaded.push_back(Duration::ps(unloaded[i]));
      c.step_mean_fct.push_back(Duration::ps(mean_fct[i]));
      c.step_max_fct.push_back(Duration::ps(max_fct[i]));
    }
  }
  if (h5::has_link(file, schema::collectives::kSegmentsGroup)) {
    TableReader g(file, schema::collectives::kSegmentsGroup);
    const auto of = g.get<uint32_t>("collective");
    const auto op = g.strings("op");
    const auto algo = g.strings("algorithm");
    const auto group = g.strings("group");
    const auto bytes = g.get<int64_t>("size_bytes");
    const auto from = g.get<int64_t>("start_ps");
    const auto to = g.get<int64_t>("finish_ps");
    for (size_t i = 0; i < g.rows(); ++i) {
      if (of[i] >= cs.size()) throw ResultsError("", "collective segment for a missing row");
      cs[of[i]].segments.push_back(
          {op[i], algo[i], group[i], bytes[i], Time::from_ps(from[i]), Time::from_ps(to[i])});
    }
  }
  return cs;
}

std::vector<models::QueueCounters> read_queues(hid_t file) {
  TableReader t(file, schema::counters::kQueues);
  const auto node = t.strings("node");
  const auto port = t.get<uint16_t>("port");
  const auto tc = t.get<uint8_t>("traffic_class");
  const auto tx_packets = t.get<int64_t>("tx_packets");
  const auto tx_bytes = t.get<int64_t>("tx_bytes");
  const auto ecn = t.get<int64_t>("ecn_marked");
  const auto dropped = t.get<int64_t>("dropped_packets");
  const auto peak = t.get<int64_t>("peak_bytes");
  const auto pause_sent = t.get<int64_t>("pause_sent");
  const auto pause_received = t.get<int64_t>("pause_received");
  const auto paused = t.get<int64_t>("paused_time_ps");
  std::vector<models::QueueCounters> qs(t.rows());
  for (size_t i = 0; i < qs.size(); ++i) {
    qs[i] = {node[i],
             port[i],
             tc[i],
             tx_packets[i],
             tx_bytes[i],
             ecn[i],
             dropped[i],
             peak[i],
             pause_sent[i],
             pause_received[i],
             Duration::ps(paused[i])};
  }
  return qs;
}

std::vector<models::DropCounters> read_drops(hid_t file) {
  TableReader t(file, schema::counters::kDrops);
  const auto node = t.strings("node");
  const auto reason = t.strings("reason");
  const auto packets = t.get<int64_t>("packets");
  const auto bytes = t.get<int64_t>("bytes");
  std::vector<models::DropCounters> ds(t.rows());
  for (size_t i = 0; i < ds.size(); ++i) ds[i] = {node[i], reason[i], packets[i], bytes[i]};
  return ds;
}

std::vector<models::BufferCounters> read_buffers(hid_t file) {
  TableReader t(file, schema::counters::kBuffers);
  const auto node = t.strings("node");
  std::vector<std::vector<int64_t>> v;
  for (size_t c = 1; c < schema::counters::kBufferColumns.size(); ++c) {
    const char* name = schema::counters::kBufferColumns[c];
    // acl_remarked and tagger_retagged came later: files without them read as 0.
    v.push_back(t.has(name) ? t.get<int64_t>(name) : std::vector<int64_t>(t.rows(), 0));
  }
  std::vector<models::BufferCounters> bs(t.rows());
  for (size_t i = 0; i < bs.size(); ++i) {
    bs[i] = {node[i], v[0][i], v[1][i], v[2][i], v[3][i],  v[4][i], v[5][i],
             v[6][i], v[7][i], v[8][i], v[9][i], v[10][i], v[11][i]};
  }
  return bs;
}

}  // namespace

RunData read_results(const std::string& path) {
  const h5::QuietErrors quiet;
  try {
    const h5::Handle file = open_results_file(path);
    (void)schema_version(file);
    RunData run;
    run.meta = read_meta(file);
    run.flows = read_flows(file);
    run.collectives = read_collectives(file);
    run.queues = read_queues(file);
    run.drops = read_drops(file);
    run.buffers = read_buffers(file);
    run.pfc_events = detail::read_pfc(file);
    run.watchdog_events = detail::read_watchdog(file);
    run.deadlocks = detail::read_deadlocks(file);
    run.series = detail::read_series(file);
    detail::read_topology(file, run);
    return run;
  } catch (const ResultsError& e) {
    throw ResultsError(path, e.what_failed());
  }
}

uint32_t read_schema_version(const std::string& path) {
  const h5::QuietErrors quiet;
  try {
    const h5::Handle file = open_results_file(path);
    return schema_version(file);
  } catch (const ResultsError& e) {
    throw ResultsError(path, e.what_failed());
  }
}

}  // namespace xoff::analysis
