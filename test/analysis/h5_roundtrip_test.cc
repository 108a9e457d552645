#include <gtest/gtest.h>

#include <fstream>

#include "analysis/results/h5_io.h"
#include "analysis/results/h5_reader.h"
#include "analysis/results/h5_writer.h"
#include "analysis/results/schema.h"
#include "results_compare.h"
#include "sample_run.h"
#include "scratch_dir.h"

namespace xoff::analysis {
namespace {

using fixture::scratch_dir;

std::string write_sample(const std::filesystem::path& dir) {
  H5Recorder rec;
  fixture::record_sample_run(rec);
  const std::string path = (dir / "run.h5").string();
  rec.write(fixture::sample_metadata(), path);
  return path;
}

TEST(H5RoundTrip, ReadsBackEveryFieldWritten) {
  H5Recorder rec;
  fixture::record_sample_run(rec);
  const std::string path = (scratch_dir() / "run.h5").string();
  rec.write(fixture::sample_metadata(), path);

  const RunData back = read_results(path);
  fixture::expect_same_run(rec.data(), back);
  // 24 flows, 7 XOFF/XON frames each sent and received, 4 + 3 series, 8 nodes.
  EXPECT_EQ(back.flows.size(), 24u);
  EXPECT_EQ(back.pfc_events.size(), 14u);
  EXPECT_EQ(back.series.size(), 7u);
  EXPECT_EQ(back.topology_nodes.size(), 8u);
  EXPECT_EQ(back.flows[0].name, "größe");
}

TEST(H5RoundTrip, FindsSeriesByDeclaredName) {
  const RunData back = read_results(write_sample(scratch_dir()));
  const SeriesData* q = back.find_series("queue_bytes/sw2/p1/tc3");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->unit, "bytes");
  // Sampled every 1 us from 0 to 300 us: 301 points; at 60 us the ramp is 60 * 1500 B.
  ASSERT_EQ(q->time_ps.size(), 301u);
  EXPECT_EQ(q->time_ps[60], 60'000'000);
  EXPECT_EQ(q->value[60], 90'000.0);
  EXPECT_EQ(back.find_series("queue_bytes/nowhere"), nullptr);
}

TEST(H5RoundTrip, EmptyRunHasEveryTableWithZeroRowsAndNoTopology) {
  H5Recorder rec;
  const std::string path = (scratch_dir() / "empty.h5").string();
  rec.write(fixture::sample_metadata(), path);
  const RunData back = read_results(path);
  EXPECT_TRUE(back.flows.empty());
  EXPECT_TRUE(back.deadlocks.empty());
  EXPECT_TRUE(back.series.empty());
  EXPECT_TRUE(back.topology_nodes.empty());
  EXPECT_EQ(back.meta.seed, 42u);
}

// Every table group holds exactly the schema's columns, in schema order, each with
// the table's row count.
template <size_t N>
void expect_table(hid_t file, const char* path, const std::array<const char*, N>& columns,
                  size_t rows) {
  SCOPED_TRACE(path);
  const h5::Handle g = h5::open_group(file, path);
  EXPECT_EQ(h5::child_names(g), std::vector<std::string>(columns.begin(), columns.end()));
  for (const char* c : columns) EXPECT_EQ(h5::column_length(g, c), rows) << c;
}

TEST(H5Schema, TablesHoldExactlyTheDocumentedColumnsInOrder) {
  const std::string path = write_sample(scratch_dir());
  h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  ASSERT_GE(f.get(), 0);
  namespace s = schema;
  // Root links in name order: HDF5 1.10 ignores creation-order tracking on the root.
  EXPECT_EQ(h5::child_names(f), (std::vector<std::string>{"collective_segments", "collective_steps",
                                                          "collectives", "counters", "events",
                                                          "flows", "meta", "series", "topology"}));
  expect_table(f, s::flows::kGroup, s::flows::kColumns, 24);
  // A ring AllReduce of 6 steps and a workload (the same steps) of 2 lines.
  expect_table(f, s::collectives::kGroup, s::collectives::kColumns, 2);
  expect_table(f, s::collectives::kStepsGroup, s::collectives::kStepColumns, 12);
  expect_table(f, s::collectives::kSegmentsGroup, s::collectives::kSegmentColumns, 2);
  expect_table(f, s::counters::kQueues, s::counters::kQueueColumns, 4);
  expect_table(f, s::counters::kDrops, s::counters::kDropColumns, 2);
  expect_table(f, s::events::kPfc, s::events::kPfcColumns, 14);
  expect_table(f, s::events::kWatchdog, s::events::kWatchdogColumns, 2);
  expect_table(f, s::events::kDeadlock, s::events::kDeadlockColumns, 1);
  expect_table(f, s::events::kDeadlockMembers, s::events::kDeadlockMemberColumns, 4);
  expect_table(f, s::topology::kNodes, s::topology::kNodeColumns, 8);
  expect_table(f, s::topology::kLinks, s::topology::kLinkColumns, 8);
}

TEST(H5Schema, StoresDerivedColumnsAndMetadataAttributes) {
  const std::string path = write_sample(scratch_dir());
  h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  const h5::Handle flows = h5::open_group(f, "flows");
  // Flow 1: 64000 B -> ideal 64000 * 80 ps + 2 us = 7.12 us; 1*7 % 13 = 7, so
  // FCT = ideal + ideal * 7 / 4 = 7.12 + 12.46 = 19.58 us; slowdown 19.58 / 7.12 = 2.75.
  EXPECT_EQ(h5::read_column<int64_t>(flows, "fct_ps")[1], 19'580'000);
  EXPECT_DOUBLE_EQ(h5::read_column<double>(flows, "slowdown")[1], 2.75);
  const h5::Handle deadlock = h5::open_group(f, "events/deadlock");
  EXPECT_EQ(h5::read_strings(deadlock, "members")[0], "sw0:1:3 -> sw1:1:3 -> sw2:1:3 -> sw3:1:3");
  const h5::Handle meta = h5::open_group(f, "meta");
  EXPECT_EQ(h5::read_string_attr(meta, "format"), "xoff-results");
  EXPECT_EQ(h5::read_attr<uint32_t>(meta, "schema_version"), 1u);
  EXPECT_EQ(h5::read_attr<uint64_t>(meta, "fingerprint"), 0x0123'4567'89ab'cdefULL);
  // 1 234 567 events in 0.5 s of wall time.
  EXPECT_DOUBLE_EQ(h5::read_attr<double>(meta, "events_per_second"), 2'469'134.0);
  const h5::Handle q = h5::open_group(f, "series/queue_bytes.sw1.p1.tc3");
  EXPECT_EQ(h5::read_string_attr(q, "name"), "queue_bytes/sw1/p1/tc3");
}

TEST(H5Reader, MissingFileIsAResultsErrorNamingThePath) {
  const std::string path = (scratch_dir() / "absent.h5").string();
  try {
    (void)read_results(path);
    FAIL() << "expected ResultsError";
  } catch (const ResultsError& e) {
    EXPECT_EQ(e.path(), path);
    EXPECT_EQ(e.what_failed(), "no such file");
  }
}

TEST(H5Reader, RejectsFilesThatAreNotXoffResults) {
  const auto dir = scratch_dir();
  const std::string text = (dir / "notes.h5").string();
  std::ofstream(text) << "not hdf5\n";
  EXPECT_THROW((void)read_results(text), ResultsError);

  const std::string bare = (dir / "bare.h5").string();
  h5::Handle f(H5Fcreate(bare.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
  ASSERT_GE(f.close(), 0);
  try {
    (void)read_results(bare);
    FAIL() << "expected ResultsError";
  } catch (const ResultsError& e) {
    EXPECT_NE(e.what_failed().find("not an xoff results file"), std::string::npos);
  }
}

TEST(H5Reader, RejectsANewerSchemaVersion) {
  const std::string path = write_sample(scratch_dir());
  {
    h5::Handle f(H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), H5Fclose);
    const h5::Handle meta = h5::open_group(f, "meta");
    ASSERT_GE(H5Adelete(meta, "schema_version"), 0);
    h5::write_attr(meta, "schema_version", schema::kVersion + 1);
  }
  EXPECT_THROW((void)read_schema_version(path), ResultsError);
  try {
    (void)read_results(path);
    FAIL() << "expected ResultsError";
  } catch (const ResultsError& e) {
    EXPECT_EQ(e.what_failed(), "schema_version 2 is newer than this xoff reads (1)");
  }
}

}  // namespace
}  // namespace xoff::analysis
