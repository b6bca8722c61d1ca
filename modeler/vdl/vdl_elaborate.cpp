// vdl_elaborate.cpp — typed evaluation of .vdl expressions and the
// statements that feed them to the System.
#include "vdl_elaborate.hpp"
#include "inertia_check.hpp"
#include "vdl_units.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "table.hpp"
#include "vdl_parser.hpp"
#include "vdl_templates.hpp"

namespace railsym {
namespace vdl {

namespace {

// An error at a location; an empty message means "already reported" (a use
// of a name whose definition failed), which is dropped silently.
struct ElabError {
    Loc loc;
    std::string msg;
};

struct Val {
    enum K { Scalar, RawVec, RawMat, Vec, Ten, Point, Base, Frame, Body, Axis, Str, List } k = Scalar;
    Ex s;
    V3 v;
    M3 m;
    Vector vec;
    Tensor ten;
    std::string name;    // Point: the point (or parent when offset); Base, Frame, Body: the name; Str: text
    std::string base;    // unnamed Frame (`P in B`): the base
    std::string fpoint;  // unnamed Frame: the point (offset in `off` when has_off)
    bool has_off = false;
    Vector off;          // Point: offset from `name`; unnamed Frame: from `fpoint`
    railsym::Axis axis = railsym::Axis::X;
    std::vector<Ex> list;   // List: scalars (bushing stiffnesses)
};

const char *kind_text(Val::K k) {
    switch (k) {
    case Val::Scalar: return "a scalar";
    case Val::RawVec: return "a vector without a base";
    case Val::RawMat: return "a matrix without a base";
    case Val::Vec: return "a vector";
    case Val::Ten: return "a tensor";
    case Val::Point: return "a point";
    case Val::Base: return "a base";
    case Val::Frame: return "a frame";
    case Val::Body: return "a body";
    case Val::Axis: return "an axis";
    case Val::Str: return "a string";
    case Val::List: return "a list";
    }
    return "?";
}

std::string describe_val(const Val &v) {
    std::string s = kind_text(v.k);
    if ((v.k == Val::Point && !v.has_off) || v.k == Val::Base || v.k == Val::Body ||
        (v.k == Val::Frame && !v.name.empty()))
        s += " '" + v.name + "'";
    return s;
}

// Exact rational value of a decimal literal ("1.25e-3" -> 1/800).
GiNaC::numeric parse_number(const std::string &t, Loc at) {
    std::string digits;
    long exp10 = 0;
    size_t i = 0;
    for (; i < t.size() && std::isdigit((unsigned char)t[i]); ++i) digits += t[i];
    if (i < t.size() && t[i] == '.') {
        for (++i; i < t.size() && std::isdigit((unsigned char)t[i]); ++i) {
            digits += t[i];
            --exp10;
        }
    }
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        bool neg = false;
        if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
        long e = 0;
        for (; i < t.size() && std::isdigit((unsigned char)t[i]); ++i) {
            e = e * 10 + (t[i] - '0');
            if (e > 100000) break;
        }
        exp10 += neg ? -e : e;
    }
    size_t nz = digits.find_first_not_of('0');
    digits = nz == std::string::npos ? "0" : digits.substr(nz);
    if (digits.size() > 400 || std::labs(exp10) > 400)
        throw ElabError{at, "the number " + t + " is out of range (at most 400 digits and exponents within ±400)"};
    GiNaC::numeric mant(digits.c_str());
    GiNaC::numeric scale = GiNaC::numeric(10).power(GiNaC::numeric(std::labs(exp10)));
    return exp10 >= 0 ? mant * scale : mant / scale;
}

class Elaborator {
public:
    Elaborator(System &sys, Diagnostics &d, ModelInfo *info) : sys_(sys), st_(sys.store()), d_(d), info_(info) {
        for (const char *n : {"ground", "O", "t", "pi"}) builtin_.insert(n);
    }

    void run(const std::vector<StmtP> &stmts) {
        for (const auto &s : stmts) {
            cur_ = s.get();
            try {
                statement(*s);
            } catch (const ElabError &e) {
                fail_stmt(*s);
                if (!e.msg.empty()) report(*s, e.loc, e.msg);
            } catch (const ModelError &e) {
                fail_stmt(*s);
                report(*s, s->decls.empty() ? s->loc : s->decls[0].loc, e.what());
            } catch (const AlgebraError &e) {
                fail_stmt(*s);
                report(*s, s->loc, std::string("invalid arithmetic: ") + e.what());
            } catch (const std::invalid_argument &e) {
                fail_stmt(*s);
                report(*s, s->loc, e.what());
            }
        }
    }

private:
    System &sys_;
    Store &st_;
    Diagnostics &d_;
    ModelInfo *info_;
    const Stmt *cur_ = nullptr;
    std::map<std::string, Loc> declared_;        // every name declared so far
    std::set<std::string> failed_;               // names whose definition failed
    std::set<std::string> builtin_;
    std::map<std::string, Ex> scalars_;          // outputs and constraints by name
    std::map<std::string, std::shared_ptr<const Table>> tables_;   // `table` statements by name
    int gravity_count_ = 0;
    Loc accelerometer_at_;                       // the first accelerometer() (line 0: none yet)

    void report(const Stmt &s, Loc at, const std::string &msg) {
        d_.error(at, msg);
        for (const InstanceRef *it = s.trace.get(); it; it = it->outer.get())
            d_.note(it->use_loc, "in instance '" + it->instance + "' of template '" + it->templ + "'");
    }
    void fail_stmt(const Stmt &s) {
        for (const auto &dc : s.decls)
            if (!dc.name.empty()) failed_.insert(dc.name);
    }

    // ---- names ----
    void declare(const Decl &dc, const std::string &name) {
        if (builtin_.count(name))
            throw ElabError{dc.loc, "'" + name + "' is a built-in name (" +
                                        (name == "ground" ? std::string("the ground base and frame")
                                         : name == "O"    ? std::string("the origin point")
                                         : name == "t"    ? std::string("time")
                                                          : std::string("the constant pi")) +
                                        ") and cannot be redefined"};
        auto it = declared_.find(name);
        if (it != declared_.end()) {
            report(*cur_, dc.loc, "'" + name + "' is already defined");
            d_.note(it->second, "previous definition of '" + name + "'");
            throw ElabError{dc.loc, ""};
        }
        declared_[name] = dc.loc;
    }

    std::vector<std::string> known_names() const {
        std::vector<std::string> v;
        for (const auto &kv : declared_) v.push_back(kv.first);
        for (const auto &b : builtin_) v.push_back(b);
        return v;
    }

