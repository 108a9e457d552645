// make_fixture OUT.h5: writes the synthetic ring-deadlock run (sample_run.h) as a
// results file, so the plotting script can be tested without the simulator.
#include <cstdio>

#include "analysis/results/h5_writer.h"
#include "sample_run.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fixture OUT.h5\n");
    return 2;
  }
  try {
    xoff::analysis::H5Recorder rec;
    xoff::analysis::fixture::record_sample_run(rec);
    rec.write(xoff::analysis::fixture::sample_metadata(), argv[1]);
  } catch (const xoff::analysis::ResultsError& e) {
    std::fprintf(stderr, "make_fixture: %s\n", e.what());
    return 1;
  }
  std::printf("%s\n", argv[1]);
  return 0;
}
