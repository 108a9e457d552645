#include "app/config/source.h"

#include <cstdio>
#include <sstream>

namespace xoff::config {
namespace {

constexpr std::string_view kSetPrefix = "--set ";

bool is_bare_key(std::string_view key) {
  if (key.empty()) return false;
  for (const char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string set_origin(std::string_view argument) {
  return std::string(kSetPrefix) + std::string(argument);
}

bool is_set_origin(std::string_view file) { return file.starts_with(kSetPrefix); }

SourcePos position_of(const toml::source_region& region, std::string_view fallback_file) {
  const std::string file = region.path ? *region.path : std::string(fallback_file);
  if (is_set_origin(file)) return SourcePos{file, 0, 0};
  return SourcePos{file, region.begin.line, region.begin.column};
}

std::string path_join(std::string_view prefix, std::string_view key) {
  std::string out(prefix);
  if (!out.empty()) out += '.';
  if (is_bare_key(key)) {
    out += key;
  } else {
    out += '"';
    out += key;
    out += '"';
  }
  return out;
}

std::string path_index(std::string_view prefix, size_t index) {
  return std::string(prefix) + '[' + std::to_string(index) + ']';
}

std::string describe(const toml::node& node) {
  std::ostringstream os;
  switch (node.type()) {
    case toml::node_type::string: {
      // Control characters escaped: a NUL would cut the message short.
      std::string out = "\"";
      for (const char c : node.as_string()->get()) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x20 || u == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", u);
          out += buf;
        } else {
          out += c;
        }
      }
      return out + '"';
    }
    case toml::node_type::integer:
      return std::to_string(node.as_integer()->get());
    case toml::node_type::floating_point:
      os << *node.as_floating_point();  // TOML's own spelling: 2.0, 1e-06, inf
      return os.str();
    case toml::node_type::boolean:
      return node.as_boolean()->get() ? "true" : "false";
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    default:
      return "a date/time";
  }
}

}  // namespace xoff::config
