// models_wheelset.cpp — a single wheelset with two wheel-rail contacts.
//
// Geometry (docs/contact_element.md): ground x along the track, y left, z up.
// The wheelset centre O_ws = O + [x, y, r0 + z] (ground); bases
//   B_yaw = rotate(ground, z, yaw),  B_nsw = rotate(B_yaw, x, roll)  (non-spinning),
//   B_ws  = rotate(B_nsw, y, spin)   (the body's base);
// wheel centres W_left/W_right = O_ws ± [0, b0, 0] in B_nsw (taping-line
// planes).  Rails: profile origins at ±b_r from the track centre line, at
// height 0, so a centred wheelset at z = 0 touches both rails when the
// profiles pass through their origins (cone + inclined rail head of the
// tests).  The suspension is a bushing between a carrier frame that follows
// x (C = O + [x, 0, r0] in ground) and the axle frame (O_ws, B_nsw): the
// axle boxes do not spin, so no torque about the axle reaches the wheelset.
#include "models.hpp"

namespace railsym {
namespace models {

std::unique_ptr<System> wheelset(const WheelsetOptions &opt)
{
    auto sp = std::make_unique<System>();
    System &S = *sp;
    Ex z0 = S.store().zero();
    Ex m = S.param("m_ws", 1250.0), Ix = S.param("Ix", 700.0), Iy = S.param("Iy", 100.0);
    Ex r0 = S.param("r0", 0.45), b0 = S.param("b0", 0.75), br = S.param("b_r", 0.75);
    Ex g = S.param("g", 9.81);
    Ex ky = S.param("ky", 1e5), kz = S.param("kz", 0.0), kroll = S.param("kroll", 0.0), kyaw = S.param("kyaw", 1e5);
    Ex cy = S.param("cy", 0.0), cz = S.param("cz", 0.0), croll = S.param("croll", 0.0), cyaw = S.param("cyaw", 0.0);

    Ex x = opt.driven ? S.param("v", 10.0) * S.time() : S.coord("x");
    Ex y = S.coord("y"), z = S.coord("z"), roll = S.coord("roll"), yaw = S.coord("yaw"), spin = S.coord("spin");

    S.add_base("B_yaw", "ground", Axis::Z, yaw);
    S.add_base("B_nsw", "B_yaw", Axis::X, roll);
    S.add_base("B_ws", "B_nsw", Axis::Y, spin);
    S.add_point("O_ws", "O", S.vec(x, y, r0 + z, "ground"));
    S.add_body("wheelset", m, "O_ws", S.diag(Ix, Iy, Ix, "B_nsw"), "B_ws");
    S.add_point("W_left", "O_ws", S.vec(z0, b0, z0, "B_nsw"));
    S.add_point("W_right", "O_ws", S.vec(z0, -b0, z0, "B_nsw"));
    S.add_gravity(S.vec(z0, z0, -g, "ground"));

    S.add_point("C", "O", S.vec(x, z0, r0, "ground"));
    S.add_frame("carrier", "C", "ground");
    S.add_frame("axle", "O_ws", "B_nsw");
    S.add_bushing("suspension", "carrier", "axle", {z0, ky, kz, kroll, z0, kyaw}, {z0, cy, cz, croll, z0, cyaw});

    for (int side : {+1, -1}) {
        ContactSpec c;
        c.name = side > 0 ? "left" : "right";
        c.wheel_body = "wheelset";
        c.wheel_centre = side > 0 ? "W_left" : "W_right";
        c.wheel_base = "B_nsw";
        c.side = side;
        c.r0 = r0;
        c.rail_offset = br;
        S.add_contact(c);
    }
    return sp;
}

}  // namespace models
}  // namespace railsym
