// signals.hpp — nothing left behind when the command is interrupted.
#ifndef RAILSYM_SIGNALS_HPP
#define RAILSYM_SIGNALS_HPP

namespace railsym {

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the
// temporaries in the registry (rs_temp.h: the run's compiled model, a
// loader's or an MPI worker's folder, gnuplot's script), then end the
// process by the same signal with its default action, so the exit status
// stays 128+N for the shell.  A signal that is ignored when railsym starts
// (SIGHUP under nohup) stays ignored.
void install_cleanup_on_signals();

}  // namespace railsym

#endif
