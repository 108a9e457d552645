#include "app/config/error.h"

#include <algorithm>
#include <tuple>

namespace xoff::config {
namespace {

bool starts_with_path(std::string_view message, std::string_view key_path) {
  if (!message.starts_with(key_path)) return false;
  const std::string_view rest = message.substr(key_path.size());
  return rest.empty() || rest.front() == ' ' || rest.front() == ':';
}

std::string join_lines(const std::vector<ScenarioError>& errors, size_t total) {
  std::string text;
  for (const auto& e : errors) {
    if (!text.empty()) text += '\n';
    text += e.what();
  }
  if (total > errors.size()) {
    const size_t more = total - errors.size();
    text += "\n... and " + std::to_string(more) + " more error" + (more == 1 ? "" : "s") + " (" +
            std::to_string(total) + " in total)";
  }
  return text;
}

}  // namespace

std::string format_error(const SourcePos& where, std::string_view key_path,
                         std::string_view message) {
  std::string out = where.file;
  if (where.line > 0) {
    out += ':' + std::to_string(where.line) + ':' + std::to_string(where.column);
  }
  out += out.empty() ? "error: " : ": error: ";
  if (!key_path.empty() && !starts_with_path(message, key_path)) {
    out += key_path;
    out += ": ";
  }
  out += message;
  return out;
}

ScenarioError::ScenarioError(SourcePos where, std::string key_path, std::string message)
    : std::runtime_error(format_error(where, key_path, message)),
      where_(std::move(where)),
      key_path_(std::move(key_path)),
      message_(std::move(message)) {}

ScenarioError::ScenarioError(const ScenarioError& first, const std::string& text)
    : std::runtime_error(text),
      where_(first.where_),
      key_path_(first.key_path_),
      message_(first.message_) {}

ScenarioErrors::ScenarioErrors(std::vector<ScenarioError> shown, size_t total)
    : ScenarioError(shown.at(0), join_lines(shown, total)),
      errors_(std::move(shown)),
      total_(total) {}

void Diagnostics::add(ScenarioError error) {
  // The same problem found twice (a key asked for twice) is one problem.
  for (const auto& e : errors_) {
    if (std::string_view(e.what()) == error.what()) return;
  }
  ++total_;
  if (errors_.size() < kMaxKept) errors_.push_back(std::move(error));
}

void Diagnostics::add(SourcePos where, std::string key_path, std::string message) {
  add(ScenarioError(std::move(where), std::move(key_path), std::move(message)));
}

std::vector<ScenarioError> Diagnostics::sorted() const {
  std::vector<ScenarioError> out = errors_;
  // Positionless origins (--set, unopenable files) first, in the order found (the order of
  // the --set arguments), then by file, line, column.
  auto key = [](const ScenarioError& e) {
    const SourcePos& p = e.where();
    const bool positioned = p.line != 0;
    return std::tuple(positioned, positioned ? std::string_view(p.file) : std::string_view(),
                      p.line, p.column);
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const ScenarioError& a, const ScenarioError& b) { return key(a) < key(b); });
  return out;
}

std::vector<ScenarioError> Diagnostics::shown() const {
  std::vector<ScenarioError> out = sorted();
  if (out.size() > kMaxShown) out.erase(out.begin() + kMaxShown, out.end());
  return out;
}

std::string Diagnostics::report() const { return join_lines(shown(), total_); }

void Diagnostics::raise_if_any() const {
  if (!empty()) throw ScenarioErrors(shown(), total_);
}

}  // namespace xoff::config