    Val lookup(const Expr &e) {
        const std::string &n = e.text;
        if (failed_.count(n)) throw ElabError{e.loc, ""};
        Val v;
        if (n == "t") {
            v.s = sys_.time();
            return v;
        }
        if (n == "pi") {
            v.s = st_.num(M_PI);
            return v;
        }
        if (tables_.count(n))
            throw ElabError{e.loc, "'" + n + "' is a table: use its value at x as " + n + "(x), or name it in a "
                                   "clause that takes a table (k, c of a spring, damper or bump stop)"};
        auto sc = scalars_.find(n);
        if (sc != scalars_.end()) {
            v.s = sc->second;
            return v;
        }
        if (st_.has_symbol(n)) {   // parameters, coordinates and their rates (NAME_d, NAME_dd), ...
            v.s = st_.find_symbol(n);
            return v;
        }
        std::string k = sys_.kind_of(n);
        v.name = n;
        if (k == "base") {
            v.k = Val::Base;
            return v;
        }
        if (k == "point") {
            v.k = Val::Point;
            return v;
        }
        if (k == "frame") {
            v.k = Val::Frame;
            return v;
        }
        if (k == "body") {
            v.k = Val::Body;
            return v;
        }
        if (!k.empty()) throw ElabError{e.loc, "'" + n + "' is a " + k + " and cannot be used in an expression"};
        std::string hint;
        size_t dot = n.find('.');
        if (dot != std::string::npos && !has_prefix(n.substr(0, dot + 1)))
            hint = " (no template instance is named '" + n.substr(0, dot) + "')";
        throw ElabError{e.loc, "unknown name '" + n + "'" + hint + suggestion(n, known_names())};
    }
    bool has_prefix(const std::string &p) const {
        auto it = declared_.lower_bound(p);
        return it != declared_.end() && it->first.compare(0, p.size(), p) == 0;
    }

    // ---- conversions ----
    [[noreturn]] void type_error(const Expr &e, const Val &v, const std::string &want) {
        std::string extra;
        if (v.k == Val::RawVec) extra = "; give it a base: " + expr_str(e) + " in BASE";
        if (v.k == Val::RawMat) extra = "; give it a base: " + expr_str(e) + " in BASE";
        if (e.kind == Expr::Num) throw ElabError{e.loc, "expected " + want + ", found the number " + e.text};
        throw ElabError{e.loc, "expected " + want + ", found " + describe_val(v) + extra};
    }
    Ex scalar(const Expr &e) {
        Val v = eval(e);
        if (v.k != Val::Scalar) type_error(e, v, "a scalar");
        return v.s;
    }
    Vector vector(const Expr &e) {
        Val v = eval(e);
        if (v.k != Val::Vec) type_error(e, v, "a vector with a base ([x, y, z] in BASE)");
        return v.vec;
    }
    std::string base_name(const Expr &e) {
        Val v = eval(e);
        if (v.k != Val::Base) type_error(e, v, "a base");
        return v.name;
    }
    std::string body_name(const Expr &e) {
        Val v = eval(e);
        if (v.k != Val::Body) type_error(e, v, "a body");
        return v.name;
    }
    // A point name; a point with an offset becomes a hidden point `hidden`.
    std::string point_name(const Expr &e, const std::string &hidden) {
        Val v = eval(e);
        if (v.k != Val::Point) type_error(e, v, "a point");
        return materialize(v, hidden);
    }
    std::string materialize(const Val &v, const std::string &hidden) {
        if (!v.has_off) return v.name;
        sys_.add_point(hidden, v.name, v.off);
        return hidden;
    }
    // A frame name: a named frame, "ground", or `P in B` (a hidden frame).
    std::string frame_name(const Expr &e, const std::string &hidden) {
        Val v = eval(e);
        if (v.k == Val::Base && v.name == "ground") return "ground";
        if (v.k != Val::Frame) type_error(e, v, "a frame (a frame name or POINT in BASE)");
        if (!v.name.empty()) return v.name;
        return make_frame_named(v, hidden);
    }
    // Defines frame `name` from an unnamed frame value (POINT in BASE).
    std::string make_frame_named(const Val &v, const std::string &name) {
        std::string point = v.fpoint;
        if (v.has_off) {
            point = name + "/point";
            sys_.add_point(point, v.fpoint, v.off);
        }
        sys_.add_frame(name, point, v.base);
        return name;
    }

    // ---- expressions ----
    Val scal(Ex s) {
        Val v;
        v.s = s;
        return v;
    }
    Val vecv(const Vector &x) {
        Val v;
        v.k = Val::Vec;
        v.vec = x;
        return v;
    }

    // A constant the generated C cannot hold (1e400, 1e200*1e200) is
    // refused here, where its line and column are known; it used to reach
    // codegen and fail there without a location.
    void check_fits(const Ex &x, const Expr &e) {
        if (!x.is_number()) return;
        if (std::isfinite(st_.number(x.id()).to_double())) return;
        std::string what = e.kind == Expr::Num ? "the number " + e.text : "'" + expr_str(e) + "'";
        throw ElabError{e.loc, what + " does not fit in a double (at most about 1.8e308); give it in other units"};
    }
    Val eval(const Expr &e) {
        Val v = eval_raw(e);
        if (v.k == Val::Scalar) check_fits(v.s, e);
        if (v.k == Val::Vec)
            for (int i = 0; i < 3; ++i) check_fits(v.vec[i], e);
        return v;
    }
    Val eval_raw(const Expr &e) {
        switch (e.kind) {
        case Expr::Num: return scal(st_.num(parse_number(e.text, e.loc)));
        case Expr::Name: return lookup(e);
        case Expr::Str: {
            Val v;
            v.k = Val::Str;
            v.name = e.text;
            return v;
        }
        case Expr::Axis:
            throw ElabError{e.loc, "'" + e.text + "' names an axis only as the second argument of rotate()"};
        case Expr::Neg: {
            Val a = eval(*e.args[0]);
            if (a.k == Val::Scalar) return scal(-a.s);
            if (a.k == Val::Vec) return vecv(-a.vec);
            type_error(*e.args[0], a, "a scalar or a vector after '-'");
        }
        case Expr::Add:
        case Expr::Sub: return add_sub(e);
        case Expr::Mul: return mul(e);
        case Expr::Div: {
            Val a = eval(*e.args[0]);
            Ex b = scalar(*e.args[1]);
            if (b.is_zero()) throw ElabError{e.loc, "division by zero"};
            if (a.k == Val::Scalar) return scal(a.s / b);
            if (a.k == Val::Vec) return vecv(a.vec / b);
            type_error(*e.args[0], a, "a scalar or a vector before '/'");
        }
        case Expr::Pow: {
            Ex b = scalar(*e.args[0]);
            Ex x = scalar(*e.args[1]);
            if (!x.is_number())
                throw ElabError{e.args[1]->loc, "the exponent must be a constant number (write exp(y*log(x)) for x^y)"};
            const GiNaC::numeric &r = st_.number(x.id());
            if (!r.is_rational()) throw ElabError{e.args[1]->loc, "the exponent must be a rational number"};
            if (r.is_integer() && GiNaC::abs(r) > 1000) throw ElabError{e.args[1]->loc, "the exponent is too large"};
            return scal(st_.pow(b, r));
        }
        case Expr::Call: return call(e);
        case Expr::List: return list(e);
        case Expr::In: return in(e);
        }
        throw ElabError{e.loc, "unsupported expression"};
    }

