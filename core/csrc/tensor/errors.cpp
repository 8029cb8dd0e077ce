#include "tensor/errors.h"

namespace tz {

Error::~Error() = default;

void throw_error(ErrorKind kind, const char* a, const char* b, const char* c) {
  throw Error(kind, std::string(a) + b + c);
}

}  // namespace tz
