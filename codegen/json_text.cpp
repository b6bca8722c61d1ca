// json_text.cpp — see json_text.hpp.
#include "json_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace railsym {
namespace codegen {

std::string json_str(const std::string &s) {
    std::string o = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += (char)c;
        } else if (c == '\n') {
            o += "\\n";
        } else if (c < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else {
            o += (char)c;
        }
    }
    return o + "\"";
}

std::string json_num(double x) {
    if (!std::isfinite(x)) return "null";
    char b[40];
    for (int p = 15; p <= 17; ++p) {
        std::snprintf(b, sizeof b, "%.*g", p, x);
        if (std::strtod(b, nullptr) == x) break;
    }
    return b;
}

}  // namespace codegen
}  // namespace railsym
