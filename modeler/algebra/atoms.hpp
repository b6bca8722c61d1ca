// atoms.hpp — the hash-consed atom store: railsym's symbolic algebra.
//
// An atom is one elementary operation (+ − × ÷, negation, a non-trivial
// rational power, or one of sin cos tan atan2 sqrt exp log abs step) whose operands
// are symbols, exact rational numbers or earlier atoms.  Every arithmetic
// operation on `Ex` handles goes through the store, which
//   * normalizes it (folds numbers, drops x+0 and x*1, turns x*0, x−x, x/x
//     into numbers, sorts commutative operands, pulls negations outwards,
//     rewrites small integer powers as products), then
//   * looks up its key (op, operand ids) and returns the existing atom when
//     there is one ("on-the-way" atomization, hash-consing).
// So expressions never swell: a product of N rotation matrices costs O(N)
// atoms.  Atoms are numbered in creation order; an atom's operands always
// have smaller ids, so id order is a topological order and every traversal
// is deterministic (never ordered by pointer or hash value).
//
// Invariants: nodes are immutable once created; ids are dense, 0-based;
// nodes 0 and 1 are the numbers 0 and 1.  One Store is not thread-safe;
// separate Stores are independent.  See docs/atoms.md.
#ifndef RAILSYM_ATOMS_HPP
#define RAILSYM_ATOMS_HPP

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include <ginac/ginac.h>

