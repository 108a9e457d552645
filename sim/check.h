#pragma once
// Always-on invariant checks (Envoy's RELEASE_ASSERT): a broken invariant prints
// file:line, the condition, the sim time of the running simulator and a message,
// then aborts. For bad *input* use typed errors instead; these are for bugs.
#include <string_view>

namespace xoff::sim {

[[noreturn]] void check_failed(const char* file, int line, const char* cond, std::string_view msg);

}  // namespace xoff::sim

#define XOFF_CHECK(cond, msg)                                      \
  do {                                                             \
    if (!(cond)) [[unlikely]]                                      \
      ::xoff::sim::check_failed(__FILE__, __LINE__, #cond, (msg)); \
  } while (0)

#ifdef NDEBUG
#define XOFF_DCHECK(cond, msg) \
  do {                         \
  } while (0)
#else
#define XOFF_DCHECK(cond, msg) XOFF_CHECK(cond, msg)
#endif
