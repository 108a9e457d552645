#pragma once
// Parsing of human unit strings ("2us", "1.5MiB", "100Gbps") straight into integers.
//
// The number is read as a decimal (integer and fraction digits) and scaled by the
// unit in 128-bit integer arithmetic, never through a double, so "1.5us" is
// exactly 1'500'000 ps. A value that does not land on a whole base unit
// ("0.5ps", "1.1B") is refused rather than rounded. Unitless numbers are refused.
#include <stdexcept>
#include <string>
#include <string_view>

#include "sim/units.h"

namespace xoff::sim {

// Thrown on a malformed unit string; what() says what was expected and what was
// given. The scenario loader adds the file position.
class UnitError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

Duration parse_duration(std::string_view text);   // ps ns us ms s
Bytes parse_bytes(std::string_view text);         // B KB MB GB KiB MiB GiB
BitsPerSecond parse_rate(std::string_view text);  // bps Kbps Mbps Gbps Tbps
int64_t parse_length_mm(std::string_view text);   // mm cm m km -> millimetres

// Formatting for summaries and logs: the largest unit that keeps the value >= 1.
std::string format_duration(Duration d);
std::string format_bytes(Bytes b);
std::string format_rate(BitsPerSecond r);

}  // namespace xoff::sim