namespace railsym {

// Symbol kinds.  The order matches the input slots RS_IN_* of abi/rs_abi.h.
enum class SymKind : uint8_t {
    Time = 0, Coord, Vel, Acc, Aux, AuxVel, AuxAcc, Param, Input, Const,
};
constexpr int kNumSymKinds = 10;
using KindSet = uint16_t;  // bit (1 << int(SymKind)) set when an atom depends on that kind
inline constexpr KindSet kind_bit(SymKind k) { return KindSet(1u << int(k)); }
const char *sym_kind_name(SymKind k);   // "t", "q", "qd", ... (also the C array name)

enum class Op : uint8_t {
    Num, Sym,                      // leaves
    Add, Sub, Mul, Div, Neg,       // arithmetic
    Pow,                           // a ^ b, b a rational Num not in {±1, ±2, ±3, ±4, ±1/2, 3/2}
    Sin, Cos, Tan, Atan2, Sqrt, Exp, Log, Abs,
    // Heaviside step: 1 for a >= 0, else 0.  Its derivative is taken as 0
    // everywhere: exact for the continuous functions built from it (the ramp
    // a·step(a), tables as sums of segments that agree at their knots,
    // mechanics/table.hpp), whose Dirac terms cancel.  Appended last so the
    // earlier operations keep their numbers.
    Step,
};
const char *op_name(Op op);        // "add", "sin", ... ; function ops give their C name

struct Node {
    Op op;
    KindSet kinds;   // symbol kinds this node depends on (empty for numbers)
    int a = -1;      // first operand id (Num: index into the number table; Sym: symbol index)
    int b = -1;      // second operand id (binary ops and Atan2(y=a, x=b)), else -1
};

struct SymInfo {
    std::string name;
    SymKind kind;
    int slot;        // index in its kind's input array (q[slot], p[slot], ...)
    int id;          // node id of the symbol
    int dot = -1;    // node id of its time derivative symbol, -1 if none
};

// Errors of the algebra (division by zero, log of a non-positive number, ...).
struct AlgebraError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Store;

// A handle on an atom, a symbol or a number of one Store.  Cheap to copy.
class Ex {
public:
    Ex() = default;
    Ex(Store *s, int id) : st_(s), id_(id) {}
    Store *store() const { return st_; }
    int id() const { return id_; }
    bool valid() const { return st_ != nullptr && id_ >= 0; }
    const Node &node() const;
    Op op() const { return node().op; }
    bool is_number() const { return op() == Op::Num; }
    bool is_symbol() const { return op() == Op::Sym; }
    bool is_zero() const { return id_ == 0; }
    bool is_one() const { return id_ == 1; }
    KindSet kinds() const { return node().kinds; }
    bool depends_on(SymKind k) const { return (kinds() & kind_bit(k)) != 0; }
    bool operator==(const Ex &o) const { return st_ == o.st_ && id_ == o.id_; }
    bool operator!=(const Ex &o) const { return !(*this == o); }
    std::string str() const;   // readable infix form, atoms beyond a size named "a<id>"

private:
    Store *st_ = nullptr;
    int id_ = -1;
};

Ex operator+(Ex a, Ex b);
Ex operator-(Ex a, Ex b);
Ex operator*(Ex a, Ex b);
Ex operator/(Ex a, Ex b);
Ex operator-(Ex a);
Ex operator+(Ex a, double b);
Ex operator+(double a, Ex b);
Ex operator-(Ex a, double b);
Ex operator-(double a, Ex b);
Ex operator*(Ex a, double b);
Ex operator*(double a, Ex b);
Ex operator/(Ex a, double b);
Ex operator/(double a, Ex b);
Ex &operator+=(Ex &a, Ex b);
Ex &operator-=(Ex &a, Ex b);
Ex &operator*=(Ex &a, Ex b);
Ex pow(Ex a, int n);
Ex pow(Ex a, long num, long den);   // a^(num/den)
Ex sin(Ex a);
Ex cos(Ex a);
Ex tan(Ex a);
Ex atan2(Ex y, Ex x);
Ex sqrt(Ex a);
Ex exp(Ex a);
Ex log(Ex a);
Ex abs(Ex a);
Ex step(Ex a);   // Heaviside (Op::Step)
Ex ramp(Ex a);   // max(a, 0) = a·step(a), continuous, derivative step(a)

// Values of the symbols, one vector per kind, indexed by slot.  Missing
// entries read as zero.
struct SymValues {
    std::vector<double> v[kNumSymKinds];
    double get(SymKind k, int slot) const {
        const auto &x = v[int(k)];
        return slot < (int)x.size() ? x[slot] : 0.0;
    }
    void set(SymKind k, int slot, double x) {
        auto &vec = v[int(k)];
        if ((int)vec.size() <= slot) vec.resize(slot + 1, 0.0);
        vec[slot] = x;
    }
};

// A substitution: symbol (or any atom) -> expression.  Results are memoized
// inside the object, so applying it to many expressions shares the work.
class Substitution {
public:
    explicit Substitution(Store &s) : st_(&s) {}
    void set(Ex from, Ex to);
    Ex apply(Ex e);
private:
    Store *st_;
    std::unordered_map<int, int> subs_;  // the rules set by the user
    std::unordered_map<int, int> map_;   // rules plus memoized results: id -> substituted id
};

class Store {
public:
    Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    // --- leaves ---
    Ex num(int n) { return num(long(n)); }
    Ex num(long n);
    Ex num(long num, long den);
    Ex num(double x);                      // exact: every double is a dyadic rational
    Ex num(const GiNaC::numeric &x);       // must be rational
    Ex zero() { return Ex(this, 0); }
    Ex one() { return Ex(this, 1); }
    // A new symbol (name unique in the store; asking again with the same kind
    // returns it, with another kind throws).  `coordinate` makes q, q̇, q̈ linked
    // by time derivatives (names NAME, NAME_d, NAME_dd); `auxiliary` the same
    // for s; `time` is the one time symbol t.
    Ex symbol(const std::string &name, SymKind kind);
    Ex coordinate(const std::string &name);     // returns q; velocity() and acceleration() reach the others
    Ex auxiliary(const std::string &name);      // returns s
    Ex parameter(const std::string &name) { return symbol(name, SymKind::Param); }
    Ex input(const std::string &name) { return symbol(name, SymKind::Input); }
    Ex time();
    Ex dot(Ex symbol_ex);                       // the time-derivative symbol of a q, q̇, s, ṡ (throws otherwise)
    void link_dot(Ex sym, Ex dot_sym);          // declare dot_sym as the time derivative of sym (inputs with rates)
    bool has_symbol(const std::string &name) const { return by_name_.count(name) != 0; }
    Ex find_symbol(const std::string &name) const;   // throws if unknown
    const std::vector<SymInfo> &symbols() const { return syms_; }
    std::vector<Ex> symbols_of(SymKind k) const;     // in slot order
    int count(SymKind k) const { return slot_count_[int(k)]; }

