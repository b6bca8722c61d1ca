// vdl_parser.cpp — recursive descent over the tokens of vdl_lexer, one
// statement per line; includes spliced in at parse time.
#include "vdl_parser.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "vdl_lexer.hpp"

namespace fs = std::filesystem;

namespace railsym {
namespace vdl {

ExprP make_expr(Expr::Kind k, Loc at, std::string text, std::vector<ExprP> args) {
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->loc = at;
    e->text = std::move(text);
    e->args = std::move(args);
    for (const auto &a : e->args)
        if (a && a->depth + 1 > e->depth) e->depth = a->depth + 1;
    return e;
}

static int prec(Expr::Kind k) {
    switch (k) {
    case Expr::Add: case Expr::Sub: return 1;
    case Expr::Mul: case Expr::Div: return 2;
    case Expr::Neg: return 3;
    case Expr::Pow: return 4;
    case Expr::In: return 5;
    default: return 6;
    }
}

static std::string expr_str_p(const Expr &e, int ctx) {
    std::string s;
    auto sub = [](const Expr &x, int c) { return expr_str_p(x, c); };
    switch (e.kind) {
    case Expr::Num: case Expr::Name: case Expr::Axis: return e.text;
    case Expr::Str: return "\"" + e.text + "\"";
    case Expr::Neg: s = "-" + sub(*e.args[0], 3); break;
    case Expr::Add: s = sub(*e.args[0], 1) + " + " + sub(*e.args[1], 2); break;
    case Expr::Sub: s = sub(*e.args[0], 1) + " - " + sub(*e.args[1], 2); break;
    case Expr::Mul: s = sub(*e.args[0], 2) + "*" + sub(*e.args[1], 3); break;
    case Expr::Div: s = sub(*e.args[0], 2) + "/" + sub(*e.args[1], 3); break;
    case Expr::Pow: s = sub(*e.args[0], 5) + "^" + sub(*e.args[1], 4); break;
    case Expr::In: s = sub(*e.args[0], 6) + " in " + sub(*e.args[1], 6); break;
    case Expr::Call: case Expr::List: {
        s = e.kind == Expr::Call ? e.text + "(" : "[";
        for (size_t i = 0; i < e.args.size(); ++i) s += (i ? ", " : "") + sub(*e.args[i], 0);
        s += e.kind == Expr::Call ? ")" : "]";
        return s;
    }
    }
    return prec(e.kind) < ctx ? "(" + s + ")" : s;
}

std::string expr_str(const Expr &e) { return expr_str_p(e, 0); }

const char *stmt_keyword(Stmt::Kind k) {
    switch (k) {
    case Stmt::Param: return "param";
    case Stmt::Coord: return "coord";
    case Stmt::Aux: return "aux";
    case Stmt::Input: return "input";
    case Stmt::Base: return "base";
    case Stmt::Point: return "point";
    case Stmt::Frame: return "frame";
    case Stmt::Body: return "body";
    case Stmt::Gravity: return "gravity";
    case Stmt::Spring: return "spring";
    case Stmt::Bushing: return "bushing";
    case Stmt::Force: return "force";
    case Stmt::Torque: return "torque";
    case Stmt::Constraint: return "constraint";
    case Stmt::Output: return "output";
    case Stmt::Contact: return "contact";
    case Stmt::Template: return "template";
    case Stmt::Use: return "use";
    case Stmt::Table: return "table";
    case Stmt::Damper: return "damper";
    case Stmt::BumpStop: return "bumpstop";
    case Stmt::Friction: return "friction";
    case Stmt::AntiRoll: return "antiroll";
    case Stmt::AirSpring: return "airspring";
    case Stmt::Plugin: return "plugin";
    }
    return "?";
}

namespace {

struct ParseError {};   // unwinds one statement after the error is recorded

// Clause keywords each statement accepts, and how many expressions each
// takes (2 for "between A and B").
struct ClauseSpec {
    const char *kw;
    int arity;
};

const std::vector<ClauseSpec> &clause_specs(Stmt::Kind k) {
    static const std::vector<ClauseSpec> none;
    static const std::vector<ClauseSpec> body = {
        {"mass", 1}, {"cg", 1}, {"inertia", 1}, {"frame", 1}, {"inertia_unchecked", 1}};
    static const std::vector<ClauseSpec> spring = {{"between", 2}, {"k", 1}, {"c", 1}, {"length", 1}, {"along", 1}};
    static const std::vector<ClauseSpec> damper = {{"between", 2}, {"c", 1}, {"series", 1}, {"along", 1}};
    static const std::vector<ClauseSpec> airspring = {{"between", 2}, {"k1", 1}, {"k2", 1}, {"c", 1},
                                                      {"length", 1},  {"along", 1}};
    static const std::vector<ClauseSpec> bumpstop = {{"between", 2}, {"gap", 1}, {"k", 1}, {"k3", 1},
                                                     {"c", 1},       {"length", 1}, {"along", 1}};
    static const std::vector<ClauseSpec> friction = {{"between", 2}, {"force", 1}, {"v0", 1}, {"along", 1}};
    static const std::vector<ClauseSpec> antiroll = {{"left", 2}, {"right", 2}, {"kt", 1}, {"arm", 1}, {"along", 1}};
    static const std::vector<ClauseSpec> bushing = {{"between", 2}, {"k", 1}, {"c", 1}, {"rotation", 1}};
    static const std::vector<ClauseSpec> plugin = {{"library", 1}, {"between", 2}, {"params", 1},
                                                   {"states", 1},  {"along", 1}};
    static const std::vector<ClauseSpec> force = {{"on", 1}, {"at", 1}, {"reaction", 1}, {"reaction_at", 1}};
    static const std::vector<ClauseSpec> torque = {{"on", 1}, {"reaction", 1}};
    static const std::vector<ClauseSpec> contact = {
        {"wheel", 1}, {"at", 1}, {"side", 1}, {"radius", 1}, {"offset", 1},
        {"profile", 1}, {"rail", 1}, {"track", 1}, {"mode", 1}};
    switch (k) {
    case Stmt::Body: return body;
    case Stmt::Spring: return spring;
    case Stmt::Damper: return damper;
    case Stmt::AirSpring: return airspring;
    case Stmt::BumpStop: return bumpstop;
    case Stmt::Friction: return friction;
    case Stmt::AntiRoll: return antiroll;
    case Stmt::Bushing: return bushing;
    case Stmt::Plugin: return plugin;
    case Stmt::Force: return force;
    case Stmt::Torque: return torque;
    case Stmt::Contact: return contact;
    default: return none;
    }
}

const std::vector<std::pair<std::string, Stmt::Kind>> &keywords() {
    static const std::vector<std::pair<std::string, Stmt::Kind>> kw = {
        {"param", Stmt::Param},     {"coord", Stmt::Coord},       {"aux", Stmt::Aux},
        {"input", Stmt::Input},     {"base", Stmt::Base},         {"point", Stmt::Point},
        {"frame", Stmt::Frame},     {"body", Stmt::Body},         {"gravity", Stmt::Gravity},
        {"spring", Stmt::Spring},   {"bushing", Stmt::Bushing},   {"force", Stmt::Force},
        {"torque", Stmt::Torque},   {"constraint", Stmt::Constraint}, {"output", Stmt::Output},
        {"contact", Stmt::Contact}, {"template", Stmt::Template}, {"use", Stmt::Use},
        {"table", Stmt::Table},     {"damper", Stmt::Damper},     {"bumpstop", Stmt::BumpStop},
        {"friction", Stmt::Friction}, {"antiroll", Stmt::AntiRoll}, {"airspring", Stmt::AirSpring},
        {"plugin", Stmt::Plugin},
    };
    return kw;
}

std::vector<std::string> statement_words() {
    std::vector<std::string> w;
    for (const auto &k : keywords()) w.push_back(k.first);
    w.push_back("include");
    w.push_back("end");
    return w;
}

// Reads a whole file; false with errno's text in `why` when it cannot.
bool read_file(const std::string &path, std::string &text, std::string &why) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        why = "it is a directory";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = std::strerror(errno);
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) {
        why = "read error";
        return false;
    }
    text = ss.str();
    return true;
}

std::string canonical(const std::string &p) {
    std::error_code ec;
    fs::path c = fs::weakly_canonical(fs::path(p), ec);
    return ec ? fs::absolute(p).lexically_normal().string() : c.string();
}

class Parser {
public:
    Parser(Diagnostics &d, std::vector<std::string> &stack, std::set<std::string> &done)
        : d_(d), stack_(stack), done_(done) {}

