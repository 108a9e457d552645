#include "app/config/load.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/config/error.h"
#include "app/config/overrides.h"
#include "app/config/source.h"

namespace xoff::config {
namespace {

// toml++ says "Error while parsing value: could not determine value type"; after our
// "error: " prefix that reads better as "TOML syntax error in value: ...".
std::string syntax_message(std::string_view description) {
  constexpr std::string_view kPrefix = "Error while parsing ";
  if (description.starts_with(kPrefix)) description.remove_prefix(kPrefix.size());
  return "TOML syntax error in " + std::string(description);
}

std::string read_all(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw ScenarioError({path, 0, 0}, "", "cannot open scenario file: it is a directory");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ScenarioError({path, 0, 0}, "",
                        std::string("cannot open scenario file: ") + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

toml::table load_string(std::string_view text, const std::string& name,
                        std::span<const std::string> overrides) {
  toml::table doc;
  try {
    doc = toml::parse(text, std::string_view(name));
  } catch (const toml::parse_error& e) {
    throw ScenarioError(position_of(e.source(), name), "", syntax_message(e.description()));
  }
  apply_overrides(doc, overrides);
  return doc;
}

toml::table load_file(const std::string& path, std::span<const std::string> overrides) {
  return load_string(read_all(path), path, overrides);
}

}  // namespace xoff::config
