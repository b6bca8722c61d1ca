// vectors.cpp — base-carrying vector and tensor algebra.
#include "vectors.hpp"

namespace railsym {

namespace {
void same_tree(const Vector &a, const Vector &b)
{
    if (!a.valid() || !b.valid() || a.bt != b.bt)
        throw ModelError("vector operation on an empty vector or on vectors of different models");
}
}  // namespace

Vector Vector::in(int b) const
{
    if (b == base) return *this;
    return Vector(*bt, b, bt->express(c, base, b));
}

Vector Vector::in(const std::string &base_name) const { return in(bt->find(base_name, "vector")); }

Vector operator+(const Vector &a, const Vector &b)
{
    same_tree(a, b);
    return Vector(*a.bt, a.base, add(a.c, b.in(a.base).c));
}
Vector operator-(const Vector &a, const Vector &b)
{
    same_tree(a, b);
    return Vector(*a.bt, a.base, sub(a.c, b.in(a.base).c));
}
Vector operator-(const Vector &a) { return Vector(*a.bt, a.base, neg(a.c)); }
Vector operator*(Ex k, const Vector &a) { return Vector(*a.bt, a.base, scale(k, a.c)); }
Vector operator*(const Vector &a, Ex k) { return Vector(*a.bt, a.base, scale(k, a.c)); }
Vector operator/(const Vector &a, Ex k)
{
    return Vector(*a.bt, a.base, V3{a.c[0] / k, a.c[1] / k, a.c[2] / k});
}
Ex dot(const Vector &a, const Vector &b)
{
    same_tree(a, b);
    return dot(a.c, b.in(a.base).c);
}
Vector cross(const Vector &a, const Vector &b)
{
    same_tree(a, b);
    return Vector(*a.bt, a.base, cross(a.c, b.in(a.base).c));
}
Ex norm(const Vector &a) { return sqrt(dot(a.c, a.c)); }
Vector dt_in_base(const Vector &a) { return Vector(*a.bt, a.base, dt(a.c)); }

Tensor Tensor::in(int b) const
{
    if (b == base) return *this;
    return Tensor(*bt, b, bt->express_tensor(m, base, b));
}

Vector operator*(const Tensor &t, const Vector &v)
{
    if (!t.valid() || !v.valid() || t.bt != v.bt) throw ModelError("tensor·vector of different models");
    return Vector(*t.bt, t.base, mul(t.m, v.in(t.base).c));
}

Tensor operator+(const Tensor &a, const Tensor &b)
{
    return Tensor(*a.bt, a.base, add(a.m, b.in(a.base).m));
}

}  // namespace railsym