    // Parses `text` (file index `file`, path `path`) into out.
    void run(int file, const std::string &path, const std::string &text, std::vector<StmtP> &out) {
        path_ = path;
        toks_ = lex(file, text, d_, lex_error_lines_, broken_from_);
        pos_ = 0;
        while (peek().kind != Tok::End) {
            if (peek().kind == Tok::Newline) {
                ++pos_;
                continue;
            }
            statement(out, false);
        }
    }

private:
    Diagnostics &d_;
    std::vector<std::string> &stack_;   // canonical paths of files being parsed
    std::set<std::string> &done_;       // canonical paths already spliced
    std::string path_;
    std::vector<Token> toks_;
    size_t pos_ = 0;
    std::vector<int> lex_error_lines_;   // lines the lexer already complained about
    int broken_from_ = 0;                // first line of an unclosed bracket

    const Token &peek(size_t k = 0) const {
        size_t i = std::min(pos_ + k, toks_.size() - 1);
        return toks_[i];
    }
    const Token &next() {
        const Token &t = toks_[pos_];
        if (pos_ + 1 < toks_.size()) ++pos_;
        return t;
    }
    // Records a syntax error and unwinds the statement, unless the lexer
    // already reported a mistake on that line (or an unclosed bracket before
    // it): the parser's complaint would be a consequence of the same one.
    [[noreturn]] void fail(Loc at, const std::string &msg) {
        bool quiet = (broken_from_ && at.line >= broken_from_) ||
                     std::find(lex_error_lines_.begin(), lex_error_lines_.end(), at.line) != lex_error_lines_.end();
        if (!quiet) d_.error(at, msg);
        throw ParseError();
    }
    void skip_line() {
        while (peek().kind != Tok::Newline && peek().kind != Tok::End) ++pos_;
        if (peek().kind == Tok::Newline) ++pos_;
    }
    bool at_eol() const { return peek().kind == Tok::Newline || peek().kind == Tok::End; }

