// vdl_lexer.hpp — tokens of the .vdl description language.
//
// The language is line-oriented: a newline ends a statement, except inside
// ( ) or [ ] and after a trailing backslash, so long vectors and matrices may
// span lines.  `#` starts a comment that runs to the end of the line; the
// comment text after a statement is kept (a parameter's unit, say) and
// attached to the Newline token that ends the line.
//
// Names are C identifiers joined by dots (`front.wheelset1.y`): the dots
// address names declared inside template instances.
#ifndef RAILSYM_VDL_LEXER_HPP
#define RAILSYM_VDL_LEXER_HPP

#include <string>
#include <vector>

#include "vdl_error.hpp"

namespace railsym {
namespace vdl {

enum class Tok {
    Name,     // identifier, possibly dotted
    Number,   // 12, 1.5, 2e-3, .5
    String,   // "text" (no escapes but \" and \\)
    Punct,    // ( ) [ ] , = + - * / ^ ** (text holds it)
    Newline,  // end of a statement line (text: the trailing comment, trimmed)
    End,      // end of file
};

struct Token {
    Tok kind;
    std::string text;
    Loc loc;
    bool is(Tok k, const char *t) const { return kind == k && text == t; }
    bool punct(const char *t) const { return is(Tok::Punct, t); }
    bool name(const char *t) const { return is(Tok::Name, t); }
};

// Splits one file into tokens.  A NUL byte ends the text with an error (the
// file is binary or corrupt).  Bad characters, unterminated strings and
// unbalanced closing brackets are reported to `diags` and skipped, so the
// parser always gets a token stream ending in End.  `error_lines` receives
// the lines with a lexical error and `broken_from` the first line of a
// bracket never closed (0 if none), so the parser can keep quiet there
// instead of reporting consequences of the same mistake.
std::vector<Token> lex(int file, const std::string &text, Diagnostics &diags);
std::vector<Token> lex(int file, const std::string &text, Diagnostics &diags, std::vector<int> &error_lines,
                       int &broken_from);

const char *tok_kind_name(Tok k);
// A token for messages: "'foo'", "the number 3", "end of line", ...
std::string describe(const Token &t);

}  // namespace vdl
}  // namespace railsym

#endif
