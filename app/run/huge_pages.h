#pragma once
// Transparent huge pages for the simulator's heap.
//
// A large fabric's hot state (ports, packets, NIC and flow state, the event
// queue) is tens to hundreds of MB touched in no useful order: with 4 KiB
// pages nearly every first touch of a cold object also misses the TLB. Linux
// backs memory with 2 MiB pages only where a program asks (the usual
// `madvise` mode of /sys/kernel/mm/transparent_hugepage/enabled), and glibc's
// malloc asks only when its tunable glibc.malloc.hugetlb=1 is set, which it
// reads once, at process start. So the programs that run scenarios call
// use_huge_pages() first thing in main(): when the kernel is in `madvise`
// mode and the tunable is not set, it sets it and executes the same program
// again with the same arguments (same process id, once: a marker variable
// tells the second start, which puts GLIBC_TUNABLES back as the user had it,
// so the programs it starts, a sweep's commands, decide for themselves).
// Memory placement never changes results.
//
// Not done (the program just goes on) when XOFF_HUGE_PAGES=0, when
// GLIBC_TUNABLES already names glibc.malloc.hugetlb (the user's choice wins),
// under valgrind (its tools would lose the program at exec) or a sanitizer
// (its allocator ignores the tunable), when started through the dynamic
// loader by name (/proc/self/exe is the loader then) or with setuid or file
// capabilities (glibc ignores tunables then), or when the kernel's mode is
// `always` (already on) or `never`.
#include <cstdint>
#include <string>

namespace xoff::app {

// Returns only if it did not re-execute (or the exec failed).
void use_huge_pages(char** argv);

struct MemoryUse {
  int64_t peak_rss = 0;         // bytes (getrusage: the process's high-water mark)
  int64_t anon_huge_pages = 0;  // bytes now in transparent huge pages (smaps_rollup)
  std::string thp_mode;         // the kernel's: always, madvise, never, or empty
  bool malloc_asks = false;     // glibc.malloc.hugetlb set to other than 0
};
MemoryUse memory_use();
// "peak RSS 82.0 MB, 64.0 MB of it in 2 MiB pages" and how to change it.
std::string describe(const MemoryUse& m);

}  // namespace xoff::app
