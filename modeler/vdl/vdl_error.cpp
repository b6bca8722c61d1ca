// vdl_error.cpp — diagnostics with quoted lines, carets and name suggestions.
#include "vdl_error.hpp"

#include "model_error.hpp"

#include <algorithm>
#include <cctype>

namespace railsym {
namespace vdl {

int Sources::add(const std::string &path, const std::string &text) {
    paths_.push_back(path);
    std::vector<std::string> ls;
    std::string cur;
    for (char c : text) {
        if (c == '\n') {
            if (!cur.empty() && cur.back() == '\r') cur.pop_back();
            ls.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    ls.push_back(cur);
    lines_.push_back(std::move(ls));
    return (int)paths_.size() - 1;
}

std::string Sources::line(int file, int line) const {
    if (file < 0 || file >= (int)lines_.size()) return "";
    const auto &ls = lines_[file];
    if (line < 1 || line > (int)ls.size()) return "";
    return ls[line - 1];
}

void Diagnostics::error(Loc at, const std::string &msg) {
    list_.push_back(Diag{true, at, msg, {}});
    ++errors_;
    if (errors_ >= limit_) {
        stopped_ = true;
        throw TooManyErrors();
    }
}

void Diagnostics::warning(Loc at, const std::string &msg) {
    list_.push_back(Diag{false, at, msg, {}});
}

void Diagnostics::note(Loc at, const std::string &msg) {
    if (list_.empty()) return;
    list_.back().notes.push_back(Note{at, msg});
}

std::string Diagnostics::where(Loc at) const {
    if (at.file < 0) return "";
    return src_->path(at.file) + ":" + std::to_string(at.line) + ":" + std::to_string(at.col);
}

std::string Diagnostics::format_one(const char *kind, Loc at, const std::string &msg) const {
    std::string s;
    if (at.file >= 0) s += where(at) + ": ";
    s += kind;
    s += ": " + msg + "\n";
    if (at.file >= 0) {
        std::string text = src_->line(at.file, at.line);
        if (!text.empty()) {
            // Control characters (a NUL above all, which would end the
            // message wherever it is printed as a C string) are shown as '?'
            // so the line stays one line and the caret stays under its column.
            for (char &c : text)
                if ((unsigned char)c < 0x20 && c != '\t') c = '?';
                else if (c == 0x7f) c = '?';
            s += "    " + text + "\n    ";
            // Keep tabs under tabs so the caret lines up in a terminal.
            for (int i = 1; i < at.col && i <= (int)text.size(); ++i)
                s += text[i - 1] == '\t' ? '\t' : ' ';
            s += "^\n";
        }
    }
    return s;
}

std::string Diagnostics::format() const {
    // In source order (file, line, column), whatever phase found them.
    std::vector<const Diag *> order;
    for (const auto &d : list_) order.push_back(&d);
    std::stable_sort(order.begin(), order.end(), [](const Diag *a, const Diag *b) {
        if (a->loc.file != b->loc.file) return a->loc.file < b->loc.file;
        if (a->loc.line != b->loc.line) return a->loc.line < b->loc.line;
        return a->loc.col < b->loc.col;
    });
    std::string s;
    for (const Diag *dp : order) {
        const Diag &d = *dp;
        s += format_one(d.is_error ? "error" : "warning", d.loc, d.msg);
        for (const auto &n : d.notes) s += format_one("note", n.loc, n.msg);
    }
    if (stopped_) s += "too many errors; stopping (fix these and run again)\n";
    return s;
}

std::string suggestion(std::string_view word, const std::vector<std::string> &candidates) {
    auto names = railsym::closest_names(std::string(word), candidates);
    if (names.empty()) return "";
    std::string s = "; did you mean ";
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (i) s += i + 1 == names.size() ? " or " : ", ";
        s += "'" + names[i] + "'";
    }
    return s + "?";
}

}  // namespace vdl
}  // namespace railsym
