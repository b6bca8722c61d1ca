// model_error.cpp — edit distance and name suggestions for modeler errors.
#include "model_error.hpp"

#include <algorithm>
#include <cctype>

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

static std::string lower(const std::string &s)
{
    std::string o(s);
    for (auto &c : o) c = (char)std::tolower((unsigned char)c);
    return o;
}

std::vector<std::string> closest_names(const std::string &name, const std::vector<std::string> &known, int max)
{
    const int limit = std::max(1, (int)name.size() / 3 + 1);
    int best = limit + 1;
    std::vector<std::string> out;
    const std::string ln = lower(name);
    for (const auto &k : known) {
        if (k == name) continue;
        const int d = lower(k) == ln ? 0 : edit_distance(name, k);
        // A one-letter name is at distance 1 of every other one-letter name:
        // only suggest when the edit is smaller than the word itself.
        if (d > limit || (d > 0 && d >= (int)name.size())) continue;
        if (d < best) {
            best = d;
            out.clear();
        }
        if (d == best && (int)out.size() < max && std::find(out.begin(), out.end(), k) == out.end())
            out.push_back(k);
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
