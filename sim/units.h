#pragma once
// Units as types: time in integer picoseconds, sizes in bytes, rates in bits per second.
//
// Time is a point on the simulation clock, Duration a span between two points
// (abseil's Time/Duration split): Time - Time is a Duration, Time + Time does not
// compile. One byte at 800 Gb/s is exactly 10 ps, so serialization at every
// common Ethernet speed is an exact integer.
#include <compare>
#include <cstdint>
#include <limits>

namespace xoff::sim {

// 128-bit intermediates for exact unit arithmetic (GCC/Clang extension).
__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration ps(int64_t v) { return Duration(v); }
  static constexpr Duration ns(int64_t v) { return Duration(v * 1'000); }
  static constexpr Duration us(int64_t v) { return Duration(v * 1'000'000); }
  static constexpr Duration ms(int64_t v) { return Duration(v * 1'000'000'000); }
  static constexpr Duration s(int64_t v) { return Duration(v * 1'000'000'000'000); }
  static constexpr Duration zero() { return Duration(0); }
  static constexpr Duration infinite() { return Duration(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t count_ps() const { return ps_; }
  constexpr double to_us() const { return static_cast<double>(ps_) / 1e6; }
  constexpr double to_seconds() const { return static_cast<double>(ps_) / 1e12; }

  constexpr Duration operator+(Duration o) const { return Duration(ps_ + o.ps_); }
  constexpr Duration operator-(Duration o) const { return Duration(ps_ - o.ps_); }
  constexpr Duration operator-() const { return Duration(-ps_); }
  constexpr Duration operator*(int64_t k) const { return Duration(ps_ * k); }
  constexpr Duration operator/(int64_t k) const { return Duration(ps_ / k); }
  constexpr int64_t operator/(Duration o) const { return ps_ / o.ps_; }
  constexpr Duration& operator+=(Duration o) {
    ps_ += o.ps_;
    return *this;
  }
  constexpr Duration& operator-=(Duration o) {
    ps_ -= o.ps_;
    return *this;
  }
  constexpr auto operator<=>(const Duration&) const = default;

 private:
  constexpr explicit Duration(int64_t v) : ps_(v) {}
  int64_t ps_ = 0;
};

class Time {
 public:
  constexpr Time() = default;
  static constexpr Time from_ps(int64_t v) { return Time(v); }
  static constexpr Time zero() { return Time(0); }
  static constexpr Time max() { return Time(std::numeric_limits<int64_t>::max()); }

  constexpr int64_t count_ps() const { return ps_; }
  constexpr double to_us() const { return static_cast<double>(ps_) / 1e6; }
  constexpr double to_seconds() const { return static_cast<double>(ps_) / 1e12; }
  constexpr Duration since_epoch() const { return Duration::ps(ps_); }

  constexpr Time operator+(Duration d) const { return Time(ps_ + d.count_ps()); }
  constexpr Time operator-(Duration d) const { return Time(ps_ - d.count_ps()); }
  constexpr Duration operator-(Time o) const { return Duration::ps(ps_ - o.ps_); }
  constexpr Time& operator+=(Duration d) {
    ps_ += d.count_ps();
    return *this;
  }
  constexpr auto operator<=>(const Time&) const = default;

 private:
  constexpr explicit Time(int64_t v) : ps_(v) {}
  int64_t ps_ = 0;
};

// A size in bytes. Signed so that accounting underflow is detectable by checks.
class Bytes {
 public:
  constexpr Bytes() = default;
  constexpr explicit Bytes(int64_t v) : b_(v) {}
  constexpr int64_t count() const { return b_; }
  constexpr Bytes operator+(Bytes o) const { return Bytes(b_ + o.b_); }
  constexpr Bytes operator-(Bytes o) const { return Bytes(b_ - o.b_); }
  constexpr Bytes operator*(int64_t k) const { return Bytes(b_ * k); }
  constexpr Bytes operator/(int64_t k) const { return Bytes(b_ / k); }
  constexpr Bytes& operator+=(Bytes o) {
    b_ += o.b_;
    return *this;
  }
  constexpr Bytes& operator-=(Bytes o) {
    b_ -= o.b_;
    return *this;
  }
  constexpr auto operator<=>(const Bytes&) const = default;

 private:
  int64_t b_ = 0;
};

class BitsPerSecond {
 public:
  constexpr BitsPerSecond() = default;
  constexpr explicit BitsPerSecond(int64_t v) : bps_(v) {}
  constexpr int64_t count() const { return bps_; }
  constexpr double gbps() const { return static_cast<double>(bps_) / 1e9; }
  constexpr auto operator<=>(const BitsPerSecond&) const = default;

 private:
  int64_t bps_ = 0;
};

// Time to serialize `size` at `rate`: bytes * 8 * 10^12 / rate, rounded up to the
// next picosecond (a partial picosecond still occupies the wire). Exact for every
// rate that divides 8e12, i.e. all common Ethernet speeds.
constexpr Duration tx_time(Bytes size, BitsPerSecond rate) {
  const Int128 num = static_cast<Int128>(size.count()) * 8 * 1'000'000'000'000;
  const Int128 den = rate.count();
  return Duration::ps(static_cast<int64_t>((num + den - 1) / den));
}

// tx_time at one fixed rate, without a 128-bit division per call when the
// rate divides 8 × 10^12 bit·ps/s exactly, as every Ethernet speed does (80 ps
// a byte at 100 Gb/s, 20 at 400 Gb/s): then it is one multiply, and equal to
// tx_time. Other rates take tx_time itself.
class Serializer {
 public:
  explicit constexpr Serializer(BitsPerSecond rate)
      : rate_(rate),
        ps_per_byte_(rate.count() > 0 && kBitPs % rate.count() == 0 ? kBitPs / rate.count() : 0) {}
  constexpr Duration tx_time(Bytes size) const {
    return ps_per_byte_ != 0 ? Duration::ps(size.count() * ps_per_byte_)
                             : sim::tx_time(size, rate_);
  }

 private:
  static constexpr int64_t kBitPs = 8 * int64_t{1'000'000'000'000};  // bits a byte x ps a second
  BitsPerSecond rate_;
  int64_t ps_per_byte_;
};

// Bytes that `rate` carries in `d`, rounded down.
constexpr Bytes bytes_in(Duration d, BitsPerSecond rate) {
  const Int128 num = static_cast<Int128>(d.count_ps()) * rate.count();
  return Bytes(static_cast<int64_t>(num / (static_cast<Int128>(8) * 1'000'000'000'000)));
}

namespace literals {
constexpr Duration operator""_ps(unsigned long long v) {
  return Duration::ps(static_cast<int64_t>(v));
}
constexpr Duration operator""_ns(unsigned long long v) {
  return Duration::ns(static_cast<int64_t>(v));
}
constexpr Duration operator""_us(unsigned long long v) {
  return Duration::us(static_cast<int64_t>(v));
}
constexpr Duration operator""_ms(unsigned long long v) {
  return Duration::ms(static_cast<int64_t>(v));
}
constexpr Duration operator""_s(unsigned long long v) {
  return Duration::s(static_cast<int64_t>(v));
}
constexpr Bytes operator""_B(unsigned long long v) { return Bytes(static_cast<int64_t>(v)); }
constexpr Bytes operator""_KB(unsigned long long v) {
  return Bytes(static_cast<int64_t>(v) * 1000);
}
constexpr Bytes operator""_KiB(unsigned long long v) {
  return Bytes(static_cast<int64_t>(v) * 1024);
}
constexpr Bytes operator""_MB(unsigned long long v) {
  return Bytes(static_cast<int64_t>(v) * 1'000'000);
}
constexpr Bytes operator""_MiB(unsigned long long v) {
  return Bytes(static_cast<int64_t>(v) << 20);
}
constexpr BitsPerSecond operator""_Mbps(unsigned long long v) {
  return BitsPerSecond(static_cast<int64_t>(v) * 1'000'000);
}
constexpr BitsPerSecond operator""_Gbps(unsigned long long v) {
  return BitsPerSecond(static_cast<int64_t>(v) * 1'000'000'000);
}
}  // namespace literals

}  // namespace xoff::sim
