#include "app/config/suggest.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace xoff::config {
namespace {

TEST(EditDistance, CountsInsertDeleteSubstituteAndAdjacentSwap) {
  EXPECT_EQ(edit_distance("kmin", "kmin"), 0u);
  EXPECT_EQ(edit_distance("kmni", "kmin"), 1u);   // one swap of "ni"
  EXPECT_EQ(edit_distance("kmn", "kmin"), 1u);    // one insertion
  EXPECT_EQ(edit_distance("kmaxx", "kmax"), 1u);  // one deletion
  EXPECT_EQ(edit_distance("kmax", "kmin"), 2u);   // two substitutions
  EXPECT_EQ(edit_distance("", "rate"), 4u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
}

TEST(Nearest, SuggestsTheClosestKnownWord) {
  const std::vector<std::string> known = {"kmin", "kmax", "pmax"};
  EXPECT_EQ(nearest("kmni", known), "kmin");
  EXPECT_EQ(nearest("kmx", known), "kmax");
  EXPECT_EQ(nearest("Pmax", known), "pmax");
}

TEST(Nearest, AllowsMoreEditsForLongerWords) {
  const std::vector<std::string> known = {"headroom_size", "alpha"};
  // "hedrom_sze" (10 letters, limit 10 / 3 = 3) lacks the "a", an "o" and the "i": 3 edits.
  EXPECT_EQ(nearest("hedrom_sze", known), "headroom_size");
  // "hedrom_sz" (9 letters, limit 3) also lacks the final "e": 4 edits, too far.
  EXPECT_EQ(nearest("hedrom_sz", known), std::nullopt);
}

TEST(Nearest, SuggestsNothingWhenNothingIsClose) {
  const std::vector<std::string> known = {"kmin", "kmax"};
  EXPECT_EQ(nearest("foo", known), std::nullopt);
  EXPECT_EQ(nearest("xy", std::vector<std::string>{"ab"}), std::nullopt);  // 2 edits of 2 letters
  EXPECT_EQ(nearest("kmin", std::vector<std::string>{}), std::nullopt);
}

TEST(Nearest, BreaksTiesByOrder) {
  EXPECT_EQ(nearest("kma", std::vector<std::string>{"kmax", "kmay"}), "kmax");
}

}  // namespace
}  // namespace xoff::config