    // Ends a statement: the next token must end the line.  Returns its comment.
    std::string expect_eol(const char *after) {
        if (!at_eol()) {
            const Token &t = peek();
            if (t.kind == Tok::Name && pos_ > 0 && toks_[pos_ - 1].kind == Tok::Number)
                fail(t.loc, "unexpected " + describe(t) + " after the number " + toks_[pos_ - 1].text +
                                "; units are not part of the language (write them in a comment: " +
                                toks_[pos_ - 1].text + "  # " + t.text + ")");
            fail(t.loc, std::string("expected the end of the line after ") + after + ", found " + describe(t));
        }
        std::string c = peek().kind == Tok::Newline ? peek().text : "";
        if (peek().kind == Tok::Newline) ++pos_;
        return c;
    }

    std::string expect_name(const char *what) {
        const Token &t = peek();
        if (t.kind == Tok::Name) {
            ++pos_;
            return t.text;
        }
        if (t.kind == Tok::Number)
            fail(t.loc, std::string("expected ") + what + ", found the number " + t.text +
                            " (names start with a letter or '_')");
        fail(t.loc, std::string("expected ") + what + ", found " + describe(t));
    }

    void expect_punct(const char *p, const std::string &context) {
        if (peek().punct(p)) {
            ++pos_;
            return;
        }
        fail(peek().loc, std::string("expected '") + p + "' " + context + ", found " + describe(peek()));
    }

