// vec3.hpp — 3-vectors and 3×3 matrices of atoms, as plain component arrays.
//
// These carry no base: they are the component level under Vector and Tensor
// (vectors.hpp) and the rotation matrices of the bases tree (bases.hpp).
// Every entry is an Ex of one Store, so every operation below is atomized on
// the way; zeros and ones fold at creation, so the sparsity of a rotation
// about a coordinate axis costs nothing.
#ifndef RAILSYM_VEC3_HPP
#define RAILSYM_VEC3_HPP

#include <array>

#include "atoms.hpp"

namespace railsym {

using V3 = std::array<Ex, 3>;
using M3 = std::array<V3, 3>;   // row-major: m[row][col]

inline V3 v3(Ex x, Ex y, Ex z) { return V3{x, y, z}; }
inline V3 v3_zero(Store &s) { return V3{s.zero(), s.zero(), s.zero()}; }
inline M3 m3_zero(Store &s) { return M3{v3_zero(s), v3_zero(s), v3_zero(s)}; }
inline M3 m3_identity(Store &s)
{
    M3 m = m3_zero(s);
    for (int i = 0; i < 3; ++i) m[i][i] = s.one();
    return m;
}
inline M3 m3_diag(Ex a, Ex b, Ex c)
{
    Store &s = *a.store();
    M3 m = m3_zero(s);
    m[0][0] = a;
    m[1][1] = b;
    m[2][2] = c;
    return m;
}

inline V3 add(const V3 &a, const V3 &b) { return V3{a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
inline V3 sub(const V3 &a, const V3 &b) { return V3{a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
inline V3 neg(const V3 &a) { return V3{-a[0], -a[1], -a[2]}; }
inline V3 scale(Ex k, const V3 &a) { return V3{k * a[0], k * a[1], k * a[2]}; }
inline Ex dot(const V3 &a, const V3 &b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
inline V3 cross(const V3 &a, const V3 &b)
{
    return V3{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

inline V3 mul(const M3 &m, const V3 &v)
{
    return V3{dot(m[0], v), dot(m[1], v), dot(m[2], v)};
}
// mᵀ v without building the transpose.
inline V3 mul_t(const M3 &m, const V3 &v)
{
    V3 r;
    for (int j = 0; j < 3; ++j) r[j] = m[0][j] * v[0] + m[1][j] * v[1] + m[2][j] * v[2];
    return r;
}
inline M3 transpose(const M3 &m)
{
    M3 t;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) t[i][j] = m[j][i];
    return t;
}
inline M3 mul(const M3 &a, const M3 &b)
{
    M3 r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
    return r;
}
inline M3 add(const M3 &a, const M3 &b)
{
    M3 r;
    for (int i = 0; i < 3; ++i) r[i] = add(a[i], b[i]);
    return r;
}

// Componentwise time derivative (store.dt on each entry).
inline V3 dt(const V3 &a)
{
    Store &s = *a[0].store();
    return V3{s.dt(a[0]), s.dt(a[1]), s.dt(a[2])};
}
inline M3 dt(const M3 &m) { return M3{dt(m[0]), dt(m[1]), dt(m[2])}; }
// Componentwise partial derivative with respect to a symbol.
inline V3 diff(const V3 &a, Ex v)
{
    Store &s = *a[0].store();
    return V3{s.diff(a[0], v), s.diff(a[1], v), s.diff(a[2], v)};
}

// The axial vector of the skew-symmetric part of m: for m = [w]× it is w.
inline V3 vee_skew(const M3 &m)
{
    return V3{(m[2][1] - m[1][2]) / 2.0, (m[0][2] - m[2][0]) / 2.0, (m[1][0] - m[0][1]) / 2.0};
}

inline bool is_zero(const V3 &a) { return a[0].is_zero() && a[1].is_zero() && a[2].is_zero(); }

}  // namespace railsym

#endif
