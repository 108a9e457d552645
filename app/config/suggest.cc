#include "app/config/suggest.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace xoff::config {

size_t edit_distance(std::string_view a, std::string_view b) {
  // d[i][j] = distance between a[0..i) and b[0..j), kept as three rolling rows.
  const size_t n = b.size();
  std::vector<size_t> before(n + 1), prev(n + 1), cur(n + 1);
  for (size_t j = 0; j <= n; ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= n; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        cur[j] = std::min(cur[j], before[j - 2] + 1);  // adjacent transposition
      }
    }
    before.swap(prev);
    prev.swap(cur);
  }
  return prev[n];
}

namespace {
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}
}  // namespace

std::optional<std::string> nearest(std::string_view word, std::span<const std::string> known) {
  const std::string folded = lower(word);
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (const auto& candidate : known) {
    const size_t d = edit_distance(folded, lower(candidate));  // case slips are free
    if (d < best_distance && d < word.size()) {
      best = candidate;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace xoff::config