    // A declared name: a plain identifier (dots are reserved for instances).
    Decl decl_name(const char *what) {
        Loc at = peek().loc;
        std::string n = expect_name(what);
        if (n.find('.') != std::string::npos)
            fail(at, "'" + n + "' cannot be declared: dotted names refer to names inside template instances");
        if (n == "in" || n == "end")
            fail(at, "'" + n + "' is a reserved word and cannot be used as a name");
        return Decl{n, at, nullptr};
    }

    // ---- expressions ----
    // Every recursion of the grammar (parentheses, brackets, call arguments,
    // signs, '^') passes through unary(), which counts how deep it is; every
    // node is made by node(), which checks the tree's depth (a long chain
    // a + b + c + ... is deep without recursing here, but every later walk
    // of the tree recurses).  Both stop at kMaxExprDepth.
    int nest_ = 0;
    struct NestGuard {
        int &n;
        ~NestGuard() { --n; }
    };
    [[noreturn]] void too_deep(Loc at) {
        fail(at, "the expression is nested more than " + std::to_string(kMaxExprDepth) +
                     " levels deep (the limit); split it: give inner parts names (param, point or output "
                     "statements) and combine the names");
    }
    ExprP node(Expr::Kind k, Loc at, std::string text = "", std::vector<ExprP> args = {}) {
        ExprP e = make_expr(k, at, std::move(text), std::move(args));
        if (e->depth > kMaxExprDepth) too_deep(at);
        return e;
    }

    ExprP expr() { return sum(); }

    ExprP sum() {
        ExprP l = product();
        while (peek().punct("+") || peek().punct("-")) {
            const Token &op = next();
            ExprP r = product();
            l = node(op.text == "+" ? Expr::Add : Expr::Sub, op.loc, "", {l, r});
        }
        return l;
    }
    ExprP product() {
        ExprP l = unary();
        while (peek().punct("*") || peek().punct("/")) {
            const Token &op = next();
            ExprP r = unary();
            l = node(op.text == "*" ? Expr::Mul : Expr::Div, op.loc, "", {l, r});
        }
        return l;
    }
    ExprP unary() {
        if (nest_ >= kMaxExprDepth) too_deep(peek().loc);
        ++nest_;
        NestGuard guard{nest_};
        if (peek().punct("-")) {
            Loc at = next().loc;
            return node(Expr::Neg, at, "", {unary()});
        }
        if (peek().punct("+")) {
            next();
            return unary();
        }
        return power();
    }
    ExprP power() {
        ExprP b = postfix();
        if (peek().punct("^") || peek().punct("**")) {
            Loc at = next().loc;
            ExprP e = unary();   // right associative: a^b^c = a^(b^c)
            return node(Expr::Pow, at, "", {b, e});
        }
        return b;
    }
    ExprP postfix() {
        ExprP p = primary();
        while (peek().name("in")) {
            Loc at = next().loc;
            Loc bl = peek().loc;
            std::string b = expect_name("a base name after 'in'");
            p = node(Expr::In, at, "", {p, node(Expr::Name, bl, b)});
        }
        return p;
    }
    std::vector<ExprP> arg_list(const char *close, const std::string &what) {
        std::vector<ExprP> args;
        if (peek().punct(close)) {
            next();
            return args;
        }
        for (;;) {
            args.push_back(expr());
            if (peek().punct(",")) {
                next();
                continue;
            }
            if (peek().punct(close)) {
                next();
                return args;
            }
            fail(peek().loc, "expected ',' or '" + std::string(close) + "' in " + what + ", found " + describe(peek()));
        }
    }
    ExprP primary() {
        const Token &t = peek();
        switch (t.kind) {
        case Tok::Number: next(); return node(Expr::Num, t.loc, t.text);
        case Tok::String: next(); return node(Expr::Str, t.loc, t.text);
        case Tok::Name: {
            if (t.text == "in") fail(t.loc, "expected an expression before 'in'");
            next();
            if (peek().punct("(")) {
                next();
                auto args = arg_list(")", "the arguments of " + t.text + "()");
                // rotate(B, x, angle): a bare x, y or z names an axis, never a symbol.
                if (t.text == "rotate" && args.size() >= 2 && args[1]->kind == Expr::Name &&
                    (args[1]->text == "x" || args[1]->text == "y" || args[1]->text == "z"))
                    args[1] = node(Expr::Axis, args[1]->loc, args[1]->text);
                return node(Expr::Call, t.loc, t.text, std::move(args));
            }
            return node(Expr::Name, t.loc, t.text);
        }
        case Tok::Punct:
            if (t.text == "(") {
                next();
                ExprP e = expr();
                if (!peek().punct(")")) fail(peek().loc, "expected ')' to close the '(' at column " +
                                                             std::to_string(t.loc.col) + ", found " + describe(peek()));
                next();
                return e;
            }
            if (t.text == "[") {
                next();
                auto args = arg_list("]", "a vector or matrix");
                if (args.empty()) fail(t.loc, "empty brackets: a vector needs components, as in [0, 0, 1]");
                return node(Expr::List, t.loc, "", std::move(args));
            }
            break;
        default: break;
        }
        if (t.kind == Tok::Newline || t.kind == Tok::End) fail(t.loc, "expected an expression before the end of the line");
        fail(t.loc, "expected an expression, found " + describe(t));
    }

