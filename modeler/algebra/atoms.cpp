// atoms.cpp — the atom store: normalizing builders, hash-consing, calculus,
// evaluation and the GiNaC bridge.  See atoms.hpp for the invariants.
#include "atoms.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_set>

namespace railsym {

using GiNaC::numeric;

static std::string numstr(const numeric &x)
{
    std::ostringstream os;
    os << GiNaC::ex(x);
    return os.str();
}

const char *sym_kind_name(SymKind k)
{
    static const char *names[kNumSymKinds] = {"t", "q", "qd", "qdd", "s", "sd", "sdd", "p", "u", "k"};
    return names[int(k)];
}

const char *op_name(Op op)
{
    switch (op) {
    case Op::Num: return "num";
    case Op::Sym: return "sym";
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
    case Op::Neg: return "neg";
    case Op::Pow: return "pow";
    case Op::Sin: return "sin";
    case Op::Cos: return "cos";
    case Op::Tan: return "tan";
    case Op::Atan2: return "atan2";
    case Op::Sqrt: return "sqrt";
    case Op::Exp: return "exp";
    case Op::Log: return "log";
    case Op::Abs: return "fabs";
    case Op::Step: return "step";
    }
    return "?";
}

// ---------------------------------------------------------------- Ex -------

const Node &Ex::node() const
{
    if (!valid()) throw AlgebraError("use of an empty expression handle (a default-constructed Ex)");
    return st_->node(id_);
}
std::string Ex::str() const { return st_ ? st_->str(*this) : std::string("<invalid>"); }

static Store *common_store(Ex a, Ex b)
{
    if (!a.valid() || !b.valid()) throw AlgebraError("operation on an invalid expression handle");
    if (a.store() != b.store()) throw AlgebraError("operation mixes expressions of two different stores");
    return a.store();
}
static Store *own_store(Ex a)
{
    if (!a.valid()) throw AlgebraError("operation on an invalid expression handle");
    return a.store();
}

Ex operator+(Ex a, Ex b) { return common_store(a, b)->add(a, b); }
Ex operator-(Ex a, Ex b) { return common_store(a, b)->sub(a, b); }
Ex operator*(Ex a, Ex b) { return common_store(a, b)->mul(a, b); }
Ex operator/(Ex a, Ex b) { return common_store(a, b)->div(a, b); }
Ex operator-(Ex a) { return own_store(a)->neg(a); }
Ex operator+(Ex a, double b) { return a + own_store(a)->num(b); }
Ex operator+(double a, Ex b) { return own_store(b)->num(a) + b; }
Ex operator-(Ex a, double b) { return a - own_store(a)->num(b); }
Ex operator-(double a, Ex b) { return own_store(b)->num(a) - b; }
Ex operator*(Ex a, double b) { return a * own_store(a)->num(b); }
Ex operator*(double a, Ex b) { return own_store(b)->num(a) * b; }
Ex operator/(Ex a, double b) { return a / own_store(a)->num(b); }
Ex operator/(double a, Ex b) { return own_store(b)->num(a) / b; }
Ex &operator+=(Ex &a, Ex b) { return a = a + b; }
Ex &operator-=(Ex &a, Ex b) { return a = a - b; }
Ex &operator*=(Ex &a, Ex b) { return a = a * b; }
Ex pow(Ex a, int n) { return own_store(a)->pow(a, numeric(n)); }
Ex pow(Ex a, long num, long den)
{
    if (den == 0) throw AlgebraError("power with a zero denominator in the exponent");
    return own_store(a)->pow(a, numeric(num) / numeric(den));
}
Ex sin(Ex a) { return own_store(a)->fn(Op::Sin, a); }
Ex cos(Ex a) { return own_store(a)->fn(Op::Cos, a); }
Ex tan(Ex a) { return own_store(a)->fn(Op::Tan, a); }
Ex atan2(Ex y, Ex x) { return common_store(y, x)->atan2(y, x); }
Ex sqrt(Ex a) { return own_store(a)->fn(Op::Sqrt, a); }
Ex exp(Ex a) { return own_store(a)->fn(Op::Exp, a); }
Ex log(Ex a) { return own_store(a)->fn(Op::Log, a); }
Ex abs(Ex a) { return own_store(a)->fn(Op::Abs, a); }
Ex step(Ex a) { return own_store(a)->fn(Op::Step, a); }
Ex ramp(Ex a) { return a * step(a); }

// ------------------------------------------------------------- leaves -------

Store::Store()
{
    num_id(numeric(0));   // node 0
    num_id(numeric(1));   // node 1
}

int Store::num_id(const numeric &x_ref)
{
    const numeric x = x_ref;   // a copy: x_ref may point into numbers_, which grows below
    if (!x.is_rational()) throw AlgebraError("internal: a non-rational number reached the atom store");
    auto it = number_ids_.find(x);
    if (it != number_ids_.end()) return it->second;
    int id = (int)nodes_.size();
    nodes_.push_back(Node{Op::Num, 0, (int)numbers_.size(), -1});
    numbers_.push_back(x);
    number_ids_.emplace(x, id);
    return id;
}

Ex Store::num(long n) { return Ex(this, num_id(numeric(n))); }
Ex Store::num(long n, long d)
{
    if (d == 0) throw AlgebraError("number with a zero denominator: " + std::to_string(n) + "/0");
    return Ex(this, num_id(numeric(n) / numeric(d)));
}

Ex Store::num(double x)
{
    if (!std::isfinite(x)) throw AlgebraError("a number that is not finite cannot be an atom operand");
    if (x == std::floor(x) && std::fabs(x) < 1e15) return num((long)x);
    int e = 0;
    double f = std::frexp(x, &e);              // x = f * 2^e, 0.5 <= |f| < 1
    long long mant = (long long)std::ldexp(f, 53);
    e -= 53;
    numeric r = numeric((long)mant) * numeric(2).power(numeric(e));
    return Ex(this, num_id(r));
}

Ex Store::num(const numeric &x)
{
    if (x.is_rational()) return Ex(this, num_id(x));
    if (x.is_real()) return num(x.to_double());
    throw AlgebraError("complex number " + numstr(x) + " cannot be an atom operand");
}

const numeric &Store::number(int id) const { return numbers_[nodes_[id].a]; }
double Store::number_value(int id) const { return number(id).to_double(); }
const SymInfo &Store::sym(int id) const { return syms_[nodes_[id].a]; }

Ex Store::symbol(const std::string &name, SymKind kind)
{
    auto it = by_name_.find(name);
    if (it != by_name_.end()) {
        const SymInfo &s = syms_[it->second];
        if (s.kind != kind)
            throw AlgebraError("symbol '" + name + "' already exists as kind '" + sym_kind_name(s.kind) +
                               "', asked for kind '" + sym_kind_name(kind) + "'");
        return Ex(this, s.id);
    }
    if (name.empty()) throw AlgebraError("a symbol needs a name");
    int id = (int)nodes_.size();
    int index = (int)syms_.size();
    nodes_.push_back(Node{Op::Sym, kind_bit(kind), index, -1});
    syms_.push_back(SymInfo{name, kind, slot_count_[int(kind)]++, id, -1});
    ginac_syms_.emplace_back(name);
    by_name_.emplace(name, index);
    return Ex(this, id);
}

Ex Store::coordinate(const std::string &name)
{
    Ex q = symbol(name, SymKind::Coord);
    if (syms_[node(q.id()).a].dot < 0) {
        Ex qd = symbol(name + "_d", SymKind::Vel);
        Ex qdd = symbol(name + "_dd", SymKind::Acc);
        link_dot(q, qd);
        link_dot(qd, qdd);
    }
    return q;
}

Ex Store::auxiliary(const std::string &name)
{
    Ex s = symbol(name, SymKind::Aux);
    if (syms_[node(s.id()).a].dot < 0) {
        Ex sd = symbol(name + "_d", SymKind::AuxVel);
        Ex sdd = symbol(name + "_dd", SymKind::AuxAcc);
        link_dot(s, sd);
        link_dot(sd, sdd);
    }
    return s;
}

Ex Store::time()
{
    if (time_id_ < 0) time_id_ = symbol("t", SymKind::Time).id();
    return Ex(this, time_id_);
}

Ex Store::dot(Ex e)
{
    if (!e.valid() || e.store() != this || !e.is_symbol())
        throw AlgebraError("dot() of something that is not a symbol: " + (e.valid() ? e.str() : "<invalid>"));
    const SymInfo &s = sym(e.id());
    if (s.dot < 0) throw AlgebraError("symbol '" + s.name + "' has no time-derivative symbol");
    return Ex(this, s.dot);
}

void Store::link_dot(Ex a, Ex d)
{
    if (!a.is_symbol() || !d.is_symbol()) throw AlgebraError("link_dot() needs two symbols");
    syms_[node(a.id()).a].dot = d.id();
}

Ex Store::find_symbol(const std::string &name) const
{
    auto it = by_name_.find(name);
    if (it == by_name_.end()) throw AlgebraError("unknown symbol '" + name + "'");
    return Ex(const_cast<Store *>(this), syms_[it->second].id);
}

std::vector<Ex> Store::symbols_of(SymKind k) const
{
    std::vector<Ex> out((size_t)slot_count_[int(k)]);
    for (const SymInfo &s : syms_)
        if (s.kind == k) out[s.slot] = Ex(const_cast<Store *>(this), s.id);
    return out;
}

// ------------------------------------------------------- hash-consing -------

static uint64_t pack_key(Op op, int a, int b)
{
    return (uint64_t(op) << 58) | (uint64_t(uint32_t(a + 1)) << 29) | uint64_t(uint32_t(b + 1));
}

Ex Store::make(Op op, int a, int b, KindSet kinds)
{
    uint64_t key = pack_key(op, a, b);
    auto it = keys_.find(key);
    if (it != keys_.end()) {
        ++hits_;
        return Ex(this, it->second);
    }
    int id = (int)nodes_.size();
    if (id >= (1 << 28)) throw AlgebraError("atom store full (2^28 atoms)");
    nodes_.push_back(Node{op, kinds, a, b});
    keys_.emplace(key, id);
    return Ex(this, id);
}

static bool is_num(const Store &s, Ex e) { return s.node(e.id()).op == Op::Num; }

// ------------------------------------------------------------ builders -----

Ex Store::add(Ex a, Ex b)
{
    if (is_num(*this, a) && is_num(*this, b)) return num(number(a.id()) + number(b.id()));
    if (a.is_zero()) return b;
    if (b.is_zero()) return a;
    const Node A = node(a.id()), B = node(b.id());   // copies: builders below may grow nodes_
    if (A.op == Op::Neg && B.op == Op::Neg) return neg(add(ex(A.a), ex(B.a)));
    if (B.op == Op::Neg) return sub(a, ex(B.a));
    if (A.op == Op::Neg) return sub(b, ex(A.a));
    if (B.op == Op::Num && number(b.id()).is_negative()) return sub(a, num(-number(b.id())));
    if (A.op == Op::Num && number(a.id()).is_negative()) return sub(b, num(-number(a.id())));
    if (a == b) return mul(num(2), a);
    if (a.id() > b.id()) std::swap(a, b);
    return make(Op::Add, a.id(), b.id(), KindSet(A.kinds | B.kinds));
}

Ex Store::sub(Ex a, Ex b)
{
    if (is_num(*this, a) && is_num(*this, b)) return num(number(a.id()) - number(b.id()));
    if (a == b) return zero();
    if (b.is_zero()) return a;
    if (a.is_zero()) return neg(b);
    const Node A = node(a.id()), B = node(b.id());   // copies: builders below may grow nodes_
    if (B.op == Op::Neg) return add(a, ex(B.a));
    if (A.op == Op::Neg) return neg(add(ex(A.a), b));
    if (B.op == Op::Num && number(b.id()).is_negative()) return add(a, num(-number(b.id())));
    return make(Op::Sub, a.id(), b.id(), KindSet(A.kinds | B.kinds));
}

Ex Store::mul(Ex a, Ex b)
{
    if (is_num(*this, a) && is_num(*this, b)) return num(number(a.id()) * number(b.id()));
    if (a.is_zero() || b.is_zero()) return zero();
    if (a.is_one()) return b;
    if (b.is_one()) return a;
    if (is_num(*this, b)) std::swap(a, b);   // a number, if any, comes first
    const Node A = node(a.id()), B = node(b.id());   // copies: builders below may grow nodes_
    if (A.op == Op::Num) {
        const numeric c = number(a.id());   // a copy: num() may grow numbers_
        if (c == numeric(-1)) return neg(b);
        if (B.op == Op::Neg) return mul(num(-c), ex(B.a));            // c·(−x) = (−c)·x
        if (B.op == Op::Mul && node(B.a).op == Op::Num)               // c·(d·x) = (cd)·x
            return mul(num(c * number(B.a)), ex(B.b));
        return make(Op::Mul, a.id(), b.id(), B.kinds);
    }
    if (A.op == Op::Neg && B.op == Op::Neg) return mul(ex(A.a), ex(B.a));
    if (A.op == Op::Neg) return neg(mul(ex(A.a), b));
    if (B.op == Op::Neg) return neg(mul(a, ex(B.a)));
    if (a.id() > b.id()) std::swap(a, b);
    return make(Op::Mul, a.id(), b.id(), KindSet(A.kinds | B.kinds));
}

Ex Store::div(Ex a, Ex b)
{
    if (b.is_zero())
        throw AlgebraError("division by zero: (" + str(a) + ") / 0");
    if (is_num(*this, a) && is_num(*this, b)) return num(number(a.id()) / number(b.id()));
    if (a.is_zero()) return zero();
    if (b.is_one()) return a;
    if (a == b) return one();
    if (is_num(*this, b)) return mul(num(number(b.id()).inverse()), a);   // x/c = (1/c)·x
    const Node A = node(a.id()), B = node(b.id());   // copies: builders below may grow nodes_
    if (A.op == Op::Neg) return neg(div(ex(A.a), b));
    if (B.op == Op::Neg) return neg(div(a, ex(B.a)));
    return make(Op::Div, a.id(), b.id(), KindSet(A.kinds | B.kinds));
}

Ex Store::neg(Ex a)
{
    const Node A = node(a.id());   // a copy: builders below may grow nodes_
    switch (A.op) {
    case Op::Num: return num(-number(a.id()));
    case Op::Neg: return ex(A.a);
    case Op::Sub: return sub(ex(A.b), ex(A.a));
    case Op::Add:   // −(x + c) = (−c) − x, the form (−x) + (−c) also reaches
        if (node(A.a).op == Op::Num) return sub(num(-number(A.a)), ex(A.b));
        if (node(A.b).op == Op::Num) return sub(num(-number(A.b)), ex(A.a));
        break;
    case Op::Mul:
        if (node(A.a).op == Op::Num) return mul(num(-number(A.a)), ex(A.b));
        break;
    case Op::Div:
        if (node(A.a).op == Op::Num) return div(num(-number(A.a)), ex(A.b));
        break;
    default: break;
    }
    return make(Op::Neg, a.id(), -1, A.kinds);
}

Ex Store::pow(Ex a, const numeric &r_ref)
{
    const numeric r = r_ref;   // a copy: r_ref may point into numbers_, which num() grows
    if (!r.is_rational()) throw AlgebraError("power with a non-rational exponent: (" + str(a) + ")^" + numstr(r));
    if (r.is_zero()) return one();
    if (r == numeric(1)) return a;
    if (is_num(*this, a)) {
        const numeric x = number(a.id());
        if (x.is_zero()) {
            if (r.is_negative()) throw AlgebraError("division by zero: 0^" + numstr(r));
            return zero();
        }
        if (r.is_integer()) return num(x.power(r));
        if (x.is_negative()) throw AlgebraError("negative number to a fractional power: " + str(a) + "^" + numstr(r));
        GiNaC::ex exact = GiNaC::pow(GiNaC::ex(x), GiNaC::ex(r));
        if (GiNaC::is_a<numeric>(exact) && GiNaC::ex_to<numeric>(exact).is_rational())
            return num(GiNaC::ex_to<numeric>(exact));
    }
    if (r.is_integer()) {
        // Small integer powers become products: every atom stays elementary.
        long n = r.to_long();
        bool inverse = n < 0;
        unsigned long m = (unsigned long)(inverse ? -n : n);
        Ex result = one(), base = a;
        while (m) {   // binary exponentiation on atoms
            if (m & 1) result = mul(result, base);
            m >>= 1;
            if (m) base = mul(base, base);
        }
        return inverse ? div(one(), result) : result;
    }
    if (r == numeric(1, 2)) return fn(Op::Sqrt, a);
    if (r == numeric(-1, 2)) return div(one(), fn(Op::Sqrt, a));
    if (r == numeric(3, 2)) return mul(a, fn(Op::Sqrt, a));
    if (r == numeric(-3, 2)) return div(one(), mul(a, fn(Op::Sqrt, a)));
    return make(Op::Pow, a.id(), num_id(r), node(a.id()).kinds);
}

Ex Store::fn(Op op, Ex a)
{
    const Node A = node(a.id());   // a copy: builders below may grow nodes_
    bool n = A.op == Op::Num;
    switch (op) {
    case Op::Sin:
        if (a.is_zero()) return zero();
        if (A.op == Op::Neg) return neg(fn(Op::Sin, ex(A.a)));
        break;
    case Op::Cos:
        if (a.is_zero()) return one();
        if (A.op == Op::Neg) return fn(Op::Cos, ex(A.a));
        break;
    case Op::Tan:
        if (a.is_zero()) return zero();
        if (A.op == Op::Neg) return neg(fn(Op::Tan, ex(A.a)));
        break;
    case Op::Sqrt:
        if (n) {
            const numeric x = number(a.id());
            if (x.is_negative()) throw AlgebraError("sqrt of a negative number: sqrt(" + str(a) + ")");
            GiNaC::ex exact = GiNaC::sqrt(GiNaC::ex(x));
            if (GiNaC::is_a<numeric>(exact) && GiNaC::ex_to<numeric>(exact).is_rational())
                return num(GiNaC::ex_to<numeric>(exact));
        }
        break;
    case Op::Exp:
        if (a.is_zero()) return one();
        break;
    case Op::Log:
        if (n && !number(a.id()).is_positive())
            throw AlgebraError("log of a non-positive number: log(" + str(a) + ")");
        if (a.is_one()) return zero();
        break;
    case Op::Abs:
        if (n) return num(GiNaC::abs(number(a.id())));
        if (A.op == Op::Neg) return fn(Op::Abs, ex(A.a));
        if (A.op == Op::Abs || A.op == Op::Sqrt || A.op == Op::Exp) return a;
        break;
    case Op::Step:
        if (n) return number(a.id()).is_negative() ? zero() : one();
        if (A.op == Op::Abs || A.op == Op::Sqrt || A.op == Op::Exp || A.op == Op::Step) return one();
        break;
    default:
        throw AlgebraError(std::string("internal: fn() called with operation ") + op_name(op));
    }
    return make(op, a.id(), -1, A.kinds);
}

Ex Store::atan2(Ex y, Ex x)
{
    if (y.is_zero() && is_num(*this, x) && number(x.id()).is_positive()) return zero();
    if (y.is_zero() && x.is_zero()) throw AlgebraError("atan2(0, 0) is undefined");
    return make(Op::Atan2, y.id(), x.id(), KindSet(node(y.id()).kinds | node(x.id()).kinds));
}

Ex Store::rebuild(Op op, Ex a, Ex b)
{
    switch (op) {
    case Op::Add: return add(a, b);
    case Op::Sub: return sub(a, b);
    case Op::Mul: return mul(a, b);
    case Op::Div: return div(a, b);
    case Op::Neg: return neg(a);
    case Op::Pow: return pow(a, number(b.id()));
    case Op::Atan2: return atan2(a, b);
    case Op::Num:
    case Op::Sym: throw AlgebraError("internal: rebuild() of a leaf");
    default: return fn(op, a);
    }
}

// ------------------------------------------------------------ calculus -----

namespace {
// Derivative of node `id` given the derivatives `da`, `db` of its operands
// (whatever the derivation variable: ∂/∂v or d/dt).  Reuses the node itself
// where the rule allows (d(a/b), d√a, d eᵃ, d tan a), so derivatives share
// atoms with the values.
Ex chain_rule(Store &s, int id, Ex da, Ex db)
{
    const Node N = s.node(id);
    Ex self = s.ex(id), a = s.ex(N.a);
    Ex b = N.b >= 0 ? s.ex(N.b) : Ex();
    switch (N.op) {
    case Op::Add: return da + db;
    case Op::Sub: return da - db;
    case Op::Neg: return -da;
    case Op::Mul: return da * b + a * db;
    case Op::Div: return (da - self * db) / b;            // (a/b)' = (a' − (a/b)·b')/b
    case Op::Pow: return s.num(s.number(N.b)) * (self / a) * da;
    case Op::Sin: return cos(a) * da;
    case Op::Cos: return -(sin(a) * da);
    case Op::Tan: return (1.0 + self * self) * da;
    case Op::Sqrt: return da / (2.0 * self);
    case Op::Exp: return self * da;
    case Op::Log: return da / a;
    case Op::Abs: return (a / self) * da;                 // sign(a), undefined at a = 0
    case Op::Step: return s.zero();                       // see Op::Step
    case Op::Atan2: return (b * da - a * db) / (a * a + b * b);
    default: throw AlgebraError("internal: chain_rule on a leaf");
    }
}

// Nodes reachable from `root` that pass `want`, ascending; stops at nodes
// rejected by `want` (their derivative is zero or known).
template <class Want>
std::vector<int> collect(const Store &s, int root, Want want)
{
    std::vector<int> out, stack{root};
    std::unordered_set<int> seen{root};
    while (!stack.empty()) {
        int id = stack.back();
        stack.pop_back();
        if (!want(id)) continue;
        out.push_back(id);
        const Node N = s.node(id);
        if (N.op == Op::Num || N.op == Op::Sym) continue;
        for (int c : {N.a, N.b})
            if (c >= 0 && seen.insert(c).second) stack.push_back(c);
    }
    std::sort(out.begin(), out.end());
    return out;
}
}  // namespace

Ex Store::diff(Ex e, Ex v)
{
    if (!v.valid() || v.store() != this || !v.is_symbol())
        throw AlgebraError("differentiation with respect to something that is not a symbol: " +
                           (v.valid() ? str(v) : std::string("<invalid>")));
    if (!e.valid() || e.store() != this) throw AlgebraError("diff() of an invalid expression");
    const KindSet vk = node(v.id()).kinds;
    auto key = [&](int id) { return (uint64_t(uint32_t(id)) << 32) | uint32_t(v.id()); };
    auto known = [&](int id) -> int {
        if (!(node(id).kinds & vk)) return 0;
        if (id == v.id()) return 1;
        auto it = diff_memo_.find(key(id));
        return it == diff_memo_.end() ? -1 : it->second;
    };
    if (known(e.id()) >= 0) return ex(known(e.id()));
    std::vector<int> todo = collect(*this, e.id(), [&](int id) { return known(id) < 0; });
    for (int id : todo) {
        const Node N = node(id);
        int result;
        if (N.op == Op::Sym) {
            result = 0;  // another symbol of the same kind
        } else {
            int da = known(N.a), db = N.b >= 0 ? known(N.b) : 0;
            result = (da == 0 && db == 0) ? 0 : chain_rule(*this, id, ex(da), ex(db)).id();
        }
        diff_memo_[key(id)] = result;
    }
    return ex(known(e.id()));
}

Ex Store::dt(Ex e)
{
    if (!e.valid() || e.store() != this) throw AlgebraError("dt() of an invalid expression");
    const KindSet varying = kind_bit(SymKind::Time) | kind_bit(SymKind::Coord) | kind_bit(SymKind::Vel) |
                            kind_bit(SymKind::Acc) | kind_bit(SymKind::Aux) | kind_bit(SymKind::AuxVel) |
                            kind_bit(SymKind::AuxAcc) | kind_bit(SymKind::Input);
    auto known = [&](int id) -> int {
        if (!(node(id).kinds & varying)) return 0;
        auto it = dt_memo_.find(id);
        return it == dt_memo_.end() ? -1 : it->second;
    };
    if (known(e.id()) >= 0) return ex(known(e.id()));
    std::vector<int> todo = collect(*this, e.id(), [&](int id) { return known(id) < 0; });
    for (int id : todo) {
        const Node N = node(id);
        int result;
        if (N.op == Op::Sym) {
            const SymInfo &s = syms_[N.a];
            if (s.kind == SymKind::Time) result = 1;
            else if (s.dot >= 0) result = s.dot;
            else if (s.kind == SymKind::Input) result = 0;   // inputs without a rate are piecewise constant
            else throw AlgebraError("d/dt of '" + s.name + "' (kind " + sym_kind_name(s.kind) +
                                    ") is not defined: it has no time-derivative symbol");
        } else {
            int da = known(N.a), db = N.b >= 0 ? known(N.b) : 0;
            result = (da == 0 && db == 0) ? 0 : chain_rule(*this, id, ex(da), ex(db)).id();
        }
        dt_memo_[id] = result;
    }
    return ex(known(e.id()));
}

// -------------------------------------------------------- substitution -----

void Substitution::set(Ex from, Ex to)
{
    if (!from.valid() || !to.valid() || from.store() != st_ || to.store() != st_)
        throw AlgebraError("substitution with an expression of another store");
    if (map_.size() != subs_.size()) map_ = subs_;   // memoized results exist: a new rule voids them
    subs_[from.id()] = to.id();
    map_[from.id()] = to.id();
}

Ex Substitution::apply(Ex e)
{
    Store &s = *st_;
    if (!e.valid() || e.store() != st_) throw AlgebraError("substitution applied to an expression of another store");
    auto it0 = map_.find(e.id());
    if (it0 != map_.end()) return s.ex(it0->second);
    std::vector<int> todo = collect(s, e.id(), [&](int id) { return map_.find(id) == map_.end(); });
    for (int id : todo) {
        const Node N = s.node(id);
        if (N.op == Op::Num || N.op == Op::Sym) {
            map_[id] = id;
            continue;
        }
        int a = map_.at(N.a);
        int b = N.b >= 0 ? map_.at(N.b) : -1;
        map_[id] = (a == N.a && b == N.b) ? id : s.rebuild(N.op, s.ex(a), b >= 0 ? s.ex(b) : Ex()).id();
    }
    return s.ex(map_.at(e.id()));
}

// ------------------------------------------------- traversal, evaluation ----

std::vector<int> Store::reachable(const std::vector<int> &roots) const
{
    std::vector<char> seen(nodes_.size(), 0);
    std::vector<int> stack, out;
    for (int r : roots) {
        if (r < 0 || r >= size()) throw std::logic_error("reachable(): invalid atom id " + std::to_string(r));
        if (!seen[r]) { seen[r] = 1; stack.push_back(r); }
    }
    while (!stack.empty()) {
        int id = stack.back();
        stack.pop_back();
        out.push_back(id);
        const Node &N = nodes_[id];
        if (N.op == Op::Num || N.op == Op::Sym) continue;
        for (int c : {N.a, N.b})
            if (c >= 0 && !seen[c]) { seen[c] = 1; stack.push_back(c); }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<double> Store::eval(const std::vector<Ex> &roots, const SymValues &vals) const
{
    std::vector<int> ids;
    for (Ex r : roots) {
        if (!r.valid() || r.store() != this) throw AlgebraError("eval() of an invalid expression");
        ids.push_back(r.id());
    }
    std::vector<int> order = reachable(ids);
    std::vector<double> v(order.empty() ? 0 : order.back() + 1, 0.0);
    for (int id : order) {
        const Node &N = nodes_[id];
        double a = N.op != Op::Num && N.op != Op::Sym ? v[N.a] : 0.0;
        double b = N.b >= 0 && N.op != Op::Num && N.op != Op::Sym ? v[N.b] : 0.0;
        double r = 0;
        switch (N.op) {
        case Op::Num: r = number_value(id); break;
        case Op::Sym: r = vals.get(syms_[N.a].kind, syms_[N.a].slot); break;
        case Op::Add: r = a + b; break;
        case Op::Sub: r = a - b; break;
        case Op::Mul: r = a * b; break;
        case Op::Div: r = a / b; break;
        case Op::Neg: r = -a; break;
        case Op::Pow: r = std::pow(a, b); break;
        case Op::Sin: r = std::sin(a); break;
        case Op::Cos: r = std::cos(a); break;
        case Op::Tan: r = std::tan(a); break;
        case Op::Atan2: r = std::atan2(a, b); break;
        case Op::Sqrt: r = std::sqrt(a); break;
        case Op::Exp: r = std::exp(a); break;
        case Op::Log: r = std::log(a); break;
        case Op::Abs: r = std::fabs(a); break;
        case Op::Step: r = a >= 0 ? 1.0 : 0.0; break;
        }
        v[id] = r;
    }
    std::vector<double> out;
    out.reserve(ids.size());
    for (int id : ids) out.push_back(v[id]);
    return out;
}

// ------------------------------------------------------------- printing ----

namespace {
void print_node(const Store &s, int id, std::string &out, long &budget)
{
    const Node N = s.node(id);
    if (N.op == Op::Num) {
        std::ostringstream os;
        os << GiNaC::ex(s.number(id));
        out += os.str();
        return;
    }
    if (N.op == Op::Sym) {
        out += s.sym(id).name;
        return;
    }
    if (budget <= 0) {
        out += "a" + std::to_string(id);
        return;
    }
    budget -= 8;
    auto sub = [&](int c) { print_node(s, c, out, budget); };
    const char *bin = nullptr;
    switch (N.op) {
    case Op::Add: bin = " + "; break;
    case Op::Sub: bin = " - "; break;
    case Op::Mul: bin = "*"; break;
    case Op::Div: bin = "/"; break;
    case Op::Pow: bin = "^"; break;
    default: break;
    }
    if (bin) {
        out += "(";
        sub(N.a);
        out += bin;
        sub(N.b);
        out += ")";
    } else if (N.op == Op::Neg) {
        out += "(-";
        sub(N.a);
        out += ")";
    } else {
        out += N.op == Op::Abs ? "abs" : op_name(N.op);
        out += "(";
        sub(N.a);
        if (N.b >= 0) {
            out += ", ";
            sub(N.b);
        }
        out += ")";
    }
}
}  // namespace

std::string Store::str(Ex e, int max_len) const
{
    if (!e.valid() || e.store() != this) return "<invalid>";
    std::string out;
    long budget = max_len;
    print_node(*this, e.id(), out, budget);
    return out;
}

// ---------------------------------------------------------- GiNaC bridge ----

GiNaC::ex Store::to_ginac(Ex e)
{
    std::vector<int> order = reachable({e.id()});
    std::unordered_map<int, GiNaC::ex> g;
    for (int id : order) {
        const Node &N = nodes_[id];
        GiNaC::ex r;
        switch (N.op) {
        case Op::Num: r = number(id); break;
        case Op::Sym: r = ginac_syms_[N.a]; break;
        case Op::Add: r = g[N.a] + g[N.b]; break;
        case Op::Sub: r = g[N.a] - g[N.b]; break;
        case Op::Mul: r = g[N.a] * g[N.b]; break;
        case Op::Div: r = g[N.a] / g[N.b]; break;
        case Op::Neg: r = -g[N.a]; break;
        case Op::Pow: r = GiNaC::pow(g[N.a], number(N.b)); break;
        case Op::Sin: r = GiNaC::sin(g[N.a]); break;
        case Op::Cos: r = GiNaC::cos(g[N.a]); break;
        case Op::Tan: r = GiNaC::tan(g[N.a]); break;
        case Op::Atan2: r = GiNaC::atan2(g[N.a], g[N.b]); break;
        case Op::Sqrt: r = GiNaC::sqrt(g[N.a]); break;
        case Op::Exp: r = GiNaC::exp(g[N.a]); break;
        case Op::Log: r = GiNaC::log(g[N.a]); break;
        case Op::Abs: r = GiNaC::abs(g[N.a]); break;
        case Op::Step: r = GiNaC::step(g[N.a]); break;   // GiNaC's step(0) is 1/2: for tests away from 0
        }
        g[id] = r;
    }
    return g[e.id()];
}

Ex Store::from_ginac(const GiNaC::ex &e)
{
    using namespace GiNaC;
    if (is_a<numeric>(e)) return num(ex_to<numeric>(e));
    if (is_a<GiNaC::symbol>(e)) return find_symbol(ex_to<GiNaC::symbol>(e).get_name());
    if (is_a<constant>(e)) return num(ex_to<numeric>(e.evalf()).to_double());
    if (is_a<GiNaC::add>(e)) {
        Ex r = zero();
        for (size_t i = 0; i < e.nops(); ++i) r = add(r, from_ginac(e.op(i)));
        return r;
    }
    if (is_a<GiNaC::mul>(e)) {
        Ex r = one();
        for (size_t i = 0; i < e.nops(); ++i) r = mul(r, from_ginac(e.op(i)));
        return r;
    }
    if (is_a<GiNaC::power>(e)) {
        Ex base = from_ginac(e.op(0));
        GiNaC::ex expo = e.op(1);
        if (is_a<numeric>(expo) && ex_to<numeric>(expo).is_rational()) return pow(base, ex_to<numeric>(expo));
        return fn(Op::Exp, mul(from_ginac(expo), fn(Op::Log, base)));   // b^e = exp(e·log b), b > 0
    }
    if (is_a<GiNaC::function>(e)) {
        std::string name = ex_to<GiNaC::function>(e).get_name();
        if (name == "atan2" && e.nops() == 2) return atan2(from_ginac(e.op(0)), from_ginac(e.op(1)));
        static const std::map<std::string, Op> unary = {
            {"sin", Op::Sin}, {"cos", Op::Cos}, {"tan", Op::Tan}, {"exp", Op::Exp},
            {"log", Op::Log}, {"abs", Op::Abs}, {"sqrt", Op::Sqrt}, {"step", Op::Step}};
        auto it = unary.find(name);
        if (it != unary.end() && e.nops() == 1) return fn(it->second, from_ginac(e.op(0)));
        throw AlgebraError("unsupported function '" + name +
                           "': atoms support sin cos tan atan2 sqrt exp log abs step and rational powers");
    }
    std::ostringstream os;
    os << e;
    throw AlgebraError("unsupported expression '" + os.str() + "'");
}

}  // namespace railsym
