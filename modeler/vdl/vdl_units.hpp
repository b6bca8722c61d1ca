// vdl_units.hpp — units written at the start of a declaration's comment.
//
// The language keeps numbers bare (everything is SI); a declaration's
// trailing comment may begin with the units of what it declares, which the
// model descriptor then carries (rs_model.q_units ...):
//
//     param K_S1 = 261954, C_S1 = 5000   # N/m, N s/m: each primary spring
//     coord yaw, pitch, roll            # rad
//
// The comment's leading fields (separated by ',' or ':') that are unit
// expressions are its units; the first field that is not one ends them (a
// field may end in a parenthesised remark: "kg m^2 (about z too)").  A unit
// expression is a product of SI symbols, each with an optional integer power,
// separated by spaces, '*' or '/': "m", "m/s^2", "N m s/rad", "kg m^2";
// "1" or "-" is dimensionless.  Symbols are the SI base and derived units a
// vehicle model uses (m kg s rad N Pa J W Hz A K V).  A field made of
// non-SI units (mm, deg, kN, km/h, t, ...) is an error: the value would be
// read as SI.
#ifndef RAILSYM_VDL_UNITS_HPP
#define RAILSYM_VDL_UNITS_HPP

#include <string>
#include <vector>

namespace railsym {
namespace vdl {

// The units at the start of `comment`, in order ({} when it starts with
// free text).  Throws std::invalid_argument naming a non-SI unit and its
// SI replacement.
std::vector<std::string> leading_units(const std::string &comment);

// One unit per declared name: `n` names on a line whose comment gives
// `units`.  One unit applies to every name, n units one each, none gives
// "" (unknown).  Other counts throw std::invalid_argument saying so.
std::vector<std::string> units_per_name(const std::vector<std::string> &units, size_t n);

}  // namespace vdl
}  // namespace railsym

#endif
