#pragma once
// Thin RAII layer over the HDF5 C API for the results writer and reader: owned
// handles, column datasets (1-D, one per table column), scalar attributes, and
// failures turned into ResultsError with HDF5's own most specific message.
// Internal to analysis/results; the public headers do not include <hdf5.h>.
#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace xoff::analysis::h5 {

// Owns one hid_t and closes it with the matching H5?close.
class Handle {
 public:
  using Closer = herr_t (*)(hid_t);
  Handle() = default;
  Handle(hid_t id, Closer closer) : id_(id), closer_(closer) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& o) noexcept : id_(o.id_), closer_(o.closer_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept;
  ~Handle() { (void)close(); }
  hid_t get() const { return id_; }
  operator hid_t() const { return id_; }  // NOLINT: reads like the C API it wraps
  herr_t close();                         // negative on failure; idempotent

 private:
  hid_t id_ = H5I_INVALID_HID;
  Closer closer_ = nullptr;
};

// Turns off HDF5's printing of its error stack to stderr for this scope; errors
// still reach the caller as ResultsError.
class QuietErrors {
 public:
  QuietErrors();
  ~QuietErrors();
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

// Throws ResultsError (no path: the caller adds it) naming `what` and HDF5's message.
[[noreturn]] void fail(const std::string& what);
hid_t check_id(hid_t id, const std::string& what);
void check_status(herr_t status, const std::string& what);

// A variable-length UTF-8 string type (strings in files and in memory are char*).
Handle utf8_string_type();

// Groups track link creation order (so h5py lists columns in schema order) and
// carry no timestamps (so files are reproducible). Creates missing parents.
Handle create_group(hid_t parent, const std::string& path);
Handle open_group(hid_t parent, const std::string& path);
bool has_link(hid_t parent, const std::string& path);
std::vector<std::string> child_names(hid_t group);  // creation order

template <class T>
hid_t native_type();

// Column datasets.
void write_raw_column(hid_t group, const char* name, hid_t mem_type, const void* data, size_t n);
template <class T>
void write_column(hid_t group, const char* name, const std::vector<T>& v) {
  write_raw_column(group, name, native_type<T>(), v.data(), v.size());
}
void write_strings(hid_t group, const char* name, const std::vector<std::string>& v);

size_t column_length(hid_t group, const char* name);
void read_raw_column(hid_t group, const char* name, hid_t mem_type, void* out, size_t n);
template <class T>
std::vector<T> read_column(hid_t group, const char* name) {
  std::vector<T> v(column_length(group, name));
  read_raw_column(group, name, native_type<T>(), v.data(), v.size());
  return v;
}
std::vector<std::string> read_strings(hid_t group, const char* name);

// Scalar attributes.
void write_raw_attr(hid_t obj, const char* name, hid_t mem_type, const void* value);
template <class T>
void write_attr(hid_t obj, const char* name, T value) {
  write_raw_attr(obj, name, native_type<T>(), &value);
}
void write_attr(hid_t obj, const char* name, const std::string& value);
void read_raw_attr(hid_t obj, const char* name, hid_t mem_type, void* out);
template <class T>
T read_attr(hid_t obj, const char* name) {
  T v{};
  read_raw_attr(obj, name, native_type<T>(), &v);
  return v;
}
std::string read_string_attr(hid_t obj, const char* name);
bool has_attr(hid_t obj, const char* name);

}  // namespace xoff::analysis::h5
