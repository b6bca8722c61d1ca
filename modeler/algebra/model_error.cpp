// model_error.cpp — edit distance and name suggestions for modeler errors.
#include "model_error.hpp"

#include "rs_closest.h"

#include <algorithm>

namespace railsym {

std::vector<std::string> closest_names(const std::string &name, const std::vector<std::string> &known, int max)
{
    std::vector<const char *> cand;
    for (const auto &k : known) cand.push_back(k.c_str());
    std::vector<int> idx((size_t)std::max(max, 0));
    const int k = rs_closest_names(name.c_str(), cand.data(), (int)cand.size(), idx.data(), max);
    std::vector<std::string> out;
    for (int i = 0; i < k; ++i) out.push_back(known[(size_t)idx[(size_t)i]]);
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
