#pragma once
// Field-by-field expectations for RunData, so a failure names the field that differs.
#include <gtest/gtest.h>

#include "analysis/results/run_data.h"

namespace xoff::analysis::fixture {

void expect_same_run(const RunData& a, const RunData& b);

}  // namespace xoff::analysis::fixture
