// cli.hpp — small helpers shared by the `railsym` subcommands: option parsing,
// closest-name suggestions, and the exit-status conventions.
//
// Exit statuses (DESIGN.md, "Contracts"): 0 success, 1 user error (bad input,
// with a message), 2 bad usage (unknown command or option, missing argument).
//
// A subcommand reports problems by throwing: UsageError for bad usage,
// UserError for bad input.  The dispatcher in cli/railsym.cpp catches
// them, prints "railsym NAME: message" (plus the usage line for UsageError)
// and returns the matching status, so commands never call exit().
#ifndef RAILSYM_CLI_HPP
#define RAILSYM_CLI_HPP

#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

extern "C" {
#include "rs_closest.h"
#include "rs_log.h"
}

namespace railsym::cli {

enum ExitStatus : int {
    kExitOk = 0,     // success
    kExitUser = 1,   // user error: bad input file, unknown model name, ...
    kExitUsage = 2,  // bad usage: unknown command/option, missing argument
};

// Bad usage: exit status 2, the command's usage line is printed after it.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Bad input: exit status 1.  The message should name the file (and line)
// and say what to do.
struct UserError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One option a command accepts.
struct Option {
    std::string name;         // long name without "--", e.g. "out"
    char short_name = 0;      // e.g. 'o' for -o, or 0 for none
    std::string value_name;   // empty: a flag; else it takes a value, e.g. "DIR"
    std::string help;         // one line for the option table

    bool takes_value() const { return !value_name.empty(); }
};

// The result of parse_options: positional arguments in order, and the
// options given, in order (an option may repeat).
class Args {
public:
    std::vector<std::string> positional;
    std::vector<std::pair<std::string, std::string>> given;  // (long name, value)

    bool has(std::string_view name) const;
    // The value of the last occurrence of `name`, or `fallback` if absent.
    std::string value(std::string_view name, const std::string &fallback = "") const;
    // All values of `name`, in order.
    std::vector<std::string> values(std::string_view name) const;
    // The value as an integer in [lo, hi]; UsageError if not one.
    long integer(std::string_view name, long fallback, long lo, long hi) const;
    // The value as a finite number; UsageError if not one.
    double number(std::string_view name, double fallback) const;
};

// Parses argv[first..argc) against `options`, GNU style:
//   --name value, --name=value, -n value, -nvalue; flags: --name, -n;
//   options and positional arguments may be mixed; "--" ends the options
//   (everything after it is positional); "-" alone is positional (stdin).
// Throws UsageError for an unknown option (suggesting the closest one), a
// missing value, or a value given to a flag.
Args parse_options(int argc, char **argv, const std::vector<Option> &options, int first = 1);

// The --set option every simulating command takes: one statement of the
// scenario (or train file) language per occurrence, read after the file.
Option set_option();
// The --set statements, one per line ("" if none); a statement holding a
// newline is a UsageError (one statement per --set).
std::string set_text(const Args &args);

// The option table for --help: one line per option, aligned.
std::string format_options(const std::vector<Option> &options);

// Throws UsageError unless min <= positional count <= max.  `what` names
// the expected arguments, e.g. "MODEL.vdl".
void expect_positional(const Args &args, std::size_t min, std::size_t max, std::string_view what);

// The candidate closest to `word`, or "" if none is close enough to be a
// plausible typo: the runtime's rs_closest_name (runtime/core/rs_closest.h),
// so the command and the file readers suggest alike: within edit distance
// max(1, |word|/3) (a swap of two adjacent characters counting 1), or
// `word` being a prefix of exactly one candidate.  Ties go to the earliest.
std::string closest_name(std::string_view word, const std::vector<std::string> &candidates);

// " (did you mean 'X'?)" for the closest candidate, or "" if there is none.
std::string did_you_mean(std::string_view word, const std::vector<std::string> &candidates);

// The sink of the runtime's log lines (runtime/core/rs_log.h) for one
// subcommand: the library sends bare lines ("t = 3 s of 10 s ..."), the
// command gives them its prefix ("railsym run: ") on stderr.  On a terminal
// a progress line is rewritten in place until the next line ends it; in a
// file each is a line of its own.  Lines arrive from one thread at a time
// (sweep workers report through the sweep's lock) and each is one write.
class LogSink {
public:
    explicit LogSink(std::string prefix, std::FILE *f = stderr);
    // The rs_log to put in a run's configuration; valid while *this lives.
    rs_log log();

private:
    static void line(void *ctx, rs_log_kind kind, const char *text);
    std::string prefix_;
    std::FILE *f_;
    bool tty_;
    bool open_ = false;   // a progress line waits for its newline
};

// A result file written whole or not at all: the text goes to PATH.tmp,
// which close() renames to PATH, so that a failed write never leaves a
// cut-off PATH for a later step to read.  UserError naming PATH when it
// cannot be opened (its folder missing) or written (disk full?).  Destroyed
// unclosed (an exception on the way), it removes PATH.tmp.
class OutFile {
public:
    explicit OutFile(std::string path);
    ~OutFile();
    OutFile(const OutFile &) = delete;
    OutFile &operator=(const OutFile &) = delete;
    std::FILE *get() const { return f_; }
    void close();

private:
    std::string path_;
    std::FILE *f_ = nullptr;
};

// Prints "PROG: MESSAGE" to stderr and returns `status`, for example
// (not named `fail`: Check's check.h defines a macro of that name)
//   return cli::print_error("railsym ops", cli::kExitUser, "cannot read " + path);
int print_error(std::string_view prog, int status, std::string_view message);

}  // namespace railsym::cli

#endif  // RAILSYM_CLI_HPP
