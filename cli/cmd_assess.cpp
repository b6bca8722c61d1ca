// cmd_assess.cpp — `railsym assess RESULT.csv ...`: running safety and
// stability of a run as EN 14363 evaluates them (runtime/app/rs_en14363.h,
// docs/analyses.md "Running safety and stability"):
//   - bogie-frame lateral acceleration ÿ+ (--frame COL in m/s², or
//     --frame-velocity COL in m/s, differentiated), band-passed to f0 ± 2 Hz,
//     rms over 100 m every 10 m, against (12 − m+/5)/2 m/s²;
//   - Y/Q of each wheel (--wheel CONTACT, default every contact whose
//     CONTACT.Y and CONTACT.Q are columns), Y and Q low-passed at 20 Hz,
//     mean over 2 m every 0.5 m, its largest value against 0.8;
//   - ΣY (--sum-y COL, N, with --wheel-load Q0) band-passed to f0 ± 2 Hz,
//     rms over 100 m every 10 m, against α (10 + 2 Q0/3)/2 kN.
// Writes PREFIX_assess_{frame,yq,sum_y}.csv and .png and one verdict line
// per criterion, under a line naming the source.  Exit status: 0 (also when
// a limit is exceeded: the verdicts say so), 1 user error, 2 bad usage.
//
// Sources (docs/analyses.md, "What the sources confirm"): EN 14363:2016
// holds these criteria in its clause 7, "running safety, track loading and
// ride characteristics" (its scope as the DIN catalogue lists it); its
// sub-clause, table and formula numbers, and those of UIC 518 (4th ed.,
// 2009), were not in any text reached, so none is printed.  The 2 m / 0.5 m
// sliding mean of Y/Q after a low pass of at least 20 Hz and ΣY's sliding
// rms after the f0 ± 2 Hz band pass are as the table of assessment
// quantities at gensys.se/course/UIC518_tests.html lists them; the limits
// and the 100 m / 10 m windows are not confirmed.
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
#include "rs_en14363.h"
#include "rs_status.h"
#include "rs_track_shift.h"
#include "rs_track_window.h"
}

