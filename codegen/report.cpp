// report.cpp — the op-count report as a readable table and as JSON.
//
// The table follows seed 003's Table 2 (function, atoms, operations) with the
// operations broken down, so the seed's figures can be compared row by row.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "codegen.hpp"
#include "json_text.hpp"

namespace railsym {
namespace codegen {

namespace {

std::string calls_text(const OpCount &c) {
    std::string s;
    for (const auto &kv : c.calls) {
        if (!s.empty()) s += ", ";
        s += kv.first + " " + std::to_string(kv.second);
    }
    return s.empty() ? "-" : s;
}

}  // namespace

std::string ops_table(const std::vector<std::pair<std::string, OpCount>> &rows) {
    size_t w = 8;   // width of the function column
    for (const auto &r : rows) w = std::max(w, r.first.size());
    std::ostringstream os;
    char buf[256];
    std::snprintf(buf, sizeof buf, "%-*s %10s %10s %10s %10s %10s  %s\n", (int)w, "function", "atoms",
                  "operations", "add/sub", "mul", "div", "calls");
    os << buf;
    os << std::string(std::string(buf).size() - 1, '-') << "\n";
    for (const auto &r : rows) {
        const OpCount &c = r.second;
        std::snprintf(buf, sizeof buf, "%-*s %10ld %10ld %10ld %10ld %10ld  ", (int)w,
                      r.first.c_str(), c.atoms, c.total(), c.adds, c.muls, c.divs);
        os << buf << calls_text(c) << "\n";
    }
    return os.str();
}

std::string ops_json(const std::vector<std::pair<std::string, OpCount>> &rows) {
    std::ostringstream os;
    os << "{\n  \"functions\": [";
    for (size_t i = 0; i < rows.size(); ++i) {
        const OpCount &c = rows[i].second;
        os << (i ? "," : "") << "\n    {\"name\": " << json_str(rows[i].first)
           << ", \"atoms\": " << c.atoms << ", \"operations\": " << c.total()
           << ", \"adds\": " << c.adds << ", \"muls\": " << c.muls << ", \"divs\": " << c.divs
           << ", \"calls\": {";
        bool first = true;
        for (const auto &kv : c.calls) {
            os << (first ? "" : ", ") << json_str(kv.first) << ": " << kv.second;
            first = false;
        }
        os << "}}";
    }
    os << (rows.empty() ? "" : "\n  ") << "]\n}\n";
    return os.str();
}

}  // namespace codegen
}  // namespace railsym
