#pragma once
// A typed, position-keeping reader over one table of a parsed scenario.
//
// Why: the schema code in app/ should read like a list of fields, while every bad value still
// becomes a compiler-style error with file, line, column, key path and what is allowed
// (DESIGN "Bad input"). Readers never throw for bad input: each problem goes into the shared
// Diagnostics and a fallback is returned, so one `xoff check` reports every problem; the caller
// ends with `diag.raise_if_any()`.
//
// The ReadContext remembers which keys the schema asked for in each table. finish() then
// reports every key nobody asked for as unknown, positioned at that key, suggesting the nearest
// asked-for key: `unknown key "kmni" (did you mean "kmin"?)`.
//
// Units: Duration, Bytes, BitsPerSecond and LengthMm must be strings with a unit ("2us",
// "9KB", "100Gbps", "100m"), parsed by sim::parse_*; a bare number is refused (DESIGN "Units
// and time"). Raw integers belong in keys named with their unit (`start_ps`) read as int64_t.
//
//   Diagnostics diag;
//   ReadContext ctx(diag, path);
//   TableReader root(doc, ctx);
//   TableReader ecn = root.table("ecn");
//   auto kmin = ecn.required<sim::Bytes>("kmin");
//   auto pmax = ecn.optional("pmax", 0.2, {.min = 0.0, .max = 1.0});
//   for (TableReader link : root.table("topology").array_of_tables("links")) { ... }
//   root.finish();
//   diag.raise_if_any();
#include <toml++/toml.h>

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "app/config/convert.h"
#include "app/config/error.h"
#include "sim/units.h"

namespace xoff::config {

// What all readers of one document share: the diagnostics, the file name for nodes without
// one, and the keys asked for per table. Must outlive the readers; not copyable.
class ReadContext {
 public:
  ReadContext(Diagnostics& diag, std::string file);
  ReadContext(const ReadContext&) = delete;
  ReadContext& operator=(const ReadContext&) = delete;

  Diagnostics& diag() { return diag_; }
  const std::string& file() const { return file_; }

 private:
  friend class TableReader;
  void check_unknown(const toml::table& table, const std::string& path);
  void check_node(const toml::node& node, const std::string& path);

  Diagnostics& diag_;
  std::string file_;
  std::unordered_map<const toml::table*, std::vector<std::string>> asked_;
  std::unordered_set<const toml::table*> finished_;
};

class TableReader {
 public:
  // `path` is the key path of `table` ("" for the document root, "topology.links[3]").
  TableReader(const toml::table& table, ReadContext& ctx, std::string path = {});

  // Scalars. A missing required key is an error at the table; a bad value is an error at the
  // value. On error required() returns T{}, optional() its fallback, maybe() nullopt.
  template <Readable T>
  T required(std::string_view key, std::type_identity_t<Bounds<T>> bounds = {});
  template <Readable T>
  T optional(std::string_view key, T fallback, std::type_identity_t<Bounds<T>> bounds = {});
  template <Readable T>
  std::optional<T> maybe(std::string_view key, std::type_identity_t<Bounds<T>> bounds = {});

  // A string from a fixed set; the error lists the allowed values and suggests the nearest.
  std::string choice(std::string_view key, std::initializer_list<std::string_view> allowed);
  std::string choice(std::string_view key, std::initializer_list<std::string_view> allowed,
                     std::string_view fallback);
  // The same, from a list the models keep (e.g. models::kProbeKindNames).
  std::string choice(std::string_view key, std::span<const std::string_view> allowed);

  // An array whose elements are all T (each element checked, errors at `key[i]`); a missing
  // key is an empty vector.
  template <Readable T>
  std::vector<T> array(std::string_view key, std::type_identity_t<Bounds<T>> bounds = {});

  // Nested tables: `table` is required, `optional_table` may be absent, `array_of_tables`
  // ([[key]] or key = [{...}, ...]) is empty when absent. Paths extend: "topology.links[3]".
  TableReader table(std::string_view key);
  std::optional<TableReader> optional_table(std::string_view key);
  std::vector<TableReader> array_of_tables(std::string_view key);

  // Whether `key` is present; counts as asked, so it is a known key.
  bool has(std::string_view key);
  // All keys present, each counted as asked (for tables keyed by user-chosen names).
  std::vector<std::string> keys();

  // Errors found by the schema itself (cross-field checks), positioned at `key`'s value, or
  // at this table when `key` is absent. A message that starts with the key path is printed
  // as is: error_at("kmin", path_of("kmin") + " (300KB) must not exceed ...").
  void error_at(std::string_view key, std::string message);
  void error_here(std::string message);

  std::string path_of(std::string_view key) const;
  const std::string& path() const { return path_; }
  const toml::table& raw() const { return *table_; }

  // Reports every key of this table and of the tables read below it that was never asked for.
  // Call once on the root after reading everything.
  void finish();

 private:
  const toml::node* lookup(std::string_view key);  // marks `key` as asked
  void report(const toml::source_region& where, std::string path, std::string message);
  void error_node(const toml::node& node, std::string path, std::string message);
  void missing(std::string_view key);
  template <Readable T>
  std::optional<T> read_node(const toml::node& node, const std::string& path,
                             const Bounds<T>& bounds);
  std::optional<std::string> choice_impl(std::string_view key,
                                         std::span<const std::string_view> allowed, bool required);
  TableReader child(const toml::table& table, std::string path);

  const toml::table* table_;
  ReadContext* ctx_;
  std::string path_;
  bool silent_ = false;  // stands in for a table already reported missing or mistyped
};

}  // namespace xoff::config
