#include "analysis/results/table_io.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "analysis/results/h5_io.h"
#include "analysis/results/results_error.h"

namespace xoff::analysis {
namespace {

std::string number(double v) {
  if (std::isnan(v)) return "";
  char b[32];
  std::snprintf(b, sizeof b, "%.10g", v);
  return b;
}

size_t rows(const std::vector<TableColumn>& t) {
  if (t.empty()) return 0;
  const size_t n = t[0].text ? t[0].strings.size() : t[0].numbers.size();
  for (const auto& c : t) {
    if ((c.text ? c.strings.size() : c.numbers.size()) != n) {
      throw ResultsError("", "table column " + c.name + " has a different length");
    }
  }
  return n;
}

void rename_into_place(const std::string& tmp, const std::string& path) {
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw ResultsError("", "rename " + tmp + " to " + path + " failed");
  }
}

}  // namespace

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
  return o + "\"";
}

void write_table_csv(const std::vector<TableColumn>& table, const std::string& path) {
  const size_t n = rows(table);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    for (size_t c = 0; c < table.size(); ++c) f << (c ? "," : "") << csv_field(table[c].name);
    f << "\n";
    for (size_t r = 0; r < n; ++r) {
      for (size_t c = 0; c < table.size(); ++c) {
        const auto& col = table[c];
        f << (c ? "," : "") << (col.text ? csv_field(col.strings[r]) : number(col.numbers[r]));
      }
      f << "\n";
    }
    if (!f.flush()) {
      std::filesystem::remove(tmp);
      throw ResultsError("", "cannot write " + tmp);
    }
  }
  rename_into_place(tmp, path);
}

void write_table_h5(const std::vector<TableColumn>& table, const std::string& path) {
  (void)rows(table);
  const std::string tmp = path + ".tmp";
  try {
    h5::QuietErrors quiet;
    h5::Handle fcpl(h5::check_id(H5Pcreate(H5P_FILE_CREATE), "create file property list"),
                    H5Pclose);
    h5::check_status(H5Pset_obj_track_times(fcpl, 0), "disable root group timestamps");
    h5::Handle file(
        h5::check_id(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT), "create " + tmp),
        H5Fclose);
    {
      const h5::Handle meta = h5::create_group(file, "meta");
      h5::write_attr(meta, "format", std::string(kTableFormat));
      const h5::Handle g = h5::create_group(file, "table");
      for (const auto& c : table) {
        std::string name = c.name;  // '/' would make a path
        for (char& ch : name) ch = ch == '/' ? '.' : ch;
        if (c.text) {
          h5::write_strings(g, name.c_str(), c.strings);
        } else {
          h5::write_column(g, name.c_str(), c.numbers);
        }
      }
    }
    h5::check_status(file.close(), "close " + tmp);
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  rename_into_place(tmp, path);
}

}  // namespace xoff::analysis
