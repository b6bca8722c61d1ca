// json_text.hpp — the JSON text the compiler writes (model.json,
// sparsity.json, ops.json): strings and numbers, deterministic bytes.
#ifndef RAILSYM_JSON_TEXT_HPP
#define RAILSYM_JSON_TEXT_HPP

#include <string>

namespace railsym {
namespace codegen {

// `s` as a JSON string literal: quotes, backslashes and newlines escaped,
// other control characters as \u00XX; bytes >= 0x80 passed through (UTF-8).
std::string json_str(const std::string &s);

// The shortest text that reads back as the same double ("null" when not
// finite): 15 to 17 significant digits.
std::string json_num(double x);

}  // namespace codegen
}  // namespace railsym

#endif
