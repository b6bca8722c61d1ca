// models.hpp — the example models of the modeler, built with the C++ API,
// and small numeric helpers the modeler tests share.
//
// Each builder returns a complete System (bodies, forces, constraints) whose
// parameters have default values (System::defaults()).  Coordinates are
// created in the order listed, so they are q[0], q[1], ... in that order.
#ifndef RAILSYM_TESTS_MODELS_HPP
#define RAILSYM_TESTS_MODELS_HPP

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "system.hpp"

namespace railsym {
namespace models {

// Pendulum swinging about ground y: q = th; centre of mass at distance l
// below the pivot along −z of its base; params m, l, J (about y at G), g.
std::unique_ptr<System> pendulum();
// Double pendulum in the x-z plane, relative angles: q = th1, th2 (th2
// relative to link 1); params m1 m2 l1 l2 J1 J2 g; masses at the link ends.
std::unique_ptr<System> double_pendulum();
// Free rigid body, 6 coordinates: q = x y z (ground) then yaw psi (z),
// pitch theta (y), roll phi (x); full inertia tensor (with products) in the
// body base "B".  With gravity when `gravity`; with a bushing to ground
// (translational stiffness kx ky kz only) when `bushing`.
std::unique_ptr<System> free_body(bool gravity = false, bool bushing = false);
// Symmetric top on a fixed point: q = psi (z), theta (x), phi (z); centre of
// mass at distance l on the symmetry axis; inertia diag(A, A, C) about the
// centre of mass, given in the spinning base B3, or (inertia_in_nonspinning)
// in the non-spinning base B2 — the same top.
std::unique_ptr<System> spinning_top(bool inertia_in_nonspinning = false);
// Planar four-bar (x-z plane, rotations about y): q = th1, th2, th3 (th2,
// th3 relative), closed by 2 constraints (tip of link 3 at D = [l0,0,0]).
// A spring-damper pulls the middle of link 2 towards a ground point.  When
// `driven`, a third, time-dependent constraint th1 − w t − th10 = 0.
std::unique_ptr<System> four_bar(bool driven = false);
// N-link spatial chain hanging from O: link k turns about x (k odd) or y
// (k even) of the previous link; per-link params m_k, L_k, Ixx_k, Iyy_k, Izz_k.
std::unique_ptr<System> chain(int n);

// ==== wheelset with wheel-rail contacts (tests/support/models_wheelset.cpp) ====
// A single wheelset on a track (docs/contact_element.md): q = x (absent when
// `driven`: x = v t), y, z, roll (about x), yaw (about z), spin (about the
// axle); bases B_yaw, B_nsw (non-spinning), B_ws (spinning); wheel centres
// W_left/W_right at ±b0 on the axle; contacts "left" (side +1) and "right"
// (side −1) with rail offset b_r; a bushing (ky, kz, k_roll, k_yaw and
// dampings) to a carrier frame that follows x; gravity.  Params m_ws, Ix,
// Iy, r0, b0, b_r, g, ky, kz, kroll, kyaw, cy, cz, croll, cyaw (and v).
struct WheelsetOptions {
    bool driven = false;
};
std::unique_ptr<System> wheelset(const WheelsetOptions &opt = WheelsetOptions());
// ==== end of wheelset ====

// The four-bar's consistent configuration for a given th1 (th2, th3 solved
// numerically), for tests that need a state on the constraint manifold.
std::vector<double> four_bar_closure(const System &sys, double th1);

// ---- numeric helpers ----
// Defaults plus random q, q̇, q̈ (uniform in [−1, 1]), s, ṡ, s̈ likewise, and t.
SymValues random_state(System &sys, std::mt19937 &rng);
std::vector<double> eval(System &sys, const std::vector<Ex> &v, const SymValues &x);
// Solves the dense n×n system A x = b (row-major A) by Gaussian elimination
// with partial pivoting.
std::vector<double> solve(std::vector<double> A, std::vector<double> b, int n);
// Cholesky test: true when the symmetric A is positive definite.
bool positive_definite(const std::vector<double> &A, int n);

}  // namespace models
}  // namespace railsym

#endif