    Val add_sub(const Expr &e) {
        bool sub = e.kind == Expr::Sub;
        Val a = eval(*e.args[0]);
        Val b = eval(*e.args[1]);
        if (a.k == Val::Scalar && b.k == Val::Scalar) return scal(sub ? a.s - b.s : a.s + b.s);
        if (a.k == Val::Vec && b.k == Val::Vec) return vecv(sub ? a.vec - b.vec : a.vec + b.vec);
        if (a.k == Val::Point && b.k == Val::Vec) {
            Vector d = sub ? -b.vec : b.vec;
            a.off = a.has_off ? a.off + d : d;
            a.has_off = true;
            return a;
        }
        if (a.k == Val::Point && b.k == Val::Point && sub) {
            // Q - P: the position vector from P to Q, in ground.
            std::string p = materialize(b, fresh("point")), q = materialize(a, fresh("point"));
            return vecv(sys_.position(p, q, "ground"));
        }
        std::string op = sub ? "-" : "+";
        if (a.k == Val::Scalar && b.k == Val::Vec)
            throw ElabError{e.loc, "cannot " + std::string(sub ? "subtract a vector from" : "add a vector to") + " a scalar"};
        if (b.k == Val::RawVec || b.k == Val::RawMat) type_error(*e.args[1], b, "a vector with a base");
        if (a.k == Val::RawVec || a.k == Val::RawMat) type_error(*e.args[0], a, "a vector with a base");
        throw ElabError{e.loc, "cannot apply '" + op + "' to " + describe_val(a) + " and " + describe_val(b)};
    }

    Val mul(const Expr &e) {
        Val a = eval(*e.args[0]);
        Val b = eval(*e.args[1]);
        if (a.k == Val::Scalar && b.k == Val::Scalar) return scal(a.s * b.s);
        if (a.k == Val::Scalar && b.k == Val::Vec) return vecv(a.s * b.vec);
        if (a.k == Val::Vec && b.k == Val::Scalar) return vecv(b.s * a.vec);
        if (a.k == Val::Ten && b.k == Val::Vec) return vecv(a.ten * b.vec);
        if (a.k == Val::Scalar && (b.k == Val::RawVec || b.k == Val::RawMat)) {
            for (auto &x : b.v) x = a.s * x;
            for (auto &r : b.m)
                for (auto &x : r) x = a.s * x;
            return b;
        }
        if (a.k == Val::Scalar && b.k == Val::Ten) {
            for (auto &r : b.ten.m)
                for (auto &x : r) x = a.s * x;
            return b;
        }
        if (a.k == Val::Vec && b.k == Val::Vec)
            throw ElabError{e.loc, "'*' between two vectors is ambiguous: write dot(u, v) or cross(u, v)"};
        throw ElabError{e.loc, "cannot multiply " + describe_val(a) + " by " + describe_val(b)};
    }

    Val list(const Expr &e) {
        Val v;
        bool all_lists = true, any_list = false;
        for (const auto &x : e.args) {
            all_lists = all_lists && x->kind == Expr::List;
            any_list = any_list || x->kind == Expr::List;
        }
        if (any_list && !all_lists) throw ElabError{e.loc, "a matrix is written [[a, b, c], [d, e, f], [g, h, i]]"};
        if (all_lists) {
            if (e.args.size() != 3) throw ElabError{e.loc, "a matrix needs 3 rows, found " + std::to_string(e.args.size())};
            v.k = Val::RawMat;
            for (int i = 0; i < 3; ++i) {
                const Expr &row = *e.args[i];
                if (row.args.size() != 3)
                    throw ElabError{row.loc, "a matrix row needs 3 entries, found " + std::to_string(row.args.size())};
                for (int j = 0; j < 3; ++j) v.m[i][j] = scalar(*row.args[j]);
            }
            return v;
        }
        for (const auto &x : e.args) v.list.push_back(scalar(*x));
        if (v.list.size() == 3) {
            v.k = Val::RawVec;
            v.v = V3{v.list[0], v.list[1], v.list[2]};
        } else {
            v.k = Val::List;
        }
        return v;
    }

    Val in(const Expr &e) {
        Val x = eval(*e.args[0]);
        std::string b = base_name(*e.args[1]);
        int bi = sys_.base(b);
        switch (x.k) {
        case Val::RawVec: return vecv(sys_.vec(x.v, b));
        case Val::RawMat: {
            Val v;
            v.k = Val::Ten;
            v.ten = sys_.tensor(x.m, b);
            return v;
        }
        case Val::Vec: return vecv(x.vec.in(bi));
        case Val::Ten: x.ten = x.ten.in(bi); return x;
        case Val::Point: {
            Val f;   // an unnamed frame: the point (and offset) plus the base
            f.k = Val::Frame;
            f.fpoint = x.name;
            f.has_off = x.has_off;
            f.off = x.off;
            f.base = b;
            return f;
        }
        case Val::List:
            throw ElabError{e.args[0]->loc, "a vector in a base has 3 components, found " + std::to_string(x.list.size())};
        default: type_error(*e.args[0], x, "a vector, a tensor or a point before 'in'");
        }
    }
    Val call(const Expr &e) {
        const std::string &f = e.text;
        auto argc = [&](size_t lo, size_t hi) {
            if (e.args.size() < lo || e.args.size() > hi) {
                std::string want = lo == hi ? std::to_string(lo) : std::to_string(lo) + " or " + std::to_string(hi);
                throw ElabError{e.loc, f + "() takes " + want + " argument" + (hi == 1 ? "" : "s") + ", " +
                                           std::to_string(e.args.size()) + " given"};
            }
        };
        static const std::map<std::string, Op> unary = {{"sin", Op::Sin},   {"cos", Op::Cos}, {"tan", Op::Tan},
                                                        {"sqrt", Op::Sqrt}, {"exp", Op::Exp}, {"log", Op::Log},
                                                        {"abs", Op::Abs}};
        auto u = unary.find(f);
        if (u != unary.end()) {
            argc(1, 1);
            Ex a = scalar(*e.args[0]);
            if (f == "abs") {
                Val v = scal(st_.fn(Op::Abs, a));
                return v;
            }
            return scal(st_.fn(u->second, a));
        }
        if (const Table *tab = table_called(f)) {
            argc(1, 1);
            return scal(table_value(st_, *tab, scalar(*e.args[0])));
        }
        if (f == "ramp") {   // max(x, 0), continuous: a one-sided stop written by hand
            argc(1, 1);
            return scal(railsym::ramp(scalar(*e.args[0])));
        }
        if (f == "atan2") {
            argc(2, 2);
            return scal(st_.atan2(scalar(*e.args[0]), scalar(*e.args[1])));
        }
        if (f == "dt") {
            argc(1, 1);
            Val a = eval(*e.args[0]);
            if (a.k == Val::Scalar) return scal(st_.dt(a.s));
            if (a.k == Val::Vec) return vecv(dt_in_base(a.vec));
            type_error(*e.args[0], a, "a scalar or a vector");
        }
        if (f == "dot" || f == "cross") {
            argc(2, 2);
            Vector a = vector(*e.args[0]), b = vector(*e.args[1]);
            return f == "dot" ? scal(railsym::dot(a, b)) : vecv(railsym::cross(a, b));
        }
        if (f == "norm") {
            argc(1, 1);
            return scal(railsym::norm(vector(*e.args[0])));
        }
        if (f == "x" || f == "y" || f == "z") {
            argc(1, 1);
            Vector a = vector(*e.args[0]);
            return scal(a[f == "x" ? 0 : f == "y" ? 1 : 2]);
        }
        if (f == "ex" || f == "ey" || f == "ez") {
            argc(1, 1);
            std::string b = base_name(*e.args[0]);
            Ex z = st_.zero(), o = st_.one();
            return vecv(sys_.vec(f == "ex" ? o : z, f == "ey" ? o : z, f == "ez" ? o : z, b));
        }
        if (f == "pos") {
            argc(2, 2);
            std::string p = point_name(*e.args[0], fresh("point")), q = point_name(*e.args[1], fresh("point"));
            return vecv(sys_.position(p, q, "ground"));
        }
        if (f == "vel" || f == "acc") {
            argc(1, 2);
            std::string p = point_name(*e.args[0], fresh("point"));
            std::string fr = e.args.size() > 1 ? frame_name(*e.args[1], fresh("frame")) : "ground";
            return vecv(f == "vel" ? sys_.velocity(p, fr) : sys_.acceleration(p, fr));
        }
        if (f == "accelerometer") {
            // What an accelerometer at P reads: the specific force a − g,
            // the point's acceleration relative to ground less the
            // gravitational field (every `gravity` statement's vector):
            // +g upwards at rest.  Resolved like acc() with `in B`.
            argc(1, 1);
            std::string p = point_name(*e.args[0], fresh("point"));
            Vector a = sys_.acceleration(p, "ground");
            for (const ForceElement &g : sys_.forces())
                if (g.kind == ForceKind::Gravity) a = a - g.vec;
            if (accelerometer_at_.line == 0) accelerometer_at_ = e.loc;
            return vecv(a);
        }
        if (f == "omega" || f == "alpha") {
            argc(1, 2);
            std::string b = base_or_body_base(*e.args[0]);
            std::string rel = e.args.size() > 1 ? base_or_body_base(*e.args[1]) : "ground";
            return vecv(f == "omega" ? sys_.omega(b, rel) : sys_.alpha(b, rel));
        }
        if (f == "diag") {
            argc(3, 3);
            Val v;
            v.k = Val::RawMat;
            v.m = m3_diag(scalar(*e.args[0]), scalar(*e.args[1]), scalar(*e.args[2]));
            return v;
        }
        if (f == "rotate" || f == "euler" || f == "matrix")
            throw ElabError{e.loc, f + "() defines a base; use it as 'base NAME = " + f + "(...)'"};
        static const std::vector<std::string> fns = {"sin", "cos", "tan", "sqrt", "exp", "log", "abs", "atan2",
                                                     "dt", "dot", "cross", "norm", "x", "y", "z", "ex", "ey", "ez",
                                                     "pos", "vel", "acc", "accelerometer", "omega", "alpha",
                                                     "diag", "rotate",
                                                     "euler", "matrix"};
        throw ElabError{e.loc, "unknown function '" + f + "'" + suggestion(f, fns)};
    }

