#pragma once
// A fresh, empty directory per test under GoogleTest's temporary directory.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace xoff::analysis::fixture {

inline std::filesystem::path scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path dir =
      std::filesystem::path(::testing::TempDir()) /
      (std::string("xoff_analysis_") + info->test_suite_name() + "_" + info->name());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace xoff::analysis::fixture
