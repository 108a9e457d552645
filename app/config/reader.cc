#include "app/config/reader.h"

#include <algorithm>

#include "app/config/source.h"
#include "app/config/suggest.h"

namespace xoff::config {
namespace {

std::string quoted_list(std::span<const std::string_view> values) {
  std::string out;
  for (const auto v : values) {
    if (!out.empty()) out += ", ";
    out += '"';
    out += v;
    out += '"';
  }
  return out;
}

// " (did you mean "kmin"?)", or the known keys when none is close, or nothing.
std::string hint(std::string_view word, std::vector<std::string> known, bool list_if_far) {
  if (auto near = nearest(word, known)) return " (did you mean \"" + *near + "\"?)";
  if (!list_if_far || known.empty() || known.size() > 12) return "";
  std::sort(known.begin(), known.end());
  std::string out = " (known keys here: ";
  for (size_t i = 0; i < known.size(); ++i) out += (i ? ", " : "") + known[i];
  return out + ")";
}

}  // namespace

ReadContext::ReadContext(Diagnostics& diag, std::string file)
    : diag_(diag), file_(std::move(file)) {}

void ReadContext::check_unknown(const toml::table& table, const std::string& path) {
  if (!finished_.insert(&table).second) return;
  const std::vector<std::string>& asked = asked_[&table];
  for (auto&& [k, value] : table) {
    const std::string key(k.str());
    if (std::find(asked.begin(), asked.end(), key) != asked.end()) {
      check_node(value, path_join(path, key));
      continue;
    }
    diag_.add(position_of(k.source(), file_), path,
              "unknown key \"" + key + "\"" + hint(key, asked, true));
  }
}

void ReadContext::check_node(const toml::node& node, const std::string& path) {
  if (const auto* table = node.as_table()) {
    if (asked_.contains(table)) check_unknown(*table, path);  // tables never opened are not checked
  } else if (const auto* array = node.as_array()) {
    for (size_t i = 0; i < array->size(); ++i) check_node(*array->get(i), path_index(path, i));
  }
}

TableReader::TableReader(const toml::table& table, ReadContext& ctx, std::string path)
    : table_(&table), ctx_(&ctx), path_(std::move(path)) {
  ctx_->asked_.try_emplace(table_);
}

const toml::node* TableReader::lookup(std::string_view key) {
  std::vector<std::string>& asked = ctx_->asked_[table_];
  if (std::find(asked.begin(), asked.end(), key) == asked.end()) asked.emplace_back(key);
  return table_->get(key);
}

std::string TableReader::path_of(std::string_view key) const { return path_join(path_, key); }

void TableReader::report(const toml::source_region& where, std::string path, std::string message) {
  if (silent_) return;
  ctx_->diag_.add(position_of(where, ctx_->file_), std::move(path), std::move(message));
}

void TableReader::error_node(const toml::node& node, std::string path, std::string message) {
  report(node.source(), std::move(path), std::move(message));
}

void TableReader::error_here(std::string message) {
  report(table_->source(), path_, std::move(message));
}

void TableReader::error_at(std::string_view key, std::string message) {
  const toml::node* node = table_->get(key);
  report(node ? node->source() : table_->source(), path_of(key), std::move(message));
}

void TableReader::missing(std::string_view key) {
  error_here("missing required key \"" + std::string(key) + "\"");
}

template <Readable T>
std::optional<T> TableReader::read_node(const toml::node& node, const std::string& path,
                                        const Bounds<T>& bounds) {
  T value{};
  std::optional<std::string> problem = convert(node, value);
  if (!problem) problem = check_bounds(value, bounds, node);
  if (!problem) return value;
  error_node(node, path, std::move(*problem));
  return std::nullopt;
}

template <Readable T>
std::optional<T> TableReader::maybe(std::string_view key, std::type_identity_t<Bounds<T>> bounds) {
  const toml::node* node = lookup(key);
  if (!node) return std::nullopt;
  return read_node<T>(*node, path_of(key), bounds);
}

template <Readable T>
T TableReader::required(std::string_view key, std::type_identity_t<Bounds<T>> bounds) {
  if (!table_->contains(key)) {
    lookup(key);
    missing(key);
    return T{};
  }
  return maybe<T>(key, bounds).value_or(T{});
}

template <Readable T>
T TableReader::optional(std::string_view key, T fallback, std::type_identity_t<Bounds<T>> bounds) {
  return maybe<T>(key, bounds).value_or(std::move(fallback));
}

template <Readable T>
std::vector<T> TableReader::array(std::string_view key, std::type_identity_t<Bounds<T>> bounds) {
  std::vector<T> out;
  const toml::node* node = lookup(key);
  if (!node) return out;
  const toml::array* items = node->as_array();
  if (!items) {
    error_node(*node, path_of(key), "expected an array, got " + describe(*node));
    return out;
  }
  for (size_t i = 0; i < items->size(); ++i) {
    if (auto v = read_node<T>(*items->get(i), path_index(path_of(key), i), bounds)) {
      out.push_back(std::move(*v));
    }
  }
  return out;
}

std::optional<std::string> TableReader::choice_impl(std::string_view key,
                                                    std::span<const std::string_view> allowed,
                                                    bool required) {
  const toml::node* node = lookup(key);
  if (!node) {
    if (required) missing(key);
    return std::nullopt;
  }
  const auto* text = node->as_string();
  if (text && std::find(allowed.begin(), allowed.end(), text->get()) != allowed.end()) {
    return text->get();
  }
  std::string message = "expected one of " + quoted_list(allowed) + ", got " + describe(*node);
  if (text)
    message += hint(text->get(), std::vector<std::string>(allowed.begin(), allowed.end()), false);
  error_node(*node, path_of(key), std::move(message));
  return std::nullopt;
}

std::string TableReader::choice(std::string_view key,
                                std::initializer_list<std::string_view> allowed) {
  return choice(key, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

std::string TableReader::choice(std::string_view key, std::span<const std::string_view> allowed) {
  return choice_impl(key, allowed, true).value_or(std::string());
}

std::string TableReader::choice(std::string_view key,
                                std::initializer_list<std::string_view> allowed,
                                std::string_view fallback) {
  return choice_impl(key, std::span<const std::string_view>(allowed.begin(), allowed.size()), false)
      .value_or(std::string(fallback));
}

TableReader TableReader::table(std::string_view key) {
  if (!table_->contains(key)) {
    lookup(key);
    missing(key);
  } else if (auto sub = optional_table(key)) {
    return *sub;
  }
  // Already reported: read on as an empty table whose own problems are not reported.
  static const toml::table kAbsent;
  TableReader placeholder(kAbsent, *ctx_, path_of(key));
  placeholder.silent_ = true;
  return placeholder;
}

std::optional<TableReader> TableReader::optional_table(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return std::nullopt;
  if (const auto* sub = node->as_table()) return TableReader(*sub, *ctx_, path_of(key));
  error_node(*node, path_of(key), "expected a table, got " + describe(*node));
  return std::nullopt;
}

std::vector<TableReader> TableReader::array_of_tables(std::string_view key) {
  std::vector<TableReader> out;
  const toml::node* node = lookup(key);
  if (!node) return out;
  const toml::array* items = node->as_array();
  if (!items) {
    error_node(*node, path_of(key),
               "expected an array of tables ([[" + path_of(key) + "]]), got " + describe(*node));
    return out;
  }
  for (size_t i = 0; i < items->size(); ++i) {
    const toml::node& item = *items->get(i);
    if (const auto* sub = item.as_table()) {
      out.emplace_back(*sub, *ctx_, path_index(path_of(key), i));
    } else {
      error_node(item, path_index(path_of(key), i), "expected a table, got " + describe(item));
    }
  }
  return out;
}

bool TableReader::has(std::string_view key) { return lookup(key) != nullptr; }

std::vector<std::string> TableReader::keys() {
  std::vector<std::string> out;
  for (auto&& [k, value] : *table_) {
    out.emplace_back(k.str());
    lookup(out.back());
  }
  return out;
}

void TableReader::finish() {
  if (!silent_) ctx_->check_unknown(*table_, path_);
}

#define XOFF_CONFIG_INSTANTIATE(T)                                              \
  template T TableReader::required<T>(std::string_view, Bounds<T>);             \
  template T TableReader::optional<T>(std::string_view, T, Bounds<T>);          \
  template std::optional<T> TableReader::maybe<T>(std::string_view, Bounds<T>); \
  template std::vector<T> TableReader::array<T>(std::string_view, Bounds<T>);

XOFF_CONFIG_INSTANTIATE(int64_t)
XOFF_CONFIG_INSTANTIATE(double)
XOFF_CONFIG_INSTANTIATE(bool)
XOFF_CONFIG_INSTANTIATE(std::string)
XOFF_CONFIG_INSTANTIATE(sim::Duration)
XOFF_CONFIG_INSTANTIATE(sim::Bytes)
XOFF_CONFIG_INSTANTIATE(sim::BitsPerSecond)
XOFF_CONFIG_INSTANTIATE(LengthMm)
#undef XOFF_CONFIG_INSTANTIATE

}  // namespace xoff::config
