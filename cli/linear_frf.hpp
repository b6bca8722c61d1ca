// linear_frf.hpp — the `--frf` part of `railsym linear` (cli/linear_frf.cpp):
// frequency responses from track inputs, written as CSV (with its units
// file) and drawn as a Bode plot.
#ifndef RAILSYM_LINEAR_FRF_HPP
#define RAILSYM_LINEAR_FRF_HPP

#include <string>

#include "cli.hpp"

extern "C" {
#include "rs_linear.h"
}

namespace railsym {

// Runs the responses for cfg (the model, scenario and speed already set)
// with the --frf-range, --frf-out and --frf-point of args; writes into out; returns the
// exit status.
int linear_frf(const cli::Args &args, const rs_linear_config &cfg, const std::string &out);

}  // namespace railsym

#endif
