#include "models/topology/dcbx.h"

#include <gtest/gtest.h>

namespace xoff::models {
namespace {

constexpr uint8_t k3 = 1 << 3;
constexpr uint8_t k4 = 1 << 4;

// IEEE 802.1Qaz PFC TLV: a willing end facing a non-willing one adopts the
// peer's enable vector; otherwise both keep their own.
TEST(Dcbx, WillingEndAdoptsTheNonWillingPeersClasses) {
  EXPECT_EQ(dcbx_resolve({k4, DcbxMode::kWilling}, {k3, DcbxMode::kNonWilling}),
            std::make_pair(k3, k3));
  EXPECT_EQ(dcbx_resolve({k3, DcbxMode::kNonWilling}, {k4, DcbxMode::kWilling}),
            std::make_pair(k3, k3));
}

TEST(Dcbx, NoAgreementKeepsEachEndsOwnClasses) {
  const auto both_willing = dcbx_resolve({k4, DcbxMode::kWilling}, {k3, DcbxMode::kWilling});
  EXPECT_EQ(both_willing, std::make_pair(k4, k3));
  const auto both_fixed = dcbx_resolve({k4, DcbxMode::kNonWilling}, {k3, DcbxMode::kNonWilling});
  EXPECT_EQ(both_fixed, std::make_pair(k4, k3));
  const auto off = dcbx_resolve({k4, DcbxMode::kOff}, {k3, DcbxMode::kNonWilling});
  EXPECT_EQ(off, std::make_pair(k4, k3));  // a willing NIC with DCBX off takes nothing
}

}  // namespace
}  // namespace xoff::models
