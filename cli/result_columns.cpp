// result_columns.cpp — reading columns of a results CSV as numbers
// (result_columns.hpp).
#include "result_columns.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "cli.hpp"

extern "C" {
#include "rs_results.h"
}

namespace railsym {

namespace {

std::string trim(const std::string &s) {
    const size_t a = s.find_first_not_of(" \t\r\"");
    const size_t b = s.find_last_not_of(" \t\r\"");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string &line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ',')) out.push_back(trim(f));
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

}  // namespace

namespace {

std::vector<std::string> header_of(std::ifstream &in, const std::string &csv) {
    if (!in) throw cli::UserError("cannot read '" + csv + "': " + std::strerror(errno));
    std::string line;
    if (!std::getline(in, line) || trim(line).empty())
        throw cli::UserError("'" + csv + "' is empty: expected a header row 'time,NAME,...' (write it with `railsym run`)");
    return split(line);
}

}  // namespace

std::vector<std::string> read_result_header(const std::string &csv) {
    std::ifstream in(csv);
    return header_of(in, csv);
}

ResultColumns read_result_columns(const std::string &csv, const std::vector<std::string> &names) {
    std::ifstream in(csv);
    const std::vector<std::string> header = header_of(in, csv);
    std::string line;
    std::vector<size_t> idx;
    for (const std::string &n : names) {
        size_t k = 0;
        while (k < header.size() && header[k] != n) ++k;
        if (k == header.size()) {
            std::string list;
            for (const std::string &h : header) list += (list.empty() ? "" : ", ") + h;
            throw cli::UserError("'" + csv + "' has no column '" + n + "'" + cli::did_you_mean(n, header) +
                                 "; its columns: " + list);
        }
        idx.push_back(k);
    }
    ResultColumns r;
    r.first = header[0];
    r.values.assign(names.size(), {});
    std::vector<double> t;
    for (long number = 2; std::getline(in, line); ++number) {
        if (trim(line).empty()) continue;
        const std::vector<std::string> f = split(line);
        const std::string where = csv + ":" + std::to_string(number) + ": ";
        if (f.size() != header.size())
            throw cli::UserError(where + std::to_string(f.size()) + " fields where the header has " +
                                 std::to_string(header.size()) + ": the file is cut or damaged");
        auto num = [&](size_t k) {
            char *end = nullptr;
            const double v = std::strtod(f[k].c_str(), &end);
            if (f[k].empty() || *end || !std::isfinite(v))
                throw cli::UserError(where + "'" + f[k] + "' in column '" + header[k] +
                                     "' is not a finite number: the run diverged there, analyse the rows before it");
            return v;
        };
        t.push_back(num(0));
        for (size_t j = 0; j < idx.size(); ++j) r.values[j].push_back(num(idx[j]));
    }
    if (t.size() < 8)
        throw cli::UserError("'" + csv + "' has " + std::to_string(t.size()) +
                             " rows: an analysis needs at least 8 (run longer or output more often)");
    const double dt = (t.back() - t.front()) / static_cast<double>(t.size() - 1);
    if (!(dt > 0)) throw cli::UserError("'" + csv + "': the column '" + header[0] + "' does not increase");
    for (size_t i = 1; i < t.size(); ++i)
        if (std::fabs(t[i] - t[i - 1] - dt) > 1e-6 * dt)
            throw cli::UserError(csv + ":" + std::to_string(i + 2) + ": '" + header[0] + "' steps by " +
                                 std::to_string(t[i] - t[i - 1]) + " where the mean step is " + std::to_string(dt) +
                                 ": spectra need uniform sampling (a scenario's `output` interval gives it)");
    r.fs = 1.0 / dt;
    r.units.assign(names.size(), "");
    char upath[4200];
    rs_results_units_path(csv.c_str(), upath, sizeof upath);
    std::ifstream uin(upath);
    std::string names_line, units_line;
    if (uin && std::getline(uin, names_line) && std::getline(uin, units_line) && split(names_line) == header) {
        std::vector<std::string> u = split(units_line);
        u.resize(header.size());
        for (size_t j = 0; j < idx.size(); ++j) r.units[j] = u[idx[j]];
    }
    return r;
}

std::vector<ColumnTerm> column_sum_terms(const std::string &expr, const std::vector<std::string> &header,
                                         const std::string &option) {
    for (const std::string &h : header)
        if (h == expr) return {{1.0, expr}};
    std::vector<ColumnTerm> terms;
    size_t i = 0;
    double sign = 1.0;
    if (!expr.empty() && (expr[0] == '+' || expr[0] == '-')) {
        sign = expr[0] == '-' ? -1.0 : 1.0;
        i = 1;
    }
    for (;;) {
        const size_t j = expr.find_first_of("+-", i);
        const std::string c = expr.substr(i, j == std::string::npos ? std::string::npos : j - i);
        if (c.empty())
            throw cli::UsageError(option + " '" + expr + "': an empty term; write a column, or columns joined by + " +
                                  "and - (a wheelset: ws1_right.Y-ws1_left.Y)");
        terms.push_back({sign, c});
        if (j == std::string::npos) return terms;
        sign = expr[j] == '-' ? -1.0 : 1.0;
        i = j + 1;
    }
}

std::string column_file_name(const std::vector<ColumnTerm> &terms) {
    std::string name;
    if (terms.size() == 1) {
        name = terms[0].column;
    } else if (!terms.empty()) {
        size_t n = terms[0].column.size();
        for (const ColumnTerm &t : terms) {
            size_t k = 0;
            while (k < n && k < t.column.size() && t.column[k] == terms[0].column[k]) k++;
            n = k;
        }
        // back to a separator that ends a part of the names ("front.ws1." of
        // "front.ws1.right.Y" and "front.ws1.rear.Y", not "front.ws1.r")
        while (n > 0 && terms[0].column[n - 1] != '.' && terms[0].column[n - 1] != '_') n--;
        while (n > 0 && (terms[0].column[n - 1] == '.' || terms[0].column[n - 1] == '_')) n--;
        name = terms[0].column.substr(0, n);
        if (name.empty())
            for (size_t i = 0; i < terms.size(); i++)
                name += (terms[i].sign < 0 ? (i ? "_minus_" : "minus_") : (i ? "_plus_" : "")) + terms[i].column;
    }
    if (name.empty()) name = "column";
    for (char &c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) c = '_';
    if (name[0] == '.' || name[0] == '-') name[0] = '_';
    if (name.size() > 64) {
        unsigned long long h = 14695981039346656037ull;   // FNV-1a 64: other long names stay apart
        for (unsigned char c : name) h = (h ^ c) * 1099511628211ull;
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", h);
        name = name.substr(0, 47) + "_" + hex;
    }
    return name;
}

}  // namespace railsym
