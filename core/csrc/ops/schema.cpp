#include "ops/schema.h"

#include <cctype>

namespace tz {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// Split at top-level commas (not inside brackets or parentheses).
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '[' || c == '(') depth++;
    if (c == ']' || c == ')') depth--;
    if (c == ',' && depth == 0) {
      parts.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) parts.push_back(trim(cur));
  return parts;
}

[[noreturn]] void bad(const std::string& sig, const std::string& why) {
  fail(ErrorKind::Runtime, "op table: bad signature '", sig, "': ", why);
}

Value parse_default(const std::string& text, const ArgSpec& a, const std::string& sig) {
  if (text == "None") return Value();
  switch (a.type) {
    case ArgType::Bool:
      if (text == "True") return Value(true);
      if (text == "False") return Value(false);
      bad(sig, "bad bool default " + text);
    case ArgType::Int: return Value(int64_t(std::stoll(text)));
    case ArgType::Float: return Value(std::stod(text));
    case ArgType::Scalar:
      if (text.find_first_of(".e") != std::string::npos || text == "inf" || text == "-inf")
        return Value(Scalar(std::stod(text)));
      if (text == "True" || text == "False") return Value(Scalar(text == "True"));
      return Value(Scalar(int64_t(std::stoll(text))));
    case ArgType::Str: return Value(text.substr(1, text.size() - 2));  // strip quotes
    case ArgType::IntList: {
      IntList l;
      std::string inner = text;
      if (!inner.empty() && inner.front() == '[') inner = inner.substr(1, inner.size() - 2);
      for (auto& p : split_top(inner)) l.push_back(std::stoll(p));
      if (a.list_size > 1 && l.size() == 1) l.assign(a.list_size, l[0]);
      return Value(l);
    }
    case ArgType::MemoryFormat:
      for (auto f : {MemoryFormat::Contiguous, MemoryFormat::Preserve, MemoryFormat::ChannelsLast,
                     MemoryFormat::ChannelsLast3d})
        if (text == memory_format_name(f)) return Value(f);
      bad(sig, "bad memory format default " + text);
    default: bad(sig, "unsupported default for " + a.name);
  }
}

ArgType parse_type(std::string t, ArgSpec& a, const std::string& sig) {
  if (!t.empty() && t.back() == '?') a.optional = true, t.pop_back();
  if (t == "Tensor?[]") return ArgType::OptTensorList;
  size_t lb = t.find('[');
  if (lb != std::string::npos) {
    std::string elem = t.substr(0, lb), size = t.substr(lb + 1, t.size() - lb - 2);
    if (!size.empty()) a.list_size = std::stoi(size);
    if (elem == "int") return ArgType::IntList;
    if (elem == "Tensor") return ArgType::TensorList;
    if (elem == "Tensor?") return ArgType::OptTensorList;
    bad(sig, "unknown list type " + t);
  }
  if (t == "Tensor") return ArgType::Tensor;
  if (t == "Scalar") return ArgType::Scalar;
  if (t == "int") return ArgType::Int;
  if (t == "float") return ArgType::Float;
  if (t == "bool") return ArgType::Bool;
  if (t == "str") return ArgType::Str;
  if (t == "ScalarType") return ArgType::DType;
  if (t == "MemoryFormat") return ArgType::MemoryFormat;
  if (t == "Generator") return ArgType::Generator;
  bad(sig, "unknown type " + t);
}

}  // namespace

Schema parse_schema(const std::string& sig) {
  Schema s;
  size_t lp = sig.find('('), arrow = sig.rfind("->");
  if (lp == std::string::npos || arrow == std::string::npos) bad(sig, "expected name(args) -> returns");
  std::string full = trim(sig.substr(0, lp));
  size_t dot = full.find('.');
  s.name = full.substr(0, dot);
  if (dot != std::string::npos) s.overload = full.substr(dot + 1);
  size_t rp = sig.rfind(')', arrow);
  bool kwarg_only = false;
  for (const std::string& part : split_top(sig.substr(lp + 1, rp - lp - 1))) {
    if (part == "*") {
      kwarg_only = true;
      continue;
    }
    ArgSpec a;
    size_t eq = part.find('=');
    std::string decl = trim(part.substr(0, eq));
    size_t sp = decl.rfind(' ');
    if (sp == std::string::npos) bad(sig, "argument without a name: " + part);
    a.name = decl.substr(sp + 1);
    a.type = parse_type(trim(decl.substr(0, sp)), a, sig);
    a.kwarg_only = kwarg_only;
    if (eq != std::string::npos) {
      a.has_default = true;
      a.default_value = parse_default(trim(part.substr(eq + 1)), a, sig);
    }
    s.args.push_back(std::move(a));
  }
  std::string ret = trim(sig.substr(arrow + 2));
  if (!ret.empty() && ret.front() == '(') {
    s.returns_tuple = true;
    ret = ret.substr(1, ret.size() - 2);
  }
  for (const std::string& part : split_top(ret)) {
    ReturnSpec r;
    size_t sp = part.rfind(' ');
    if (sp != std::string::npos && part.find('[') == std::string::npos) {
      r.type = part.substr(0, sp);
      r.name = part.substr(sp + 1);
    } else if (sp != std::string::npos) {
      r.type = trim(part.substr(0, sp));
      r.name = part.substr(sp + 1);
    } else {
      r.type = part;
    }
    s.returns.push_back(r);
  }
  return s;
}

}  // namespace tz
