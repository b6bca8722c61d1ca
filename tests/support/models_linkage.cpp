// models_linkage.cpp — the four-bar linkage and the N-link spatial chain.
#include "models.hpp"

#include <cmath>
#include <stdexcept>

namespace railsym {
namespace models {

std::unique_ptr<System> four_bar(bool driven)
{
    auto s = std::make_unique<System>();
    System &S = *s;
    Ex z = S.store().zero();
    Ex l0 = S.param("l0", 2.0), l1 = S.param("l1", 0.5), l2 = S.param("l2", 2.0), l3 = S.param("l3", 1.5);
    Ex m1 = S.param("m1", 0.4), m2 = S.param("m2", 1.2), m3 = S.param("m3", 0.9), g = S.param("g", 9.81);
    Ex k = S.param("k", 50.0), c = S.param("c", 2.0), L0 = S.param("L0", 0.8);
    Ex th1 = S.coord("th1", 1.0), th2 = S.coord("th2"), th3 = S.coord("th3");
    S.add_base("B1", "ground", Axis::Y, th1);
    S.add_base("B2", "B1", Axis::Y, th2);
    S.add_base("B3", "B2", Axis::Y, th3);
    S.add_point("P1", "O", S.vec(l1, z, z, "B1"));
    S.add_point("P2", "P1", S.vec(l2, z, z, "B2"));
    S.add_point("P3", "P2", S.vec(l3, z, z, "B3"));
    S.add_point("D", "O", S.vec(l0, z, z, "ground"));
    S.add_point("G1", "O", S.vec(l1 / 2.0, z, z, "B1"));
    S.add_point("G2", "P1", S.vec(l2 / 2.0, z, z, "B2"));
    S.add_point("G3", "P2", S.vec(l3 / 2.0, z, z, "B3"));
    S.add_point("anchor", "O", S.vec(l0 / 2.0, z, S.param("h", 1.5), "ground"));
    Ex ms[3] = {m1, m2, m3}, ls[3] = {l1, l2, l3};
    const char *names[3] = {"link1", "link2", "link3"}, *cg[3] = {"G1", "G2", "G3"}, *bs[3] = {"B1", "B2", "B3"};
    for (int i = 0; i < 3; ++i) {
        Ex Ib = ms[i] * ls[i] * ls[i] / 12.0;
        S.add_body(names[i], ms[i], cg[i], S.diag(Ib / 100.0, Ib, Ib, bs[i]), bs[i]);
    }
    S.add_gravity(S.vec(z, z, -g, "ground"));
    S.add_spring_damper("spring", "anchor", "G2", k, c, L0, "", "link2");
    Vector gap = S.position("D", "P3", "ground");
    S.add_constraint("close_x", gap[0]);
    S.add_constraint("close_z", gap[2]);
    if (driven) {
        Ex w = S.param("w", 0.7), th10 = S.param("th10", 1.0);
        S.add_constraint("drive", th1 - w * S.time() - th10);
    }
    return s;
}

std::vector<double> four_bar_closure(const System &csys, double th1)
{
    System &sys = const_cast<System &>(csys);
    SymValues x = sys.defaults();
    x.set(SymKind::Coord, 0, th1);
    // Start from the elbow-up guess and run Newton on the two closure equations in (th2, th3).
    x.set(SymKind::Coord, 1, -th1 + 0.3);
    x.set(SymKind::Coord, 2, -1.5);
    std::vector<Ex> phi = sys.phi(), J = sys.phi_q();
    const int n = 3;
    for (int it = 0; it < 50; ++it) {
        std::vector<double> f = eval(sys, phi, x), jac = eval(sys, J, x);
        double a = jac[0 * n + 1], b = jac[0 * n + 2], c = jac[1 * n + 1], d = jac[1 * n + 2];
        double det = a * d - b * c;
        double d2 = (d * f[0] - b * f[1]) / det, d3 = (-c * f[0] + a * f[1]) / det;
        x.set(SymKind::Coord, 1, x.get(SymKind::Coord, 1) - d2);
        x.set(SymKind::Coord, 2, x.get(SymKind::Coord, 2) - d3);
        if (std::fabs(d2) + std::fabs(d3) < 1e-14) break;
    }
    std::vector<double> f = eval(sys, phi, x);
    if (std::fabs(f[0]) + std::fabs(f[1]) > 1e-10) throw std::runtime_error("four_bar_closure: no convergence");
    return {th1, x.get(SymKind::Coord, 1), x.get(SymKind::Coord, 2)};
}

std::unique_ptr<System> chain(int n)
{
    auto s = std::make_unique<System>();
    System &S = *s;
    Ex z = S.store().zero();
    Ex g = S.param("g", 9.81);
    std::string prev_base = "ground", prev_point = "O";
    for (int k = 1; k <= n; ++k) {
        std::string K = std::to_string(k);
        Ex m = S.param("m_" + K, 1.0 + 0.1 * k), L = S.param("L_" + K, 0.5 + 0.01 * k);
        Ex Ixx = S.param("Ixx_" + K, 0.02 + 0.001 * k), Iyy = S.param("Iyy_" + K, 0.025 + 0.001 * k);
        Ex Izz = S.param("Izz_" + K, 0.004 + 0.0005 * k);
        Ex q = S.coord("q" + K, 0.1 * k);
        std::string B = "B" + K, G = "G" + K, P = "P" + K;
        S.add_base(B, prev_base, (k % 2) ? Axis::X : Axis::Y, q);
        S.add_point(G, prev_point, S.vec(z, z, -L / 2.0, B));
        S.add_point(P, prev_point, S.vec(z, z, -L, B));
        S.add_body("link" + K, m, G, S.diag(Ixx, Iyy, Izz, B), B);
        prev_base = B;
        prev_point = P;
    }
    S.add_gravity(S.vec(z, z, -g, "ground"));
    return s;
}

}  // namespace models
}  // namespace railsym
