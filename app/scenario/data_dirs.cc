#include "app/scenario/data_dirs.h"

namespace xoff::app {

std::vector<std::filesystem::path> bundled_scenario_dirs() {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path installed = exe.parent_path().parent_path() / "share" / "xoff" / "scenarios";
    if (fs::is_directory(installed, ec)) out.push_back(installed);
  }
#ifdef XOFF_SOURCE_SCENARIOS
  const fs::path source = XOFF_SOURCE_SCENARIOS;
  if (fs::is_directory(source, ec) && (out.empty() || out.front() != source)) out.push_back(source);
#endif
  return out;
}

}  // namespace xoff::app
