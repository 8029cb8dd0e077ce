// Typed errors that the bindings translate into the matching Python exception.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>

namespace tz {

enum class ErrorKind { Runtime, Value, Type, Index, NotImplemented };

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& msg) : std::runtime_error(msg), kind_(kind) {}
  ~Error() override;  // out of line: the vtable and typeinfo are emitted once, in errors.cpp
  ErrorKind kind() const { return kind_; }
 private:
  ErrorKind kind_;
};

// Throws Error(kind, a + b + c). Compiled once, in baseline code.
[[noreturn]] void throw_error(ErrorKind kind, const char* a, const char* b = "", const char* c = "");

#ifdef TZ_CPU_CAPABILITY
// Kernel builds (kernels/isa/) fail through throw_error only: a template instantiated in an
// ISA object is a COMDAT symbol that the linker may merge with another build's copy, so an
// AVX-512 str_cat could end up serving every CPU (DESIGN.md). Internal linkage keeps this
// wrapper out of that merging too.
[[noreturn]] static inline void fail(ErrorKind kind, const char* a, const char* b = "", const char* c = "") {
  throw_error(kind, a, b, c);
}
#else

namespace detail {
inline void append(std::ostringstream&) {}
template <typename T, typename... Rest>
void append(std::ostringstream& os, const T& first, const Rest&... rest) {
  os << first;
  append(os, rest...);
}
}  // namespace detail

template <typename... Parts>
std::string str_cat(const Parts&... parts) {
  std::ostringstream os;
  detail::append(os, parts...);
  return os.str();
}

template <typename... Parts>
[[noreturn]] void fail(ErrorKind kind, const Parts&... parts) {
  throw Error(kind, str_cat(parts...));
}
#endif

}  // namespace tz

// TZ_CHECK(cond, Kind, message parts...): throw a typed error when cond is false.
#define TZ_CHECK(cond, kind, ...)                                       \
  do {                                                                  \
    if (__builtin_expect(!(cond), 0)) ::tz::fail(::tz::ErrorKind::kind, __VA_ARGS__); \
  } while (0)
