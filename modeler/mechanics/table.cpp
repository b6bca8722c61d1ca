// table.cpp — see table.hpp.
#include "table.hpp"

#include <cmath>
#include <cstdio>

#include "model_error.hpp"

namespace railsym {

namespace {

std::string num_text(double v)
{
    char b[32];
    std::snprintf(b, sizeof b, "%g", v);
    return b;
}

double sgn(double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : 0.0; }

// Fritsch–Carlson slopes as in Fritsch & Butland (1984) and Moler,
// "Numerical Computing with MATLAB", §3.4: inside, the weighted harmonic
// mean of the neighbouring secants (zero where they differ in sign or one is
// zero); at the ends a one-sided three-point formula, limited so the end
// segment stays monotone.
std::vector<double> pchip_slopes(const std::vector<double> &x, const std::vector<double> &y)
{
    const size_t n = x.size();
    std::vector<double> h(n - 1), d(n - 1), m(n, 0.0);
    for (size_t i = 0; i + 1 < n; ++i) {
        h[i] = x[i + 1] - x[i];
        d[i] = (y[i + 1] - y[i]) / h[i];
    }
    if (n == 2) {
        m[0] = m[1] = d[0];
        return m;
    }
    for (size_t i = 1; i + 1 < n; ++i) {
        if (d[i - 1] * d[i] <= 0) continue;
        double w1 = 2 * h[i] + h[i - 1], w2 = h[i] + 2 * h[i - 1];
        m[i] = (w1 + w2) / (w1 / d[i - 1] + w2 / d[i]);
    }
    auto end = [](double h0, double h1, double d0, double d1) {
        double s = ((2 * h0 + h1) * d0 - h0 * d1) / (h0 + h1);
        if (sgn(s) != sgn(d0)) return 0.0;
        if (sgn(d0) != sgn(d1) && std::fabs(s) > 3 * std::fabs(d0)) return 3 * d0;
        return s;
    };
    m[0] = end(h[0], h[1], d[0], d[1]);
    m[n - 1] = end(h[n - 2], h[n - 3], d[n - 2], d[n - 3]);
    return m;
}

// The pieces every expression of a table shares.
struct Pieces {
    Ex xc, eR, eL;            // clamped x; how far beyond the right and left ends
    std::vector<Ex> w, tt;    // per segment: indicator, local t in [0, 1]
};

Pieces pieces(Store &st, const Table &t, Ex x)
{
    const size_t n = t.x.size();
    Pieces p;
    Ex x0 = st.num(t.x.front()), xn = st.num(t.x.back());
    p.eR = ramp(x - xn);
    p.eL = ramp(x0 - x);
    p.xc = x - p.eR + p.eL;
    for (size_t i = 0; i + 1 < n; ++i) {
        Ex lo = i == 0 ? st.one() : step(x - st.num(t.x[i]));
        Ex hi = i + 2 == n ? st.zero() : step(x - st.num(t.x[i + 1]));
        p.w.push_back(lo - hi);
        p.tt.push_back((p.xc - st.num(t.x[i])) / st.num(t.x[i + 1] - t.x[i]));
    }
    return p;
}

double end_slope(const Table &t, bool right)
{
    const size_t n = t.x.size();
    if (t.interp == Table::Spline) return right ? t.m[n - 1] : t.m[0];
    return right ? (t.y[n - 1] - t.y[n - 2]) / (t.x[n - 1] - t.x[n - 2]) : (t.y[1] - t.y[0]) / (t.x[1] - t.x[0]);
}

}  // namespace

Table make_table(const std::string &name, Table::Interp interp, const std::vector<double> &x,
                 const std::vector<double> &y)
{
    const std::string ctx = "table '" + name + "'";
    if (x.size() != y.size()) throw ModelError(ctx + ": as many x as y values are needed");
    if (x.size() < 2) throw ModelError(ctx + ": a table needs at least 2 points [[x1, y1], [x2, y2], ...]");
    for (size_t i = 0; i < x.size(); ++i) {
        if (!std::isfinite(x[i]) || !std::isfinite(y[i]))
            throw ModelError(ctx + ": point " + std::to_string(i + 1) + " is not finite");
        if (i > 0 && !(x[i] > x[i - 1]))
            throw ModelError(ctx + ": x must increase strictly from point to point; point " + std::to_string(i + 1) +
                             " has x = " + num_text(x[i]) + " after " + num_text(x[i - 1]) +
                             " (sort the points, and merge points with the same x)");
    }
    Table t;
    t.name = name;
    t.interp = interp;
    t.x = x;
    t.y = y;
    t.m = pchip_slopes(x, y);
    return t;
}

Ex table_value(Store &st, const Table &t, Ex x)
{
    Pieces p = pieces(st, t, x);
    Ex v = st.num(end_slope(t, true)) * p.eR - st.num(end_slope(t, false)) * p.eL;
    for (size_t i = 0; i < p.w.size(); ++i) {
        const Ex s = p.tt[i], y0 = st.num(t.y[i]), y1 = st.num(t.y[i + 1]);
        Ex P;
        if (t.interp == Table::Linear) {
            P = y0 + (y1 - y0) * s;
        } else {   // cubic Hermite: h00 y0 + h10 h m0 + h01 y1 + h11 h m1
            const double h = t.x[i + 1] - t.x[i];
            Ex s2 = s * s, s3 = s2 * s;
            P = (2.0 * s3 - 3.0 * s2 + 1.0) * y0 + (s3 - 2.0 * s2 + s) * st.num(h * t.m[i]) +
                (3.0 * s2 - 2.0 * s3) * y1 + (s3 - s2) * st.num(h * t.m[i + 1]);
        }
        v = v + p.w[i] * P;
    }
    return v;
}

Ex table_integral(Store &st, const Table &t, Ex x)
{
    // I(x) = ∫_{x_0}^x y: per segment the integral up to its start (exact,
    // in doubles) plus h ∫_0^t P; beyond the ends the straight lines' areas.
    // Then I(x) − I(0), so the integral is zero at x = 0.
    auto I = [&](Ex xe) {
        Pieces p = pieces(st, t, xe);
        const size_t n = t.x.size();
        const double sR = end_slope(t, true), sL = end_slope(t, false);
        Ex v = st.num(t.y[n - 1]) * p.eR + st.num(0.5 * sR) * p.eR * p.eR - st.num(t.y[0]) * p.eL +
               st.num(0.5 * sL) * p.eL * p.eL;
        double G = 0;   // ∫ from x_0 to the segment's start
        for (size_t i = 0; i < p.w.size(); ++i) {
            const double h = t.x[i + 1] - t.x[i], y0 = t.y[i], y1 = t.y[i + 1];
            const Ex s = p.tt[i], s2 = s * s, s3 = s2 * s, s4 = s2 * s2;
            Ex A;   // h ∫_0^s P
            double whole;
            if (t.interp == Table::Linear) {
                A = st.num(h * y0) * s + st.num(0.5 * h * (y1 - y0)) * s2;
                whole = 0.5 * h * (y0 + y1);
            } else {   // ∫h00 = s − s³ + s⁴/2, ∫h10 = s²/2 − 2s³/3 + s⁴/4, ∫h01 = s³ − s⁴/2, ∫h11 = s⁴/4 − s³/3
                const double a = h * y0, b = h * h * t.m[i], c = h * y1, d = h * h * t.m[i + 1];
                A = st.num(a) * (s - s3 + 0.5 * s4) + st.num(b) * (0.5 * s2 - s3 * 2.0 / 3.0 + 0.25 * s4) +
                    st.num(c) * (s3 - 0.5 * s4) + st.num(d) * (0.25 * s4 - s3 / 3.0);
                whole = 0.5 * (a + c) + (b - d) / 12.0;
            }
            v = v + p.w[i] * (st.num(G) + A);
            G += whole;
        }
        return v;
    };
    return I(x) - I(st.zero());
}

}  // namespace railsym
