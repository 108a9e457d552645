#pragma once
// The one error type of the results layer: which file, and what failed.
#include <stdexcept>
#include <string>

namespace xoff::analysis {

class ResultsError : public std::runtime_error {
 public:
  ResultsError(std::string path, std::string what_failed)
      : std::runtime_error(path.empty() ? what_failed : path + ": " + what_failed),
        path_(std::move(path)),
        what_failed_(std::move(what_failed)) {}
  const std::string& path() const { return path_; }
  const std::string& what_failed() const { return what_failed_; }

 private:
  std::string path_;
  std::string what_failed_;
};

}  // namespace xoff::analysis