    // ---- statements ----
    void statement(std::vector<StmtP> &out, bool in_template) {
        const size_t start = pos_;
        try {
            statement_inner(out, in_template);
        } catch (const ParseError &) {
            if (!in_template) broken_names(start, out);
            skip_line();
        }
    }

    // A declaration line that did not parse still names what it declares:
    // a statement marked broken carries those names, so that their uses
    // later fail quietly instead of as "unknown name" (the line's own error
    // is the one to fix).  The names: the one after the keyword, and for the
    // list keywords (param, coord, aux, input) each one after a comma outside
    // brackets.  Only the top level: a template's names are its instances'.
    void broken_names(size_t start, std::vector<StmtP> &out) {
        static const std::set<std::string> lists = {"param", "coord", "aux", "input"};
        static const std::set<std::string> single = {"point", "base", "frame", "body", "output", "constraint"};
        if (start >= toks_.size() || toks_[start].kind != Tok::Name) return;
        const std::string &kw = toks_[start].text;
        const bool list = lists.count(kw) > 0;
        if (!list && !single.count(kw)) return;
        auto st = std::make_shared<Stmt>();
        st->kind = Stmt::Param;   // not elaborated: broken
        st->loc = toks_[start].loc;
        st->broken = true;
        int depth = 0;
        bool item_start = true;
        for (size_t i = start + 1; i < toks_.size(); ++i) {
            const Token &t = toks_[i];
            if (t.kind == Tok::Newline || t.kind == Tok::End) break;
            if (t.kind == Tok::Punct && (t.text == "(" || t.text == "[")) ++depth;
            if (t.kind == Tok::Punct && (t.text == ")" || t.text == "]")) --depth;
            if (item_start && t.kind == Tok::Name) {
                Decl d;
                d.name = t.text;
                d.loc = t.loc;
                st->decls.push_back(d);
            }
            item_start = list && depth == 0 && t.kind == Tok::Punct && t.text == ",";
            if (!list && !st->decls.empty()) break;
        }
        if (!st->decls.empty()) out.push_back(st);
    }

