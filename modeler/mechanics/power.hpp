// power.hpp — the power terms of a model's energy balance, as one generated
// function "power" (runtime: RS_FN_POWER, the result columns power.*).
//
// Along a motion on a fixed track (no rheonomic constraint), the virtual
// power principle with the actual velocities gives the energy balance
//     d(T + V)/dt = P_inputs − P_damping − P_creep + P_other
// where, splitting every force element's loads (forces.hpp) F into
//     F_in  = F − F|_{u=0}                     (driven by the user's inputs u)
//     F_c   = F|_{u=0} − F|_{u=0, q̇=ṡ=0}      (velocity-dependent: damping)
//     F_k   = F|_{u=0, q̇=ṡ=0}                  (position- and time-dependent)
// and writing Q(F) for the generalized force of a load set (the same
// virtual-power sums as δ, so Q(F)·q̇ is exactly the loads' power):
//   P_inputs  = Σ Q(F_in)·q̇        power of input forces and torques (motors, brakes)
//   P_damping = −Σ Q(F_c)·q̇        dissipated by dampers, bushings' damping and the
//                                   velocity terms of written forces (≥ 0 for dampers)
//   P_creep   = −Σ_contacts f·ν     dissipated by the creep forces: (f_x, f_y, m_z)
//                                   times the slip velocities ν = (v(P_w)·t_x^r,
//                                   v(P_w)·t_y^r, ω·n^r) of the wheel's material
//                                   point (the rail is fixed); ≥ 0 for Kalker's law
//   P_other   = Σ Q(F_k)·q̇ + dV/dt    the power of the position- and time-
//                                   dependent forces that V does not account
//                                   for: written forces and torques (no
//                                   potential: e.g. a gear mesh's spring written
//                                   as a force expression), and for gravity,
//                                   springs and bushings what their V_e misses
//                                   (zero where V_e is the exact potential; not
//                                   so for a small-angle bushing's rotation
//                                   beyond small angles, V_e = ½ k θ², θ =
//                                   vee(skew R), or an anisotropic bushing
//                                   whose first frame turns; exact for the
//                                   Cayley law of `rotation large`)
// "User inputs" are every input but those a contact owns (spline
// coefficients and creep forces); V = potential_energy().  The normal contact
// forces do no work: with φ^d = 0 the gap φ^n is stationary in s, so
// φ^n_q q̇ = 0 on a fixed track.
#ifndef RAILSYM_POWER_HPP
#define RAILSYM_POWER_HPP

#include "system.hpp"

namespace railsym {

// Order of the four values of the "power" output (fixed: RS_FN_POWER).
enum PowerTerm { kPowerInputs = 0, kPowerDamping, kPowerCreep, kPowerOther, kPowerTerms };

// The four scalars above, as expressions.
std::vector<Ex> power_terms(System &sys);

}  // namespace railsym

#endif
