#include "app/config/overrides.h"

#include <charconv>
#include <memory>
#include <optional>
#include <sstream>
#include <vector>

#include "app/config/source.h"

namespace xoff::config {
namespace {

struct Step {
  std::string key;
  std::vector<size_t> indices;  // "flows[2]" -> key "flows", indices {2}
};

// "traffic.flows[2].size" -> steps; nullopt when malformed.
std::optional<std::vector<Step>> parse_path(std::string_view path) {
  std::vector<Step> steps;
  size_t i = 0;
  while (i <= path.size()) {
    Step step;
    while (i < path.size() && path[i] != '.' && path[i] != '[') step.key += path[i++];
    if (step.key.empty()) return std::nullopt;
    while (i < path.size() && path[i] == '[') {
      const size_t close = path.find(']', i);
      if (close == std::string_view::npos) return std::nullopt;
      size_t index = 0;
      const char* first = path.data() + i + 1;
      const char* last = path.data() + close;
      const auto [end, ec] = std::from_chars(first, last, index);
      if (ec != std::errc() || end != last || first == last) return std::nullopt;
      step.indices.push_back(index);
      i = close + 1;
    }
    steps.push_back(std::move(step));
    if (i == path.size()) return steps;
    if (path[i] != '.') return std::nullopt;
    ++i;
  }
  return std::nullopt;  // trailing '.'
}

// A one-key document `x = <value>` parsed with the override's origin as its file name, so the
// node keeps that origin when moved into the scenario. Falls back to the text as a string.
toml::table parse_value(std::string_view text, const std::string& origin) {
  try {
    toml::table doc = toml::parse("x = " + std::string(text), std::string_view(origin));
    if (doc.size() == 1 && doc.contains("x")) return doc;
  } catch (const toml::parse_error&) {
  }
  std::ostringstream quoted;
  quoted << toml::value<std::string>(std::string(text));  // TOML string syntax, escaped
  return toml::parse("x = " + quoted.str(), std::string_view(origin));
}

toml::key origin_key(std::string_view name, const std::string& origin) {
  return toml::key(
      name, toml::source_region{{1, 1}, {1, 1}, std::make_shared<const std::string>(origin)});
}

class Applier {
 public:
  Applier(std::string_view argument, Diagnostics& diag)
      : origin_(set_origin(argument)), diag_(diag) {}

  bool apply(toml::table& doc, std::string_view argument);

 private:
  bool fail(const std::string& path, std::string message) {
    diag_.add(SourcePos{origin_, 0, 0}, path, std::move(message));
    return false;
  }
  toml::node* descend(toml::table& table, const Step& step, std::string& path);
  toml::node* index_into(toml::node& node, size_t index, std::string& path);
  bool assign(toml::table& table, Step step, std::string& path);

  std::string origin_;
  Diagnostics& diag_;
  toml::table value_;  // `x = <value>`; x is moved into the scenario
};

// The node at `step` below `table`, creating a missing table; extends `path` as it goes.
toml::node* Applier::descend(toml::table& table, const Step& step, std::string& path) {
  path = path_join(path, step.key);
  toml::node* node = table.get(step.key);
  if (!node && !step.indices.empty()) {
    fail(path, "there is no array \"" + step.key + "\" to index");
    return nullptr;
  }
  if (!node) {
    toml::table empty = parse_value("{}", origin_);
    node = &table.insert_or_assign(origin_key(step.key, origin_), std::move(*empty.get("x")))
                .first->second;
  }
  for (const size_t index : step.indices) {
    node = index_into(*node, index, path);
    if (!node) return nullptr;
  }
  return node;
}

toml::node* Applier::index_into(toml::node& node, size_t index, std::string& path) {
  toml::array* array = node.as_array();
  if (!array) {
    fail(path, "cannot index " + describe(node) + " with [" + std::to_string(index) + "]");
    return nullptr;
  }
  if (index >= array->size()) {
    const size_t n = array->size();
    fail(path, "index " + std::to_string(index) + " is out of range (" + std::to_string(n) +
                   (n == 1 ? " entry" : " entries") + ", counted from 0)");
    return nullptr;
  }
  path = path_index(path, index);
  return array->get(index);
}

// Puts the value at the last step: a key of `table` (added if missing; an existing key keeps
// its position in the file) or an element of an existing array.
bool Applier::assign(toml::table& table, Step step, std::string& path) {
  toml::node& value = *value_.get("x");
  if (step.indices.empty()) {
    table.insert_or_assign(origin_key(step.key, origin_), std::move(value));
    return true;
  }
  if (!table.contains(step.key)) {
    return fail(path_join(path, step.key), "there is no array \"" + step.key + "\" to index");
  }
  const size_t index = step.indices.back();
  step.indices.pop_back();
  toml::node* holder = descend(table, step, path);
  if (!holder || !index_into(*holder, index, path)) return false;
  toml::array& array = *holder->as_array();
  array.replace(array.cbegin() + static_cast<std::ptrdiff_t>(index), std::move(value));
  return true;
}

bool Applier::apply(toml::table& doc, std::string_view argument) {
  const size_t eq = argument.find('=');
  const auto steps = parse_path(argument.substr(0, eq == std::string_view::npos ? 0 : eq));
  if (eq == std::string_view::npos || !steps) {
    return fail("", "expected path=value, e.g. --set ecn.kmin=100KB or --set flows[2].size=1MB");
  }
  value_ = parse_value(argument.substr(eq + 1), origin_);
  toml::table* table = &doc;
  std::string path;
  for (size_t s = 0; s + 1 < steps->size(); ++s) {
    toml::node* node = descend(*table, (*steps)[s], path);
    if (!node) return false;
    table = node->as_table();
    if (!table) return fail(path, "is " + describe(*node) + ", not a table");
  }
  return assign(*table, steps->back(), path);
}

}  // namespace

bool apply_override(toml::table& doc, std::string_view argument, Diagnostics& diag) {
  return Applier(argument, diag).apply(doc, argument);
}

void apply_overrides(toml::table& doc, std::span<const std::string> arguments) {
  Diagnostics diag;
  for (const auto& argument : arguments) apply_override(doc, argument, diag);
  diag.raise_if_any();
}

}  // namespace xoff::config
