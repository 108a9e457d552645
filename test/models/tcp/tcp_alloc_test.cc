// The hot path allocates nothing after warm-up: counts calls to the global
// operator new (replaced for this test binary) while two NewReno flows and a
// DCTCP flow run through lossy and marking bottlenecks.
//
// GCC 12 sees the replacement operator new and delete of this file as a
// mismatched pair wherever it inlines them (a false positive: both are ours).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#include <gtest/gtest.h>

#include <cstdlib>
#include <new>

#include "models/tcp/tcp_stack.h"
#include "test/models/tcp/tcp_test_net.h"

namespace {
int64_t g_allocations = 0;
}  // namespace

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace xoff::models::tcp_test {
namespace {
using namespace sim::literals;

TEST(TcpHotPath, AllocatesNothingAfterWarmUp) {
  TcpConfig dctcp;
  dctcp.dctcp = true;
  TcpNet t;
  t.add_host(dctcp);
  for (int i = 1; i < 4; ++i) t.add_host();        // NewReno
  for (auto& s : t.stacks) s->set_probe(nullptr);  // the test log would allocate
  TestSwitch& sw = t.net.add_node<TestSwitch>("sw");
  for (int i = 0; i < 4; ++i) t.net.connect(*t.hosts[i], sw, i < 3 ? 25_Gbps : 10_Gbps, 10_us);
  sw.route = {0, 1, 2, 3};
  sw.queue_limit = 30'000;             // drops for the NewReno flows...
  sw.ecn_k = 20'000;                   // ...marks for the DCTCP one (ECT) below it
  t.start(0, 0, 3, int64_t{1} << 40);  // DCTCP (host 0's config)
  t.start(1, 1, 3, int64_t{1} << 40);
  t.start(2, 2, 3, int64_t{1} << 40);
  t.run_for(20_ms);
  const int64_t before = g_allocations;
  const int64_t drops = sw.tail_drops;
  t.run_for(20_ms);
  EXPECT_GT(before, 0);  // the counter works: building and warming up allocate
  EXPECT_EQ(g_allocations - before, 0);
  EXPECT_GT(sw.tail_drops, drops);  // loss recovery ran in the window
  EXPECT_GT(sw.marks, 0);
}

}  // namespace
}  // namespace xoff::models::tcp_test