    void statement_inner(std::vector<StmtP> &out, bool in_template) {
        const Token &kw = peek();
        if (kw.kind != Tok::Name) {
            if (kw.kind == Tok::Number)
                fail(kw.loc, "a statement cannot start with the number " + kw.text + "; it starts with a keyword such as 'param' or 'body'");
            fail(kw.loc, "expected a statement keyword, found " + describe(kw));
        }
        if (kw.text == "include") {
            next();
            if (in_template) fail(kw.loc, "'include' is not allowed inside a template; include the file at the top level");
            include(kw.loc, out);
            return;
        }
        if (kw.text == "end") fail(kw.loc, "'end' without a matching 'template'");
        auto it = std::find_if(keywords().begin(), keywords().end(), [&](const auto &p) { return p.first == kw.text; });
        if (it == keywords().end()) {
            if (peek(1).punct("="))
                fail(kw.loc, "unknown statement '" + kw.text + "'; a declaration starts with its kind, as in 'param " +
                                 kw.text + " = ...' or 'point " + kw.text + " = ...'");
            fail(kw.loc, "unknown statement '" + kw.text + "'" + suggestion(kw.text, statement_words()));
        }
        next();
        auto st = std::make_shared<Stmt>();
        st->kind = it->second;
        st->loc = kw.loc;
        switch (st->kind) {
        case Stmt::Param:
        case Stmt::Coord:
        case Stmt::Aux:
        case Stmt::Input: {
            bool need_value = st->kind == Stmt::Param;
            for (;;) {
                Decl dc = decl_name((std::string("a name after '") + kw.text + "'").c_str());
                if (peek().punct("=")) {
                    next();
                    dc.value = expr();
                } else if (need_value) {
                    fail(peek().loc, "parameter '" + dc.name + "' needs a default value: param " + dc.name + " = 1.0");
                }
                st->decls.push_back(dc);
                if (!peek().punct(",")) break;
                next();
            }
            st->comment = expect_eol("the declaration");
            break;
        }
        case Stmt::Base:
        case Stmt::Point:
        case Stmt::Frame:
        case Stmt::Constraint:
        case Stmt::Output: {
            Decl dc = decl_name((std::string("a name after '") + kw.text + "'").c_str());
            expect_punct("=", std::string("after '") + kw.text + " " + dc.name + "'");
            dc.value = expr();
            st->decls.push_back(dc);
            st->comment = expect_eol("the expression");
            break;
        }
        case Stmt::Table: {   // table NAME = [[x1, y1], [x2, y2], ...] [linear|spline]
            Decl dc = decl_name("a name after 'table'");
            expect_punct("=", "after 'table " + dc.name + "' (its points: table " + dc.name +
                                  " = [[x1, y1], [x2, y2], ...])");
            dc.value = expr();
            st->decls.push_back(dc);
            st->text = "linear";
            if (peek().name("linear") || peek().name("spline")) st->text = next().text;
            else if (peek().kind == Tok::Name)
                fail(peek().loc, "unexpected " + describe(peek()) + " after the points of table '" + dc.name +
                                     "'; expected 'linear' or 'spline' (how the points are joined)" +
                                     suggestion(peek().text, {"linear", "spline"}));
            st->comment = expect_eol("the table");
            break;
        }
        case Stmt::Gravity: {
            st->decls.push_back(Decl{"", kw.loc, expr()});
            st->comment = expect_eol("the gravity vector");
            break;
        }
        case Stmt::Body:
        case Stmt::Spring:
        case Stmt::Damper:
        case Stmt::AirSpring:
        case Stmt::BumpStop:
        case Stmt::Friction:
        case Stmt::AntiRoll:
        case Stmt::Bushing:
        case Stmt::Plugin:
        case Stmt::Force:
        case Stmt::Torque:
        case Stmt::Contact:
            st->decls.push_back(decl_name((std::string("a name after '") + kw.text + "'").c_str()));
            clauses(*st);
            break;
        case Stmt::Template:
            templ(*st, in_template);
            break;
        case Stmt::Use: {
            st->text_loc = peek().loc;
            st->text = expect_name("a template name after 'use'");
            Decl dc = decl_name("an instance name after the template name");
            st->decls.push_back(dc);
            expect_punct("(", "after the instance name (the arguments, possibly none: use " + st->text + " " +
                                  dc.name + "())");
            st->args = arg_list(")", "the arguments of the template");
            st->comment = expect_eol("the arguments");
            break;
        }
        }
        out.push_back(st);
    }

