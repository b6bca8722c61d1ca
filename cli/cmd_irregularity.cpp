// cmd_irregularity.cpp — `railsym irregularity --spectrum NAME --kind KIND
// --length L -o FILE.csv [--step DS] [--wavelengths LO:HI] [--seed N]
// [--start S0] [--no-plot]`: a random track-irregularity table from a
// published spectrum (runtime/app/rs_irregularity.h; docs/analyses.md), in
// the format of the track file's `irregularity KIND table FILE`.  Also
// writes FILE's Welch PSD beside the target (STEM_psd.csv, STEM_psd.png).
// Exit status: 0, 1 user error, 2 bad usage.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "gnuplot.hpp"
#include "model_dir.hpp"

extern "C" {
#include "rs_irregularity.h"
#include "rs_psd.h"
#include "rs_status.h"
}

namespace railsym {

namespace {

void parse_wavelengths(const std::string &text, double &lo, double &hi) {
    auto bad = [&]() {
        return cli::UsageError("--wavelengths '" + text + "': write LO:HI in m with 0 < LO < HI, e.g. 3:70");
    };
    const size_t colon = text.find(':');
    if (colon == std::string::npos) throw bad();
    char *end = nullptr;
    const std::string a = text.substr(0, colon), b = text.substr(colon + 1);
    lo = std::strtod(a.c_str(), &end);
    if (a.empty() || *end) throw bad();
    hi = std::strtod(b.c_str(), &end);
    if (b.empty() || *end) throw bad();
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo > 0) || !(hi > lo)) throw bad();
}

}  // namespace

