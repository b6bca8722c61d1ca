// vdl_lexer.cpp — one pass over the text, tracking bracket depth so newlines
// inside brackets do not end statements.
#include "vdl_lexer.hpp"

#include <cctype>
#include <cstdio>

namespace railsym {
namespace vdl {

const char *tok_kind_name(Tok k) {
    switch (k) {
    case Tok::Name: return "name";
    case Tok::Number: return "number";
    case Tok::String: return "string";
    case Tok::Punct: return "symbol";
    case Tok::Newline: return "end of line";
    case Tok::End: return "end of file";
    }
    return "?";
}

std::string describe(const Token &t) {
    switch (t.kind) {
    case Tok::Name: return "'" + t.text + "'";
    case Tok::Number: return "the number " + t.text;
    case Tok::String: return "the string \"" + t.text + "\"";
    case Tok::Punct: return "'" + t.text + "'";
    case Tok::Newline: return "end of line";
    case Tok::End: return "end of file";
    }
    return "?";
}

static bool ident_start(char c) { return std::isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_'; }

static std::string trim(const std::string &s) {
    size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

// End of the dotted name starting at i (a.b.c; a dot not followed by a name
// start ends it, on the dot).
static size_t name_end(const std::string &text, size_t i) {
    const size_t n = text.size();
    size_t j = i;
    for (;;) {
        while (j < n && ident_char(text[j])) ++j;
        if (j + 1 < n && text[j] == '.' && ident_start(text[j + 1])) {
            ++j;
            continue;
        }
        return j;
    }
}

// End of the number starting at i: digits, an optional fraction, an
// optional exponent (only when digits follow the e and its sign).
static size_t number_end(const std::string &text, size_t i) {
    const size_t n = text.size();
    size_t j = i;
    while (j < n && std::isdigit((unsigned char)text[j])) ++j;
    if (j < n && text[j] == '.') {
        ++j;
        while (j < n && std::isdigit((unsigned char)text[j])) ++j;
    }
    if (j < n && (text[j] == 'e' || text[j] == 'E')) {
        size_t k = j + 1;
        if (k < n && (text[k] == '+' || text[k] == '-')) ++k;
        if (k < n && std::isdigit((unsigned char)text[k])) {
            while (k < n && std::isdigit((unsigned char)text[k])) ++k;
            j = k;
        }
    }
    return j;
}

// The string whose opening quote is at i, with \" and \\ unescaped, into
// s; returns the index after its closing quote, or the end of the line
// (closed false) when there is none.
static size_t string_end(const std::string &text, size_t i, std::string &s, bool &closed) {
    const size_t n = text.size();
    size_t j = i + 1;
    closed = false;
    while (j < n && text[j] != '\n') {
        if (text[j] == '\\' && j + 1 < n && (text[j + 1] == '"' || text[j + 1] == '\\')) {
            s += text[j + 1];
            j += 2;
            continue;
        }
        if (text[j] == '"') {
            closed = true;
            return j + 1;
        }
        s += text[j++];
    }
    return j;
}

std::vector<Token> lex(int file, const std::string &text, Diagnostics &diags) {
    std::vector<int> lines;
    int broken = 0;
    return lex(file, text, diags, lines, broken);
}

std::vector<Token> lex(int file, const std::string &text, Diagnostics &diags, std::vector<int> &error_lines,
                       int &broken_from) {
    broken_from = 0;
    int errors_before = diags.errors();
    std::vector<Token> out;
    std::vector<Token> open;   // open brackets, innermost last
    // A NUL byte ends the text read: what follows is binary (or the file is
    // corrupt), and lexing it would only add noise to the one message.
    const size_t nul = text.find('\0');
    size_t i = 0, n = nul == std::string::npos ? text.size() : nul;
    int line = 1, col = 1;
    auto loc = [&]() { return Loc{file, line, col}; };
    auto adv = [&](size_t k) {
        for (size_t j = 0; j < k && i < n; ++j, ++i) {
            if (text[i] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
    };
    auto push_newline = [&](Loc at, std::string comment) {
        // Collapse blank lines: only one Newline between statements.
        if (!out.empty() && out.back().kind == Tok::Newline) {
            if (out.back().text.empty()) out.back().text = comment;
            return;
        }
        if (out.empty()) return;
        out.push_back(Token{Tok::Newline, std::move(comment), at});
    };
    while (i < n) {
        char c = text[i];
        Loc at = loc();
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            adv(1);
        } else if (c == '#') {
            size_t e = text.find('\n', i);
            if (e == std::string::npos) e = n;
            std::string comment = trim(text.substr(i + 1, e - i - 1));
            adv(e - i);
            // A comment on a statement line (not on a line of its own) is kept.
            if (open.empty() && !out.empty() && out.back().kind != Tok::Newline &&
                out.back().loc.line == at.line)
                push_newline(at, comment);
        } else if (c == '\n') {
            if (open.empty()) push_newline(at, "");
            adv(1);
        } else if (c == '\\') {
            // Line continuation: a backslash followed by spaces and a newline.
            size_t j = i + 1;
            while (j < n && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r')) ++j;
            if (j < n && text[j] == '\n') {
                adv(j + 1 - i);
            } else if (j >= n) {
                adv(j - i);
            } else {
                diags.error(at, "a backslash continues a line only at its end");
                adv(1);
            }
        } else if (ident_start(c)) {
            const size_t j = name_end(text, i);
            out.push_back(Token{Tok::Name, text.substr(i, j - i), at});
            if (j < n && text[j] == '.') {
                // "a." or "a.1": a dot must be followed by a name.
                adv(j - i);
                diags.error(loc(), "a '.' in a name must be followed by a name (as in front.y)");
                adv(1);
                continue;
            }
            adv(j - i);
        } else if (std::isdigit((unsigned char)c) || (c == '.' && i + 1 < n && std::isdigit((unsigned char)text[i + 1]))) {
            const size_t j = number_end(text, i);
            out.push_back(Token{Tok::Number, text.substr(i, j - i), at});
            adv(j - i);
            if (i < n && (ident_start(text[i]) || text[i] == '.')) {
                size_t k = i;
                while (k < n && (ident_char(text[k]) || text[k] == '.')) ++k;
                diags.error(loc(), "unexpected '" + text.substr(i, k - i) + "' right after the number " +
                                       out.back().text + " (units are written in comments: 1500  # kg)");
                adv(k - i);
            }
        } else if (c == '"') {
            std::string s;
            bool closed;
            const size_t j = string_end(text, i, s, closed);
            if (!closed) diags.error(at, "unterminated string (a string ends with \" on the same line)");
            out.push_back(Token{Tok::String, s, at});
            adv(j - i);
        } else if (c == '(' || c == '[') {
            out.push_back(Token{Tok::Punct, std::string(1, c), at});
            open.push_back(out.back());
            adv(1);
        } else if (c == ')' || c == ']') {
            char want = c == ')' ? '(' : '[';
            if (open.empty()) {
                diags.error(at, std::string("unmatched '") + c + "'");
                adv(1);
                continue;
            }
            if (open.back().text[0] != want) {
                diags.error(at, std::string("'") + c + "' closes the '" + open.back().text + "' opened at line " +
                                    std::to_string(open.back().loc.line) + ", column " +
                                    std::to_string(open.back().loc.col));
            }
            open.pop_back();
            out.push_back(Token{Tok::Punct, std::string(1, c), at});
            adv(1);
        } else if (c == '*' && i + 1 < n && text[i + 1] == '*') {
            out.push_back(Token{Tok::Punct, "**", at});
            adv(2);
        } else if (c == ',' || c == '=' || c == '+' || c == '-' || c == '*' || c == '/' || c == '^') {
            out.push_back(Token{Tok::Punct, std::string(1, c), at});
            adv(1);
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", (unsigned char)c);
            std::string shown = std::isprint((unsigned char)c) ? std::string(1, c) : std::string(hex);
            diags.error(at, "unexpected character '" + shown + "'");
            adv(1);
        }
    }
    if (nul != std::string::npos) {
        diags.error(loc(), "a NUL byte: the file is binary or corrupt (only text is read, up to here)");
        if (!broken_from) broken_from = line;
    } else {
        for (const auto &o : open) {
            diags.error(o.loc, "'" + o.text + "' is never closed");
            if (!broken_from) broken_from = o.loc.line;
        }
    }
    const auto &list = diags.list();
    for (size_t k = list.size() - (size_t)(diags.errors() - errors_before); k < list.size(); ++k)
        error_lines.push_back(list[k].loc.line);
    Loc at = loc();
    if (!out.empty() && out.back().kind != Tok::Newline) out.push_back(Token{Tok::Newline, "", at});
    out.push_back(Token{Tok::End, "", at});
    return out;
}

}  // namespace vdl
}  // namespace railsym
