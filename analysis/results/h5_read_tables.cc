#include "analysis/results/h5_read_tables.h"

#include "analysis/results/schema.h"

namespace xoff::analysis::detail {

using sim::Time;

std::vector<models::PfcEventRecord> read_pfc(hid_t file) {
  TableReader t(file, schema::events::kPfc);
  const auto time = t.get<int64_t>("time_ps");
  const auto node = t.strings("node");
  const auto port = t.get<uint16_t>("port");
  const auto tc = t.get<uint8_t>("traffic_class");
  const auto sent = t.get<uint8_t>("sent");
  const auto quanta = t.get<uint16_t>("quanta");
  std::vector<models::PfcEventRecord> ev(t.rows());
  for (size_t i = 0; i < ev.size(); ++i) {
    ev[i] = {Time::from_ps(time[i]), node[i], port[i], tc[i], sent[i] != 0, quanta[i]};
  }
  return ev;
}

std::vector<models::WatchdogEventRecord> read_watchdog(hid_t file) {
  TableReader t(file, schema::events::kWatchdog);
  const auto time = t.get<int64_t>("time_ps");
  const auto node = t.strings("node");
  const auto port = t.get<uint16_t>("port");
  const auto tc = t.get<uint8_t>("traffic_class");
  const auto state = t.strings("state");
  const auto action = t.strings("action");
  std::vector<models::WatchdogEventRecord> ev(t.rows());
  for (size_t i = 0; i < ev.size(); ++i) {
    ev[i] = {Time::from_ps(time[i]), node[i], port[i], tc[i], state[i], action[i]};
  }
  return ev;
}

std::vector<models::DeadlockRecord> read_deadlocks(hid_t file) {
  TableReader t(file, schema::events::kDeadlock);
  const auto formed = t.get<int64_t>("formed_ps");
  const auto detected = t.get<int64_t>("detected_ps");
  const auto stuck = t.get<int64_t>("stuck_bytes");
  std::vector<models::DeadlockRecord> ev(t.rows());
  for (size_t i = 0; i < ev.size(); ++i) {
    ev[i] = {Time::from_ps(formed[i]), Time::from_ps(detected[i]), {}, stuck[i]};
  }
  TableReader m(file, schema::events::kDeadlockMembers);
  const auto owner = m.get<uint32_t>("deadlock");
  const auto node = m.strings("node");
  const auto port = m.get<uint16_t>("port");
  const auto tc = m.get<uint8_t>("traffic_class");
  const auto queued = m.get<int64_t>("queued_bytes");
  for (size_t i = 0; i < m.rows(); ++i) {
    if (owner[i] >= ev.size()) throw ResultsError("", "deadlock member for a missing row");
    ev[owner[i]].members.push_back({node[i], port[i], tc[i], queued[i]});
  }
  return ev;
}

std::vector<SeriesData> read_series(hid_t file) {
  const h5::Handle root = h5::open_group(file, schema::series::kGroup);
  std::vector<SeriesData> out;
  for (const std::string& key : h5::child_names(root)) {
    const h5::Handle g = h5::open_group(root, key);
    SeriesData s;
    s.name = h5::read_string_attr(g, schema::series::kNameAttr);
    s.unit = h5::read_string_attr(g, schema::series::kUnitAttr);
    s.time_ps = h5::read_column<int64_t>(g, schema::series::kTime);
    s.value = h5::read_column<double>(g, schema::series::kValue);
    if (s.time_ps.size() != s.value.size()) {
      throw ResultsError("", "/series/" + key + ": time_ps and value lengths differ");
    }
    out.push_back(std::move(s));
  }
  return out;
}

void read_topology(hid_t file, RunData& run) {
  if (!h5::has_link(file, schema::topology::kGroup)) return;
  TableReader n(file, schema::topology::kNodes);
  const auto name = n.strings("name");
  const auto kind = n.strings("kind");
  const auto tier = n.get<int32_t>("tier");
  for (size_t i = 0; i < n.rows(); ++i) run.topology_nodes.push_back({name[i], kind[i], tier[i]});

  TableReader l(file, schema::topology::kLinks);
  const auto a = l.strings("a");
  const auto b = l.strings("b");
  const auto a_port = l.get<uint16_t>("a_port");
  const auto b_port = l.get<uint16_t>("b_port");
  const auto rate = l.get<int64_t>("rate_bps");
  const auto delay = l.get<int64_t>("delay_ps");
  const auto up = l.has("up") ? l.get<uint8_t>("up") : std::vector<uint8_t>(l.rows(), 1);
  for (size_t i = 0; i < l.rows(); ++i) {
    run.topology_links.push_back({a[i], b[i], a_port[i], b_port[i], rate[i], delay[i], up[i] != 0});
  }
}

}  // namespace xoff::analysis::detail