    std::string base_or_body_base(const Expr &e) {
        Val v = eval(e);
        if (v.k == Val::Base) return v.name;
        if (v.k == Val::Body) return sys_.bases().name(sys_.bodies()[sys_.body(v.name)].base);
        type_error(e, v, "a base or a body");
    }

    int hidden_ = 0;
    std::string fresh(const std::string &what) {
        std::string owner = cur_ && !cur_->decls.empty() && !cur_->decls[0].name.empty() ? cur_->decls[0].name : "anon";
        return owner + "/" + what + std::to_string(++hidden_);
    }

    // ---- statements ----
    double constant(const Expr &e, const char *what) {
        Ex v = scalar(e);
        KindSet allowed = kind_bit(SymKind::Param) | kind_bit(SymKind::Const);
        if (v.kinds() & ~allowed)
            throw ElabError{e.loc, std::string("the ") + what +
                                       " must be a constant: numbers and parameters only (it is evaluated once, with "
                                       "the parameters' defaults)"};
        double x = st_.eval(v, sys_.defaults());
        if (!std::isfinite(x)) throw ElabError{e.loc, std::string("the ") + what + " is not a finite number"};
        return x;
    }

    const std::vector<ExprP> &need(const Stmt &s, const char *kw) {
        const auto *c = s.clause(kw);
        if (!c)
            throw ElabError{s.decls[0].loc, std::string(stmt_keyword(s.kind)) + " '" + s.decls[0].name + "' needs '" +
                                               kw + " ...'"};
        return *c;
    }
    const Expr *opt(const Stmt &s, const char *kw, size_t i = 0) {
        const auto *c = s.clause(kw);
        return c ? (*c)[i].get() : nullptr;
    }

