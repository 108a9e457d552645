#pragma once
// What a partitioned run needs from the processes it runs in: their number,
// this one's place, and four collective operations. xoff-mpi implements it on
// MPI (app/mpi/xoff_mpi.cc, the only file that includes mpi.h); every process
// must make the same calls in the same order.
#include <cstdint>
#include <vector>

namespace xoff::app {

class PartComm {
 public:
  virtual ~PartComm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Sends out[k] to part k; returns what each part sent here, by part.
  virtual std::vector<std::vector<char>> exchange(const std::vector<std::vector<char>>& out) = 0;
  // Every part's `mine`, by part.
  virtual std::vector<std::vector<char>> all_gather(const std::vector<char>& mine) = 0;
  // Element-wise sums over the parts.
  virtual std::vector<uint64_t> sum(const std::vector<uint64_t>& v) = 0;
  virtual void barrier() = 0;
};

}  // namespace xoff::app
