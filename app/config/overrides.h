#pragma once
// `--set path=value` overrides, applied to the parsed scenario before it is read, so that an
// override goes through exactly the same checks as the file (STYLE "Scenarios").
//
// The path is dotted, with optional 0-based array indices: `ecn.kmin=100KB`,
// `traffic.flows[2].size=1MB`, `pfc.enabled=false`, `buffer.alpha=0.5`. The value is parsed
// as a TOML value (`x = <value>`); when that fails it is taken as a string, so `100KB` needs no
// quotes. Keys missing from the file are added (that is how a default is overridden), along
// with any missing tables on the way; whether a key is known is decided later by the reader's
// finish(). Every node an override adds is stamped with the origin "--set <argument>", so errors
// about it read `--set ecn.kmni=1: error: ecn: unknown key "kmni" (did you mean "kmin"?)`.
#include <toml++/toml.h>

#include <span>
#include <string>
#include <string_view>

#include "app/config/error.h"

namespace xoff::config {

// Applies each `path=value` in order (later ones win). Malformed arguments, indices out of
// range and paths through non-tables are all reported together: throws ScenarioErrors.
void apply_overrides(toml::table& doc, std::span<const std::string> arguments);

// One override; problems go to `diag`. Returns whether it was applied.
bool apply_override(toml::table& doc, std::string_view argument, Diagnostics& diag);

}  // namespace xoff::config
