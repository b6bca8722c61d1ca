// inertia_check.cpp — see inertia_check.hpp.
#include "inertia_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace railsym {

std::array<double, 3> principal_moments(const Mat3d &m_in) {
    Mat3d a = m_in;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < i; ++j) a[i][j] = a[j][i];
    for (int sweep = 0; sweep < 50; ++sweep) {
        const double off = std::fabs(a[0][1]) + std::fabs(a[0][2]) + std::fabs(a[1][2]);
        const double scale = std::fabs(a[0][0]) + std::fabs(a[1][1]) + std::fabs(a[2][2]);
        if (off <= 1e-15 * scale || off == 0.0) break;
        for (int p = 0; p < 2; ++p)
            for (int q = p + 1; q < 3; ++q) {
                if (a[p][q] == 0.0) continue;
                // the rotation in the (p, q) plane that zeroes a[p][q]
                const double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; ++k) {  // columns p, q
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; ++k) {  // rows p, q
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
            }
    }
    std::array<double, 3> ev{a[0][0], a[1][1], a[2][2]};
    std::sort(ev.begin(), ev.end());
    return ev;
}

namespace {
std::string num(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v);
    return b;
}
}  // namespace

std::string inertia_problem(const Mat3d &m, bool triangle) {
    double scale = 0;
    for (const auto &r : m)
        for (double v : r) {
            if (!std::isfinite(v)) return "the inertia tensor has a component that is not finite";
            scale = std::max(scale, std::fabs(v));
        }
    const double tol = 1e-9 * scale;
    for (int i = 0; i < 3; ++i)
        for (int j = i + 1; j < 3; ++j)
            if (std::fabs(m[i][j] - m[j][i]) > tol)
                return "the inertia tensor is not symmetric (component " + std::to_string(i + 1) + "," +
                       std::to_string(j + 1) + " is " + num(m[i][j]) + ", " + std::to_string(j + 1) + "," +
                       std::to_string(i + 1) + " is " + num(m[j][i]) + "): write the same value in both";
    const std::array<double, 3> ev = principal_moments(m);
    const std::string moments = "principal moments " + num(ev[0]) + ", " + num(ev[1]) + ", " + num(ev[2]) + " kg m^2";
    if (ev[0] < -tol)
        return "the inertia tensor has a negative principal moment (" + moments +
               "): no body has one; check the signs of the diagonal and off-diagonal components";
    if (triangle && ev[2] > ev[0] + ev[1] + tol)
        return "the inertia tensor breaks the triangle inequality (" + moments + "; " + num(ev[2]) + " > " +
               num(ev[0]) + " + " + num(ev[1]) +
               "): no body has it, since each principal moment is at most the sum of the other two; check the values "
               "and their units (to keep published values that break it, add inertia_unchecked \"REASON\" to the "
               "body)";
    return "";
}

std::string mass_problem(double mass) {
    if (!std::isfinite(mass)) return "the mass is not finite";
    if (mass <= 0)
        return "the mass is " + num(mass) + " kg: a body's mass must be positive; give its mass in kg (a massless "
               "point needs no body: use a point)";
    return "";
}

}  // namespace railsym