    void statement(const Stmt &s) {
        if (s.broken) {   // its line's syntax error is reported: its names only fail quietly
            fail_stmt(s);
            return;
        }
        switch (s.kind) {
        case Stmt::Param:
        case Stmt::Coord:
        case Stmt::Aux:
        case Stmt::Input: symbols(s); return;
        case Stmt::Base: {
            const Decl &dc = s.decls[0];
            declare(dc, dc.name);
            define_base(dc.name, *dc.value, 0);
            return;
        }
        case Stmt::Point: {
            const Decl &dc = s.decls[0];
            declare(dc, dc.name);
            Val v = eval(*dc.value);
            if (v.k != Val::Point) type_error(*dc.value, v, "a point (PARENT + [x, y, z] in BASE)");
            Vector off = v.has_off ? v.off : sys_.vec(st_.zero(), st_.zero(), st_.zero(), "ground");
            sys_.add_point(dc.name, v.name, off);
            return;
        }
        case Stmt::Frame: {
            const Decl &dc = s.decls[0];
            declare(dc, dc.name);
            Val v = eval(*dc.value);
            if (v.k != Val::Frame || !v.name.empty()) type_error(*dc.value, v, "POINT in BASE");
            make_frame_named(v, dc.name);
            return;
        }
        case Stmt::Body: body(s); return;
        case Stmt::Gravity: {
            Vector g = vector(*s.decls[0].value);
            if (accelerometer_at_.line > 0)   // it has read the gravity declared so far
                throw ElabError{s.decls[0].loc,
                                "gravity after accelerometer() (line " + std::to_string(accelerometer_at_.line) +
                                    "), which reads only the gravity declared above it: move this statement up"};
            ++gravity_count_;
            sys_.add_gravity(g, gravity_count_ == 1 ? "gravity" : "gravity" + std::to_string(gravity_count_));
            return;
        }
        case Stmt::Spring: axial(s); return;
        case Stmt::Table: table(s); return;
        case Stmt::Damper:
        case Stmt::BumpStop:
        case Stmt::Friction:
        case Stmt::AirSpring: axial(s); return;
        case Stmt::AntiRoll: antiroll(s); return;
        case Stmt::Plugin: plugin(s); return;
        case Stmt::Bushing: {
            const Decl &dc = s.decls[0];
            declare(dc, dc.name);
            const auto &bt = need(s, "between");
            std::string f1 = frame_name(*bt[0], dc.name + "/f1"), f2 = frame_name(*bt[1], dc.name + "/f2");
            std::array<Ex, 6> k = six(*need(s, "k")[0], "k");
            std::array<Ex, 6> c;
            if (opt(s, "c"))
                c = six(*opt(s, "c"), "c");
            else
                c.fill(st_.zero());
            std::string b1 = opt(s, "of1") ? body_name(*opt(s, "of1")) : "";
            std::string b2 = opt(s, "of2") ? body_name(*opt(s, "of2")) : "";
            bool large = false;
            if (const Expr *re = opt(s, "rotation")) {   // as contact's `mode`: the last part of a name counts
                std::string w = re->kind == Expr::Name ? re->text.substr(re->text.rfind('.') + 1) : "";
                if (w != "small" && w != "large")
                    throw ElabError{re->loc, "the rotation law of bushing '" + dc.name + "' is 'small' (θ = "
                                             "vee(skew R), small angles, the default) or 'large' (the Cayley "
                                             "vector 2 tan(φ/2)·axis, |φ| < 180°), found '" +
                                             (re->kind == Expr::Name ? re->text : expr_str(*re)) + "'"};
                large = w == "large";
            }
            sys_.add_bushing(dc.name, f1, f2, k, c, b1, b2, large);
            return;
        }
        case Stmt::Force: {
            const Decl &dc = s.decls[0];
            declare(dc, dc.name);
            if (!dc.value) throw ElabError{dc.loc, "force '" + dc.name + "' needs its value: = [fx, fy, fz] in BASE"};
            std::string body = opt(s, "on") ? body_name(*opt(s, "on")) : "";
            std::string p = point_name(*need(s, "at")[0], dc.name + "/at");
            Vector F = vector(*dc.value);
            std::string rb = opt(s, "reaction") ? body_name(*opt(s, "reaction")) : "";
            std::string rp = opt(s, "reaction_at") ? point_name(*opt(s, "reaction_at"), dc.name + "/reaction_at")
                             : rb.empty()           ? ""
                                                    : p;
            sys_.add_force(dc.name, p, F, body, rp, rb);
            return;
        }
        case Stmt::Torque: {
            const Decl &dc = s.decls[0];
            declare(dc, dc.name);
            if (!dc.value) throw ElabError{dc.loc, "torque '" + dc.name + "' needs its value: = [tx, ty, tz] in BASE"};
            std::string on = body_or_base(*need(s, "on")[0]);
            Vector T = vector(*dc.value);
            std::string r = opt(s, "reaction") ? body_or_base(*opt(s, "reaction")) : "";
            sys_.add_torque(dc.name, on, T, r);
            return;
        }
        case Stmt::Constraint:
        case Stmt::Output: {
            const Decl &dc = s.decls[0];
            declare(dc, dc.name);
            Val v = eval(*dc.value);
            bool con = s.kind == Stmt::Constraint;
            const std::string unit = con ? "" : units_of(s)[0];
            if (v.k == Val::Scalar) {
                if (con) {
                    KindSet moving = kind_bit(SymKind::Coord) | kind_bit(SymKind::Aux) | kind_bit(SymKind::Time);
                    if (!(v.s.kinds() & moving))
                        throw ElabError{dc.value->loc, "constraint '" + dc.name +
                                                           "' does not depend on any coordinate or on time"};
                    sys_.add_constraint(dc.name, v.s);
                } else {
                    sys_.add_output(dc.name, v.s);
                    if (info_) info_->outputs.push_back(SymbolInfo{dc.name, 0.0, s.comment, unit, dc.loc});
                }
                scalars_[dc.name] = v.s;
                return;
            }
            if (v.k != Val::Vec) type_error(*dc.value, v, "a scalar or a vector");
            // A vector: one equation (or output) per component, named NAME.x
            // NAME.y NAME.z; constraint components that are identically zero
            // are left out (a planar loop closes with two equations).
            static const char *comp[3] = {"x", "y", "z"};
            int added = 0;
            for (int i = 0; i < 3; ++i) {
                std::string n = dc.name + "." + comp[i];
                if (con && v.vec[i].is_number()) {
                    if (v.vec[i].is_zero()) continue;
                    throw ElabError{dc.value->loc, "component " + std::string(comp[i]) + " of constraint '" +
                                                       dc.name + "' is the constant " + v.vec[i].str()};
                }
                if (con)
                    sys_.add_constraint(n, v.vec[i]);
                else {
                    sys_.add_output(n, v.vec[i]);
                    if (info_) info_->outputs.push_back(SymbolInfo{n, 0.0, s.comment, unit, dc.loc});
                }
                scalars_[n] = v.vec[i];
                declared_[n] = dc.loc;
                ++added;
            }
            if (con && added == 0)
                throw ElabError{dc.value->loc, "constraint '" + dc.name + "' is identically zero"};
            return;
        }
        case Stmt::Contact: contact(s); return;
        case Stmt::Template:
        case Stmt::Use: return;   // expanded before elaboration
        }
    }

    // ---- tables and the suspension elements (docs/elements.md) ----
    // The table a call names: NAME, or inside a template instance the
    // instance's own table (calls are not renamed by template expansion).
    const Table *table_called(const std::string &f) const {
        if (cur_ && cur_->trace) {
            auto it = tables_.find(cur_->trace->instance + "." + f);
            if (it != tables_.end()) return it->second.get();
        }
        auto it = tables_.find(f);
        return it == tables_.end() ? nullptr : it->second.get();
    }
    // The table a clause names (a bare table name), else null.
    std::shared_ptr<const Table> table_ref(const Expr &e) const {
        if (e.kind != Expr::Name) return nullptr;
        auto it = tables_.find(e.text);
        return it == tables_.end() ? nullptr : it->second;
    }

    void table(const Stmt &s) {
        const Decl &dc = s.decls[0];
        declare(dc, dc.name);
        const Expr &pts = *dc.value;
        const char *form = "[[x1, y1], [x2, y2], ...]";
        if (pts.kind != Expr::List)
            throw ElabError{pts.loc, "the points of table '" + dc.name + "' are a list of [x, y] pairs: " + form};
        std::vector<double> x, y;
        for (const ExprP &row : pts.args) {
            if (row->kind != Expr::List || row->args.size() != 2)
                throw ElabError{row->loc, "each point of table '" + dc.name + "' is a pair [x, y]; found " +
                                              expr_str(*row) + " (the points: " + form + ")"};
            for (int k = 0; k < 2; ++k) {
                const Expr &c = *row->args[k];
                Ex v = scalar(c);
                if (!v.is_number())
                    throw ElabError{c.loc, "the entries of table '" + dc.name + "' are numbers: the table is part "
                                           "of the generated code, so a parameter could not change it at run time; "
                                           "found '" + expr_str(c) + "' (scale the element's force by a parameter "
                                           "in a 'force' statement instead)"};
                (k ? y : x).push_back(st_.number_value(v.id()));
            }
        }
        Table::Interp how = s.text == "spline" ? Table::Spline : Table::Linear;
        try {
            tables_[dc.name] = std::make_shared<const Table>(make_table(dc.name, how, x, y));
        } catch (const ModelError &e) {
            throw ElabError{pts.loc, e.what()};
        }
    }

    // A coefficient of a series branch: a scalar (no table: the node's
    // equation must stay linear in its state), > 0 when it is a number (a
    // parameter is checked by the runtime, which refuses ∂ż/∂z ≥ 0).
    Ex positive(const Stmt &s, const char *kw, const char *what) {
        const Expr &e = *need(s, kw)[0];
        if (table_ref(e))
            throw ElabError{e.loc, std::string(stmt_keyword(s.kind)) + " '" + s.decls[0].name + "': '" + kw +
                                       "' (" + what + ") is a number or a parameter, not a table: the element's "
                                       "internal state needs a linear law (docs/elements.md)"};
        Ex v = scalar(e);
        if (v.is_number() && !(st_.number_value(v.id()) > 0))
            throw ElabError{e.loc, std::string(stmt_keyword(s.kind)) + " '" + s.decls[0].name + "': '" + kw + "' (" +
                                       what + ") must be positive; found " + expr_str(e) +
                                       " (give its magnitude: the element's force law fixes the sign)"};
        return v;
    }

