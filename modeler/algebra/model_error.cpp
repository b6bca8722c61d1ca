// model_error.cpp — edit distance and name suggestions for modeler errors.
#include "model_error.hpp"

#include <algorithm>

namespace railsym {

int edit_distance(const std::string &a, const std::string &b)
{
    // One row of the classic dynamic-programming table at a time.
    std::vector<int> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = (int)j;
    for (size_t i = 1; i <= a.size(); ++i) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= b.size(); ++j) {
            int up = row[j];
            int sub = diag + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({up + 1, row[j - 1] + 1, sub});
            diag = up;
        }
    }
    return row[b.size()];
}

std::vector<std::string> closest_names(const std::string &name, const std::vector<std::string> &known, int max)
{
    const int limit = std::max(2, (int)name.size() / 3);
    int best = limit + 1;
    std::vector<std::string> out;
    for (const auto &k : known) {
        int d = edit_distance(name, k);
        if (d > limit) continue;
        if (d < best) {
            best = d;
            out.clear();
        }
        if (d == best && (int)out.size() < max) out.push_back(k);
    }
    return out;
}

std::string did_you_mean(const std::string &name, const std::vector<std::string> &known)
{
    std::vector<std::string> c = closest_names(name, known);
    if (c.empty()) return "";
    std::string s = " (did you mean ";
    for (size_t i = 0; i < c.size(); ++i) {
        if (i) s += (i + 1 == c.size()) ? " or " : ", ";
        s += "'" + c[i] + "'";
    }
    return s + "?)";
}

}  // namespace railsym
