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

// A scenario is a small text file: a FIFO, a device (/dev/zero) or a huge
// file would be read forever or exhaust memory, so they are refused first.
constexpr uintmax_t kMaxScenarioBytes = 16u << 20;
// toml++ recurses once per dotted-key segment and table-header part: 10^5
// of them overflow the stack. Real scenarios nest 3 or 4 deep.
constexpr int kMaxKeyDepth = 64;

std::string read_all(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    throw ScenarioError({path, 0, 0}, "", "cannot open scenario file: it is a directory");
  }
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    throw ScenarioError({path, 0, 0}, "",
                        "cannot open scenario file: not a regular file (a FIFO or a device)");
  }
  if (std::filesystem::exists(path, ec) &&
      std::filesystem::file_size(path, ec) > kMaxScenarioBytes) {
    throw ScenarioError({path, 0, 0}, "", "scenario file larger than 16 MiB");
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

// Refuses keys nested deeper than kMaxKeyDepth: dots outside quotes in a key
// (before '=') or in a [table] header, counted per line.
void check_key_depth(std::string_view text, const std::string& name) {
  uint32_t line = 1;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view l = text.substr(start, end - start);
    int dots = 0;
    char quote = 0;
    for (size_t i = 0; i < l.size(); ++i) {
      const char c = l[i];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' || c == '=') {
        break;  // a comment, or the value: dots there are not key parts
      } else if (c == '.' && ++dots > kMaxKeyDepth) {
        throw ScenarioError({name, line, static_cast<uint32_t>(i + 1)}, "",
                            "key nested deeper than " + std::to_string(kMaxKeyDepth) + " levels");
      }
    }
    start = end + 1;
    ++line;
  }
}

}  // namespace

toml::table load_string(std::string_view text, const std::string& name,
                        std::span<const std::string> overrides) {
  toml::table doc;
  check_key_depth(text, name);
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
