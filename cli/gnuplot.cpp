// gnuplot.cpp — see gnuplot.hpp.  The script goes to a temporary file and
// gnuplot runs as a child process (posix_spawn, no shell, so no quoting
// issues with paths); its messages are kept and shown if it fails.
#include "gnuplot.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.hpp"
#include "model_dir.hpp"

extern char **environ;

namespace fs = std::filesystem;

namespace railsym::gnuplot {

namespace {

// Runs `prog script`, its output into `log`; returns the exit status (-1:
// could not start or killed).
int run(const std::string &prog, const std::string &script, const std::string &log) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    std::vector<char *> argv = {const_cast<char *>(prog.c_str()), const_cast<char *>(script.c_str()), nullptr};
    pid_t pid;
    int rc = posix_spawn(&pid, prog.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string slurp(const std::string &path) {
    std::ifstream in(path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

std::string quote(const std::string &s) {
    std::string o = "'";
    for (char c : s) {
        if (c == '\'') o += "''";
        else if (c == '\n' || c == '\r') o += ' ';
        else o += c;
    }
    return o + "'";
}

std::string find() {
    if (const char *e = std::getenv("RAILSYM_GNUPLOT"); e && *e) {
        if (access(e, X_OK) == 0) return e;
        throw cli::UserError(std::string("RAILSYM_GNUPLOT='") + e + "' is not an executable program");
    }
    const char *path = std::getenv("PATH");
    std::stringstream ss(path ? path : "/usr/bin:/bin");
    std::string d;
    while (std::getline(ss, d, ':')) {
        const std::string p = (d.empty() ? std::string(".") : d) + "/gnuplot";
        if (access(p.c_str(), X_OK) == 0) return p;
    }
    throw cli::UserError("gnuplot is not installed (not found on PATH): install it, on Debian with "
                         "`apt-get install gnuplot-nox`, or set RAILSYM_GNUPLOT to the program");
}

void draw(const std::string &prog, const std::string &script_text, const std::string &png) {
    TempDir tmp;  // removed at the end, or by the signal handler (signals.hpp)
    tmp.make("railsym-plot");
    const std::string script = tmp.path + "/plot.gp", log = tmp.path + "/gnuplot.log";
    tmp.track(script);
    tmp.track(log);
    {
        std::ofstream f(script);
        f << script_text;
        if (!f) throw cli::UserError("cannot write the gnuplot script " + script);
    }
    const int rc = run(prog, script, log);
    std::error_code ec;
    if (rc != 0 || !fs::exists(png, ec) || fs::file_size(png, ec) == 0) {
        std::string msg = slurp(log);
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
        throw cli::UserError("gnuplot could not draw '" + png + "'" +
                             (rc < 0 ? std::string(" (could not run ") + prog + ")" : "") +
                             (msg.empty() ? "" : ":\n" + msg));
    }
}

std::string csv_png_header(const std::string &png) {
    return "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'\n"
           "set output " + quote(png) + "\n"
           "set datafile separator ','\n";
}

void draw_or_warn(const std::string &script, const std::string &png, const char *prog) {
    try {
        draw(find(), script, png);
        std::printf("plot: %s\n", png.c_str());
    } catch (const cli::UserError &e) {
        std::fprintf(stderr, "%s: warning: no plot: %s\n", prog, e.what());
    }
}

}  // namespace railsym::gnuplot
