// fmu_description.hpp — modelDescription.xml of an FMU (FMI 2.0 Co-
// Simulation) for a model and the workspace its scenario set up: the
// variables of runtime/app/rs_fmi2_vars.h with their start values, units
// and descriptions (docs/fmi.md).
#ifndef RAILSYM_FMU_DESCRIPTION_HPP
#define RAILSYM_FMU_DESCRIPTION_HPP

#include <string>

extern "C" {
#include "rs_ws.h"
}

namespace railsym {

struct FmuExperiment {
    double start = 0, stop = 1, step = 1e-3;   // DefaultExperiment
};

// The XML text.  `ws` holds the scenario's values (start values of
// parameters and inputs); `id` is the modelIdentifier, `guid` the FMU's.
std::string fmu_description(const rs_model *m, rs_ws *ws, const std::string &id, const std::string &guid,
                            const FmuExperiment &ex, bool can_save_state);

}  // namespace railsym

#endif
