// cmd_comfort.cpp — `railsym comfort RESULT.csv [--x COL] [--y COL] [--z COL]
// [--out PREFIX] [--no-plot]`: ride comfort of car-body accelerations (m/s²)
// (runtime/app/rs_comfort.h; docs/analyses.md): Sperling's Wz of the lateral
// (--y) and vertical (--z) signals, and with all three EN 12299's mean
// comfort N_MV and its 5 s rms values, written to PREFIX_comfort.csv and
// drawn in PREFIX_comfort.png.  Exit status: 0, 1 user error, 2 bad usage.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "gnuplot.hpp"
#include "model_dir.hpp"
#include "result_columns.hpp"

extern "C" {
#include "rs_comfort.h"
#include "rs_status.h"
}

namespace railsym {

int cmd_comfort(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"x", 'x', "COL", "longitudinal acceleration, m/s^2"},
        {"y", 'y', "COL", "lateral acceleration, m/s^2"},
        {"z", 'z', "COL", "vertical acceleration, m/s^2"},
        {"out", 'o', "PREFIX", "output prefix (default: RESULT without .csv)"},
        {"no-plot", 0, "", "no picture"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 1, 1, "RESULT.csv");
    const std::string csv = args.positional[0];
    if (!args.has("x") && !args.has("y") && !args.has("z"))
        throw cli::UsageError("name at least one acceleration column: --y COL (lateral), --z COL (vertical); "
                              "N_MV needs --x, --y and --z");
    std::vector<std::string> names;
    const char *axes[3] = {"x", "y", "z"};
    int col_of[3] = {-1, -1, -1};
    for (int d = 0; d < 3; ++d)
        if (args.has(axes[d])) {
            col_of[d] = static_cast<int>(names.size());
            names.push_back(args.value(axes[d]));
        }
    const ResultColumns rc = read_result_columns(csv, names);
    const size_t n = rc.values[0].size();
    char err[512];
    std::printf("comfort of '%s': %zu samples at %.6g Hz (%.4g s)\n", csv.c_str(), n, rc.fs,
                static_cast<double>(n) / rc.fs);
    const rs_sperling_dir dirs[3] = {RS_SPERLING_LATERAL, RS_SPERLING_LATERAL, RS_SPERLING_VERTICAL};
    for (int d = 1; d < 3; ++d) {
        if (col_of[d] < 0) continue;
        double wz = 0;
        if (rs_sperling_wz(rc.values[col_of[d]].data(), n, rc.fs, dirs[d], &wz, err, sizeof err) != RS_OK)
            throw cli::UserError(csv + ": column '" + names[col_of[d]] + "': " + err);
        std::printf("Sperling Wz %s (%s): %.3f\n", d == 1 ? "lateral" : "vertical", names[col_of[d]].c_str(), wz);
    }
    if (col_of[0] < 0 || col_of[1] < 0 || col_of[2] < 0) {
        std::printf("N_MV: not computed (EN 12299's mean comfort needs --x, --y and --z)\n");
        return cli::kExitOk;
    }
    rs_comfort_nmv_result res{};
    std::vector<double> rms(3 * n);
    if (rs_comfort_nmv(rc.values[0].data(), rc.values[1].data(), rc.values[2].data(), n, rc.fs, &res, rms.data(),
                       rms.size(), err, sizeof err) != RS_OK)
        throw cli::UserError(csv + ": " + err);
    std::printf("EN 12299 N_MV: %.3f from %zu blocks of 5 s: a_XP95 %.4g, a_YP95 %.4g, a_ZP95 %.4g m/s^2 "
                "(Wd, Wd, Wb)\n", res.nmv, res.nblocks, res.a95[0], res.a95[1], res.a95[2]);
    if (res.nblocks < 60)
        std::printf("note: EN 12299 evaluates 5 minutes (60 blocks); this record has %zu\n", res.nblocks);
    std::string stem = csv;
    if (ends_with(stem, ".csv")) stem.resize(stem.size() - 4);
    const std::string prefix = args.value("out", stem);
    const std::string out_csv = prefix + "_comfort.csv", png = prefix + "_comfort.png";
    {
        std::FILE *f = std::fopen((out_csv + ".tmp").c_str(), "w");
        if (!f) throw cli::UserError("cannot write '" + out_csv + "': check that its folder exists");
        std::fprintf(f, "t_start_s,ax_wd_rms,ay_wd_rms,az_wb_rms,n_mv\n");
        const size_t nb = res.nblocks;
        for (size_t b = 0; b < nb; ++b)
            std::fprintf(f, "%.6g,%.10g,%.10g,%.10g,%.10g\n", 5.0 * static_cast<double>(b), rms[b], rms[nb + b],
                         rms[2 * nb + b], res.nmv);
        const bool bad = std::ferror(f) != 0;
        if (std::fclose(f) != 0 || bad || std::rename((out_csv + ".tmp").c_str(), out_csv.c_str()) != 0)
            throw cli::UserError("cannot write '" + out_csv + "' (disk full?)");
    }
    std::printf("blocks: %s\n", out_csv.c_str());
    if (!args.has("no-plot")) {
        try {
            const auto gq = gnuplot::quote;
            char title[256];
            std::snprintf(title, sizeof title, "%s: N_MV = %.2f (EN 12299), 5 s weighted rms", csv.c_str(), res.nmv);
            std::ostringstream gp;
            gp << "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'\n"
               << "set output " << gq(png) << "\n"
               << "set datafile separator ','\n"
               << "set title " << gq(title) << "\nset grid\nset key top left\n"
               << "set xlabel 'block start [s]'\nset ylabel 'weighted rms acceleration [m/s^2]'\n"
               << "plot " << gq(out_csv) << " using 1:2 skip 1 with steps lw 1.5 title 'x (Wd)', \\\n"
               << "     " << gq(out_csv) << " using 1:3 skip 1 with steps lw 1.5 title 'y (Wd)', \\\n"
               << "     " << gq(out_csv) << " using 1:4 skip 1 with steps lw 1.5 title 'z (Wb)'\n"
               << "set output\n";
            gnuplot::draw(gnuplot::find(), gp.str(), png);
            std::printf("plot: %s\n", png.c_str());
        } catch (const cli::UserError &e) {
            std::fprintf(stderr, "railsym comfort: warning: no plot: %s\n", e.what());
        }
    }
    return cli::kExitOk;
}

}  // namespace railsym
