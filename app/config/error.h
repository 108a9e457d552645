#pragma once
// Bad scenario input as typed errors that read like a compiler's (DESIGN "Bad input"):
//
//   scenarios/incast.toml:14:9: error: link.rate: expected a rate like "100Gbps" (units: bps,
//   Kbps, Mbps, Gbps, Tbps), got "100G": unknown unit "G"
//
// A ScenarioError is one problem at one place. Diagnostics collects several, so that
// `xoff check` reports every problem of a file at once rather than one per run; it shows them in
// file order, at most kMaxShown. main() catches ScenarioError (ScenarioErrors is one), prints
// what() and exits with code 2.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace xoff::config {

// Where a problem is. line == 0 means the origin has no line: a command-line override (file is
// then "--set ecn.kmin=1KB") or a file that could not be opened.
struct SourcePos {
  std::string file;
  uint32_t line = 0;
  uint32_t column = 0;
};

// "file:line:col: error: key.path: message". The key path is left out when empty or when the
// message already starts with it (cross-field messages name both keys themselves).
std::string format_error(const SourcePos& where, std::string_view key_path,
                         std::string_view message);

class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(SourcePos where, std::string key_path, std::string message);

  const SourcePos& where() const { return where_; }
  const std::string& key_path() const { return key_path_; }  // "topology.links[3].rate"
  const std::string& message() const { return message_; }    // without position or key path

 protected:
  // For ScenarioErrors: the fields of `first`, what() = `text`.
  ScenarioError(const ScenarioError& first, const std::string& text);

 private:
  SourcePos where_;
  std::string key_path_;
  std::string message_;
};

// Several errors thrown at once. what() is one line per error shown (file order), plus a line
// saying how many more there were; where()/key_path()/message() are those of the first.
class ScenarioErrors : public ScenarioError {
 public:
  ScenarioErrors(std::vector<ScenarioError> shown, size_t total);
  const std::vector<ScenarioError>& errors() const { return errors_; }
  size_t total() const { return total_; }

 private:
  std::vector<ScenarioError> errors_;
  size_t total_;
};

// Errors found while reading one scenario. Adding never throws; raise_if_any() does. An error
// identical to one already kept (same position, key path and message) is not added again.
class Diagnostics {
 public:
  static constexpr size_t kMaxShown = 20;

  void add(ScenarioError error);
  void add(SourcePos where, std::string key_path, std::string message);

  bool empty() const { return total_ == 0; }
  size_t count() const { return total_; }
  // The errors kept (the first kMaxKept found), in file order; --set errors first.
  std::vector<ScenarioError> sorted() const;
  // One line per error, at most kMaxShown, then "... and N more errors".
  std::string report() const;
  // Throws ScenarioErrors holding the first kMaxShown in file order, if there is any error.
  void raise_if_any() const;

 private:
  std::vector<ScenarioError> shown() const;  // the first kMaxShown of sorted()

  static constexpr size_t kMaxKept = 1000;  // a garbage file must not use unbounded memory
  std::vector<ScenarioError> errors_;
  size_t total_ = 0;
};

}  // namespace xoff::config
