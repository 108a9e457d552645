// `xoff-mpi run FILE`: one scenario across the processes of an MPI job
// (mpirun -np N xoff-mpi run FILE -o out.h5). The only file that includes
// mpi.h: app/mpi/partitioned_run.h does the run over the PartComm below.
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "app/mpi/partitioned_run.h"
#include "app/run/huge_pages.h"

namespace {
using xoff::app::PartComm;

class MpiComm final : public PartComm {
 public:
  MpiComm() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  std::vector<std::vector<char>> exchange(const std::vector<std::vector<char>>& out) override {
    std::vector<int> send_n(static_cast<size_t>(size_)), recv_n(static_cast<size_t>(size_));
    for (int k = 0; k < size_; ++k) send_n[k] = static_cast<int>(out[k].size());
    MPI_Alltoall(send_n.data(), 1, MPI_INT, recv_n.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> send_at(static_cast<size_t>(size_)), recv_at(static_cast<size_t>(size_));
    std::vector<char> send, recv;
    for (int k = 0; k < size_; ++k) {
      send_at[k] = static_cast<int>(send.size());
      send.insert(send.end(), out[k].begin(), out[k].end());
    }
    int total = 0;
    for (int k = 0; k < size_; ++k) {
      recv_at[k] = total;
      total += recv_n[k];
    }
    recv.resize(static_cast<size_t>(total));
    MPI_Alltoallv(send.data(), send_n.data(), send_at.data(), MPI_BYTE, recv.data(), recv_n.data(),
                  recv_at.data(), MPI_BYTE, MPI_COMM_WORLD);
    std::vector<std::vector<char>> in(static_cast<size_t>(size_));
    for (int k = 0; k < size_; ++k)
      in[k].assign(recv.begin() + recv_at[k], recv.begin() + recv_at[k] + recv_n[k]);
    return in;
  }

  std::vector<std::vector<char>> all_gather(const std::vector<char>& mine) override {
    int n = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<size_t>(size_)), at(static_cast<size_t>(size_));
    MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int k = 0; k < size_; ++k) {
      at[k] = total;
      total += counts[k];
    }
    std::vector<char> all(static_cast<size_t>(total));
    MPI_Allgatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), at.data(), MPI_BYTE,
                   MPI_COMM_WORLD);
    std::vector<std::vector<char>> out(static_cast<size_t>(size_));
    for (int k = 0; k < size_; ++k)
      out[k].assign(all.begin() + at[k], all.begin() + at[k] + counts[k]);
    return out;
  }

  std::vector<uint64_t> sum(const std::vector<uint64_t>& v) override {
    std::vector<uint64_t> out(v.size());
    MPI_Allreduce(v.data(), out.data(), static_cast<int>(v.size()), MPI_UINT64_T, MPI_SUM,
                  MPI_COMM_WORLD);
    return out;
  }

  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

int main(int argc, char** argv) {
  xoff::app::use_huge_pages(argv);  // before MPI: may start this program again (huge_pages.h)
  MPI_Init(&argc, &argv);
  int code = 0;
  {
    MpiComm comm;
    CLI::App cli{"xoff-mpi: one xoff scenario across the processes of an MPI job"};
    cli.require_subcommand(1);
    xoff::app::RunArgs a;
    auto* run = cli.add_subcommand("run", "Run a scenario across the MPI processes");
    run->add_option("scenario", a.scenario, "Scenario file (.toml)")->required();
    run->add_option("-o,--output", a.output, "Results file (default: out/<scenario>.h5)");
    run->add_option("--seed", a.seed, "Override the scenario's seed");
    run->add_option("--set", a.overrides, "Override a scenario value: key=value (repeatable)");
    run->add_option("--variant", a.variant, "Merge the scenario's [variant.NAME] table");
    run->add_flag("-q,--quiet", a.quiet, "No progress display");
    run->add_flag("--no-output", a.no_output, "Do not write a results file");
    run->add_flag("--reproducible", a.reproducible,
                  "Record no wall time, so equal runs give byte-identical files");
    run->add_option("--partition", a.partition,
                    "leaf: whole switches with their hosts, contiguous in topology order "
                    "(leaves, pods); metis: a METIS cut of the fabric graph (explicit topologies)")
        ->check(CLI::IsMember({"leaf", "metis"}));
    run->add_option("--log-level", a.log_level, "trace|debug|info|warn|error|off")
        ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));
    try {
      cli.parse(argc, argv);
      code = xoff::app::run_partitioned(a, comm);
    } catch (const CLI::ParseError& e) {
      code = comm.rank() == 0 ? cli.exit(e) : (e.get_exit_code() == 0 ? 0 : 2);
      if (code != 0) code = 2;
    }
  }
  MPI_Finalize();
  return code;
}