    // spring, damper, bumpstop, friction, airspring: one axial element (forces.hpp AxialLaw).
    void axial(const Stmt &s) {
        const Decl &dc = s.decls[0];
        declare(dc, dc.name);
        const auto &bt = need(s, "between");
        std::string p1 = point_name(*bt[0], dc.name + "/p1"), p2 = point_name(*bt[1], dc.name + "/p2");
        AxialLaw law;
        Ex k = st_.zero(), c = st_.zero();
        // k or c: a scalar, or a table of the deflection or of its rate.
        auto coef = [&](const char *kw, Ex &lin, std::shared_ptr<const Table> &tab) {
            const Expr *e = opt(s, kw);
            if (!e) return;
            tab = table_ref(*e);
            if (!tab) lin = scalar(*e);
        };
        switch (s.kind) {
        case Stmt::Spring:
            need(s, "k");
            coef("k", k, law.ktab);
            coef("c", c, law.ctab);
            break;
        case Stmt::Damper:
            need(s, "c");
            if (opt(s, "series")) {   // a Maxwell element: c and the stiffness in series
                law.cs = positive(s, "c", "the damping of the damper in series");
                law.ks = positive(s, "series", "the stiffness in series with the damper");
                break;
            }
            coef("c", c, law.ctab);
            break;
        case Stmt::AirSpring:   // k1 in parallel with k2 in series with c
            need(s, "k1");
            need(s, "k2");
            need(s, "c");
            k = positive(s, "k1", "the main (area) stiffness");
            law.ks = positive(s, "k2", "the reservoir's stiffness in series with the orifice");
            law.cs = positive(s, "c", "the orifice's damping");
            break;
        case Stmt::BumpStop:
            law.stop = true;
            law.gap = scalar(*need(s, "gap")[0]);
            need(s, "k");
            coef("k", k, law.ktab);
            law.k3 = opt(s, "k3") ? scalar(*opt(s, "k3")) : st_.zero();
            if (law.ktab && opt(s, "k3"))
                throw ElabError{opt(s, "k3")->loc, "bump stop '" + dc.name + "' has a table for 'k': its force "
                                                   "is the table's; leave out 'k3'"};
            coef("c", c, law.ctab);
            break;
        case Stmt::Friction:
            law.f0 = scalar(*need(s, "force")[0]);
            law.v0 = scalar(*need(s, "v0")[0]);
            if (law.v0.is_zero())
                throw ElabError{opt(s, "v0")->loc, "friction '" + dc.name + "': v0 = 0 would make the force jump "
                                                   "at zero velocity; give the smoothing velocity (e.g. v0 1e-3, "
                                                   "docs/elements.md)"};
            break;
        default: break;
        }
        Ex L0 = opt(s, "length") ? scalar(*opt(s, "length")) : st_.zero();
        Vector axis = opt(s, "along") ? vector(*opt(s, "along")) : Vector();
        std::string b1 = opt(s, "of1") ? body_name(*opt(s, "of1")) : "";
        std::string b2 = opt(s, "of2") ? body_name(*opt(s, "of2")) : "";
        sys_.add_spring_damper(dc.name, p1, p2, k, c, L0, b1, b2, law, axis);
    }

    // plugin NAME library "LIB" between P [of B1] and Q [of B2] [params [...]]
    // [states N] [along DIR] (docs/plugins.md).  The params are numbers
    // (the library reads them as given); a relative library path with a
    // folder is taken from the description's folder, a bare name is left to
    // the dynamic loader's search.
    void plugin(const Stmt &s) {
        const Decl &dc = s.decls[0];
        declare(dc, dc.name);
        const Expr &le = *need(s, "library")[0];
        if (le.kind != Expr::Str || le.text.empty())
            throw ElabError{le.loc, "plugin '" + dc.name + "': the library is a file name in quotes: library "
                                    "\"libname.so\", found '" + expr_str(le) + "'"};
        System::Plugin info;
        info.name = dc.name;
        info.library = le.text;
        namespace fs = std::filesystem;
        if (le.text.find('/') != std::string::npos && fs::path(le.text).is_relative() && le.loc.file >= 0) {
            std::error_code ec;
            fs::path p = fs::absolute(fs::path(d_.sources().path(le.loc.file)).parent_path() / le.text, ec);
            info.library = p.lexically_normal().string();
        }
        if (const Expr *pe = opt(s, "params")) {
            Val v = eval(*pe);
            if (v.k != Val::List && v.k != Val::RawVec) type_error(*pe, v, "a list of numbers [v1, v2, ...]");
            for (const Ex &x : v.list) {
                if (!x.is_number())
                    throw ElabError{pe->loc, "plugin '" + dc.name + "': its params are numbers, found '" + expr_str(*pe) +
                                             "': write the values (the library reads them as given, once; "
                                             "a parameter could change at run time without it)"};
                info.params.push_back(st_.number_value(x.id()));
            }
        }
        if (const Expr *ne = opt(s, "states")) {
            Ex n = scalar(*ne);
            const double v = n.is_number() ? st_.number_value(n.id()) : -1;
            if (!(v >= 0 && v <= 64 && v == (int)v))
                throw ElabError{ne->loc, "plugin '" + dc.name + "': 'states' is a whole number from 0 to 64 (how "
                                         "many states the library keeps), found '" + expr_str(*ne) + "'"};
            info.n_state = (int)v;
        }
        const auto &bt = need(s, "between");
        std::string p1 = point_name(*bt[0], dc.name + "/p1"), p2 = point_name(*bt[1], dc.name + "/p2");
        Vector axis = opt(s, "along") ? vector(*opt(s, "along")) : Vector();
        std::string b1 = opt(s, "of1") ? body_name(*opt(s, "of1")) : "";
        std::string b2 = opt(s, "of2") ? body_name(*opt(s, "of2")) : "";
        sys_.add_plugin(info, p1, p2, b1, b2, axis);
    }

    void antiroll(const Stmt &s) {
        const Decl &dc = s.decls[0];
        declare(dc, dc.name);
        const auto &l = need(s, "left"), &r = need(s, "right");
        std::array<std::string, 4> pts = {point_name(*l[0], dc.name + "/p1"), point_name(*l[1], dc.name + "/p2"),
                                          point_name(*r[0], dc.name + "/p3"), point_name(*r[1], dc.name + "/p4")};
        std::array<std::string, 4> bodies;
        const char *of[4] = {"left.of1", "left.of2", "right.of1", "right.of2"};
        for (int i = 0; i < 4; ++i) bodies[i] = opt(s, of[i]) ? body_name(*opt(s, of[i])) : "";
        Ex kt = scalar(*need(s, "kt")[0]), arm = scalar(*need(s, "arm")[0]);
        Vector axis = vector(*need(s, "along")[0]);
        sys_.add_antiroll(dc.name, pts, bodies, kt, arm, axis);
    }

    std::string body_or_base(const Expr &e) {
        Val v = eval(e);
        if (v.k == Val::Base || v.k == Val::Body) return v.name;
        type_error(e, v, "a body or a base");
    }

