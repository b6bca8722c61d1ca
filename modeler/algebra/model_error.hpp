// model_error.hpp — the one exception type of the modeler's model-building API,
// and the "did you mean" helper every name lookup uses.
//
// A ModelError names the element (base, point, body, force, ...) and says what
// to fix.  The description-language front end catches it and prefixes
// file:line:col; C++ users see the message as is.
#ifndef RAILSYM_MODEL_ERROR_HPP
#define RAILSYM_MODEL_ERROR_HPP

#include <stdexcept>
#include <string>
#include <vector>

namespace railsym {

struct ModelError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The known names `name` is most plausibly a typo of (ties kept, in the
// order given, no duplicates), at most `max`: common/rs_closest.h's rule,
// the one every layer uses.  Empty when nothing is close.
std::vector<std::string> closest_names(const std::string &name, const std::vector<std::string> &known,
                                       int max = 3);

// " (did you mean 'x'?)" or " (did you mean 'x' or 'y'?)", or "" when no name is close.
std::string did_you_mean(const std::string &name, const std::vector<std::string> &known);

}  // namespace railsym

#endif
