// vdl_error.cpp — diagnostics with quoted lines, carets and name suggestions.
#include "vdl_error.hpp"

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

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

static std::string lower(std::string_view s) {
    std::string o(s);
    for (auto &c : o) c = (char)std::tolower((unsigned char)c);
    return o;
}

std::vector<std::string> closest_names(std::string_view word, const std::vector<std::string> &candidates) {
    std::size_t limit = std::max<std::size_t>(1, word.size() / 3 + 1);
    std::size_t best = limit + 1;
    std::vector<std::string> out;
    std::string lw = lower(word);
    for (const auto &c : candidates) {
        if (c == word) continue;
        std::size_t d = lower(c) == lw ? 0 : edit_distance(word, c);
        // A one-letter name is at distance 1 of every other one-letter name:
        // only suggest when the edit is smaller than the word itself.
        if (d > limit || (d > 0 && d >= word.size())) continue;
        if (d < best) {
            best = d;
            out.clear();
        }
        if (d == best && out.size() < 3 && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
    }
    return out;
}

std::string suggestion(std::string_view word, const std::vector<std::string> &candidates) {
    auto names = closest_names(word, candidates);
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