    std::array<Ex, 6> six(const Expr &e, const char *what) {
        Val v = eval(e);
        if (v.k != Val::List || v.list.size() != 6) {
            if (v.k == Val::List || v.k == Val::RawVec)
                throw ElabError{e.loc, std::string("'") + what + "' of a bushing has 6 entries [x, y, z, rx, ry, rz], found " +
                                           std::to_string(v.list.size())};
            type_error(e, v, "6 entries [x, y, z, rx, ry, rz]");
        }
        return std::array<Ex, 6>{v.list[0], v.list[1], v.list[2], v.list[3], v.list[4], v.list[5]};
    }

    // One unit per declared name from the statement's comment (vdl_units.hpp);
    // a bad unit is reported at the statement and leaves the units unknown.
    std::vector<std::string> units_of(const Stmt &s) {
        try {
            return units_per_name(leading_units(s.comment), s.decls.size());
        } catch (const std::invalid_argument &e) {
            report(s, s.loc, e.what());
            return std::vector<std::string>(s.decls.size(), "");
        }
    }

    void symbols(const Stmt &s) {
        const std::vector<std::string> units = units_of(s);
        for (size_t k = 0; k < s.decls.size(); ++k) {
            const Decl &dc = s.decls[k];
            try {
                declare(dc, dc.name);
                double x = dc.value ? constant(*dc.value, s.kind == Stmt::Param || s.kind == Stmt::Input
                                                              ? "default value"
                                                              : "initial value")
                                    : 0.0;
                SymbolInfo info{dc.name, x, s.comment, units[k], dc.loc};
                switch (s.kind) {
                case Stmt::Param: {
                    Ex p = sys_.param(dc.name, x);
                    // a default that names other parameters stays their expression
                    if (dc.value) {
                        Ex v = scalar(*dc.value);
                        if (v.kinds() & kind_bit(SymKind::Param)) sys_.param_expr(p, v);
                    }
                    if (info_) info_->params.push_back(info);
                    break;
                }
                case Stmt::Coord:
                    declare_rates(sys_.coord(dc.name, x), dc.loc);
                    if (info_) info_->coords.push_back(info);
                    break;
                case Stmt::Aux:
                    declare_rates(sys_.aux(dc.name, x), dc.loc);
                    if (info_) info_->aux.push_back(info);
                    break;
                default: sys_.input(dc.name, x); if (info_) info_->inputs.push_back(info); break;
                }
            } catch (const ElabError &e) {
                failed_.insert(dc.name);
                if (!e.msg.empty()) report(s, e.loc, e.msg);
            } catch (const std::exception &e) {
                failed_.insert(dc.name);
                report(s, dc.loc, e.what());
            }
        }
    }

    // The velocity and acceleration symbols of a coordinate are names too
    // (the store calls them NAME_d and NAME_dd).
    void declare_rates(Ex q, Loc at) {
        Ex v = st_.dot(q);
        declared_[st_.sym(v.id()).name] = at;
        declared_[st_.sym(st_.dot(v).id()).name] = at;
    }

    // base NAME = rotate(PARENT, AXIS, ANGLE) | euler(PARENT, e0, e1, e2, e3)
    //           | matrix(PARENT, [[...], [...], [...]]); PARENT may itself be
    // one of these calls, which defines a hidden intermediate base NAME/1, ...
    std::string define_base(const std::string &name, const Expr &e, int depth) {
        if (e.kind != Expr::Call || (e.text != "rotate" && e.text != "euler" && e.text != "matrix")) {
            Val v = eval(e);
            type_error(e, v, "rotate(PARENT, AXIS, ANGLE), euler(PARENT, e0, e1, e2, e3) or matrix(PARENT, [[..], [..], [..]])");
        }
        size_t want = e.text == "rotate" ? 3 : e.text == "euler" ? 5 : 2;
        if (e.args.size() != want)
            throw ElabError{e.loc, e.text + "() takes " + std::to_string(want) + " arguments, " +
                                       std::to_string(e.args.size()) + " given"};
        const Expr &pe = *e.args[0];
        std::string parent = pe.kind == Expr::Call ? define_base(name + "/" + std::to_string(depth + 1), pe, depth + 1)
                                                   : base_name(pe);
        if (e.text == "rotate") {
            const Expr &ax = *e.args[1];
            Ex angle = scalar(*e.args[2]);
            if (ax.kind == Expr::Axis) {
                railsym::Axis a = ax.text == "x" ? railsym::Axis::X : ax.text == "y" ? railsym::Axis::Y : railsym::Axis::Z;
                sys_.add_base(name, parent, a, angle);
            } else {
                Val v = eval(ax);
                V3 axis;
                if (v.k == Val::RawVec)
                    axis = v.v;
                else if (v.k == Val::Vec)
                    axis = v.vec.in(parent).c;
                else
                    type_error(ax, v, "an axis: x, y, z or [ax, ay, az]");
                sys_.add_base(name, parent, axis, angle);
            }
        } else if (e.text == "euler") {
            sys_.add_base_euler(name, parent, scalar(*e.args[1]), scalar(*e.args[2]), scalar(*e.args[3]),
                                scalar(*e.args[4]));
        } else {
            Val v = eval(*e.args[1]);
            if (v.k != Val::RawMat) type_error(*e.args[1], v, "a matrix [[..], [..], [..]] (entries in the parent base)");
            sys_.add_base_matrix(name, parent, v.m);
        }
        return name;
    }

    // contact NAME wheel BODY at POINT in BASE [side left|right] radius R0
    //         offset B_R profile "wheel.prf" rail "rail.prf" track "track.trk"
    //         [mode constraint|elastic]
    // BASE is the wheelset's non-spinning base (its y axis the axle); POINT
    // the wheel centre in the taping-line plane.  Without `side`, the side
    // comes from where the centre lies (infer_contact_side).
    void contact(const Stmt &s) {
        const Decl &dc = s.decls[0];
        declare(dc, dc.name);
        ContactSpec c;
        c.name = dc.name;
        c.wheel_body = body_name(*need(s, "wheel")[0]);
        const Expr &at = *need(s, "at")[0];
        Val fv = eval(at);
        if (fv.k == Val::Point && fv.has_off)
            throw ElabError{at.loc, "expected the wheel centre in the non-spinning wheelset base: POINT in BASE, found a "
                                    "point without a base; an offset point needs parentheses: (P + [x, y, z] in B) in BASE"};
        if (fv.k != Val::Frame || !fv.name.empty())
            type_error(at, fv, "the wheel centre in the non-spinning wheelset base: POINT in BASE");
        c.wheel_base = fv.base;
        c.wheel_centre = fv.fpoint;
        if (fv.has_off) {
            c.wheel_centre = dc.name + "/centre";
            sys_.add_point(c.wheel_centre, fv.fpoint, fv.off);
        }
        c.r0 = scalar(*need(s, "radius")[0]);
        c.rail_offset = scalar(*need(s, "offset")[0]);
        if (const Expr *se = opt(s, "side")) {
            // A name `left` may have been prefixed by a template that also
            // declares something called `left` (a contact, say): only the
            // last part of the name counts.
            std::string w = se->kind == Expr::Name ? se->text.substr(se->text.rfind('.') + 1) : "";
            if (w != "left" && w != "right")
                throw ElabError{se->loc, "the side of contact '" + dc.name + "' is 'left' or 'right', found " +
                                             (se->kind == Expr::Name ? "'" + se->text + "'" : "'" + expr_str(*se) + "'")};
            c.side = w == "left" ? +1 : -1;
        } else {
            c.side = infer_contact_side(sys_, c.wheel_body, c.wheel_centre, c.wheel_base);   // ModelError: reported at the name
        }
        if (const Expr *me = opt(s, "mode")) {
            std::string w = me->kind == Expr::Name ? me->text.substr(me->text.rfind('.') + 1) : "";
            if (w != "constraint" && w != "elastic")
                throw ElabError{me->loc, "the mode of contact '" + dc.name + "' is 'constraint' (one point held by a "
                                         "normal constraint, the default) or 'elastic' (every patch, Hertzian "
                                         "normal force), found '" + (me->kind == Expr::Name ? me->text : expr_str(*me)) + "'"};
            c.elastic = w == "elastic";
        }
        c.wheel_profile = data_file(s, "profile", "wheel profile");
        c.rail_profile = data_file(s, "rail", "rail profile");
        c.track = data_file(s, "track", "track");
        sys_.add_contact(c);
    }