    void clauses(Stmt &st) {
        const auto &specs = clause_specs(st.kind);
        std::vector<std::string> names;
        for (const auto &s : specs) names.push_back(s.kw);
        bool has_value = st.kind == Stmt::Force || st.kind == Stmt::Torque;
        while (!at_eol()) {
            const Token &t = peek();
            if (t.punct("=") && has_value) {
                next();
                if (st.decls[0].value) fail(t.loc, "the value of '" + st.decls[0].name + "' is given twice");
                st.decls[0].value = expr();
                continue;
            }
            std::string kw = t.kind == Tok::Name ? t.text : "";
            // "reaction B at Q": the second `at` belongs to the reaction.
            if (kw == "at" && st.clause("reaction") && st.kind == Stmt::Force) kw = "reaction_at";
            auto sp = std::find_if(specs.begin(), specs.end(), [&](const ClauseSpec &c) { return kw == c.kw; });
            if (kw.empty() || sp == specs.end()) {
                std::string expect;
                for (size_t i = 0; i < names.size(); ++i)
                    if (names[i] != "reaction_at") expect += (expect.empty() ? "'" : ", '") + names[i] + "'";
                if (has_value) expect += ", '='";
                std::string sugg = t.kind == Tok::Name ? suggestion(t.text, names) : "";
                fail(t.loc, "unexpected " + describe(t) + " in '" + stmt_keyword(st.kind) + " " + st.decls[0].name +
                                "'" + (sugg.empty() ? "; expected one of " + expect : sugg));
            }
            if (st.clause(kw)) fail(t.loc, "'" + t.text + "' is given twice");
            next();
            // "series k K": the stiffness in series with a damper
            if (kw == "series") {
                if (!peek().name("k"))
                    fail(peek().loc, "expected 'k' after 'series', found " + describe(peek()) +
                                         " (a damper in series with a stiffness: c C series k K)");
                next();
            }
            std::vector<ExprP> es;
            es.push_back(expr());
            if (sp->arity == 2) {
                // "between P [of BODY] and Q [of BODY]": the optional bodies
                // whose material points P and Q are, kept as clauses of1/of2
                // (for another pair clause, "left A and B": left.of1, left.of2).
                const std::string of = kw == "between" ? "of" : kw + ".of";
                if (peek().name("of")) {
                    next();
                    st.clauses.emplace_back(of + "1", std::vector<ExprP>{expr()});
                }
                if (!peek().name("and")) fail(peek().loc, "expected 'and' in '" + t.text + " A and B', found " + describe(peek()));
                next();
                es.push_back(expr());
                if (peek().name("of")) {
                    next();
                    st.clauses.emplace_back(of + "2", std::vector<ExprP>{expr()});
                }
            }
            st.clauses.emplace_back(kw, std::move(es));
        }
        st.comment = expect_eol("the statement");
    }

