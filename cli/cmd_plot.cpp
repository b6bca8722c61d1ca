// cmd_plot.cpp — `railsym plot RESULT.csv COLUMN... -o FILE.png [--title TEXT]
//                 [--x COLUMN] [--xrange LO:HI]`.
//
// Draws the named columns of a results CSV (time first, as `railsym run`
// writes it) against time — or against another column (`--x x` draws a
// trajectory y(x)) — with gnuplot's pngcairo terminal.  The gnuplot
// script is generated into a temporary file and gnuplot runs as a child
// process (no shell, so no quoting issues with paths); its messages are kept
// and shown if it fails.  Columns are checked against the CSV header before
// gnuplot runs, with a suggestion for a misspelt name.  The axes and the
// key name each quantity with its unit, from NAME.units.csv that `railsym
// run` writes beside NAME.csv (docs/results.md); "[SI]" where none is known.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "gnuplot.hpp"
#include "model_dir.hpp"

extern "C" {
#include "rs_results.h"
}

namespace fs = std::filesystem;

namespace railsym {

namespace {

std::string trim(const std::string &s) {
    size_t a = s.find_first_not_of(" \t\r\"");
    size_t b = s.find_last_not_of(" \t\r\"");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The header row and whether at least one data row follows.  Every row
// must be whole: the header's number of fields and a newline at its end.  A
// run that failed midway leaves NAME.partial.csv of whole rows
// (docs/results.md); a file cut in a row (a full disk, a copy interrupted,
// a run still writing it in place) is refused with its line, not drawn as
// if it were complete.
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
    for (long number = 2; std::getline(in, line); ++number) {
        if (trim(line).empty()) continue;
        has_rows = true;
        const size_t fields = 1 + std::count(line.begin(), line.end(), ',');
        const std::string where = csv + ":" + std::to_string(number) + ": ";
        if (fields != cols.size())
            throw cli::UserError(where + "the row has " + std::to_string(fields) + " fields, the header " +
                                 std::to_string(cols.size()) +
                                 ": the file is cut or damaged (a run that failed leaves NAME.partial.csv of whole "
                                 "rows; run it again)");
        if (in.eof())
            throw cli::UserError(where + "the last row has no newline: the file is cut (or still being written); "
                                 "plot a complete result of `railsym run`");
    }
    return cols;
}

// The units of the CSV's columns from its units file (NAME.units.csv that
// `railsym run` writes beside NAME.csv, docs/results.md): one per header
// column, "" where unknown.  No units file: all unknown.  A units file of
// other columns (not this table's) is named in a warning and not used.
std::vector<std::string> read_units(const std::string &csv, const std::vector<std::string> &header) {
    std::vector<std::string> units(header.size());
    char path[4200];
    rs_results_units_path(csv.c_str(), path, sizeof path);
    std::ifstream in(path);
    if (!in) return units;
    std::string names_line, units_line;
    std::getline(in, names_line);
    std::getline(in, units_line);
    std::vector<std::string> names, got;
    std::stringstream sn(names_line), su(units_line);
    std::string f;
    while (std::getline(sn, f, ',')) names.push_back(trim(f));
    while (std::getline(su, f, ',')) got.push_back(trim(f));
    got.resize(names.size());
    if (names != header) {
        std::fprintf(stderr,
                     "railsym plot: warning: '%s' lists other columns than '%s' (not its units): the axes say [SI]\n",
                     path, csv.c_str());
        return units;
    }
    return got;
}

// "NAME [UNIT]"; "NAME [SI]" when the unit is unknown (values are SI).
std::string with_unit(const std::string &name, const std::string &unit) {
    return name + " [" + (unit.empty() ? "SI" : unit) + "]";
}

}  // namespace

int cmd_plot(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"output", 'o', "FILE.png", "the picture to write"},
        {"title", 't', "TEXT", "title above the plot (default: the CSV's name)"},
        {"x", 'x', "COLUMN", "the column on the x axis (default: the first, time)"},
        {"xrange", 0, "LO:HI", "draw only this range of the x axis (a zoom)"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    if (args.positional.empty()) throw cli::UsageError("missing argument: RESULT.csv");
    if (args.positional.size() < 2) throw cli::UsageError("name at least one COLUMN to draw");
    if (!args.has("output")) throw cli::UsageError("missing -o FILE.png (where to write the picture)");
    const std::string csv = args.positional[0];
    const std::string png = args.value("output");
    if (png.empty()) throw cli::UsageError("-o needs a file name");

    for (const char *ext : {".mat", ".h5", ".hdf5"})
        if (ends_with(csv, ext))
            throw cli::UserError("'" + csv + "' is " + std::string(ext[1] == 'm' ? "a MAT" : "an HDF5") +
                                 " file: `railsym plot` draws CSV results (run with --out FILE.csv), or plot it "
                                 "from MATLAB, Octave or Python (docs/results.md)");
    bool has_rows = false;
    const std::vector<std::string> header = read_header(csv, has_rows);
    std::vector<std::string> names(header.begin() + 1, header.end());
    std::vector<int> index;
    // gnuplot's column (from 1) of a name in the header, or an error
    auto column_of = [&](const std::string &c) {
        int k = -1;
        for (size_t j = 0; j < header.size(); ++j)
            if (header[j] == c) k = (int)j;
        if (k < 0) {
            std::string list;
            for (size_t j = 0; j < header.size() && j < 40; ++j) list += (j ? ", " : "") + header[j];
            if (header.size() > 40) list += ", ...";
            throw cli::UserError("'" + csv + "' has no column '" + c + "'" + cli::did_you_mean(c, names) +
                                 "; its columns: " + list);
        }
        return k + 1;   // gnuplot counts columns from 1
    };
    const int xcol = args.has("x") ? column_of(args.value("x")) : 1;
    for (size_t i = 1; i < args.positional.size(); ++i) {
        const std::string &c = args.positional[i];
        if (c == header[xcol - 1])
            throw cli::UserError("'" + c + "' is the x axis of the plot: name the columns to draw against it");
        index.push_back(column_of(c));
    }
    std::string xrange;
    if (args.has("xrange")) {
        const std::string r = args.value("xrange");
        const size_t colon = r.find(':');
        char *e1 = nullptr, *e2 = nullptr;
        const std::string lo = colon == std::string::npos ? "" : r.substr(0, colon);
        const std::string hi = colon == std::string::npos ? "" : r.substr(colon + 1);
        const double a = std::strtod(lo.c_str(), &e1), b = std::strtod(hi.c_str(), &e2);
        if (lo.empty() || hi.empty() || *e1 || *e2 || !(a < b))
            throw cli::UsageError("--xrange needs LO:HI with LO < HI, e.g. --xrange 320:470 (got '" + r + "')");
        xrange = "[" + lo + ":" + hi + "]";
    }
    if (!has_rows) throw cli::UserError("'" + csv + "' has a header but no data rows: nothing to plot");
    const std::string prog = gnuplot::find();
    const auto gq = gnuplot::quote;

    // Axis labels name the quantities and their units: one column, or
    // several of one unit, "th, x [m]"; several units, "th [rad], x [m]".
    const std::vector<std::string> units = read_units(csv, header);
    std::string ylabel;
    bool one_unit = true;
    for (int k : index) one_unit &= units[k - 1] == units[index[0] - 1];
    for (size_t i = 0; i < index.size(); ++i)
        ylabel += (i ? ", " : "") + (one_unit ? header[index[i] - 1] : with_unit(header[index[i] - 1], units[index[i] - 1]));
    if (one_unit) ylabel = with_unit(ylabel, units[index[0] - 1]);
    const std::string xunit = header[xcol - 1] == "time" && units[xcol - 1].empty() ? "s" : units[xcol - 1];

    std::ostringstream gp;
    const std::string title = args.value("title", fs::path(csv).filename().string());
    gp << "# generated by railsym plot\n"
       << "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'\n"
       << "set output " << gq(png) << "\n"
       << "set datafile separator ','\n"
       << "set title " << gq(title) << "\n"
       << "set xlabel " << gq(with_unit(header[xcol - 1], xunit)) << "\n"
       << "set ylabel " << gq(ylabel) << "\n"
       << "set grid\nset key top right\n"
       << (xrange.empty() ? "" : "set xrange " + xrange + "\n")
       << "plot ";
    for (size_t i = 0; i < index.size(); ++i)
        gp << (i ? ", \\\n     " : "") << gq(csv) << " using " << xcol << ":" << index[i] << " skip 1 with lines lw 1.5 title "
           << gq(units[index[i] - 1].empty() ? header[index[i] - 1] : with_unit(header[index[i] - 1], units[index[i] - 1]));
    gp << "\nset output\n";
    gnuplot::draw(prog, gp.str(), png);
    return cli::kExitOk;
}

}  // namespace railsym
