// signals.cpp — see signals.hpp.
#include "signals.hpp"

#include <csignal>
#include <initializer_list>

#include <signal.h>

extern "C" {
#include "rs_temp.h"
}

namespace railsym {

namespace {

extern "C" void cleanup_and_die(int sig) {
    rs_temp_cleanup_now(sig);  // kill, waitpid, unlink, rmdir: async-signal-safe
    // The default action, by the same signal: the parent sees the process
    // killed by SIGINT (status 130 in a shell), not a normal exit.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, nullptr);
    raise(sig);  // pending while the handler runs; delivered on return
}

}  // namespace

void install_cleanup_on_signals() {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = cleanup_and_die;
        sigemptyset(&sa.sa_mask);
        // The other two wait while one cleans up, so the table is walked once.
        sigaddset(&sa.sa_mask, SIGINT);
        sigaddset(&sa.sa_mask, SIGTERM);
        sigaddset(&sa.sa_mask, SIGHUP);
        sigaction(sig, &sa, nullptr);
    }
}

}  // namespace railsym
