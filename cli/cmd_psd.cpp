// cmd_psd.cpp — `railsym psd RESULT.csv COLUMN [--segment N] [--out PREFIX]
// [--no-plot]`: Welch's power spectral density of one result column
// (runtime/app/rs_psd.h; docs/analyses.md).  Writes PREFIX_psd.csv
// (f_Hz,psd: one-sided, the column's unit² per Hz) and PREFIX_psd.png
// (log-log).  Exit status: 0, 1 user error, 2 bad usage.
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
#include "rs_psd.h"
#include "rs_status.h"
}

namespace railsym {

int cmd_psd(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"segment", 'n', "N", "samples per Welch segment, even (default: a power of two, about 15 segments)"},
        {"out", 'o', "PREFIX", "output prefix (default: RESULT without .csv, then _COLUMN)"},
        {"no-plot", 0, "", "no picture"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 2, 2, "RESULT.csv COLUMN");
    const std::string csv = args.positional[0], col = args.positional[1];
    const ResultColumns rc = read_result_columns(csv, {col});
    const std::vector<double> &x = rc.values[0];
    const long nseg = args.integer("segment", static_cast<long>(rs_psd_default_segment(x.size())), 8,
                                   static_cast<long>(x.size()));
    if (nseg % 2) throw cli::UsageError("--segment " + std::to_string(nseg) + ": write an even number of samples");
    std::vector<double> P(rs_psd_bins(static_cast<size_t>(nseg)));
    size_t used = 0;
    char err[512];
    if (rs_psd_welch(x.data(), x.size(), rc.fs, static_cast<size_t>(nseg), P.data(), &used, err, sizeof err) != RS_OK)
        throw cli::UserError(csv + ": column '" + col + "': " + err);
    std::string stem = csv;
    if (ends_with(stem, ".csv")) stem.resize(stem.size() - 4);
    const std::string prefix = args.value("out", stem + "_" + col);
    const std::string out_csv = prefix + "_psd.csv", png = prefix + "_psd.png";
    {
        cli::OutFile file(out_csv);
        std::FILE *f = file.get();
        std::fprintf(f, "f_Hz,psd\n");
        const double df = rc.fs / static_cast<double>(nseg);
        for (size_t k = 0; k < P.size(); ++k) std::fprintf(f, "%.10g,%.10g\n", df * static_cast<double>(k), P[k]);
        file.close();
    }
    double var = 0;
    for (size_t k = 0; k < P.size(); ++k) var += P[k] * rc.fs / static_cast<double>(nseg);
    std::printf("psd of '%s': %zu samples at %.6g Hz, %zu segments of %ld (resolution %.4g Hz), rms %.6g\n",
                col.c_str(), x.size(), rc.fs, used, nseg, rc.fs / static_cast<double>(nseg), std::sqrt(var));
    const std::string unit = rc.units[0].empty() ? "unit" : rc.units[0];   // unknown: SI, not named
    const std::string psd_unit = "(" + unit + ")^2/Hz";
    std::printf("psd: %s (f_Hz, psd in %s)\n", out_csv.c_str(), psd_unit.c_str());
    if (!args.has("no-plot")) {
        const auto gq = gnuplot::quote;
        std::ostringstream gp;
        gp << gnuplot::csv_png_header(png)
           << "set title " << gq("Welch PSD of " + col + " (" + csv + ")") << "\n"
           << "set logscale xy\nset grid xtics ytics mxtics mytics\nset format y '%.0e'\n"
           << "set xlabel 'frequency [Hz]'\n"
           << "set ylabel " << gq("PSD of " + col + " [" + psd_unit + "]") << "\n"
           << "plot " << gq(out_csv) << " using 1:($1 > 0 && $2 > 0 ? $2 : 1/0) skip 1 with lines lw 1.5 notitle\n"
           << "set output\n";
        gnuplot::draw_or_warn(gp.str(), png, "railsym psd");
    }
    return cli::kExitOk;
}

}  // namespace railsym
