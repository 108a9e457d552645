#pragma once
// A flat table of named columns (text or numbers) written as CSV or HDF5: what
// `xoff collect` produces from a sweep, one row per run. Both are written
// under a temporary name and renamed, so a table on disk is always whole.
//
// CSV: a header row, RFC 4180 quoting, numbers with up to 10 significant
// digits, NaN (no value) as an empty field. HDF5: /meta@format =
// "xoff-table", /table/<column> 1-D datasets in column order (float64 or
// UTF-8 strings), the same layout as the results file's tables, so
// `pd.DataFrame(table(f, "table"))` of analysis/plot/xoff_results.py reads it.
#include <string>
#include <vector>

namespace xoff::analysis {

struct TableColumn {
  std::string name;
  bool text = false;
  std::vector<std::string> strings;  // when text
  std::vector<double> numbers;       // otherwise; NaN = no value
};

inline constexpr const char* kTableFormat = "xoff-table";

// One CSV field, quoted (RFC 4180) when it holds a comma, quote or newline.
std::string csv_field(const std::string& s);

void write_table_csv(const std::vector<TableColumn>& table, const std::string& path);
void write_table_h5(const std::vector<TableColumn>& table, const std::string& path);

}  // namespace xoff::analysis
