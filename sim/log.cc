#include "sim/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include "sim/simulator.h"

namespace xoff::sim {
namespace {

// %* in the pattern: the sim time of the simulator running on this thread.
class SimTimeFlag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg&, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    const Simulator* s = Simulator::current();
    const std::string txt = s ? fmt::format("{:.6f}us", s->now().to_us()) : std::string("-");
    dest.append(txt.data(), txt.data() + txt.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<SimTimeFlag>();
  }
};

spdlog::level::level_enum g_level = spdlog::level::warn;

}  // namespace

std::shared_ptr<spdlog::logger> logger(const std::string& subsystem) {
  const std::string name = "xoff." + subsystem;
  if (auto existing = spdlog::get(name)) return existing;
  auto lg = spdlog::stderr_color_mt(name);
  auto formatter = std::make_unique<spdlog::pattern_formatter>();
  formatter->add_flag<SimTimeFlag>('*').set_pattern("[%*] [" + subsystem + "] %v");
  lg->set_formatter(std::move(formatter));
  lg->set_level(g_level);
  return lg;
}

void set_log_level(spdlog::level::level_enum level) {
  g_level = level;
  spdlog::apply_all([level](const std::shared_ptr<spdlog::logger>& l) {
    if (l->name().rfind("xoff.", 0) == 0) l->set_level(level);
  });
}

}  // namespace xoff::sim
