// [nic] (RoCEv2 transport and DCQCN) and [tcp]: one configuration for every host.
#include "app/scenario/parse.h"

namespace xoff::app {
namespace {
using config::TableReader;

void read_dcqcn(std::optional<TableReader> r, models::DcqcnParams& d) {
  if (!r) return;
  d.g = r->optional<double>("g", d.g, {.min = 1e-6, .max = 1.0});
  d.initial_alpha = r->optional<double>("initial_alpha", d.initial_alpha, {.min = 0.0, .max = 1.0});
  const config::Bounds<sim::Duration> pos{.min = sim::Duration::ns(1)};
  d.alpha_period = r->optional<sim::Duration>("alpha_period", d.alpha_period, pos);
  d.rate_timer = r->optional<sim::Duration>("rate_timer", d.rate_timer, pos);
  d.byte_counter = r->optional<sim::Bytes>("byte_counter", d.byte_counter, {.min = sim::Bytes(0)});
  d.hyper_linear = r->choice("hyper_increase", {"linear", "constant"},
                             d.hyper_linear ? "linear" : "constant") == "linear";
  d.fast_recovery_stages = static_cast<int>(
      r->optional<int64_t>("fast_recovery_stages", d.fast_recovery_stages, {.min = 0, .max = 100}));
  const config::Bounds<sim::BitsPerSecond> rate{.min = sim::BitsPerSecond(1)};
  d.rate_ai = r->optional<sim::BitsPerSecond>("rate_ai", d.rate_ai, rate);
  d.rate_hai = r->optional<sim::BitsPerSecond>("rate_hai", d.rate_hai, rate);
  d.min_rate = r->optional<sim::BitsPerSecond>("min_rate", d.min_rate, rate);
  d.min_cut_interval = r->optional<sim::Duration>("min_cut_interval", d.min_cut_interval,
                                                  {.min = sim::Duration::zero()});
  d.cnp_interval =
      r->optional<sim::Duration>("cnp_interval", d.cnp_interval, {.min = sim::Duration::zero()});
  d.clamp_target_always = r->optional<bool>("clamp_target", d.clamp_target_always);
  d.first_cut_waits = r->choice("first_cut", {"immediate", "next_check"},
                                d.first_cut_waits ? "next_check" : "immediate") == "next_check";
  d.periodic_clocks = r->choice("clocks", {"per_cut", "periodic"},
                                d.periodic_clocks ? "periodic" : "per_cut") == "periodic";
  d.rate_on_first_cnp =
      r->optional<double>("rate_on_first_cnp", d.rate_on_first_cnp, {.min = 1e-6, .max = 1.0});
  d.min_decrease_factor =
      r->optional<double>("min_decrease_factor", d.min_decrease_factor, {.min = 0.0, .max = 1.0});
}

void read_nic(std::optional<TableReader> r, models::RoceConfig& c) {
  if (!r) return;
  // Frames up to 9216 B (jumbo): payload + 62 B of RoCE headers.
  c.mtu = r->optional<sim::Bytes>("mtu", c.mtu, {.min = sim::Bytes(64), .max = sim::Bytes(9154)});
  c.ack_every =
      static_cast<int>(r->optional<int64_t>("ack_every", c.ack_every, {.min = 1, .max = 1024}));
  c.rto = r->optional<sim::Duration>("rto", c.rto, {.min = sim::Duration::us(1)});
  // ACK/NAK class: -1 echoes the data packet's; else its own (e.g. a strict
  // high-priority class, as the HPCC simulator's ACK_HIGH_PRIO).
  c.ack_tc = static_cast<int>(r->optional<int64_t>("ack_class", c.ack_tc, {.min = -1, .max = 7}));
  if (c.ack_tc >= 0) {
    c.ack_pcp = static_cast<uint8_t>(c.ack_tc);
    c.ack_dscp = static_cast<uint8_t>(
        r->optional<int64_t>("ack_dscp", int64_t{c.ack_tc} * 8, {.min = 0, .max = 63}));
  }
  c.cnp_tc = static_cast<int>(r->optional<int64_t>("cnp_class", c.cnp_tc, {.min = 0, .max = 7}));
  c.cnp_dscp =
      static_cast<uint8_t>(r->optional<int64_t>("cnp_dscp", c.cnp_dscp, {.min = 0, .max = 63}));
  c.send_cnps = r->optional<bool>("send_cnps", c.send_cnps);
  c.cnp_on_ack = r->choice("cnp", {"frame", "ack"}, "frame") == "ack";
  const std::string profile = r->choice("dcqcn", {"paper", "nic_like", "off"}, "paper");
  c.dcqcn = profile == "nic_like" ? models::DcqcnParams::nic_like() : models::DcqcnParams::paper();
  c.dcqcn.enabled = profile != "off";
  read_dcqcn(r->optional_table("dcqcn_params"), c.dcqcn);
}

void read_tcp(std::optional<TableReader> r, models::TcpConfig& c) {
  if (!r) return;
  const std::string variant = r->choice("variant", {"newreno", "newreno_ecn", "dctcp"}, "newreno");
  c.ecn = variant == "newreno_ecn";
  c.dctcp = variant == "dctcp";
  // Frames up to 9216 B: payload + 58 B of Ethernet, 802.1Q, IPv4 and TCP headers.
  c.mss = r->optional<sim::Bytes>("mss", c.mss, {.min = sim::Bytes(64), .max = sim::Bytes(9158)});
  c.initial_window =
      r->optional<int64_t>("initial_window", c.initial_window, {.min = 1, .max = 1000});
  c.max_rto = r->optional<sim::Duration>("max_rto", c.max_rto, {.min = sim::Duration::us(1)});
  c.min_rto = r->optional<sim::Duration>("min_rto", c.min_rto, {.min = sim::Duration::us(1)});
  // Unless given, the first RTO sits at the floor (a warm connection, tcp_config.h).
  c.initial_rto =
      r->optional<sim::Duration>("initial_rto", c.min_rto, {.min = sim::Duration::us(1)});
  if (c.min_rto > c.max_rto) {
    r->error_at("min_rto", r->path_of("min_rto") + " (" + config::show(c.min_rto) +
                               ") must not exceed " + r->path_of("max_rto") + " (" +
                               config::show(c.max_rto) + ")");
  } else if (c.initial_rto < c.min_rto || c.initial_rto > c.max_rto) {
    r->error_at("initial_rto", r->path_of("initial_rto") + " (" + config::show(c.initial_rto) +
                                   ") must lie between min_rto and max_rto");
  }
  c.dctcp_g = r->optional<double>("dctcp_g", c.dctcp_g, {.min = 1e-6, .max = 1.0});
  c.delayed_ack = r->optional<bool>("delayed_ack", c.delayed_ack);
}

}  // namespace

void check_endpoints(TableReader& root, const ScenarioConfig& s) {
  const models::Topology& t = s.topology;
  for (uint32_t h = 0; h < t.num_hosts(); ++h) {
    const sim::BitsPerSecond rate = t.links[t.peer(t.host_node(h), 0).link].rate;
    if (s.roce.dcqcn.min_rate <= rate) continue;
    auto nic = root.optional_table("nic");
    auto params = nic ? nic->optional_table("dcqcn_params") : std::nullopt;
    const std::string msg = "nic.dcqcn_params.min_rate (" + config::show(s.roce.dcqcn.min_rate) +
                            ") exceeds the link rate of " + t.nodes[t.host_node(h)].name + " (" +
                            config::show(rate) + ")";
    if (params)
      params->error_at("min_rate", msg);
    else
      root.error_here(msg);
    return;
  }
}

void read_endpoints(TableReader& root, ScenarioConfig& s) {
  read_nic(root.optional_table("nic"), s.roce);
  if (auto nic = root.optional_table("nic")) {
    s.nic_pfc_stall_timeout =
        nic->optional<sim::Duration>("pfc_stall_timeout", sim::Duration::zero(),
                                     {.min = sim::Duration::us(1), .max = sim::Duration::s(1000)});
  }
  read_tcp(root.optional_table("tcp"), s.tcp);
}

}  // namespace xoff::app
