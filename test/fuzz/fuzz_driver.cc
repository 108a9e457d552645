// A seeded, bounded mutation driver for LLVMFuzzerTestOneInput, for builds
// without libFuzzer (gcc, the CI preset). It takes the same command line as
// a libFuzzer binary, in part:
//   scenario_fuzz_driver [-runs=N] [-seed=S] [-max_len=L] CORPUS_FILE_OR_DIR...
// Every corpus file runs as it is, then N mutants: a corpus file changed by
// one to four byte-level mutations (bit flips, interesting bytes, erased,
// duplicated or inserted ranges, dictionary tokens such as int64 edges,
// NaN, brackets, non-UTF-8 bytes, lines spliced from another file, a
// truncation). Before each input runs it is written to
// fuzz-current-input.toml in the working directory, so the input of a
// crash or an abort is left there to replay (`xoff check` or this driver).
// Not coverage-guided: scripts/fuzz.sh runs the libFuzzer build for that.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/rng.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {
namespace fs = std::filesystem;

const char* const kTokens[] = {"9223372036854775807",
                               "-9223372036854775808",
                               "18446744073709551616",
                               "1e308",
                               "-1e308",
                               "nan",
                               "inf",
                               "0",
                               "-1",
                               "0.0",
                               "1e-320",
                               "\"\"",
                               "[",
                               "]",
                               "[[",
                               "]]",
                               "{",
                               "}",
                               " = ",
                               "\"",
                               "'",
                               "\"\"\"",
                               "\n",
                               "#",
                               ".",
                               ",",
                               "\\u0000",
                               "\xff\xfe",
                               "\xc3\x28",
                               "\x80",
                               "ps",
                               "us",
                               "s",
                               "Gbps",
                               "bps",
                               "B",
                               "KB",
                               "TiB",
                               "1e30Gbps",
                               "[topology]",
                               "[[traffic.flow]]",
                               "[[fault]]",
                               "[[collective]]",
                               "[variant.x]",
                               "kind = ",
                               "\"h0\"",
                               "\"h999999\"",
                               "\"explicit\"",
                               "a.b.c.d.e = 1",
                               "[x.y.z]",
                               "true",
                               "1979-05-27T07:32:00Z",
                               "inf",
                               "0x7fffffff"};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void mutate_once(std::string& s, const std::vector<std::string>& corpus, xoff::sim::Rng& rng) {
  auto pos = [&](size_t n) { return n == 0 ? size_t{0} : rng.uniform_int(n); };
  switch (rng.uniform_int(8)) {
    case 0:  // flip a bit
      if (!s.empty()) s[pos(s.size())] ^= static_cast<char>(1u << rng.uniform_int(8));
      break;
    case 1: {  // an interesting byte
      static const char kBytes[] = {'\0', '\xff', '"', '[', ']', '=', '\n', '#', '.', '\x80', '9'};
      if (!s.empty()) s[pos(s.size())] = kBytes[rng.uniform_int(sizeof kBytes)];
      break;
    }
    case 2: {  // erase a range
      if (s.empty()) break;
      const size_t at = pos(s.size());
      s.erase(at, 1 + rng.uniform_int(16));
      break;
    }
    case 3:  // a dictionary token
      s.insert(pos(s.size() + 1), kTokens[rng.uniform_int(std::size(kTokens))]);
      break;
    case 4: {  // duplicate a range elsewhere
      if (s.empty()) break;
      const size_t at = pos(s.size());
      const std::string piece = s.substr(at, 1 + rng.uniform_int(64));
      s.insert(pos(s.size() + 1), piece);
      break;
    }
    case 5: {  // a number replaced by a token
      if (s.empty()) break;
      size_t at = pos(s.size());
      while (at < s.size() && (s[at] < '0' || s[at] > '9')) ++at;
      size_t end = at;
      while (end < s.size() && ((s[end] >= '0' && s[end] <= '9') || s[end] == '.')) ++end;
      if (at < s.size()) s.replace(at, end - at, kTokens[rng.uniform_int(6)]);
      break;
    }
    case 6: {  // a line from another corpus file
      const std::string& other = corpus[rng.uniform_int(corpus.size())];
      if (other.empty()) break;
      const size_t from = other.rfind('\n', pos(other.size()));
      const size_t b = from == std::string::npos ? 0 : from + 1;
      const size_t e = other.find('\n', b);
      const std::string l = other.substr(b, e == std::string::npos ? std::string::npos : e - b + 1);
      const size_t nl = s.rfind('\n', pos(s.size()));
      s.insert(nl == std::string::npos ? 0 : nl + 1, l);
      break;
    }
    default:  // truncate
      s.resize(pos(s.size() + 1));
      break;
  }
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t runs = 1000;
  uint64_t seed = 1;
  size_t max_len = 1 << 20;
  std::vector<std::string> corpus;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("-runs=", 0) == 0) {
      runs = std::strtoull(a.c_str() + 6, nullptr, 10);
    } else if (a.rfind("-seed=", 0) == 0) {
      seed = std::strtoull(a.c_str() + 6, nullptr, 10);
    } else if (a.rfind("-max_len=", 0) == 0) {
      max_len = std::strtoull(a.c_str() + 9, nullptr, 10);
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr,
                   "scenario_fuzz_driver: unknown option %s (allowed: -runs=N -seed=S "
                   "-max_len=L)\n",
                   a.c_str());
      return 2;
    } else if (fs::is_directory(a)) {
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(a)) {
        if (e.is_regular_file()) files.push_back(e.path());
      }
      std::sort(files.begin(), files.end());  // the same order on every machine
      for (const auto& f : files) {
        corpus.push_back(read_file(f));
        names.push_back(f.string());
      }
    } else if (fs::is_regular_file(a)) {
      corpus.push_back(read_file(a));
      names.push_back(a);
    } else {
      std::fprintf(stderr, "scenario_fuzz_driver: %s: no such file or directory\n", a.c_str());
      return 2;
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "scenario_fuzz_driver: give a corpus (files or directories)\n");
    return 2;
  }
  const char* const current = "fuzz-current-input.toml";
  auto run = [&](const std::string& input) {
    std::ofstream(current, std::ios::binary | std::ios::trunc) << input;
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  };
  for (size_t i = 0; i < corpus.size(); ++i) run(corpus[i]);
  xoff::sim::Rng rng(seed, "fuzz_driver");
  for (uint64_t r = 0; r < runs; ++r) {
    std::string s = corpus[rng.uniform_int(corpus.size())];
    const uint64_t n = 1 + rng.uniform_int(4);
    for (uint64_t m = 0; m < n; ++m) mutate_once(s, corpus, rng);
    if (s.size() > max_len) s.resize(max_len);
    run(s);
  }
  std::remove(current);
  std::printf(
      "scenario_fuzz_driver: %zu corpus inputs and %llu mutants (seed %llu): every one "
      "was accepted and ran, or was refused with a positioned message\n",
      corpus.size(), static_cast<unsigned long long>(runs), static_cast<unsigned long long>(seed));
  return 0;
}
