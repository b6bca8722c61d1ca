// cmd_plot.cpp — `railsym plot RESULT.csv COLUMN... -o FILE.png [--title TEXT]`.
//
// Draws the named columns of a results CSV (time first, as `railsym run`
// writes it) against time with gnuplot's pngcairo terminal.  The gnuplot
// script is generated into a temporary file and gnuplot runs as a child
// process (no shell, so no quoting issues with paths); its messages are kept
// and shown if it fails.  Columns are checked against the CSV header before
// gnuplot runs, with a suggestion for a misspelt name.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.hpp"

extern char **environ;

namespace fs = std::filesystem;

namespace railsym {

namespace {

std::string trim(const std::string &s) {
    size_t a = s.find_first_not_of(" \t\r\"");
    size_t b = s.find_last_not_of(" \t\r\"");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The header row and whether at least one data row follows.
std::vector<std::string> read_header(const std::string &csv, bool &has_rows) {
    std::ifstream in(csv);
    if (!in) throw cli::UserError("cannot read '" + csv + "': " + std::strerror(errno));
    std::string line;
    if (!std::getline(in, line) || trim(line).empty())
        throw cli::UserError("'" + csv + "' is empty: expected a header row 'time,NAME,...' (write it with `railsym run`)");
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ',')) cols.push_back(trim(f));
    has_rows = false;
    while (std::getline(in, line))
        if (!trim(line).empty()) {
            has_rows = true;
            break;
        }
    return cols;
}

// gnuplot's single-quoted string: a quote is written twice.
std::string gq(const std::string &s) {
    std::string o = "'";
    for (char c : s) {
        if (c == '\'') o += "''";
        else if (c == '\n' || c == '\r') o += ' ';
        else o += c;
    }
    return o + "'";
}

// The gnuplot program: $RAILSYM_GNUPLOT, else "gnuplot" found on PATH.
std::string find_gnuplot() {
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

// Runs `prog script`, its output into `log`; returns the exit status (-1:
// could not start or killed).
int run_gnuplot(const std::string &prog, const std::string &script, const std::string &log) {
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

int cmd_plot(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"output", 'o', "FILE.png", "the picture to write"},
        {"title", 't', "TEXT", "title above the plot (default: the CSV's name)"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    if (args.positional.empty()) throw cli::UsageError("missing argument: RESULT.csv");
    if (args.positional.size() < 2) throw cli::UsageError("name at least one COLUMN to draw");
    if (!args.has("output")) throw cli::UsageError("missing -o FILE.png (where to write the picture)");
    const std::string csv = args.positional[0];
    const std::string png = args.value("output");
    if (png.empty()) throw cli::UsageError("-o needs a file name");

    bool has_rows = false;
    const std::vector<std::string> header = read_header(csv, has_rows);
    std::vector<std::string> names(header.begin() + 1, header.end());
    std::vector<int> index;
    for (size_t i = 1; i < args.positional.size(); ++i) {
        const std::string &c = args.positional[i];
        if (c == header[0])
            throw cli::UserError("'" + c + "' is the x axis of every plot: name the columns to draw against it");
        int k = -1;
        for (size_t j = 1; j < header.size(); ++j)
            if (header[j] == c) k = (int)j;
        if (k < 0) {
            std::string list;
            for (size_t j = 0; j < header.size() && j < 40; ++j) list += (j ? ", " : "") + header[j];
            if (header.size() > 40) list += ", ...";
            throw cli::UserError("'" + csv + "' has no column '" + c + "'" + cli::did_you_mean(c, names) +
                                 "; its columns: " + list);
        }
        index.push_back(k + 1);   // gnuplot counts columns from 1
    }
    if (!has_rows) throw cli::UserError("'" + csv + "' has a header but no data rows: nothing to plot");
    const std::string gnuplot = find_gnuplot();

    std::string tmpl = (fs::temp_directory_path() / "railsym-plot-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw cli::UserError("cannot create a temporary folder: " + std::string(std::strerror(errno)));
    struct Cleanup {
        std::string dir;
        ~Cleanup() {
            std::error_code ec;
            fs::remove_all(dir, ec);
        }
    } cleanup{tmpl};
    const std::string script = tmpl + "/plot.gp", log = tmpl + "/gnuplot.log";

    std::ostringstream gp;
    const std::string title = args.value("title", fs::path(csv).filename().string());
    gp << "# generated by railsym plot\n"
       << "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'\n"
       << "set output " << gq(png) << "\n"
       << "set datafile separator ','\n"
       << "set title " << gq(title) << "\n"
       << "set xlabel " << gq(header[0] == "time" ? "time [s]" : header[0]) << "\n"
       << "set ylabel " << gq(index.size() == 1 ? header[index[0] - 1] + " [SI]" : "value [SI]") << "\n"
       << "set grid\nset key top right\n"
       << "plot ";
    for (size_t i = 0; i < index.size(); ++i)
        gp << (i ? ", \\\n     " : "") << gq(csv) << " using 1:" << index[i] << " skip 1 with lines lw 1.5 title "
           << gq(header[index[i] - 1]);
    gp << "\nset output\n";
    {
        std::ofstream f(script);
        f << gp.str();
        if (!f) throw cli::UserError("cannot write the gnuplot script " + script);
    }
    const int rc = run_gnuplot(gnuplot, script, log);
    std::error_code ec;
    if (rc != 0 || !fs::exists(png, ec) || fs::file_size(png, ec) == 0) {
        std::string msg = slurp(log);
        while (!msg.empty() && (msg.back() == '\n' || msg.back() == ' ')) msg.pop_back();
        throw cli::UserError("gnuplot could not draw '" + png + "'" +
                             (rc < 0 ? std::string(" (could not run ") + gnuplot + ")" : "") +
                             (msg.empty() ? "" : ":\n" + msg));
    }
    return cli::kExitOk;
}

}  // namespace railsym
