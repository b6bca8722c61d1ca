// cli.cpp — option parsing, name suggestions and error helpers for the
// `railsym` subcommands (see cli.hpp for the contracts).
#include "cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace railsym::cli {

namespace {

const Option *find_long(const std::vector<Option> &options, std::string_view name) {
    for (const Option &o : options)
        if (o.name == name) return &o;
    return nullptr;
}

const Option *find_short(const std::vector<Option> &options, char c) {
    for (const Option &o : options)
        if (o.short_name != 0 && o.short_name == c) return &o;
    return nullptr;
}

std::string spelled(const Option &o) { return "--" + o.name; }

[[noreturn]] void unknown_option(std::string_view arg, const std::vector<Option> &options) {
    std::vector<std::string> names;
    for (const Option &o : options) names.push_back(spelled(o));
    throw UsageError("unknown option '" + std::string(arg) + "'" + did_you_mean(arg, names));
}

[[noreturn]] void missing_value(const Option &o) {
    throw UsageError("option '" + spelled(o) + "' needs a value (" + o.value_name + ")");
}

}  // namespace

// ---------------------------------------------------------------- Args

bool Args::has(std::string_view name) const {
    for (const auto &g : given)
        if (g.first == name) return true;
    return false;
}

std::string Args::value(std::string_view name, const std::string &fallback) const {
    for (auto it = given.rbegin(); it != given.rend(); ++it)
        if (it->first == name) return it->second;
    return fallback;
}

std::vector<std::string> Args::values(std::string_view name) const {
    std::vector<std::string> out;
    for (const auto &g : given)
        if (g.first == name) out.push_back(g.second);
    return out;
}

long Args::integer(std::string_view name, long fallback, long lo, long hi) const {
    if (!has(name)) return fallback;
    const std::string v = value(name);
    errno = 0;
    char *end = nullptr;
    const long x = std::strtol(v.c_str(), &end, 10);
    if (v.empty() || *end != '\0' || errno == ERANGE || x < lo || x > hi)
        throw UsageError("option '--" + std::string(name) + "' expects an integer from " +
                         std::to_string(lo) + " to " + std::to_string(hi) + ", got '" + v + "'");
    return x;
}

double Args::number(std::string_view name, double fallback) const {
    if (!has(name)) return fallback;
    const std::string v = value(name);
    errno = 0;
    char *end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    if (v.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(x))
        throw UsageError("option '--" + std::string(name) + "' expects a number, got '" + v + "'");
    return x;
}

// ---------------------------------------------------------------- parsing

Args parse_options(int argc, char **argv, const std::vector<Option> &options, int first) {
    Args args;
    bool options_done = false;
    for (int i = first; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (options_done || arg.size() < 2 || arg[0] != '-') {
            args.positional.emplace_back(arg);          // includes "-" (stdin)
            continue;
        }
        if (arg == "--") {
            options_done = true;
            continue;
        }
        if (arg[1] == '-') {                             // --name[=value]
            const std::size_t eq = arg.find('=');
            const std::string_view name = arg.substr(2, eq == std::string_view::npos ? arg.npos : eq - 2);
            const Option *o = find_long(options, name);
            if (!o) unknown_option(arg.substr(0, eq), options);
            if (!o->takes_value()) {
                if (eq != std::string_view::npos)
                    throw UsageError("option '" + spelled(*o) + "' takes no value");
                args.given.emplace_back(o->name, "");
            } else if (eq != std::string_view::npos) {
                args.given.emplace_back(o->name, std::string(arg.substr(eq + 1)));
            } else {
                if (i + 1 >= argc) missing_value(*o);
                args.given.emplace_back(o->name, argv[++i]);
            }
            continue;
        }
        // -abc: a cluster of short flags; the first one taking a value ends it
        // and takes the rest of the word (-oDIR) or the next argument (-o DIR).
        for (std::size_t k = 1; k < arg.size(); ++k) {
            const Option *o = find_short(options, arg[k]);
            if (!o) unknown_option(std::string("-") + arg[k], options);
            if (!o->takes_value()) {
                args.given.emplace_back(o->name, "");
                continue;
            }
            if (k + 1 < arg.size()) {
                args.given.emplace_back(o->name, std::string(arg.substr(k + 1)));
            } else {
                if (i + 1 >= argc) missing_value(*o);
                args.given.emplace_back(o->name, argv[++i]);
            }
            break;
        }
    }
    return args;
}

std::string format_options(const std::vector<Option> &options) {
    std::vector<std::string> left;
    std::size_t width = 0;
    for (const Option &o : options) {
        std::string l = o.short_name ? std::string("-") + o.short_name + ", " : std::string("    ");
        l += "--" + o.name;
        if (o.takes_value()) l += " " + o.value_name;
        width = std::max(width, l.size());
        left.push_back(std::move(l));
    }
    std::string out;
    for (std::size_t i = 0; i < options.size(); ++i) {
        out += "  " + left[i] + std::string(width - left[i].size() + 2, ' ') + options[i].help + "\n";
    }
    return out;
}

void expect_positional(const Args &args, std::size_t min, std::size_t max, std::string_view what) {
    const std::size_t n = args.positional.size();
    if (n < min) throw UsageError("missing argument: " + std::string(what));
    if (n > max)
        throw UsageError("unexpected argument '" + args.positional[max] + "' (expected " +
                         std::string(what) + ")");
}

// ---------------------------------------------------------------- suggestions

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // The dynamic programme of Levenshtein's distance, extended with the
    // swap of two adjacent characters as one edit (optimal string
    // alignment), the commonest typo: "plto" is 1 from "plot", not 2.
    // d[i][j] = distance between a[0..i) and b[0..j); three rows suffice.
    const std::size_t n = b.size();
    std::vector<std::size_t> prev2(n + 1), prev(n + 1), cur(n + 1);
    for (std::size_t j = 0; j <= n; ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= n; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            std::size_t d = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d = std::min(d, prev2[j - 2] + 1);
            cur[j] = d;
        }
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return prev[n];
}

std::string closest_name(std::string_view word, const std::vector<std::string> &candidates) {
    const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
    std::string best;
    std::size_t best_d = limit + 1;
    for (const std::string &c : candidates) {
        const std::size_t d = edit_distance(word, c);
        if (d < best_d) {
            best_d = d;
            best = c;
        }
    }
    if (!best.empty()) return best;
    // An abbreviation: `word` starts exactly one candidate.
    std::string only;
    for (const std::string &c : candidates) {
        if (!word.empty() && c.size() > word.size() && c.compare(0, word.size(), word) == 0) {
            if (!only.empty()) return "";
            only = c;
        }
    }
    return only;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string> &candidates) {
    const std::string c = closest_name(word, candidates);
    return c.empty() ? std::string() : " (did you mean '" + c + "'?)";
}

int print_error(std::string_view prog, int status, std::string_view message) {
    std::fprintf(stderr, "%.*s: %.*s\n", static_cast<int>(prog.size()), prog.data(),
                 static_cast<int>(message.size()), message.data());
    return status;
}

}  // namespace railsym::cli