    void templ(Stmt &st, bool in_template) {
        if (in_template)   // reported, then parsed anyway so its `end` does not close the outer one
            d_.error(st.loc, "a template cannot be defined inside another template; define it at the top level and 'use' it here");
        st.decls.push_back(decl_name("a template name after 'template'"));
        expect_punct("(", "after the template name (its parameters, possibly none: template " + st.decls[0].name + "())");
        if (peek().punct(")")) {
            next();
        } else {
            for (;;) {
                Decl p = decl_name("a parameter name");
                if (peek().punct("=")) {
                    next();
                    p.value = expr();
                }
                for (const auto &q : st.params)
                    if (q.name == p.name) fail(p.loc, "parameter '" + p.name + "' is listed twice");
                st.params.push_back(p);
                if (peek().punct(",")) {
                    next();
                    continue;
                }
                expect_punct(")", "after the template parameters");
                break;
            }
        }
        st.comment = expect_eol("the template's parameter list");
        std::vector<StmtP> body;
        for (;;) {
            if (peek().kind == Tok::End) {
                d_.error(st.loc, "template '" + st.decls[0].name + "' has no 'end'");
                d_.note(peek().loc, "the file ends here");
                break;
            }
            if (peek().kind == Tok::Newline) {
                ++pos_;
                continue;
            }
            if (peek().name("end")) {
                st.end_loc = next().loc;
                try {
                    expect_eol("'end'");
                } catch (const ParseError &) {
                    skip_line();
                }
                break;
            }
            statement(body, true);
        }
        // A nested template (already reported) is dropped after parsing.
        body.erase(std::remove_if(body.begin(), body.end(), [](const StmtP &b) { return b->kind == Stmt::Template; }),
                   body.end());
        st.body = std::move(body);
    }

    void include(Loc at, std::vector<StmtP> &out) {
        const Token &t = peek();
        if (t.kind != Tok::String) fail(t.loc, "expected a file name in quotes after 'include', found " + describe(t));
        next();
        expect_eol("the included file name");
        fs::path base = fs::path(path_).parent_path();
        std::string rel = t.text;
        std::string full = fs::path(rel).is_absolute() ? rel : (base / rel).string();
        std::string canon = canonical(full);
        auto cyc = std::find(stack_.begin(), stack_.end(), canon);
        if (cyc != stack_.end()) {
            std::string chain;
            for (auto i = cyc; i != stack_.end(); ++i) chain += fs::path(*i).filename().string() + " -> ";
            chain += fs::path(canon).filename().string();
            fail(t.loc, "include cycle: " + chain);
        }
        if (done_.count(canon)) return;   // each file is spliced once
        if (stack_.size() >= (size_t)kMaxIncludeDepth)
            fail(t.loc, "files include each other more than " + std::to_string(kMaxIncludeDepth) +
                            " levels deep (the limit; the chain starts at " + fs::path(stack_[0]).filename().string() +
                            "); include the files from fewer levels, e.g. all of them from the main file");
        std::string text, why;
        if (!read_file(full, text, why)) fail(t.loc, "cannot read included file '" + full + "': " + why);
        int file = d_.sources().add(full, text);
        stack_.push_back(canon);
        Parser sub(d_, stack_, done_);
        try {
            sub.run(file, full, text, out);
        } catch (...) {
            stack_.pop_back();
            throw;
        }
        stack_.pop_back();
        done_.insert(canon);
        (void)at;
    }
};

}  // namespace

Program parse_text(const std::string &path, const std::string &text, Diagnostics &diags) {
    Program prog;
    prog.main_path = path;
    int file = diags.sources().add(path, text);
    std::vector<std::string> stack{canonical(path)};
    std::set<std::string> done;
    Parser p(diags, stack, done);
    try {
        p.run(file, path, text, prog.stmts);
    } catch (const TooManyErrors &) {
    }
    return prog;
}

Program parse_file(const std::string &path, Diagnostics &diags) {
    std::string text, why;
    if (!read_file(path, text, why)) {
        try {
            diags.error(Loc{}, "cannot read '" + path + "': " + why);
        } catch (const TooManyErrors &) {
        }
        Program prog;
        prog.main_path = path;
        return prog;
    }
    return parse_text(path, text, diags);
}

}  // namespace vdl
}  // namespace railsym
