#pragma once
// Why a packet was dropped. Every drop has exactly one reason and is counted.
#include <cstdint>
#include <string_view>

namespace xoff::models {

enum class DropReason : uint8_t {
  kLosslessViolation,  // lossless PG headroom overflow: a PFC configuration failure
  kLossyIngress,       // lossy PG over its ingress limit
  kLossyEgress,        // lossy queue over its egress dynamic threshold
  kLinkDown,           // queued or in flight on a link that failed
  kWatchdog,           // PFC watchdog "drop" action on a stormed queue
  kNoRoute,            // no forwarding entry for the destination
  kTtl,                // TTL expired (routing loop)
  kEndpoint,           // discarded by a receiving endpoint (e.g. out-of-order RoCE)
  kAcl,                // a switch ACL: PFC frames from an untrusted (host-facing) port
  kCount
};

constexpr std::string_view drop_reason_name(DropReason r) {
  switch (r) {
    case DropReason::kLosslessViolation:
      return "lossless_violation";
    case DropReason::kLossyIngress:
      return "lossy_ingress";
    case DropReason::kLossyEgress:
      return "lossy_egress";
    case DropReason::kLinkDown:
      return "link_down";
    case DropReason::kWatchdog:
      return "watchdog";
    case DropReason::kNoRoute:
      return "no_route";
    case DropReason::kTtl:
      return "ttl";
    case DropReason::kEndpoint:
      return "endpoint";
    case DropReason::kAcl:
      return "acl";
    case DropReason::kCount:
      break;
  }
  return "?";
}

}  // namespace xoff::models
