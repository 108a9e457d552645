#pragma once
// DCBX for PFC (IEEE 802.1Qaz, the PFC TLV): at link up both ends advertise
// their PFC enable vector and a willing bit. A willing end facing a
// non-willing one adopts its peer's vector; in every other case (both
// willing, both non-willing, or either end not running DCBX) each end keeps
// its own, and a mismatch stays. (802.1Qaz breaks a both-willing tie by MAC
// address; xoff has no MAC addresses, so both keep theirs: the same outcome
// as a tie that changes nothing, and `xoff check` reports it.)
#include <cstdint>
#include <utility>

namespace xoff::models {

enum class DcbxMode : uint8_t { kOff, kWilling, kNonWilling };

struct DcbxEnd {
  uint8_t pfc = 0;  // administrative PFC-enable vector (bit per class)
  DcbxMode mode = DcbxMode::kOff;
};

// The operational PFC vectors of (a, b) after the exchange.
constexpr std::pair<uint8_t, uint8_t> dcbx_resolve(DcbxEnd a, DcbxEnd b) {
  if (a.mode == DcbxMode::kOff || b.mode == DcbxMode::kOff) return {a.pfc, b.pfc};
  if (a.mode == DcbxMode::kWilling && b.mode == DcbxMode::kNonWilling) return {b.pfc, b.pfc};
  if (a.mode == DcbxMode::kNonWilling && b.mode == DcbxMode::kWilling) return {a.pfc, a.pfc};
  return {a.pfc, b.pfc};
}

constexpr const char* dcbx_mode_name(DcbxMode m) {
  return m == DcbxMode::kOff ? "off" : m == DcbxMode::kWilling ? "willing" : "non_willing";
}

}  // namespace xoff::models
