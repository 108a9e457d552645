// The packet's one-line layout: what a PAUSE carries packed into seq and
// ack, and the fields that share bytes keeping their values apart.
#include "models/core/packet.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace xoff::models {
namespace {

TEST(Packet, IsOneCacheLine) {
  EXPECT_EQ(sizeof(Packet), 64u);
  EXPECT_EQ(alignof(Packet), 64u);
}

TEST(Packet, PauseQuantaOfEachClassReadBackAndLeaveTheOthers) {
  Packet p{};
  p.kind = PacketKind::kPause;
  for (int c = 0; c < 8; ++c) p.set_pause_quanta(c, static_cast<uint16_t>(0x1111 * (c + 1)));
  for (int c = 0; c < 8; ++c) EXPECT_EQ(p.pause_quanta(c), 0x1111 * (c + 1)) << c;
  // Classes 0-3 in seq, 4-7 in ack, class c in bits 16 (c mod 4) up:
  // 0x4444'3333'2222'1111 and 0x8888'7777'6666'5555.
  EXPECT_EQ(static_cast<uint64_t>(p.seq), 0x4444'3333'2222'1111ULL);
  EXPECT_EQ(static_cast<uint64_t>(p.ack), 0x8888'7777'6666'5555ULL);
  // Rewriting one class (XON: 0; then the largest, 0xFFFF) keeps the rest.
  p.set_pause_quanta(5, 0);
  p.set_pause_quanta(2, 0xFFFF);
  const uint16_t want[8] = {0x1111, 0x2222, 0xFFFF, 0x4444, 0x5555, 0, 0x7777, 0x8888};
  for (int c = 0; c < 8; ++c) EXPECT_EQ(p.pause_quanta(c), want[c]) << c;
}

TEST(Packet, ANewPacketPausesNoClass) {
  const Packet p{};
  for (int c = 0; c < 8; ++c) EXPECT_EQ(p.pause_quanta(c), 0) << c;
  EXPECT_EQ(p.pause_enable, 0);
}

TEST(Packet, FieldsSharingBytesKeepTheirValues) {
  Packet p{};
  p.tc = 7;
  p.pg = 5;
  p.ecn_capable = true;
  p.last = true;
  p.cwr = true;
  p.payload = 9158;  // the largest MSS the parser takes
  EXPECT_EQ(p.tc, 7);
  EXPECT_EQ(p.pg, 5);
  p.tc = 0;
  EXPECT_EQ(p.pg, 5);
  EXPECT_TRUE(p.ecn_capable);
  EXPECT_FALSE(p.ce);
  EXPECT_TRUE(p.last);
  EXPECT_FALSE(p.ece);
  EXPECT_TRUE(p.cwr);
  p.ce = true;
  p.last = false;
  EXPECT_TRUE(p.ecn_capable && p.ce && !p.last && !p.ece && p.cwr);
  EXPECT_EQ(p.payload, 9158);
  EXPECT_EQ(p.ttl, 64);  // the default, untouched by its neighbours
}

}  // namespace
}  // namespace xoff::models
