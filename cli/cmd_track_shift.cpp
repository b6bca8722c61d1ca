// cmd_track_shift.cpp — `railsym track-shift RESULT.csv COLUMN --wheel-load Q0
// (COLUMN: a column or a signed sum of columns, R.Y-L.Y)
// [--position COL] [--freight] [--out PREFIX] [--no-plot]`: the rms of the
// sum of guiding forces ΣY (COLUMN, N) over sliding 100 m windows every 10 m
// of track after a 20 Hz low pass, against the limit half of
// α (10 + 2 Q0/3) kN (runtime/app/rs_track_shift.h; docs/analyses.md).
// Writes PREFIX_track_shift.csv and .png (PREFIX by default RESULT without
// .csv, '_' and column_file_name(COLUMN): `run_front.ws1` for
// front.ws1.right.Y-front.ws1.left.Y).  Exit status: 0 (also when the
// limit is exceeded: the figures say so), 1 user error, 2 bad usage.
#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "gnuplot.hpp"
#include "model_dir.hpp"
#include "result_columns.hpp"

extern "C" {
#include "rs_status.h"
#include "rs_track_shift.h"
}

namespace railsym {

int cmd_track_shift(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"wheel-load", 'q', "Q0", "static wheel force, kN"},
        {"position", 'p', "COL", "the column of the position along the track, m (default x)"},
        {"freight", 0, "", "alpha = 0.85 (freight wagons; default 1: locomotives, passenger)"},
        {"out", 'o', "PREFIX", "output prefix (default: RESULT without .csv, _, COLUMN's short name: docs/analyses.md)"},
        {"no-plot", 0, "", "no picture"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 2, 2, "RESULT.csv COLUMN");
    if (!args.has("wheel-load")) throw cli::UsageError("missing --wheel-load Q0: the static wheel force in kN");
    const double q0 = args.number("wheel-load", 0);
    if (!(q0 > 0)) throw cli::UsageError("--wheel-load must be positive (kN)");
    const double alpha = args.has("freight") ? 0.85 : 1.0;
    const std::string csv = args.positional[0], col = args.positional[1], pos = args.value("position", "x");
    // COLUMN may be a signed sum of columns (a wheelset's R.Y-L.Y)
    const std::vector<ColumnTerm> terms = column_sum_terms(col, read_result_header(csv), "COLUMN");
    std::vector<std::string> names = {pos};
    for (const ColumnTerm &t : terms) names.push_back(t.column);
    const ResultColumns rc = read_result_columns(csv, names);
    const size_t n = rc.values[0].size();
    std::vector<double> y(n, 0.0), f(n), start(n), rms(n);
    for (size_t k = 0; k < terms.size(); k++)
        for (size_t i = 0; i < n; i++) y[i] += terms[k].sign * rc.values[k + 1][i];
    char err[512];
    if (rs_track_shift_lowpass(y.data(), n, rc.fs, 20, f.data(), err, sizeof err) != RS_OK)
        throw cli::UserError(csv + ": column '" + col + "': " + err);
    size_t nw = 0;
    if (rs_track_shift_rms(f.data(), rc.values[0].data(), n, 100, 10, start.data(), rms.data(), n, &nw, err,
                           sizeof err) != RS_OK)
        throw cli::UserError(csv + ": column '" + pos + "': " + err);
    const double lim = rs_track_shift_limit(q0, alpha), lim_rms = lim / 2;
    const double worst = *std::max_element(rms.begin(), rms.begin() + static_cast<long>(nw)) / 1e3;
    std::printf("sum Y '%s': %zu windows of 100 m every 10 m, largest rms %.4g kN\n", col.c_str(), nw, worst);
    std::printf("limit (alpha %.2f, Q0 %.4g kN): sum Y %.4g kN, its rms %.4g kN: %s\n", alpha, q0, lim, lim_rms,
                worst <= lim_rms ? "within" : "EXCEEDED");
    std::string stem = csv;
    if (ends_with(stem, ".csv")) stem.resize(stem.size() - 4);
    // the column's short, safe name (result_columns.hpp), not the expression
    // itself: `R.Y-L.Y` or a name with a '/' made odd or impossible paths
    const std::string prefix = args.value("out", stem + "_" + column_file_name(terms));
    const std::string out_csv = prefix + "_track_shift.csv", png = prefix + "_track_shift.png";
    {
        cli::OutFile file(out_csv);
        std::FILE *fp = file.get();
        std::fprintf(fp, "s_start_m,sum_y_rms_kN,limit_rms_kN\n");
        for (size_t k = 0; k < nw; ++k) std::fprintf(fp, "%.6g,%.10g,%.10g\n", start[k], rms[k] / 1e3, lim_rms);
        file.close();
    }
    std::printf("windows: %s\n", out_csv.c_str());
    if (!args.has("no-plot")) {
        const auto gq = gnuplot::quote;
        std::ostringstream gp;
        gp << gnuplot::csv_png_header(png)
           << "set title " << gq("rms of " + col + " over 100 m windows (20 Hz low pass)") << "\n"
           << "set grid\nset key top left\nset yrange [0:*]\n"
           << "set xlabel 'window start [m]'\nset ylabel 'sum Y rms [kN]'\n"
           << "plot " << gq(out_csv) << " using 1:2 skip 1 with linespoints lw 1.5 pt 7 title 'rms', \\\n"
           << "     " << gq(out_csv) << " using 1:3 skip 1 with lines lw 2 dt 2 title 'limit'\n"
           << "set output\n";
        gnuplot::draw_or_warn(gp.str(), png, "railsym track-shift");
    }
    return cli::kExitOk;
}

}  // namespace railsym
