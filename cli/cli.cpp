// cli.cpp — option parsing, name suggestions and error helpers for the
// `railsym` subcommands (see cli.hpp for the contracts).
#include "cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

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

Option set_option() {
    return {"set", 0, "'STATEMENT'",
            "a statement read after the scenario (train) file, repeatable: --set 'friction 0.3' --set 'modulus "
            "*.left = 2e11'"};
}

std::string set_text(const Args &args) {
    std::string text;
    for (const std::string &v : args.values("set")) {
        if (v.find_first_of("\n\r") != std::string::npos)
            throw UsageError("--set takes one statement without line breaks; give --set once per statement");
        text += v + "\n";
    }
    return text;
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

std::string closest_name(std::string_view word, const std::vector<std::string> &candidates) {
    const std::string w(word);   // NUL-terminated for the C helper
    std::vector<const char *> c;
    c.reserve(candidates.size());
    for (const std::string &s : candidates) c.push_back(s.c_str());
    const char *best = rs_closest_name(w.c_str(), c.data(), static_cast<int>(c.size()));
    return best ? std::string(best) : std::string();
}

std::string did_you_mean(std::string_view word, const std::vector<std::string> &candidates) {
    const std::string c = closest_name(word, candidates);
    return c.empty() ? std::string() : " (did you mean '" + c + "'?)";
}

LogSink::LogSink(std::string prefix, std::FILE *f)
    : prefix_(std::move(prefix)), f_(f), tty_(isatty(fileno(f)) != 0) {}

rs_log LogSink::log() { return rs_log{&LogSink::line, this}; }

void LogSink::line(void *ctx, rs_log_kind kind, const char *text) {
    auto *s = static_cast<LogSink *>(ctx);
    const char *end_open = s->open_ ? "\n" : "";
    if (kind == RS_LOG_RAW) {
        std::fprintf(s->f_, "%s%s", end_open, text);
        s->open_ = false;
    } else if (kind == RS_LOG_PROGRESS && s->tty_) {
        std::fprintf(s->f_, "\r%s%s   ", s->prefix_.c_str(), text);
        s->open_ = true;
    } else {
        std::fprintf(s->f_, "%s%s%s\n", end_open, s->prefix_.c_str(), text);
        s->open_ = false;
    }
    std::fflush(s->f_);
}

OutFile::OutFile(std::string path) : path_(std::move(path)) {
    f_ = std::fopen((path_ + ".tmp").c_str(), "w");
    if (!f_) throw UserError("cannot write '" + path_ + "': check that its folder exists");
}

OutFile::~OutFile() {
    if (!f_) return;
    std::fclose(f_);
    std::remove((path_ + ".tmp").c_str());
}

void OutFile::close() {
    const bool bad = std::ferror(f_) != 0;
    const bool closed = std::fclose(f_) == 0;
    f_ = nullptr;
    if (!closed || bad || std::rename((path_ + ".tmp").c_str(), path_.c_str()) != 0)
        throw UserError("cannot write '" + path_ + "' (disk full?)");
}

int print_error(std::string_view prog, int status, std::string_view message) {
    std::fprintf(stderr, "%.*s: %.*s\n", static_cast<int>(prog.size()), prog.data(),
                 static_cast<int>(message.size()), message.data());
    return status;
}

}  // namespace railsym::cli
