#include "app/config/load.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

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

// Deep merge: tables merge key by key, anything else (values, arrays,
// arrays of tables) replaces what `into` had.
void merge(toml::table& into, const toml::table& from) {
  for (const auto& [key, node] : from) {
    if (const toml::table* t = node.as_table()) {
      if (toml::table* mine = into[key].as_table()) {
        merge(*mine, *t);
        continue;
      }
    }
    into.insert_or_assign(key, node);
  }
}

// The selected variant: the last `--set scenario.variant=NAME`, else the
// file's scenario.variant; merged into the document before the overrides
// (so a --set still wins over the variant).
void apply_variant(toml::table& doc, const std::string& name,
                   std::span<const std::string> overrides) {
  constexpr std::string_view kKey = "scenario.variant=";
  std::optional<std::string> chosen;
  for (const std::string& o : overrides) {
    if (std::string_view(o).starts_with(kKey)) chosen = o.substr(kKey.size());
  }
  if (chosen && chosen->size() >= 2 && chosen->front() == '"' && chosen->back() == '"')
    chosen = chosen->substr(1, chosen->size() - 2);
  const toml::node* in_file = doc.at_path("scenario.variant").node();
  const bool from_set = chosen.has_value();
  if (!chosen && in_file != nullptr && in_file->is_string()) chosen = **in_file->as_string();
  if (!chosen || chosen->empty()) return;
  const toml::table* variants = doc["variant"].as_table();
  std::vector<std::string> names;
  if (variants != nullptr) {
    for (const auto& [k, v] : *variants) names.emplace_back(k.str());
  }
  const toml::table* v = variants != nullptr ? (*variants)[*chosen].as_table() : nullptr;
  if (v == nullptr) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    const SourcePos at = from_set ? SourcePos{"--set scenario.variant=" + *chosen, 0, 0}
                                  : position_of(in_file->source(), name);
    throw ScenarioError(
        at, "scenario.variant",
        "no variant \"" + *chosen + "\" in this scenario (" +
            (list.empty() ? "it defines none: add [variant.<name>] tables" : "it defines " + list) +
            ")");
  }
  const toml::table copy = *v;
  merge(doc, copy);
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
  apply_variant(doc, name, overrides);
  apply_overrides(doc, overrides);
  return doc;
}

toml::table load_file(const std::string& path, std::span<const std::string> overrides) {
  return load_string(read_all(path), path, overrides);
}

}  // namespace xoff::config
