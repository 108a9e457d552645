#pragma once
// A scenario text read through the real loader, with a reader over it: what every reader and
// override test starts from. Errors are compared as the full text `xoff check` would print.
#include <span>
#include <string>
#include <string_view>

#include "app/config/error.h"
#include "app/config/load.h"
#include "app/config/reader.h"

namespace xoff::config::testing {

struct Scenario {
  explicit Scenario(std::string_view text, std::span<const std::string> overrides = {})
      : doc(load_string(text, "t.toml", overrides)), ctx(diag, "t.toml"), root(doc, ctx) {}

  // Everything reported so far, one line per error, in file order.
  std::string errors() const { return diag.report(); }

  Diagnostics diag;
  toml::table doc;
  ReadContext ctx;
  TableReader root;
};

}  // namespace xoff::config::testing