int cmd_irregularity(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"spectrum", 0, "NAME", "erri-low, erri-high, fra1 .. fra6"},
        {"kind", 'k', "KIND", "vertical, lateral, cross-level, gauge"},
        {"length", 'l', "L", "profile length, m"},
        {"step", 0, "DS", "sample spacing, m (default 0.25)"},
        {"wavelengths", 'w', "LO:HI", "wavelength band kept, m (default 3:70)"},
        {"seed", 0, "N", "seed of the random phases (default 1)"},
        {"start", 0, "S0", "track s of the first sample, m (default 0)"},
        {"out", 'o', "FILE", "the table to write (.csv)"},
        {"no-plot", 0, "", "no picture"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 0, 0, "");
    for (const char *need : {"spectrum", "kind", "length", "out"})
        if (!args.has(need))
            throw cli::UsageError(std::string("missing --") + need + " (railsym irregularity --help lists them)");
    char err[512];
    rs_irreg_synth cfg{};
    if (rs_irreg_spectrum_parse(args.value("spectrum").c_str(), &cfg.spectrum, err, sizeof err) != RS_OK)
        throw cli::UsageError(std::string("--spectrum: ") + err);
    if (rs_irreg_kind_parse(args.value("kind").c_str(), &cfg.kind, err, sizeof err) != RS_OK)
        throw cli::UsageError(std::string("--kind: ") + err);
    cfg.step = args.number("step", 0.25);
    const double length = args.number("length", 0);
    if (!(cfg.step > 0) || !(length > 0)) throw cli::UsageError("--length and --step must be positive (m)");
    // the table prints s with 6 decimals: a smaller step would repeat an s
    if (cfg.step < 1e-3) throw cli::UsageError("--step must be at least 0.001 m");
    const double nn = std::ceil(length / cfg.step / 2 - 1e-9) * 2;
    if (nn < 8 || nn > 1 << 26)
        throw cli::UsageError("--length / --step gives " + std::to_string(static_cast<long long>(nn)) +
                              " samples: keep it between 8 and 2^26");
    cfg.n = static_cast<size_t>(nn);
    parse_wavelengths(args.value("wavelengths", "3:70"), cfg.lambda_min, cfg.lambda_max);
    const long long seed = args.integer("seed", 1, 0, 0x7fffffffffffffffL);
    cfg.seed = static_cast<uint64_t>(seed);
    const double s0 = args.number("start", 0);
    std::vector<double> z(cfg.n);
    if (rs_irreg_synthesize(&cfg, z.data(), err, sizeof err) != RS_OK) throw cli::UserError(err);
    const std::string out = args.value("out");
    // The usage line works as written: the profile does not end at 0, so the
    // track reader needs a taper at the window's ends (docs/analyses.md, "The
    // file"): the longest wavelength kept, at most a tenth of the profile.
    const double taper = std::fmin(cfg.lambda_max, 0.1 * cfg.step * static_cast<double>(cfg.n));
    const size_t slash = out.find_last_of('/');
    const std::string base = slash == std::string::npos ? out : out.substr(slash + 1);
    std::ostringstream comment;
    comment << "railsym irregularity: " << args.value("spectrum") << " " << rs_irreg_kind_name(cfg.kind)
            << ", wavelengths " << cfg.lambda_min << " .. " << cfg.lambda_max << " m, step " << cfg.step
            << " m, seed " << seed << "\nvalues in metres; use: irregularity "
            << (cfg.kind == RS_IRREG_VERTICAL ? "vertical" : cfg.kind == RS_IRREG_LATERAL ? "lateral"
                : cfg.kind == RS_IRREG_CROSS_LEVEL ? "cant" : "gauge")
            << " table " << base << " linear taper " << taper << " (docs/contact.md)";
    if (rs_irreg_write_table(out.c_str(), comment.str().c_str(), s0, cfg.step, z.data(), cfg.n, err, sizeof err) !=
        RS_OK)
        throw cli::UserError(err);
    double var = 0;
    for (double v : z) var += v * v;
    std::printf("irregularity: %s: %zu samples over %.6g m, rms %.4g mm\n", out.c_str(), cfg.n,
                cfg.step * static_cast<double>(cfg.n), 1e3 * std::sqrt(var / static_cast<double>(cfg.n)));

    // The profile's Welch PSD beside the target, in m²/(1/m) against 1/m.
    std::string stem = out;
    if (ends_with(stem, ".csv")) stem.resize(stem.size() - 4);
    const std::string pcsv = stem + "_psd.csv", png = stem + "_psd.png";
    const size_t nseg = rs_psd_default_segment(cfg.n);
    std::vector<double> P(rs_psd_bins(nseg));
    if (rs_psd_welch(z.data(), cfg.n, 1 / cfg.step, nseg, P.data(), nullptr, err, sizeof err) != RS_OK)
        throw cli::UserError(err);
    {
        cli::OutFile file(pcsv);
        std::FILE *f = file.get();
        std::fprintf(f, "f_per_m,psd_m2_m,target_m2_m\n");
        const double df = 1 / (cfg.step * static_cast<double>(nseg));
        for (size_t k = 1; k < P.size(); ++k) {
            const double fk = df * static_cast<double>(k);
            double S = 0;
            if (fk >= 1 / cfg.lambda_max && fk <= 1 / cfg.lambda_min)
                rs_irreg_psd(&cfg.spectrum, cfg.kind, 2 * M_PI * fk, &S, err, sizeof err);
            // S(Ω) dΩ = G(f) df with Ω = 2πf: G = 2π S
            std::fprintf(f, "%.10g,%.10g,%.10g\n", fk, P[k], 2 * M_PI * S);
        }
        file.close();
    }
    std::printf("psd: %s\n", pcsv.c_str());
    if (!args.has("no-plot")) {
        const auto gq = gnuplot::quote;
        std::ostringstream gp;
        gp << gnuplot::csv_png_header(png)
           << "set title " << gq(out + ": Welch PSD and target spectrum") << "\n"
           << "set logscale xy\nset grid xtics ytics mxtics mytics\nset format y '%.0e'\n"
           << "set xlabel 'spatial frequency [1/m]'\nset ylabel 'PSD [m^2/(1/m)]'\n"
           << "plot " << gq(pcsv) << " using 1:($2 > 0 ? $2 : 1/0) skip 1 with lines lw 1 title 'generated (Welch)', \\\n"
           << "     " << gq(pcsv) << " using 1:($3 > 0 ? $3 : 1/0) skip 1 with lines lw 2 title 'target'\n"
           << "set output\n";
        gnuplot::draw_or_warn(gp.str(), png, "railsym irregularity");
    }
    return cli::kExitOk;
}

}  // namespace railsym
