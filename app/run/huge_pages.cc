#include "app/run/huge_pages.h"

#include <sys/auxv.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace xoff::app {
namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";
// Set across the re-execution: "" if GLIBC_TUNABLES was unset, else "="
// and its value.
constexpr const char* kMarker = "XOFF_HUGE_PAGES_RESTART";
bool g_asked = false;  // this process was started again with the tunable

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

// The bracketed word of /sys/kernel/mm/transparent_hugepage/enabled.
std::string thp_mode() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  if (!std::getline(f, line)) return {};
  const size_t open = line.find('[');
  const size_t close = line.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  return line.substr(open + 1, close - open - 1);
}

bool off_by_user() {
  const std::string off = env("XOFF_HUGE_PAGES");
  return off == "0" || off == "off" || off == "no";
}

void restore(const char* was) {
  if (was[0] == '=') {
    setenv("GLIBC_TUNABLES", was + 1, 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
}

bool sanitized() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

}  // namespace

void use_huge_pages(char** argv) {
  // The second start: glibc has read the tunable; the environment goes back
  // to the user's, so what this program starts (a sweep's commands) decides
  // for itself.
  if (const char* was = std::getenv(kMarker)) {
    restore(was);
    unsetenv(kMarker);
    g_asked = true;
    return;
  }
  if (off_by_user()) return;
  const std::string tunables = env("GLIBC_TUNABLES");
  if (tunables.find(kTunable) != std::string::npos) return;
  if (env("LD_PRELOAD").find("vgpreload") != std::string::npos) return;  // valgrind
  // Started by naming the dynamic loader (/proc/self/exe is the loader), or
  // setuid / file capabilities (glibc ignores tunables then: no loop).
  if (getauxval(AT_BASE) == 0 || getauxval(AT_SECURE) != 0) return;
  if (sanitized() || thp_mode() != "madvise") return;
  const std::string set = tunables + (tunables.empty() ? "" : ":") + kTunable + "=1";
  const std::string was = std::getenv("GLIBC_TUNABLES") == nullptr ? "" : "=" + tunables;
  if (setenv(kMarker, was.c_str(), 1) != 0) return;
  if (setenv("GLIBC_TUNABLES", set.c_str(), 1) == 0) execv("/proc/self/exe", argv);
  // Not re-executed (no /proc, say): run on as we are, the environment as it was.
  restore(was.c_str());
  unsetenv(kMarker);
}

MemoryUse memory_use() {
  MemoryUse m;
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) == 0) m.peak_rss = static_cast<int64_t>(u.ru_maxrss) * 1024;
  std::ifstream f("/proc/self/smaps_rollup");
  std::string line;  // "AnonHugePages:   1234 kB" after a header line of addresses
  while (std::getline(f, line)) {
    long long kb = 0;
    if (std::sscanf(line.c_str(), "AnonHugePages: %lld kB", &kb) == 1)
      m.anon_huge_pages = kb * 1024;
  }
  m.thp_mode = thp_mode();
  // Asked by our restart, or by the user's own tunable (any value but 0).
  const std::string tunables = env("GLIBC_TUNABLES");
  const size_t at = tunables.find(std::string(kTunable) + "=");
  m.malloc_asks = g_asked || (at != std::string::npos &&
                              tunables.compare(at + std::strlen(kTunable) + 1, 1, "0") != 0);
  return m;
}

std::string describe(const MemoryUse& m) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "peak RSS %.1f MB, %.1f MB of it in 2 MiB pages",
                static_cast<double>(m.peak_rss) / 1e6,
                static_cast<double>(m.anon_huge_pages) / 1e6);
  std::string s = buf;
  if (sanitized()) {
    s += " (a sanitizer build: its allocator does not ask for huge pages)";
  } else if (m.thp_mode == "always") {
    s += " (transparent huge pages: always)";
  } else if (m.thp_mode == "madvise") {
    s += m.malloc_asks ? " (transparent huge pages asked for; XOFF_HUGE_PAGES=0 turns them off)"
                       : " (transparent huge pages not asked for: XOFF_HUGE_PAGES=0, the user's "
                         "GLIBC_TUNABLES, valgrind, or the dynamic loader named)";
  } else {
    s += " (transparent huge pages: " +
         (m.thp_mode.empty() ? std::string("unavailable") : m.thp_mode) + ")";
  }
  return s;
}

}  // namespace xoff::app
