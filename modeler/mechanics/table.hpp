// table.hpp — a one-dimensional table y(x) as an expression of atoms, for
// the non-linear suspension elements (force–deflection, force–velocity) and
// for `NAME(x)` in .vdl expressions (docs/elements.md "Tables").
//
// A table is its points (x strictly increasing, at least two) and how it
// joins them:
//   Linear  piecewise linear (C⁰; the slope jumps at the points);
//   Spline  monotone piecewise-cubic Hermite (Fritsch–Carlson, "pchip"): C¹,
//           and between two points it never leaves their y range, so a
//           monotone force–velocity curve stays monotone (no negative
//           damping from an overshooting interpolant).
// Outside [x_0, x_n] the table goes on as a straight line with its end
// slope (Linear: the end segment's; Spline: the end point's slope).
//
// The expression is built from the step atom (Op::Step) only, without any
// lookup construct, so the generated C stays plain arithmetic (C99,
// re-entrant, no tables in memory) and every derivative the generator takes
// (δ's Jacobians, d/dt) is the table's own slope:
//   xc = x − ramp(x − x_n) + ramp(x_0 − x)            (x clamped to the range)
//   y  = Σ_i w_i P_i(xc) + s_n ramp(x − x_n) − s_0 ramp(x_0 − x)
// with w_i the indicator of segment i (1 − step(x − x_1) for the first,
// step(x − x_i) − step(x − x_{i+1}) inside, step(x − x_{n−1}) for the last)
// and P_i the segment's polynomial in its local t = (xc − x_i)/h_i.  The
// sum is continuous, so the Dirac terms of step's derivative cancel and
// taking it as zero is exact.  Cost: about 12 atoms per segment.
#ifndef RAILSYM_TABLE_HPP
#define RAILSYM_TABLE_HPP

#include <string>
#include <vector>

#include "atoms.hpp"

namespace railsym {

struct Table {
    enum Interp { Linear, Spline };
    std::string name;
    Interp interp = Linear;
    std::vector<double> x, y;
    std::vector<double> m;   // the slope at each point (Spline: pchip; Linear: unused)
};

// Checks the points (finite, x strictly increasing, at least 2) and computes
// the slopes; throws ModelError naming the table and the fix.
Table make_table(const std::string &name, Table::Interp interp, const std::vector<double> &x,
                 const std::vector<double> &y);

// y(x) as an expression.
Ex table_value(Store &st, const Table &t, Ex x);
// ∫_0^x y(s) ds as an expression (the potential of a force–deflection table).
Ex table_integral(Store &st, const Table &t, Ex x);

}  // namespace railsym

#endif