namespace railsym {

namespace {

// f0 is looked for in this band when not given (hunting of bogies and
// wheelsets lies inside it; docs/analyses.md).
constexpr double kF0Low = 0.2, kF0High = 20;

struct Table {
    std::string path, png, title, ylabel;
    std::string yrange;                        // gnuplot's, e.g. "[0:*]" for an rms
    std::vector<std::string> names;            // columns after s_start_m
    std::vector<std::vector<double>> columns;  // the last one is the limit
    std::vector<double> start;
};

void write_table(const Table &t) {
    std::FILE *fp = std::fopen((t.path + ".tmp").c_str(), "w");
    if (!fp) throw cli::UserError("cannot write '" + t.path + "': check that its folder exists");
    std::fprintf(fp, "s_start_m");
    for (const std::string &n : t.names) std::fprintf(fp, ",%s", n.c_str());
    std::fprintf(fp, "\n");
    for (size_t k = 0; k < t.start.size(); ++k) {
        std::fprintf(fp, "%.6g", t.start[k]);
        for (const auto &c : t.columns) std::fprintf(fp, ",%.10g", c[k]);
        std::fprintf(fp, "\n");
    }
    const bool bad = std::ferror(fp) != 0;
    if (std::fclose(fp) != 0 || bad || std::rename((t.path + ".tmp").c_str(), t.path.c_str()) != 0)
        throw cli::UserError("cannot write '" + t.path + "' (disk full?)");
    std::printf("windows: %s\n", t.path.c_str());
}

void plot_table(const Table &t) {
    try {
        const auto gq = gnuplot::quote;
        std::ostringstream gp;
        gp << "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'\n"
           << "set output " << gq(t.png) << "\n"
           << "set datafile separator ','\n"
           << "set title " << gq(t.title) << "\n"
           << "set grid\nset key top left\nset yrange " << t.yrange << "\nset offsets 0, 0, graph 0.05, 0\n"
           << "set xlabel 'window start [m]'\nset ylabel " << gq(t.ylabel) << "\n"
           << "plot ";
        for (size_t j = 0; j < t.names.size(); ++j) {
            const bool limit = j + 1 == t.names.size();
            gp << (j ? ", \\\n     " : "") << gq(t.path) << " using 1:" << j + 2 << " skip 1 with "
               << (limit ? "lines lw 2 dt 2" : "linespoints lw 1.5 pt 7 ps 0.5") << " title " << gq(t.names[j]);
        }
        gp << "\nset output\n";
        gnuplot::draw(gnuplot::find(), gp.str(), t.png);
        std::printf("plot: %s\n", t.png.c_str());
    } catch (const cli::UserError &e) {
        std::fprintf(stderr, "railsym assess: warning: no plot: %s\n", e.what());
    }
}

std::string fmt(const char *f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// A position along the track at the record's resolution: rounded to the
// decimal place just finer than the spacing ds of its samples, trailing
// zeros dropped.  The windows start at s[0] + k step, and a vehicle that
// starts 0.1 mm behind the origin printed "window at 19.9999 m" for 20 m.
std::string fmt_position(double v, double ds) {
    int d = ds > 0 && std::isfinite(ds) ? static_cast<int>(std::ceil(-std::log10(ds) - 1e-9)) : 6;
    d = std::clamp(d, 0, 6);
    char b[64];
    std::snprintf(b, sizeof b, "%.*f", d, v);
    std::string t = b;
    if (t.find('.') != std::string::npos) {
        while (t.back() == '0') t.pop_back();
        if (t.back() == '.') t.pop_back();
    }
    if (t == "-0") t = "0";
    return t;
}

// "within, margin M UNIT (P %)" or "EXCEEDED by M UNIT (P %)"
std::string verdict(double worst, double limit, const std::string &unit) {
    const double m = limit - worst, pct = 100 * std::abs(m) / limit;
    return (m >= 0 ? "within, margin " : "EXCEEDED by ") + fmt("%.4g", std::abs(m)) + (unit.empty() ? "" : " " + unit) + " (" +
           fmt("%.3g", pct) + " % of the limit)";
}

// The band-passed, windowed rms of one signal; prints the band and returns
// the windows' rms.
std::vector<double> stability_rms(const std::string &csv, const std::string &label, const std::vector<double> &y,
                                  const std::vector<double> &s, double fs, double f0_given,
                                  std::vector<double> &start) {
    const size_t n = y.size();
    char err[512];
    double f0 = f0_given;
    std::string from = "given";
    if (!(f0 > 0)) {
        if (rs_en14363_find_f0(y.data(), n, fs, kF0Low, kF0High, &f0, err, sizeof err) != RS_OK)
            throw cli::UserError(csv + ": " + label + ": " + err);
        from = "from its spectrum";
    }
    std::vector<double> f(n), rms(n);
    if (rs_en14363_bandpass(y.data(), n, fs, f0, RS_EN14363_HALF_BAND, f.data(), err, sizeof err) != RS_OK)
        throw cli::UserError(csv + ": " + label + ": " + err);
    const double fl = f0 - RS_EN14363_HALF_BAND, fh = f0 + RS_EN14363_HALF_BAND;
    if (fl > 0)
        std::printf("%s: f0 %.3g Hz (%s), band pass %.3g .. %.3g Hz\n", label.c_str(), f0, from.c_str(), fl, fh);
    else
        std::printf("%s: f0 %.3g Hz (%s), below 2 Hz: no band, low pass at %.3g Hz\n", label.c_str(), f0,
                    from.c_str(), fh);
    size_t nw = 0;
    start.assign(n, 0);
    if (rs_track_window(RS_TRACK_WINDOW_RMS, f.data(), s.data(), n, RS_EN14363_STAB_WINDOW, RS_EN14363_STAB_STEP,
                        start.data(), rms.data(), n, &nw, err, sizeof err) != RS_OK)
        throw cli::UserError(csv + ": the position column: " + err);
    start.resize(nw);
    rms.resize(nw);
    return rms;
}

size_t argmax(const std::vector<double> &v) {
    return static_cast<size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace

int cmd_assess(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"position", 'p', "COL", "position along the track, m (default x)"},
        {"frame", 0, "COL", "bogie-frame lateral acceleration, m/s^2 (repeatable)"},
        {"frame-velocity", 0, "COL", "bogie-frame lateral velocity, m/s, differentiated (repeatable)"},
        {"bogie-mass", 'm', "T", "bogie mass m+, t (with --frame)"},
        {"f0", 0, "HZ", "instability frequency (default: each signal's spectral peak, 0.2 .. 20 Hz)"},
        {"wheel", 'w', "CONTACT", "a wheel's contact for Y/Q (repeatable; default every CONTACT.Y, CONTACT.Q)"},
        {"sum-y", 0, "COL", "sum of guiding forces of a wheelset, N: a column or COL1-COL2 (repeatable)"},
        {"wheel-load", 'q', "Q0", "static wheel force, kN (with --sum-y)"},
        {"freight", 0, "", "alpha = 0.85 in the sum Y limit (default 1)"},
        {"out", 'o', "PREFIX", "output prefix (default: RESULT without .csv)"},
        {"no-plot", 0, "", "no pictures"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 1, 1, "RESULT.csv");
    const std::string csv = args.positional[0], pos = args.value("position", "x");
    const std::vector<std::string> acc = args.values("frame"), vel = args.values("frame-velocity");
    const std::vector<std::string> sumy = args.values("sum-y");
    const bool frame = !acc.empty() || !vel.empty();
    double mass = 0, q0 = 0;
    if (frame) {
        if (!args.has("bogie-mass"))
            throw cli::UsageError("--frame needs --bogie-mass M: the bogie mass m+ in t (its limit is (12 - m+/5)/2)");
        mass = args.number("bogie-mass", 0);
        if (!(mass > 0) || !(mass < 60)) throw cli::UsageError("--bogie-mass must be between 0 and 60 t");
    } else if (args.has("bogie-mass")) {
        throw cli::UsageError("--bogie-mass without --frame COL or --frame-velocity COL: which column is the frame?");
    }
    if (!sumy.empty()) {
        if (!args.has("wheel-load")) throw cli::UsageError("--sum-y needs --wheel-load Q0: the static wheel force in kN");
        q0 = args.number("wheel-load", 0);
        if (!(q0 > 0)) throw cli::UsageError("--wheel-load must be positive (kN)");
    }
    const double f0 = args.number("f0", 0);
    if (args.has("f0") && !(f0 > 0)) throw cli::UsageError("--f0 must be positive (Hz)");

    // The wheels: those named, else every contact with both .Y and .Q.
    std::vector<std::string> wheels = args.values("wheel");
    const std::vector<std::string> header = read_result_header(csv);
    if (wheels.empty())
        for (const std::string &h : header)
            if (ends_with(h, ".Y")) {
                const std::string c = h.substr(0, h.size() - 2);
                if (std::find(header.begin(), header.end(), c + ".Q") != header.end()) wheels.push_back(c);
            }
    if (!frame && sumy.empty() && wheels.empty())
        throw cli::UserError("'" + csv + "': nothing to assess: no --frame, --frame-velocity or --sum-y, and no "
                             "contact columns CONTACT.Y and CONTACT.Q (add them to the scenario's `columns`)");

    // Each column read once (a contact's Y may also be given as --sum-y):
    // col(name) is its index in rc.values.
    std::vector<std::string> names = {pos};
    auto add = [&](const std::string &c) {
        if (std::find(names.begin(), names.end(), c) == names.end()) names.push_back(c);
    };
    for (const auto *list : {&acc, &vel})
        for (const std::string &c : *list) add(c);
    std::vector<std::vector<ColumnTerm>> sumy_terms;
    for (const std::string &e : sumy) {
        sumy_terms.push_back(column_sum_terms(e, header, "--sum-y"));
        for (const ColumnTerm &t : sumy_terms.back()) add(t.column);
    }
    for (const std::string &w : wheels) {
        add(w + ".Y");
        add(w + ".Q");
    }
    const ResultColumns rc = read_result_columns(csv, names);
    auto col = [&](const std::string &c) {
        return static_cast<size_t>(std::find(names.begin(), names.end(), c) - names.begin());
    };
    const std::vector<double> &s = rc.values[0];
    const size_t n = s.size();
    const double ds = n > 1 ? (s[n - 1] - s[0]) / static_cast<double>(n - 1) : 0;   // mean sample spacing, m
    auto unit_of = [&](const std::string &name) { return rc.units[col(name)]; };
    for (const std::string &c : acc)
        if (unit_of(c) == "m/s")
            throw cli::UserError(csv + ": column '" + c + "' is in m/s, a velocity: give it as --frame-velocity " + c);
    for (const std::string &c : vel)
        if (!unit_of(c).empty() && unit_of(c) != "m/s")
            throw cli::UserError(csv + ": column '" + c + "' is in " + unit_of(c) +
                                 ", not m/s: --frame-velocity takes a lateral velocity");

    std::string stem = csv;
    if (ends_with(stem, ".csv")) stem.resize(stem.size() - 4);
    const std::string prefix = args.value("out", stem);
    const bool plot = !args.has("no-plot");
    std::vector<std::string> verdicts;
    char err[512];

    if (frame) {
        const double lim = rs_en14363_frame_limit(mass);
        if (!(lim > 0)) throw cli::UsageError("--bogie-mass " + fmt("%g", mass) + " t gives no positive limit");
        Table t{prefix + "_assess_frame.csv", prefix + "_assess_frame.png",
                "bogie frame lateral acceleration: rms over 100 m windows, f0 +- 2 Hz", "rms [m/s^2]", "[0:*]", {}, {}, {}};
        std::vector<std::pair<std::string, std::vector<double>>> sig;
        for (const std::string &c : acc) sig.push_back({c, rc.values[col(c)]});
        for (const std::string &c : vel) {
            std::vector<double> a(n);
            const auto &v = rc.values[col(c)];
            if (rs_en14363_derivative(v.data(), n, rc.fs, a.data(), err, sizeof err) != RS_OK)
                throw cli::UserError(csv + ": column '" + c + "': " + err);
            sig.push_back({"d/dt " + c, a});
        }
        for (const auto &[label, y] : sig) {
            std::vector<double> rms = stability_rms(csv, "frame '" + label + "'", y, s, rc.fs, f0, t.start);
            const size_t k = argmax(rms);
            verdicts.push_back("frame '" + label + "': largest rms " + fmt("%.4g", rms[k]) + " m/s^2 (window at " +
                               fmt_position(t.start[k], ds) + " m); limit (12 - m+/5)/2 = " + fmt("%.4g", lim) +
                               " m/s^2 (m+ " + fmt("%.4g", mass) + " t): " + verdict(rms[k], lim, "m/s^2"));
            t.names.push_back(label + " rms m/s^2");
            t.columns.push_back(rms);
        }
        t.names.push_back("limit m/s^2");
        t.columns.push_back(std::vector<double>(t.start.size(), lim));
        write_table(t);
        if (plot) plot_table(t);
    }

    if (!wheels.empty()) {
        Table t{prefix + "_assess_yq.csv", prefix + "_assess_yq.png",
                "Y/Q: mean over 2 m windows every 0.5 m (20 Hz low pass)", "Y/Q", "[*:*]", {}, {}, {}};
        const double lim = RS_EN14363_YQ_LIMIT;
        for (const std::string &w : wheels) {
            std::vector<double> yq(n), mean(n);
            if (rs_en14363_yq(rc.values[col(w + ".Y")].data(), rc.values[col(w + ".Q")].data(), n, rc.fs, yq.data(),
                              err, sizeof err) != RS_OK)
                throw cli::UserError(csv + ": wheel '" + w + "': " + err);
            size_t nw = 0;
            t.start.assign(n, 0);
            if (rs_track_window(RS_TRACK_WINDOW_MEAN, yq.data(), s.data(), n, RS_EN14363_YQ_WINDOW, RS_EN14363_YQ_STEP,
                                t.start.data(), mean.data(), n, &nw, err, sizeof err) != RS_OK)
                throw cli::UserError(csv + ": column '" + pos + "': " + err);
            t.start.resize(nw);
            mean.resize(nw);
            const size_t k = argmax(mean);
            verdicts.push_back("Y/Q " + w + ": largest 2 m mean " + fmt("%.4g", mean[k]) + " (window at " +
                               fmt_position(t.start[k], ds) + " m); limit 0.8: " + verdict(mean[k], lim, ""));
            t.names.push_back(w + ".Y_Q");
            t.columns.push_back(mean);
        }
        t.names.push_back("limit");
        t.columns.push_back(std::vector<double>(t.start.size(), lim));
        write_table(t);
        if (plot) plot_table(t);
    }

    if (!sumy.empty()) {
        const double alpha = args.has("freight") ? 0.85 : 1.0;
        const double lim_rms = rs_track_shift_limit(q0, alpha) / 2;
        Table t{prefix + "_assess_sum_y.csv", prefix + "_assess_sum_y.png",
                "sum Y: rms over 100 m windows, f0 +- 2 Hz", "rms [kN]", "[0:*]", {}, {}, {}};
        for (size_t e = 0; e < sumy.size(); e++) {
            const std::string &c = sumy[e];
            std::vector<double> y(n, 0.0);
            for (const ColumnTerm &term : sumy_terms[e]) {
                const auto &v = rc.values[col(term.column)];
                for (size_t i = 0; i < n; i++) y[i] += term.sign * v[i];
            }
            std::vector<double> rms = stability_rms(csv, "sum Y '" + c + "'", y, s, rc.fs, f0, t.start);
            for (double &r : rms) r /= 1e3;
            const size_t k = argmax(rms);
            verdicts.push_back("sum Y '" + c + "': largest rms " + fmt("%.4g", rms[k]) + " kN (window at " +
                               fmt_position(t.start[k], ds) + " m); limit alpha (10 + 2 Q0/3)/2 = " +
                               fmt("%.4g", lim_rms) + " kN (alpha " + fmt("%.2f", alpha) + ", Q0 " + fmt("%.4g", q0) +
                               " kN): " + verdict(rms[k], lim_rms, "kN"));
            t.names.push_back(c + " rms kN");
            t.columns.push_back(rms);
        }
        t.names.push_back("limit kN");
        t.columns.push_back(std::vector<double>(t.start.size(), lim_rms));
        write_table(t);
        if (plot) plot_table(t);
    }
    // the one source confirmed (the header comment): the clause, not its sub-clauses
    if (!verdicts.empty())
        std::printf("EN 14363:2016, clause 7 (its sub-clauses and these limits not confirmed against its text: "
                    "docs/analyses.md):\n");
    for (const std::string &v : verdicts) std::printf("%s\n", v.c_str());
    return cli::kExitOk;
}

}  // namespace railsym
