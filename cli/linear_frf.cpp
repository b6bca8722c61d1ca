// linear_frf.cpp — `railsym linear MODEL --speed V --frf [--frf-range
// FLO:FHI:N] [--frf-out NAME ...]`: the accelerations' frequency responses
// to track irregularities (runtime/app/rs_linear_frf.h), written as
// DIR/frf.csv (f_Hz, then per output and input |H| and its phase in
// degrees), DIR/frf.units.csv, and DIR/frf.png (Bode plot).
#include "linear_frf.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "gnuplot.hpp"

extern "C" {
#include "rs_dirs.h"
#include "rs_linear_frf.h"
#include "rs_results.h"
#include "rs_status.h"
}

namespace railsym {

namespace {

constexpr double kPi = 3.14159265358979323846;

// "FLO:FHI:N" -> 0 < FLO < FHI, N >= 2.
void parse_range(const std::string &text, double &lo, double &hi, int &n) {
    auto bad = [&]() {
        return cli::UsageError("--frf-range '" + text +
                               "': write FLO:FHI:N in Hz with 0 < FLO < FHI and N >= 2 frequencies "
                               "(logarithmically spaced), e.g. --frf-range 0.5:30:200");
    };
    std::vector<std::string> parts;
    std::stringstream ss(text);
    for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
    if (parts.size() != 3) throw bad();
    char *end = nullptr;
    lo = std::strtod(parts[0].c_str(), &end);
    if (parts[0].empty() || *end || !std::isfinite(lo) || !(lo > 0)) throw bad();
    hi = std::strtod(parts[1].c_str(), &end);
    if (parts[1].empty() || *end || !std::isfinite(hi) || !(hi > lo)) throw bad();
    const long k = std::strtol(parts[2].c_str(), &end, 10);
    if (parts[2].empty() || *end || k < 2 || k > 100000) throw bad();
    n = static_cast<int>(k);
}

struct Frf {
    rs_linear_frf r{};
    ~Frf() { rs_linear_frf_free(&r); }
};

std::string column(const std::string &q, int input) { return q + "/" + rs_frf_input_name(input); }

// One response row of the table: a coordinate or a point's ground component.
struct Series {
    std::string name, unit;
    const double *re, *im;  // the result's arrays
    int index, stride;      // H at [(k stride + index) n_in + j]
};

// The unit of an acceleration per metre of input on coordinate q.
std::string unit(const rs_model *m, int q) {
    const char *u = m->q_units && m->q_units[q] && m->q_units[q][0] ? m->q_units[q] : "unit";
    return std::string("(") + u + "/s^2)/m";
}

}  // namespace

int linear_frf(const cli::Args &args, const rs_linear_config &cfg, const std::string &out) {
    rs_linear_frf_config fc{};
    fc.lin = cfg;
    fc.f_lo = 0.5;
    fc.f_hi = 30;
    fc.n_f = 200;
    if (args.has("frf-range")) parse_range(args.value("frf-range"), fc.f_lo, fc.f_hi, fc.n_f);
    std::vector<std::string> names;
    for (const std::string &v : args.values("frf-out")) {
        std::stringstream ss(v);
        for (std::string p; std::getline(ss, p, ',');)
            if (!p.empty()) names.push_back(p);
        if (names.empty()) throw cli::UsageError("--frf-out '" + v + "': name a coordinate or a prefix, e.g. --frf-out front.y");
    }
    std::vector<const char *> cnames;
    for (const std::string &s : names) cnames.push_back(s.c_str());
    if (!cnames.empty()) {
        fc.outputs = cnames.data();
        fc.n_outputs = static_cast<int>(cnames.size());
    }
    const std::vector<std::string> points = args.values("frf-point");
    std::vector<const char *> pnames;
    for (const std::string &s : points) pnames.push_back(s.c_str());
    if (!pnames.empty()) {
        fc.points = pnames.data();
        fc.n_points = static_cast<int>(pnames.size());
    }
    Frf res;
    char err[4096];
    if (rs_linear_frf_run(&fc, &res.r, err, sizeof err) != RS_OK) throw cli::UserError(err);
    const rs_linear_frf &r = res.r;
    // the model's names and units, from the loaded descriptor again
    rs_linear_opened o;
    if (rs_linear_open(&cfg, &o, err, sizeof err) != RS_OK) throw cli::UserError(err);
    const rs_model *m = o.m;
    if (rs_make_dirs(out.c_str()) != 0) {
        rs_linear_close(&o);
        throw cli::UserError("cannot create the output folder '" + out + "'");
    }
    const std::string csv = out + "/frf.csv";
    char upath[4096];
    rs_results_units_path(csv.c_str(), upath, sizeof upath);
    std::ofstream f(csv), fu(upath);
    std::vector<Series> ser;
    for (int o2 = 0; o2 < r.n_out; o2++)
        ser.push_back({m->q_names[r.out_q[o2]], unit(m, r.out_q[o2]), r.re, r.im, o2, r.n_out});
    for (int p = 0; p < r.n_pt; p++)
        for (int c = 0; c < 3; c++)
            ser.push_back({std::string(r.pt_label[p]) + "." + "xyz"[c], "(m/s^2)/m", r.row_re, r.row_im, 3 * p + c,
                           r.n_row});
    const int ns = static_cast<int>(ser.size());
    std::string head = "f_Hz", units = "Hz";
    for (const Series &se : ser)
        for (int j = 0; j < r.n_in; j++) {
            const std::string c = column(se.name, r.in[j]);
            head += "," + c + ":abs," + c + ":phase";
            units += "," + se.unit + ",deg";
        }
    f << head << "\n";
    fu << head << "\n" << units << "\n";
    char num[64];
    std::vector<double> peak(static_cast<size_t>(ns * r.n_in), 0.0), fpeak(peak.size(), 0.0);
    for (int k = 0; k < r.n_f; k++) {
        std::snprintf(num, sizeof num, "%.10g", r.f[k]);
        f << num;
        for (int o2 = 0; o2 < ns; o2++)
            for (int j = 0; j < r.n_in; j++) {
                const Series &se = ser[static_cast<size_t>(o2)];
                const size_t e = (static_cast<size_t>(k) * se.stride + se.index) * r.n_in + j;
                const double a = std::hypot(se.re[e], se.im[e]), ph = std::atan2(se.im[e], se.re[e]) * 180 / kPi;
                std::snprintf(num, sizeof num, ",%.10g,%.6f", a, ph);
                f << num;
                const size_t p = static_cast<size_t>(o2) * r.n_in + j;
                if (a > peak[p]) peak[p] = a, fpeak[p] = r.f[k];
            }
        f << "\n";
    }
    if (!f || !fu) {
        rs_linear_close(&o);
        throw cli::UserError("cannot write '" + csv + "'");
    }
    f.close();
    fu.close();
    std::string inputs;
    for (int j = 0; j < r.n_in; j++) inputs += std::string(j ? ", " : "") + rs_frf_input_name(r.in[j]);
    std::printf("frequency responses at %.6g m/s, %d frequencies %.4g..%.4g Hz; inputs: %s\n", r.speed, r.n_f,
                r.f[0], r.f[r.n_f - 1], inputs.c_str());
    std::printf("contacts at s =");
    for (int i = 0; i < r.nc; i++) std::printf(" %.4g", r.s_contact[i]);
    std::printf(" m (the input's phase is the leading contact's, s = %.4g m)\n", r.s_lead);
    for (int o2 = 0; o2 < ns; o2++)
        for (int j = 0; j < r.n_in; j++) {
            const size_t p = static_cast<size_t>(o2) * r.n_in + j;
            const Series &se = ser[static_cast<size_t>(o2)];
            std::printf("  %-28s peak |H| %.5g %s at %.4g Hz\n", column(se.name, r.in[j]).c_str(), peak[p],
                        se.unit.c_str(), fpeak[p]);
        }
    std::printf("responses: %s\n", csv.c_str());
    if (!args.has("no-plot") && r.n_f >= 2) {
        try {
            const std::string png = out + "/frf.png", prog = gnuplot::find();
            const auto gq = gnuplot::quote;
            char title[256];
            std::snprintf(title, sizeof title, "%s at %.4g m/s: accelerations per metre of track input", r.model,
                          r.speed);
            std::ostringstream gp, plot_abs, plot_ph;
            // a response below 1e-9 of its output's largest is rounding (an
            // input the symmetry decouples): in the table, not in the picture
            bool first = true;
            for (int o2 = 0; o2 < ns; o2++)
                for (int j = 0; j < r.n_in; j++) {
                    const Series &se = ser[static_cast<size_t>(o2)];
                    double big = 0;
                    for (int j2 = 0; j2 < r.n_in; j2++) big = std::fmax(big, peak[static_cast<size_t>(o2) * r.n_in + j2]);
                    if (!(peak[static_cast<size_t>(o2) * r.n_in + j] > 1e-9 * big)) continue;
                    const int col = 2 + 2 * (o2 * r.n_in + j);
                    const std::string name = column(se.name, r.in[j]) + " [" + se.unit + "]";
                    plot_abs << (first ? "" : ", ") << gq(csv) << " using 1:" << col << " skip 1 with lines lw 1.5 title " << gq(name);
                    plot_ph << (first ? "" : ", ") << gq(csv) << " using 1:" << col + 1 << " skip 1 with lines lw 1.5 title " << gq(name);
                    first = false;
                }
            gp << "# generated by railsym linear --frf\n"
               << "set terminal pngcairo size 1000,800 noenhanced font 'sans,10'\n"
               << "set output " << gq(png) << "\n"
               << "set datafile separator ','\nset grid\nset logscale x\nset key outside right top\n"
               << "set xrange [" << r.f[0] << ":" << r.f[r.n_f - 1] << "]\n"
               << "set multiplot layout 2,1 title " << gq(title) << "\n"
               << "set ylabel '|H|: acceleration per metre of input [(m/s^2)/m, (rad/s^2)/m]'\nset logscale y\n"
               << "plot " << plot_abs.str() << "\n"
               << "unset logscale y\nset ylabel 'phase [deg]'\nset xlabel 'frequency [Hz]'\nset yrange [-180:180]\n"
               << "set ytics 90\nplot " << plot_ph.str() << "\n"
               << "unset multiplot\nset output\n";
            gnuplot::draw(prog, gp.str(), png);
            std::printf("plot: %s\n", png.c_str());
        } catch (const cli::UserError &e) {
            std::fprintf(stderr, "railsym linear: warning: no plot: %s\n", e.what());
        }
    }
    rs_linear_close(&o);
    return cli::kExitOk;
}

}  // namespace railsym
