#pragma once
// Where the bundled scenarios and flow-size CDFs are, for a binary run from
// anywhere: installed (`cmake --install`: <prefix>/bin/xoff with
// <prefix>/share/xoff/scenarios) or from a build tree (the source tree's
// scenarios/, compiled in as XOFF_SOURCE_SCENARIOS).
#include <filesystem>
#include <vector>

namespace xoff::app {

// The bundled scenario directories that exist, first found first:
// <dir of the executable>/../share/xoff/scenarios, then the source tree's.
std::vector<std::filesystem::path> bundled_scenario_dirs();

}  // namespace xoff::app
