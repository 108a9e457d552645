#pragma once
// Reading a scenario file into a TOML table, with --set overrides applied, ready for a
// TableReader. Everything that can go wrong here is bad input: a ScenarioError.
#include <toml++/toml.h>

#include <span>
#include <string>
#include <string_view>

namespace xoff::config {

// Variants: a scenario may hold [variant.<name>] tables (any keys, nested as in the
// file). scenario.variant = "<name>" (in the file, or the last --set scenario.variant=...)
// deep-merges that table into the document before the overrides are applied: tables merge
// key by key, values and arrays replace. An unknown name is an error listing the variants.
//
// Parses `path` and applies `overrides` ("ecn.kmin=100KB", see overrides.h). Throws
// ScenarioError: "cannot open scenario file: No such file or directory" (no position), a TOML
// syntax error at toml++'s line and column, or the override errors.
toml::table load_file(const std::string& path, std::span<const std::string> overrides = {});

// The same for text already in memory; `name` is the file name errors show.
toml::table load_string(std::string_view text, const std::string& name,
                        std::span<const std::string> overrides = {});

}  // namespace xoff::config
