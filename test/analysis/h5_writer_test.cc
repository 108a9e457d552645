#include "analysis/results/h5_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "analysis/results/h5_reader.h"
#include "results_compare.h"
#include "sample_run.h"
#include "scratch_dir.h"

namespace xoff::analysis {
namespace {

using fixture::scratch_dir;
namespace fs = std::filesystem;

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(H5Writer, TemporaryNameIsPathPlusProcessAndFingerprintInHex) {
  // The process id keeps two runs writing the same -o at once apart.
  const std::string pid = std::to_string(getpid());
  EXPECT_EQ(temporary_path("out/run.h5", 0x0123'4567'89ab'cdefULL),
            "out/run.h5.tmp." + pid + ".0123456789abcdef");
  EXPECT_EQ(temporary_path("run.h5", 255), "run.h5.tmp." + pid + ".00000000000000ff");
}

TEST(H5Writer, LeavesOnlyTheFinalFileAfterWriting) {
  const fs::path dir = scratch_dir();
  H5Recorder rec;
  fixture::record_sample_run(rec);
  const std::string path = (dir / "run.h5").string();
  rec.write(fixture::sample_metadata(), path);
  EXPECT_TRUE(fs::is_regular_file(path));
  EXPECT_FALSE(fs::exists(temporary_path(path, fixture::sample_metadata().fingerprint)));
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    EXPECT_EQ(e.path().filename(), "run.h5");
    ++entries;
  }
  EXPECT_EQ(entries, 1u);
}

TEST(H5Writer, UnwritableDirectoryThrowsAndLeavesNoFile) {
  // A regular file as the parent directory: fails for root too (ENOTDIR), unlike chmod.
  const fs::path dir = scratch_dir();
  std::ofstream(dir / "plain") << "x";
  const std::string path = (dir / "plain" / "run.h5").string();
  H5Recorder rec;
  fixture::record_sample_run(rec);
  try {
    rec.write(fixture::sample_metadata(), path);
    FAIL() << "expected ResultsError";
  } catch (const ResultsError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_EQ(e.what_failed().rfind("create " + path + ".tmp.", 0), 0u) << e.what();
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(H5Writer, FailedRenameRemovesTheTemporaryFile) {
  // A non-empty directory at the final path: the file is written, the rename fails.
  const fs::path dir = scratch_dir();
  const fs::path path = dir / "run.h5";
  fs::create_directories(path / "occupied");
  H5Recorder rec;
  EXPECT_THROW(rec.write(fixture::sample_metadata(), path.string()), ResultsError);
  EXPECT_TRUE(fs::is_directory(path));
  EXPECT_FALSE(fs::exists(temporary_path(path.string(), fixture::sample_metadata().fingerprint)));
}

TEST(H5Writer, RewritingReplacesAnEarlierFile) {
  const std::string path = (scratch_dir() / "run.h5").string();
  H5Recorder first;
  fixture::record_sample_run(first);
  first.write(fixture::sample_metadata(), path);
  H5Recorder second;
  RunMetadata meta = fixture::sample_metadata();
  meta.seed = 7;
  second.write(meta, path);
  const RunData back = read_results(path);
  EXPECT_EQ(back.meta.seed, 7u);
  EXPECT_TRUE(back.flows.empty());
}

TEST(H5Writer, SameRecordsGiveIdenticalDatasetsAndBytes) {
  const fs::path dir = scratch_dir();
  const std::string a = (dir / "a.h5").string();
  const std::string b = (dir / "b.h5").string();
  for (const std::string& path : {a, b}) {
    H5Recorder rec;
    fixture::record_sample_run(rec);
    rec.write(fixture::sample_metadata(), path);
  }
  fixture::expect_same_run(read_results(a), read_results(b));
  // No object timestamps, so the files are byte-identical too.
  const std::string bytes_a = file_bytes(a);
  EXPECT_GT(bytes_a.size(), 10'000u);
  EXPECT_TRUE(bytes_a == file_bytes(b));
}

TEST(H5Recorder, DeclaringASeriesTwiceReturnsTheSameIndex) {
  H5Recorder rec;
  EXPECT_EQ(rec.declare_series("queue_bytes/sw0/p1/tc3", "bytes"), 0u);
  EXPECT_EQ(rec.declare_series("tx_gbps/h0", "Gbps"), 1u);
  EXPECT_EQ(rec.declare_series("queue_bytes/sw0/p1/tc3", "bytes"), 0u);
  EXPECT_EQ(rec.data().series.size(), 2u);
}

TEST(H5Recorder, SeriesKeysReplaceSlashesAndNeverCollide) {
  std::vector<SeriesData> s(5);
  s[0].name = "queue_bytes/leaf0/p3/tc3";
  s[1].name = "a/b";
  s[2].name = "a.b";  // same key as "a/b": gets its index appended
  s[3].name = "";
  s[4].name = ".";
  EXPECT_EQ(series_keys(s),
            (std::vector<std::string>{"queue_bytes.leaf0.p3.tc3", "a.b", "a.b~2", "~3", ".~4"}));
}

}  // namespace
}  // namespace xoff::analysis
