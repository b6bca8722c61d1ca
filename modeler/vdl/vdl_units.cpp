// vdl_units.cpp — see vdl_units.hpp.
#include "vdl_units.hpp"

#include <cctype>
#include <stdexcept>

namespace railsym {
namespace vdl {

namespace {

const char *const kSi[] = {"m", "kg", "s", "rad", "N", "Pa", "J", "W", "Hz", "A", "K", "V"};

// Non-SI symbols an engineer might write, with what to write instead.
struct NonSi {
    const char *sym, *fix;
};
const NonSi kNonSi[] = {{"mm", "m (1 mm = 0.001 m)"}, {"cm", "m"},           {"km", "m"},
                        {"deg", "rad (1 deg = pi/180 rad)"}, {"mrad", "rad"}, {"kN", "N (1 kN = 1000 N)"},
                        {"MN", "N"},            {"kPa", "Pa"},  {"MPa", "Pa"}, {"GPa", "Pa"},
                        {"bar", "Pa"},          {"ms", "s"},    {"rpm", "rad/s"}};

std::string trim(const std::string &s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace((unsigned char)s[a])) ++a;
    while (b > a && std::isspace((unsigned char)s[b - 1])) --b;
    return s.substr(a, b - a);
}

// One factor: SYMBOL [^ [-] DIGITS].  Returns 1 for SI, -1 for a known
// non-SI symbol (fix set), 0 otherwise.
int factor(const std::string &f, std::string &fix) {
    size_t caret = f.find('^');
    std::string sym = f.substr(0, caret);
    if (caret != std::string::npos) {
        size_t i = caret + 1;
        if (i < f.size() && f[i] == '-') ++i;
        if (i == f.size()) return 0;
        for (; i < f.size(); ++i)
            if (!std::isdigit((unsigned char)f[i])) return 0;
    }
    for (const char *s : kSi)
        if (sym == s) return 1;
    for (const NonSi &n : kNonSi)
        if (sym == n.sym) {
            fix = n.fix;
            return -1;
        }
    return 0;
}

// Whole field: 1 a unit expression, -1 one with a non-SI factor, 0 text.
int unit_field(const std::string &field, std::string &unit, std::string &bad, std::string &fix) {
    std::string f = trim(field);
    size_t paren = f.find('(');
    if (paren != std::string::npos && paren > 0 && f.back() == ')') f = trim(f.substr(0, paren));
    if (f == "1" || f == "-") {
        unit = f;
        return 1;
    }
    if (f == "km/h") {   // the one non-SI unit written with a slash
        bad = f;
        fix = "m/s (1 km/h = 1/3.6 m/s)";
        return -1;
    }
    if (f.empty()) return 0;
    int verdict = 1;
    std::string part;
    auto flush = [&]() -> bool {
        if (part.empty()) return false;
        std::string fx;
        int r = factor(part, fx);
        if (r == 0) return false;
        if (r < 0 && verdict > 0) {
            verdict = -1;
            bad = part;
            fix = fx;
        }
        part.clear();
        return true;
    };
    for (size_t i = 0; i < f.size(); ++i) {
        char c = f[i];
        if (c == ' ' || c == '*' || c == '/') {
            if (c == ' ' && part.empty()) continue;
            if (!flush()) return 0;
        } else {
            part += c;
        }
    }
    if (!flush()) return 0;
    if (verdict > 0) {   // one space between factors
        unit.clear();
        for (size_t i = 0; i < f.size(); ++i)
            if (!(f[i] == ' ' && (unit.empty() || unit.back() == ' '))) unit += f[i];
    }
    return verdict;
}

}  // namespace

std::vector<std::string> leading_units(const std::string &comment) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start <= comment.size()) {
        size_t end = comment.find_first_of(",:", start);
        std::string field = comment.substr(start, end == std::string::npos ? std::string::npos : end - start);
        std::string unit, bad, fix;
        int r = unit_field(field, unit, bad, fix);
        if (r < 0)
            throw std::invalid_argument("'" + bad + "' in the comment's units is not SI; values in a .vdl are SI: write " +
                                        fix + " and the value in it");
        if (r == 0) break;
        out.push_back(unit);
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

std::vector<std::string> units_per_name(const std::vector<std::string> &units, size_t n) {
    if (units.empty()) return std::vector<std::string>(n, "");
    if (units.size() == 1) return std::vector<std::string>(n, units[0]);
    if (units.size() == n) return units;
    throw std::invalid_argument("the comment gives " + std::to_string(units.size()) + " units for " +
                                std::to_string(n) + " names; give one unit for all of them or one per name, in order "
                                "(# m, rad: ...)");
}

}  // namespace vdl
}  // namespace railsym
