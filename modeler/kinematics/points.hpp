// points.hpp — the points tree: positions between any two points, and the
// velocity and acceleration of every point relative to ground, memoized.
//
// Each point p except the root "O" (index 0, fixed in ground) is defined from
// a parent point by a position vector r_parent_p whose components are given
// in some base B_p, its "native" base.  Notation: r_A_B_C is the vector from
// point A to point B in components of base C.
//
// Velocity and acceleration relative to ground are kept in the native base
// of each point, by the motion composition law along the tree:
//   v_p = R_Bp_Bq v_q + ω_Bp × r + ṙ          (ṙ: component derivative in B_p)
//   a_p = d/dt(v_p components) + ω_Bp × v_p   (derivative of a vector held in
//                                               the rotating base B_p)
// Each step costs O(1) new atoms and reuses the parent's, so a chain of n
// points costs O(n) — the sharing a recursive O(n) formulation has.  Velocity
// relative to another frame is composed from these (system.cpp).
//
// Invariants: parents exist before children (parent index < child index: no
// cycles), creation order is topological.
#ifndef RAILSYM_POINTS_HPP
#define RAILSYM_POINTS_HPP

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "bases.hpp"

namespace railsym {

class PointTree {
public:
    static constexpr int kOrigin = 0;

    PointTree(Store &s, BaseTree &bases);

    // p = parent + r, r given by components in base `base`.
    int add(const std::string &name, int parent, int base, const V3 &r);

    int size() const { return (int)nodes_.size(); }
    const std::string &name(int p) const { return nodes_.at(p).name; }
    int parent(int p) const { return nodes_.at(p).parent; }
    int depth(int p) const { return nodes_.at(p).depth; }
    int base(int p) const { return nodes_.at(p).base; }      // native base of p
    const V3 &r(int p) const { return nodes_.at(p).r; }       // r_parent_p in base(p)
    int lookup(const std::string &name) const;
    int find(const std::string &name, const std::string &context) const;
    std::vector<std::string> names() const;
    int common_ancestor(int a, int b) const;

    // r_from_to in components of base `in`, through the nearest common
    // ancestor C: r_C_to − r_C_from, each a memoized sum along the tree.
    V3 position(int from, int to, int in);
    // Velocity / acceleration of p relative to ground, in base(p) components.
    V3 velocity(int p);
    V3 acceleration(int p);

private:
    struct Node {
        std::string name;
        int parent = -1, depth = 0, base = 0;
        V3 r;
    };
    V3 from_ancestor(int anc, int p, int in);   // r_anc_p in `in`

    Store *st_;
    BaseTree *bt_;
    std::vector<Node> nodes_;
    std::map<std::string, int> by_name_;
    std::map<std::tuple<int, int, int>, V3> pos_memo_;
    std::map<int, V3> vel_memo_, acc_memo_;
};

}  // namespace railsym

#endif
