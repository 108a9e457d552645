#pragma once
// `xoff-mpi run`: one scenario split over the processes of `comm`
// (app/mpi/partition.h), conservatively synchronised, with results equal to
// one process's: the same file, fingerprint and tables as `xoff run`.
//
// Every process loads the scenario and builds the whole fabric; it simulates
// only the nodes of its part (Simulator::set_local_streams). Runs advance in
// windows no longer than the lookahead (the smallest delay of a link between
// parts): a frame leaving towards another part's node is handed over when the
// window ends (EgressPort::set_exit) and scheduled there with the arrival key
// its sender gave it (EgressPort::inject_arrival), before its window begins.
// The windows also stop at the ends of `xoff run`'s slices, where the parts
// agree whether all traffic is done, so the run ends at the same time.
// Deadlock scans see every part's stuck queues (an all-gather at each scan).
//
// At the end each part writes its results to DIR/part<k>.h5 next to the
// output; part 0 reads them back, merges them (app/mpi/merge.h), writes the
// output (atomically) and removes DIR. A process that dies leaves no output.
#include "app/commands/commands.h"
#include "app/mpi/comm.h"

namespace xoff::app {

// Exit code: 0, 1 (runtime failure) or 2 (bad input, or what a partitioned
// run cannot do yet), the same in every process.
int run_partitioned(const RunArgs& a, PartComm& comm);

}  // namespace xoff::app
