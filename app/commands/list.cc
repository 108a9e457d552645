// `xoff list`: the scenarios in a directory with their one-line descriptions.
#include <toml++/toml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/commands/commands.h"
#include "app/scenario/data_dirs.h"

namespace xoff::app {

int cmd_list(const ListArgs& a) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> files;
  fs::path dir = a.directory;
  // The default "scenarios" not here: the bundled ones (installed or source).
  if (a.directory == "scenarios" && !fs::is_directory(dir, ec)) {
    const auto bundled = bundled_scenario_dirs();
    if (!bundled.empty()) {
      dir = bundled.front();
      std::printf("(bundled scenarios in %s)\n", dir.c_str());
    }
  }
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".toml") files.push_back(e.path());
  }
  if (ec) {
    std::fprintf(stderr, "xoff list: error: cannot read directory \"%s\": %s\n",
                 a.directory.c_str(), ec.message().c_str());
    return 2;
  }
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    std::string desc = "(unreadable)";
    try {
      const toml::table t = toml::parse_file(p.string());
      desc = t["scenario"]["description"].value_or(std::string("(no description)"));
    } catch (const toml::parse_error&) {
    }
    std::printf("%-28s %s\n", p.filename().string().c_str(), desc.c_str());
  }
  return 0;
}

}  // namespace xoff::app
