// vdl_error.hpp — source files and diagnostics of the .vdl front end.
//
// Every message a user sees reads
//     file:line:col: error: message
//         the offending line
//         ^
// optionally followed by notes in the same form ("note: ..."), for instance
// where a duplicate name was first defined or which template instance an
// expanded statement came from.  Diagnostics are collected, not thrown, so
// one run reports several errors; after `limit` errors the collector throws
// TooManyErrors, which the front end catches to stop early.
//
// Invariants: a Loc with file < 0 is "no location" (printed without the
// file:line:col prefix); lines and columns are 1-based; columns count bytes.
#ifndef RAILSYM_VDL_ERROR_HPP
#define RAILSYM_VDL_ERROR_HPP

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace railsym {
namespace vdl {

struct Loc {
    int file = -1;   // index into Sources, -1: none
    int line = 0;
    int col = 0;
};

// The text of every file read, kept to quote lines in messages.
class Sources {
public:
    int add(const std::string &path, const std::string &text);
    const std::string &path(int file) const { return paths_[file]; }
    // The line (1-based) without its newline, or "" when out of range.
    std::string line(int file, int line) const;
    int count() const { return (int)paths_.size(); }

private:
    std::vector<std::string> paths_;
    std::vector<std::vector<std::string>> lines_;
};

struct Note {
    Loc loc;
    std::string msg;
};

struct Diag {
    bool is_error = true;   // false: a warning
    Loc loc;
    std::string msg;
    std::vector<Note> notes;
};

struct TooManyErrors : std::runtime_error {
    TooManyErrors() : std::runtime_error("too many errors") {}
};

class Diagnostics {
public:
    explicit Diagnostics(Sources &src, int limit = 20) : src_(&src), limit_(limit) {}
    // Records an error; throws TooManyErrors once `limit` errors are recorded.
    void error(Loc at, const std::string &msg);
    void warning(Loc at, const std::string &msg);
    // Adds a note to the last diagnostic recorded.
    void note(Loc at, const std::string &msg);
    int errors() const { return errors_; }
    bool ok() const { return errors_ == 0; }
    const std::vector<Diag> &list() const { return list_; }
    Sources &sources() { return *src_; }
    // All diagnostics, formatted with quoted lines and carets.
    std::string format() const;
    // "file:line:col" of a location ("" for none).
    std::string where(Loc at) const;
    bool stopped() const { return stopped_; }
    void set_stopped() { stopped_ = true; }

private:
    std::string format_one(const char *kind, Loc at, const std::string &msg) const;
    Sources *src_;
    int limit_;
    int errors_ = 0;
    bool stopped_ = false;
    std::vector<Diag> list_;
};

// "; did you mean 'X'?" / "; did you mean 'X' or 'Y'?" or "": the names
// railsym::closest_names (model_error.hpp, the modeler's one rule) gives.
std::string suggestion(std::string_view word, const std::vector<std::string> &candidates);

}  // namespace vdl
}  // namespace railsym

#endif