    // --- node access (for code generation and printing) ---
    int size() const { return (int)nodes_.size(); }
    const Node &node(int id) const { return nodes_[id]; }
    const GiNaC::numeric &number(int id) const;     // id must be a Num node
    double number_value(int id) const;
    const SymInfo &sym(int id) const;               // id must be a Sym node
    Ex ex(int id) { return Ex(this, id); }

    // --- builders (the operators above call these) ---
    Ex add(Ex a, Ex b);
    Ex sub(Ex a, Ex b);
    Ex mul(Ex a, Ex b);
    Ex div(Ex a, Ex b);
    Ex neg(Ex a);
    Ex pow(Ex a, const GiNaC::numeric &r);          // r rational
    Ex fn(Op op, Ex a);                             // Sin Cos Tan Sqrt Exp Log Abs Step
    Ex atan2(Ex y, Ex x);

    // --- calculus ---
    // ∂e/∂v, v a symbol.  Memoized per (atom, symbol).
    Ex diff(Ex e, Ex v);
    // d/dt by the chain rule: Σ ∂e/∂x · ẋ over every symbol x with a time
    // derivative, plus ∂e/∂t.  Memoized per atom.
    Ex dt(Ex e);

    // --- evaluation and traversal ---
    // All node ids reachable from the roots (numbers and symbols included),
    // ascending (= dependency order).
    std::vector<int> reachable(const std::vector<int> &roots) const;
    std::vector<double> eval(const std::vector<Ex> &roots, const SymValues &vals) const;
    double eval(Ex e, const SymValues &vals) const { return eval(std::vector<Ex>{e}, vals)[0]; }

    // --- GiNaC bridge ---
    GiNaC::ex to_ginac(Ex e);                       // a GiNaC tree (may swell: for tests and contrast only)
    // Converts a GiNaC expression whose symbols are named like store symbols.
    Ex from_ginac(const GiNaC::ex &e);

    std::string str(Ex e, int max_len = 400) const;

    // statistics
    long hits() const { return hits_; }             // hash-cons lookups that found an existing atom

private:
    friend class Substitution;
    Ex make(Op op, int a, int b, KindSet kinds);
    int num_id(const GiNaC::numeric &x);
    Ex rebuild(Op op, Ex a, Ex b);                  // the normalizing builder for op on new operands

    std::vector<Node> nodes_;
    std::vector<GiNaC::numeric> numbers_;
    struct NumLess {
        bool operator()(const GiNaC::numeric &x, const GiNaC::numeric &y) const { return x.compare(y) < 0; }
    };
    std::map<GiNaC::numeric, int, NumLess> number_ids_;
    std::vector<SymInfo> syms_;
    std::vector<GiNaC::symbol> ginac_syms_;
    std::map<std::string, int> by_name_;            // name -> symbol index
    int slot_count_[kNumSymKinds] = {};
    std::unordered_map<uint64_t, int> keys_;        // (op, a, b) -> node id
    std::unordered_map<uint64_t, int> diff_memo_;   // (node, symbol node) -> node id
    std::unordered_map<int, int> dt_memo_;          // node -> node id
    int time_id_ = -1;
    long hits_ = 0;
};

}  // namespace railsym

#endif
