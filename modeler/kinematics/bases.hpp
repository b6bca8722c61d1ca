// bases.hpp — the bases tree: orientations, rotation matrices between any two
// bases, angular velocities and accelerations, all memoized along the tree.
//
// Notation (docs/modeler.md): R_A_B is the matrix that maps components in
// base B to components in base A (v_A = R_A_B v_B).  Each base b except the
// root stores its edge matrix R_parent_b and the angular velocity of b
// relative to its parent.  The root, index 0, is "ground".
//
// Invariants: a base is defined from a parent that already exists, so parent
// index < child index, the tree has no cycles by construction, and creation
// order is a topological order (the dynamics sweeps rely on it).  Memoized
// results are stored by value per (base, base) key; nothing is ever
// invalidated because a defined base never changes.
#ifndef RAILSYM_BASES_HPP
#define RAILSYM_BASES_HPP

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model_error.hpp"
#include "vec3.hpp"

namespace railsym {

enum class Axis { X, Y, Z };

class BaseTree {
public:
    static constexpr int kGround = 0;

    explicit BaseTree(Store &s);
    Store &store() const { return *st_; }

    // --- definitions (each returns the new base's index) ---
    // Rotation about a coordinate axis of the parent by `angle` (right hand rule).
    int add_rotation(const std::string &name, int parent, Axis axis, Ex angle);
    // Rotation about a unit axis given in parent components (equal to its
    // components in the new base).  A numeric axis must have unit length.
    int add_rotation(const std::string &name, int parent, const V3 &axis, Ex angle);
    // Euler parameters (unit quaternion e0 + e1 i + e2 j + e3 k); the model
    // must keep e0²+e1²+e2²+e3² = 1 (e.g. by a constraint).  Numeric ones are
    // checked.
    int add_euler(const std::string &name, int parent, Ex e0, Ex e1, Ex e2, Ex e3);
    // A general matrix R_parent_new.  When every entry is a number it must be
    // a proper rotation (RᵀR = I and det R = +1, to 1e-9).
    int add_matrix(const std::string &name, int parent, const M3 &R_parent_new);

    // --- structure ---
    int size() const { return (int)nodes_.size(); }
    const std::string &name(int b) const { return nodes_.at(b).name; }
    int parent(int b) const { return nodes_.at(b).parent; }
    int depth(int b) const { return nodes_.at(b).depth; }
    int lookup(const std::string &name) const;   // -1 when unknown
    // The index of a base; throws ModelError naming `context` and suggesting
    // the closest known names when unknown.
    int find(const std::string &name, const std::string &context) const;
    std::vector<std::string> names() const;
    int common_ancestor(int a, int b) const;
    bool is_ancestor(int anc, int b) const;   // anc == b counts

    // --- rotation matrices ---
    const M3 &edge(int b) const { return nodes_.at(b).R; }   // R_parent_b
    // R_anc_b for an ancestor `anc` of b; memoized per pair and built as
    // R_anc_parent(b) · R_parent(b)_b, so every ancestor product is shared.
    M3 to_ancestor(int b, int anc);
    // R_to_from for any two bases, through their nearest common ancestor C:
    // R_C_to ᵀ · R_C_from.  Memoized per pair.
    M3 rotation(int from, int to);
    // Components of a vector given in base `from`, in base `to`.  One edge
    // away uses the (sparse) edge matrix; farther uses rotation().
    V3 express(const V3 &v, int from, int to);
    M3 express_tensor(const M3 &t, int from, int to);

    // --- angular velocity and acceleration ---
    // ω of b relative to its parent, in the parent's components (= θ̇·axis for
    // an axis rotation).
    const V3 &omega_edge(int b) const { return nodes_.at(b).w_parent; }
    // ω of b relative to ground in b's components, recursively
    // ω_b = R_parent_bᵀ ω_parent + ω_edge (memoized).
    V3 omega(int b);
    // Angular acceleration of b relative to ground in b's components: the
    // component derivative of omega(b) (d/dt in ground of ω_b equals d/dt in
    // b, because ω_b × ω_b = 0).  Memoized.
    V3 alpha(int b);
    // ω of b relative to base `rel`, in base `in`: ω_b − ω_rel.
    V3 omega(int b, int rel, int in);
    // Angular acceleration of b relative to `rel` (time derivative taken in
    // `rel`) in base `in`: α_b − α_rel − ω_rel × ω_b.
    V3 alpha(int b, int rel, int in);

private:
    struct Node {
        std::string name;
        int parent = -1;
        int depth = 0;
        M3 R;          // R_parent_this
        V3 w_parent;   // ω of this relative to parent, parent components
        V3 w_self;     // the same in this base's components
    };
    int add_node(const std::string &name, int parent, const M3 &R, const V3 &w_parent, const V3 &w_self);
    void check_new_name(const std::string &name, int parent) const;

    Store *st_;
    std::vector<Node> nodes_;
    std::map<std::string, int> by_name_;
    std::map<std::pair<int, int>, M3> anc_memo_, rot_memo_;
    std::map<int, V3> omega_memo_, alpha_memo_;
};

}  // namespace railsym

#endif
