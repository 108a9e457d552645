#pragma once
// Source positions of TOML nodes, key paths, and how a value is shown back to the user.
//
// Every node toml++ parses carries its region (file, line, column). Values injected by a
// `--set ecn.kmin=1KB` override are parsed the same way with the *origin* "--set ecn.kmin=1KB"
// as their file name (a sentinel), so errors about them say `--set ecn.kmin=1KB` instead of
// a position in the scenario file.
#include <toml++/toml.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "app/config/error.h"

namespace xoff::config {

// The origin recorded for the nodes of one override: "--set " + the argument as given.
std::string set_origin(std::string_view argument);
bool is_set_origin(std::string_view file);

// The position of `region` as an error position: a --set origin has no line; a region without
// a file name (text parsed without one) is attributed to `fallback_file`.
SourcePos position_of(const toml::source_region& region, std::string_view fallback_file);

// Key paths as printed in errors: join("ecn", "kmin") = "ecn.kmin", join("", "ecn") = "ecn";
// keys that are not bare TOML keys are quoted. index("topology.links", 3) =
// "topology.links[3]" (indices count from 0, as in --set paths).
std::string path_join(std::string_view prefix, std::string_view key);
std::string path_index(std::string_view prefix, size_t index);

// A node as the user wrote it, for "got ...": "100G" (quoted) for strings, 2, 2.5, true, and
// "a table" / "an array" / "a date" for the rest.
std::string describe(const toml::node& node);

}  // namespace xoff::config
