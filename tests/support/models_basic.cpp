// models_basic.cpp — pendulum, double pendulum, free rigid body, spinning top.
#include "models.hpp"

namespace railsym {
namespace models {

std::unique_ptr<System> pendulum()
{
    auto s = std::make_unique<System>();
    System &S = *s;
    Ex m = S.param("m", 2.0), l = S.param("l", 0.8), J = S.param("J", 0.1), g = S.param("g", 9.81);
    Ex th = S.coord("th", 0.3);
    S.add_base("B", "ground", Axis::Y, th);
    S.add_point("G", "O", S.vec(S.store().zero(), S.store().zero(), -l, "B"));
    S.add_body("bob", m, "G", S.diag(J, J, J, "B"), "B");
    S.add_gravity(S.vec(S.store().zero(), S.store().zero(), -g, "ground"));
    S.add_output("height", S.position("O", "G", "ground")[2]);
    return s;
}

std::unique_ptr<System> double_pendulum()
{
    auto s = std::make_unique<System>();
    System &S = *s;
    Ex z = S.store().zero();
    Ex m1 = S.param("m1", 1.0), m2 = S.param("m2", 1.5), l1 = S.param("l1", 1.0), l2 = S.param("l2", 0.7);
    Ex J1 = S.param("J1", 0.05), J2 = S.param("J2", 0.08), g = S.param("g", 9.81);
    Ex th1 = S.coord("th1", 0.2), th2 = S.coord("th2", -0.1);
    S.add_base("B1", "ground", Axis::Y, th1);
    S.add_base("B2", "B1", Axis::Y, th2);
    S.add_point("P1", "O", S.vec(z, z, -l1, "B1"));
    S.add_point("P2", "P1", S.vec(z, z, -l2, "B2"));
    S.add_body("link1", m1, "P1", S.diag(J1, J1, J1, "B1"), "B1");
    S.add_body("link2", m2, "P2", S.diag(J2, J2, J2, "B2"), "B2");
    S.add_gravity(S.vec(z, z, -g, "ground"));
    return s;
}

std::unique_ptr<System> free_body(bool gravity, bool bushing)
{
    auto s = std::make_unique<System>();
    System &S = *s;
    Ex z = S.store().zero();
    Ex m = S.param("m", 3.0), g = S.param("g", 9.81);
    Ex Ixx = S.param("Ixx", 0.5), Iyy = S.param("Iyy", 0.8), Izz = S.param("Izz", 1.1);
    Ex Ixy = S.param("Ixy", 0.05), Ixz = S.param("Ixz", -0.03), Iyz = S.param("Iyz", 0.02);
    Ex x = S.coord("x"), y = S.coord("y"), zc = S.coord("z");
    Ex psi = S.coord("psi"), theta = S.coord("theta"), phi = S.coord("phi");
    S.add_base("B1", "ground", Axis::Z, psi);
    S.add_base("B2", "B1", Axis::Y, theta);
    S.add_base("B", "B2", Axis::X, phi);
    S.add_point("G", "O", S.vec(x, y, zc, "ground"));
    M3 I{V3{Ixx, Ixy, Ixz}, V3{Ixy, Iyy, Iyz}, V3{Ixz, Iyz, Izz}};
    S.add_body("body", m, "G", I, "B", "B");
    if (gravity) S.add_gravity(S.vec(z, z, -g, "ground"));
    if (bushing) {
        Ex kx = S.param("kx", 100.0), ky = S.param("ky", 200.0), kz = S.param("kz", 300.0);
        S.add_point("A", "G", S.vec(S.param("ax", 0.2), S.param("ay", -0.1), S.param("az", 0.3), "B"));
        S.add_frame("FA", "A", "B");
        S.add_bushing("mount", "ground", "FA", {kx, ky, kz, z, z, z}, {z, z, z, z, z, z}, "", "body");
    }
    return s;
}

std::unique_ptr<System> spinning_top(bool inertia_in_nonspinning)
{
    auto s = std::make_unique<System>();
    System &S = *s;
    Ex z = S.store().zero();
    Ex m = S.param("m", 0.5), l = S.param("l", 0.04), A = S.param("A", 2e-4), C = S.param("C", 3e-4);
    Ex g = S.param("g", 9.81);
    Ex psi = S.coord("psi"), theta = S.coord("theta", 0.4), phi = S.coord("phi");
    S.add_base("B1", "ground", Axis::Z, psi);
    S.add_base("B2", "B1", Axis::X, theta);
    S.add_base("B3", "B2", Axis::Z, phi);
    S.add_point("G", "O", S.vec(z, z, l, "B2"));
    S.add_frame("top_frame", "G", "B3");
    S.add_body("top", m, "G", S.diag(A, A, C, inertia_in_nonspinning ? "B2" : "B3"), "top_frame");
    S.add_gravity(S.vec(z, z, -g, "ground"));
    return s;
}

}  // namespace models
}  // namespace railsym
