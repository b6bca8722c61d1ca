// vdl_ast.hpp — the syntax tree of a .vdl description.
//
// Expressions are one small typed language: numbers, names, + − * / ^,
// calls, vector and matrix literals `[a, b, c]`, `[[..], [..], [..]]`, and the
// postfix `X in BASE` that gives a vector or tensor literal its base.  Types
// (scalar, vector, point, base, ...) are checked at elaboration, where every
// name is known, so the parser stays simple and messages can say "expected a
// point, found the base 'B_ws'".
//
// Trees are immutable and shared (template expansion copies only what it
// changes).  Every node has the location of its first character.
#ifndef RAILSYM_VDL_AST_HPP
#define RAILSYM_VDL_AST_HPP

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "vdl_error.hpp"

namespace railsym {
namespace vdl {

struct Expr;
using ExprP = std::shared_ptr<const Expr>;

struct Expr {
    enum Kind {
        Num,    // text: the literal as written
        Name,   // text: the (possibly dotted) name
        Str,    // text: the string
        Axis,   // text: "x", "y" or "z" (the axis argument of rotate)
        Neg,    // args[0]
        Add, Sub, Mul, Div, Pow,   // args[0] op args[1]
        Call,   // text: function name; args
        List,   // [args...]
        In,     // args[0] in args[1] (args[1] a Name)
    };
    Kind kind;
    Loc loc;
    std::string text;
    std::vector<ExprP> args;
    int depth = 1;   // nodes on the longest path down from here (1: a leaf)
};

// The limits that keep every recursive walk of the front end bounded (the
// parser, template expansion, the elaborator, the tree's own destruction),
// so a pathological description gets a message instead of exhausting the
// stack or the memory.  docs/vdl.md "Limits" lists them for users.
constexpr int kMaxExprDepth = 256;            // expression nesting and tree depth
constexpr int kMaxIncludeDepth = 64;          // files including files
constexpr int kMaxTemplateDepth = 64;         // template instances inside instances
constexpr size_t kMaxExpanded = 200000;       // statements and instances templates produce
constexpr size_t kMaxInstanceName = 1024;     // characters of a full instance name (a.b.c)

// A node; its depth is 1 + the deepest argument's.
ExprP make_expr(Expr::Kind k, Loc at, std::string text = "", std::vector<ExprP> args = {});
// Readable form for messages ("O + [0, y, z] in ground").
std::string expr_str(const Expr &e);

// A name declared by a statement, with its value when the statement has one.
struct Decl {
    std::string name;
    Loc loc;
    ExprP value;   // may be null
};

// Which template instance an expanded statement came from: the innermost
// instance, linked to the one it is inside (null at the top level).  Shared
// by every statement of the instance, so a deep nesting costs one link per
// instance, not a copy of the chain per statement.
struct InstanceRef {
    std::string instance;   // full prefixed name, e.g. "front.ws1"
    std::string templ;
    Loc use_loc;
    std::shared_ptr<const InstanceRef> outer;
};
using InstanceP = std::shared_ptr<const InstanceRef>;

struct Stmt;
using StmtP = std::shared_ptr<const Stmt>;

struct Stmt {
    enum Kind {
        Param, Coord, Aux, Input,
        Base, Point, Frame, Body,
        Gravity, Spring, Bushing, Force, Torque,
        Constraint, Output, Contact,
        Template,   // decls[0]: the template's name; params; body
        Use,        // decls[0]: instance name; text: template name; args
        // Suspension elements and tables (docs/elements.md), appended so the
        // earlier kinds keep their numbers.
        Table,      // decls[0]: name, value: the points; text: "linear" or "spline"
        Damper, BumpStop, Friction, AntiRoll,
        AirSpring,  // three-parameter air spring (docs/elements.md)
        Plugin,     // a force from a user's library (docs/plugins.md)
    };
    Kind kind;
    Loc loc;                      // the keyword
    std::vector<Decl> decls;      // declared names (a list for coord/aux/input/param)
    // Keyword clauses in source order: "mass" -> [expr], "between" -> [a, b].
    std::vector<std::pair<std::string, std::vector<ExprP>>> clauses;
    std::string comment;          // trailing comment (a unit, a description)
    std::string text;             // Use: the template name
    Loc text_loc;                 // Use: where the template name is
    std::vector<ExprP> args;      // Use: arguments
    std::vector<Decl> params;     // Template: parameters (value = default, may be null)
    std::vector<StmtP> body;      // Template: statements
    Loc end_loc;                  // Template: the `end`
    InstanceP trace;              // set by template expansion (null: top level)
    bool broken = false;          // a line that did not parse: decls are the names it
                                  // seemed to declare, failed silently (no cascade)

    // The clause's expressions, or null when absent.
    const std::vector<ExprP> *clause(const std::string &kw) const {
        for (const auto &c : clauses)
            if (c.first == kw) return &c.second;
        return nullptr;
    }
};

const char *stmt_keyword(Stmt::Kind k);

// A parsed program: statements of the top file with includes spliced in.
struct Program {
    std::vector<StmtP> stmts;
    std::string main_path;
};

}  // namespace vdl
}  // namespace railsym

#endif
