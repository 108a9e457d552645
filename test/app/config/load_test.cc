#include "app/config/load.h"

#include <gtest/gtest.h>

#include "app/config/reader.h"

namespace xoff::config {
namespace {
using namespace sim::literals;

std::string error_of(auto&& load) {
  try {
    load();
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(LoadString, SyntaxErrorCarriesTomlsPositionAndReason) {
  // "b = = 2": toml++ stops at the second '=', column 5.
  EXPECT_EQ(error_of([] { return load_string("a = 1\nb = = 2\n", "t.toml"); }),
            "t.toml:2:5: error: TOML syntax error in value: could not determine value type");
}

TEST(LoadString, SyntaxErrorIsASingleScenarioError) {
  try {
    (void)load_string("[ecn\n", "t.toml");
    FAIL() << "no error";
  } catch (const ScenarioError& e) {
    EXPECT_EQ(e.where().file, "t.toml");
    EXPECT_EQ(e.where().line, 1u);
    EXPECT_EQ(e.key_path(), "");
  }
}

TEST(LoadFile, MissingFileCannotBeOpened) {
  EXPECT_EQ(error_of([] { return load_file("/nonexistent/xoff/x.toml"); }),
            "/nonexistent/xoff/x.toml: error: cannot open scenario file: No such file or "
            "directory");
}

TEST(LoadFile, DirectoryCannotBeOpened) {
  const std::string dir = XOFF_SOURCE_DIR "/test";
  EXPECT_EQ(error_of([&] { return load_file(dir); }),
            dir + ": error: cannot open scenario file: it is a directory");
}

TEST(LoadFile, ReadsAFileAndAppliesOverrides) {
  const std::string path = XOFF_SOURCE_DIR "/test/app/config/data/small.toml";
  const std::vector<std::string> sets = {"link.delay=2us"};
  const toml::table doc = load_file(path, sets);
  Diagnostics diag;
  ReadContext ctx(diag, path);
  TableReader root(doc, ctx);
  TableReader link = root.table("link");
  EXPECT_EQ(link.required<sim::BitsPerSecond>("rate"), 100_Gbps);
  EXPECT_EQ(link.required<sim::Duration>("delay"), 2_us);
  root.required<int64_t>("name");  // a string: the error names the file, line 2, column 8
  root.finish();
  EXPECT_EQ(diag.report(), path + ":2:8: error: name: expected an integer, got \"small\"");
}

}  // namespace
}  // namespace xoff::config