    // A file named by a clause: relative to the file the clause is written
    // in; it must exist.  A relative name stays relative: the path kept is
    // relative to the working directory (with ".." where the file lies
    // outside it), which `railsym compile` records relative to the model
    // folder ("contact_root" in model.json), so generated files do not depend
    // on where the repository lies and a folder moved with its tree still
    // finds its files.  An absolute name (a system-wide profile library)
    // stays absolute.
    std::string data_file(const Stmt &s, const char *kw, const char *what) {
        const Expr &e = *need(s, kw)[0];
        if (e.kind != Expr::Str)
            throw ElabError{e.loc, std::string("the ") + what + " is a file name in quotes: " + kw + " \"FILE\", found '" +
                                       expr_str(e) + "'"};
        if (e.text.empty()) throw ElabError{e.loc, std::string("the ") + what + " file name is empty"};
        namespace fs = std::filesystem;
        fs::path p(e.text);
        const bool relative = p.is_relative();
        if (relative && e.loc.file >= 0) p = fs::path(d_.sources().path(e.loc.file)).parent_path() / p;
        p = p.lexically_normal();
        std::error_code ec;
        if (relative && p.is_absolute()) {
            fs::path rel = p.lexically_relative(fs::current_path(ec));
            if (!ec && !rel.empty()) p = rel;
        }
        if (!fs::is_regular_file(p, ec))
            throw ElabError{e.loc, std::string("cannot find the ") + what + " '" + e.text + "' (looked for '" +
                                       p.string() + "')"};
        return p.string();
    }

    // inertia_problem of a tensor whose nine components are numbers; "" when
    // one depends on a parameter (checked when the parameter is bound).
    static std::string literal_inertia_problem(const M3 &m, bool triangle) {
        Mat3d v{};
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                if (!m[i][j].is_number()) return "";
                v[i][j] = m[i][j].store()->number_value(m[i][j].id());
            }
        return inertia_problem(v, triangle);
    }

    // inertia_problem of a tensor of parameters, at their default values (the
    // runtime checks each parameter set a scenario, a sweep or a train gives).
    std::string default_inertia_problem(const M3 &m, bool triangle) {
        Mat3d v{};
        const KindSet params = kind_bit(SymKind::Param) | kind_bit(SymKind::Const);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                if (m[i][j].kinds() & ~params) return "";
                v[i][j] = st_.eval(m[i][j], sys_.defaults());
            }
        return inertia_problem(v, triangle);
    }

    void body(const Stmt &s) {
        const Decl &dc = s.decls[0];
        declare(dc, dc.name);
        const Expr &me = *need(s, "mass")[0];
        Ex mass = scalar(me);
        // Literal values are checked now, parameters at their defaults (as the
        // inertia below); the runtime checks every parameter set it is given.
        if (mass.is_number()) {
            if (std::string why = mass_problem(mass.store()->number_value(mass.id())); !why.empty())
                throw ElabError{me.loc, "body '" + dc.name + "': " + why};
        } else if (!(mass.kinds() & ~(kind_bit(SymKind::Param) | kind_bit(SymKind::Const)))) {
            if (std::string why = mass_problem(st_.eval(mass, sys_.defaults())); !why.empty())
                throw ElabError{me.loc, "body '" + dc.name + "': with the parameters' default values, " + why};
        }
        std::string cg = point_name(*need(s, "cg")[0], dc.name + "/cg");
        const Expr &ie = *need(s, "inertia")[0];
        Val iv = eval(ie);
        if (iv.k != Val::Ten) type_error(ie, iv, "an inertia tensor (diag(A, B, C) in BASE or [[..], [..], [..]] in BASE)");
        // `inertia_unchecked "WHY"`: published data that break the triangle
        // inequality, kept on purpose; the reason is required so the file says it.
        const Expr *unchecked = opt(s, "inertia_unchecked");
        if (unchecked && (unchecked->kind != Expr::Str || unchecked->text.empty()))
            throw ElabError{unchecked->loc, "body '" + dc.name +
                                                "': inertia_unchecked takes the reason in quotes, e.g. "
                                                "inertia_unchecked \"the published values break the triangle "
                                                "inequality\""};
        const bool triangle = unchecked == nullptr;
        if (std::string why = literal_inertia_problem(iv.ten.m, triangle); !why.empty())
            throw ElabError{ie.loc, "body '" + dc.name + "': " + why};
        if (std::string why = default_inertia_problem(iv.ten.m, triangle); !why.empty())
            throw ElabError{ie.loc, "body '" + dc.name + "': with the parameters' default values, " + why};
        std::string frame;
        if (const Expr *fe = opt(s, "frame")) {
            Val fv = eval(*fe);
            if (fv.k == Val::Base || (fv.k == Val::Frame && !fv.name.empty()))
                frame = fv.name;
            else if (fv.k == Val::Frame)
                frame = make_frame_named(fv, dc.name + "/frame");
            else
                type_error(*fe, fv, "a frame or a base");
        } else {
            frame = sys_.bases().name(iv.ten.base);
        }
        const int b = sys_.add_body(dc.name, mass, cg, iv.ten, frame);
        if (unchecked) sys_.set_inertia_unchecked(b);
    }
};

}  // namespace

bool elaborate(const std::vector<StmtP> &stmts, System &sys, Diagnostics &diags, ModelInfo *info) {
    Elaborator el(sys, diags, info);
    try {
        el.run(stmts);
    } catch (const TooManyErrors &) {
    }
    return diags.ok();
}

std::string model_name_of(const std::string &path) {
    std::filesystem::path p(path);
    return p.stem().string();
}

static bool finish(Program &prog, System &sys, Diagnostics &diags, ModelInfo *info) {
    if (info) {
        info->name = model_name_of(prog.main_path);
        info->files.clear();
        for (int i = 0; i < diags.sources().count(); ++i) info->files.push_back(diags.sources().path(i));
    }
    if (diags.stopped()) return false;
    std::vector<StmtP> flat = expand_templates(prog, diags);
    if (diags.stopped()) return false;
    elaborate(flat, sys, diags, info);
    return diags.ok();
}

bool load_file(const std::string &path, System &sys, Diagnostics &diags, ModelInfo *info) {
    Program prog = parse_file(path, diags);
    return finish(prog, sys, diags, info);
}

bool load_text(const std::string &path, const std::string &text, System &sys, Diagnostics &diags, ModelInfo *info) {
    Program prog = parse_text(path, text, diags);
    return finish(prog, sys, diags, info);
}

}  // namespace vdl
}  // namespace railsym
