// cmd_comfort.cpp — `railsym comfort RESULT.csv [--x COL] [--y COL] [--z COL]
// [--out PREFIX] [--no-plot]`: ride comfort of car-body accelerations (m/s²)
// (runtime/app/rs_comfort.h; docs/analyses.md): Sperling's Wz of the lateral
// (--y) and vertical (--z) signals, over the record and over 5 s blocks,
// written to PREFIX_sperling.csv and drawn in PREFIX_sperling.png; with all
// three EN 12299's mean comfort N_MV and its 5 s rms values, written to
// PREFIX_comfort.csv and drawn in PREFIX_comfort.png.  Exit status: 0, 1
// user error, 2 bad usage.
#include <algorithm>
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

namespace {

// Sperling's Wz of --y and --z over the whole record (printed) and over
// consecutive 5 s blocks (EN 12299's block length; a record shorter than one
// block is one block), written to PREFIX_sperling.csv (a row per block, the
// record's value repeated in its own column) and drawn in PREFIX_sperling.png.
void sperling(const std::string &csv, const ResultColumns &rc, const std::vector<std::string> &names,
              const int col_of[3], const std::string &prefix, bool plot) {
    const size_t n = rc.values[0].size();
    const size_t len = std::max<size_t>(1, static_cast<size_t>(std::lround(5.0 * rc.fs)));
    const size_t nb = n >= len ? n / len : 1, bl = n >= len ? len : n;
    const rs_sperling_dir dirs[3] = {RS_SPERLING_LATERAL, RS_SPERLING_LATERAL, RS_SPERLING_VERTICAL};
    const char *axis[3] = {"x", "y", "z"};
    char err[512];
    std::vector<int> used;
    std::vector<double> whole, blocks;   // blocks[k * nb + b]
    for (int d = 1; d < 3; ++d) {
        if (col_of[d] < 0) continue;
        const double *a = rc.values[col_of[d]].data();
        double wz = 0;
        if (rs_sperling_wz(a, n, rc.fs, dirs[d], &wz, err, sizeof err) != RS_OK)
            throw cli::UserError(csv + ": column '" + names[col_of[d]] + "': " + err);
        std::printf("Sperling Wz %s (%s): %.3f\n", d == 1 ? "lateral" : "vertical", names[col_of[d]].c_str(), wz);
        used.push_back(d);
        whole.push_back(wz);
        for (size_t b = 0; b < nb; ++b) {
            double w = 0;
            if (rs_sperling_wz(a + b * bl, bl, rc.fs, dirs[d], &w, err, sizeof err) != RS_OK)
                throw cli::UserError(csv + ": column '" + names[col_of[d]] + "', 5 s block " + std::to_string(b + 1) +
                                     ": " + err);
            blocks.push_back(w);
        }
    }
    const std::string out_csv = prefix + "_sperling.csv", png = prefix + "_sperling.png";
    {
        cli::OutFile file(out_csv);
        std::FILE *f = file.get();
        std::fprintf(f, "t_start_s");
        for (int d : used) std::fprintf(f, ",wz_%s_block,wz_%s_record", axis[d], axis[d]);
        std::fprintf(f, "\n");
        for (size_t b = 0; b < nb; ++b) {
            std::fprintf(f, "%.6g", static_cast<double>(b * bl) / rc.fs);
            for (size_t k = 0; k < used.size(); ++k) std::fprintf(f, ",%.10g,%.10g", blocks[k * nb + b], whole[k]);
            std::fprintf(f, "\n");
        }
        file.close();
    }
    std::printf("sperling: %s (%zu block%s of %.6g s)\n", out_csv.c_str(), nb, nb == 1 ? "" : "s",
                static_cast<double>(bl) / rc.fs);
    if (!plot) return;
    const auto gq = gnuplot::quote;
    std::ostringstream gp;
    gp << gnuplot::csv_png_header(png)
       << "set title " << gq(csv + ": Sperling Wz, 5 s blocks and the whole record") << "\nset grid\nset key top left\n"
       << "set xlabel 'block start [s]'\nset ylabel 'Wz'\nplot ";
    for (size_t k = 0; k < used.size(); ++k) {
        const std::string nm = names[col_of[used[k]]];
        gp << (k ? ", \\\n     " : "") << gq(out_csv) << " using 1:" << 2 + 2 * k << " skip 1 with steps lw 1.5 title "
           << gq(nm + " (5 s)") << ", " << gq(out_csv) << " using 1:" << 3 + 2 * k
           << " skip 1 with lines dt 2 lw 1.5 title " << gq(nm + " (record)");
    }
    gp << "\nset output\n";
    gnuplot::draw_or_warn(gp.str(), png, "railsym comfort");
}

}  // namespace

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
    std::string stem = csv;
    if (ends_with(stem, ".csv")) stem.resize(stem.size() - 4);
    const std::string prefix = args.value("out", stem);
    const bool plot = !args.has("no-plot");
    if (col_of[1] >= 0 || col_of[2] >= 0) sperling(csv, rc, names, col_of, prefix, plot);
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
    const std::string out_csv = prefix + "_comfort.csv", png = prefix + "_comfort.png";
    {
        cli::OutFile file(out_csv);
        std::FILE *f = file.get();
        std::fprintf(f, "t_start_s,ax_wd_rms,ay_wd_rms,az_wb_rms,n_mv\n");
        const size_t nb = res.nblocks;
        for (size_t b = 0; b < nb; ++b)
            std::fprintf(f, "%.6g,%.10g,%.10g,%.10g,%.10g\n", 5.0 * static_cast<double>(b), rms[b], rms[nb + b],
                         rms[2 * nb + b], res.nmv);
        file.close();
    }
    std::printf("blocks: %s\n", out_csv.c_str());
    if (plot) {
        const auto gq = gnuplot::quote;
        char title[256];
        std::snprintf(title, sizeof title, "%s: N_MV = %.2f (EN 12299), 5 s weighted rms", csv.c_str(), res.nmv);
        std::ostringstream gp;
        gp << gnuplot::csv_png_header(png)
           << "set title " << gq(title) << "\nset grid\nset key top left\n"
           << "set xlabel 'block start [s]'\nset ylabel 'weighted rms acceleration [m/s^2]'\n"
           << "plot " << gq(out_csv) << " using 1:2 skip 1 with steps lw 1.5 title 'x (Wd)', \\\n"
           << "     " << gq(out_csv) << " using 1:3 skip 1 with steps lw 1.5 title 'y (Wd)', \\\n"
           << "     " << gq(out_csv) << " using 1:4 skip 1 with steps lw 1.5 title 'z (Wb)'\n"
           << "set output\n";
        gnuplot::draw_or_warn(gp.str(), png, "railsym comfort");
    }
    return cli::kExitOk;
}

}  // namespace railsym
