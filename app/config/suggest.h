#pragma once
// "Did you mean ...?" for unknown keys and misspelt choices.
//
// Distance is the optimal-string-alignment form of Damerau-Levenshtein: insertions, deletions,
// substitutions and swaps of two adjacent characters each cost 1, so "kmni" is 1 from "kmin".
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace xoff::config {

size_t edit_distance(std::string_view a, std::string_view b);

// The known word nearest to `word`, if it is near enough to be a likely typo: distance at most
// max(2, word.size() / 3), and less than word.size() (so "ab" never suggests "xy"). Ties go to
// the earliest in `known`. Case is ignored: "Kmin" suggests "kmin".
std::optional<std::string> nearest(std::string_view word, std::span<const std::string> known);

}  // namespace xoff::config
