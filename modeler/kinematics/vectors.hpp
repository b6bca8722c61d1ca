// vectors.hpp — vectors and tensors that carry their base.
//
// A Vector is three components plus the base they are given in (and the
// bases tree that base lives in); a Tensor is a 3×3 matrix plus its base.
// Binary operations between quantities in different bases convert the
// second operand into the first one's base (BaseTree::express, through the
// nearest common ancestor with memoized matrices): the result of a ⊕ b is in
// a's base.  So the user never writes a change of base, and
// which base a result lands in is predictable (order operands accordingly:
// put first the operand whose base you want the result in).
#ifndef RAILSYM_VECTORS_HPP
#define RAILSYM_VECTORS_HPP

#include <string>

#include "bases.hpp"

namespace railsym {

struct Vector {
    BaseTree *bt = nullptr;
    int base = 0;
    V3 c;   // components in `base`

    Vector() = default;
    Vector(BaseTree &t, int b, const V3 &comps) : bt(&t), base(b), c(comps) {}
    static Vector zero(BaseTree &t, int b = BaseTree::kGround) { return Vector(t, b, v3_zero(t.store())); }

    bool valid() const { return bt != nullptr; }
    Vector in(int b) const;                      // the same vector, components in base b
    Vector in(const std::string &base_name) const;
    const Ex &operator[](int i) const { return c[i]; }
    std::string base_name() const { return bt->name(base); }
};

Vector operator+(const Vector &a, const Vector &b);
Vector operator-(const Vector &a, const Vector &b);
Vector operator-(const Vector &a);
Vector operator*(Ex k, const Vector &a);
Vector operator*(const Vector &a, Ex k);
Vector operator/(const Vector &a, Ex k);
Ex dot(const Vector &a, const Vector &b);
Vector cross(const Vector &a, const Vector &b);
Ex norm(const Vector &a);
// Component derivative in the vector's own base: the time derivative of the
// vector *relative to that base*.
Vector dt_in_base(const Vector &a);

struct Tensor {
    BaseTree *bt = nullptr;
    int base = 0;
    M3 m;   // components in `base`: (T v)_base = m v_base

    Tensor() = default;
    Tensor(BaseTree &t, int b, const M3 &comps) : bt(&t), base(b), m(comps) {}
    bool valid() const { return bt != nullptr; }
    Tensor in(int b) const;   // R m Rᵀ
};

// T·v, in the tensor's base.
Vector operator*(const Tensor &t, const Vector &v);
Tensor operator+(const Tensor &a, const Tensor &b);

}  // namespace railsym

#endif
