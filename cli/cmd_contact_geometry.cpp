// cmd_contact_geometry.cpp — `railsym contact-geometry WHEEL.prf RAIL.prf
// | --model DIR [--wheelset NAME] [--wheel-right W] [--rail-right R] [--gauge
// G] [--flange-back B] [--radius r0] [--radius-right r] [--inclination 1:N]
// [--gauge-point Y] [--gauge-point-right Y] [--shift LO:HI:N] [--amplitudes
// LO:HI:N] [--out PREFIX] [--plot]`: the rigid contact geometry of a wheelset
// on straight track across the flangeway, and its equivalent conicity
// (docs/contact_geometry.md).  The right side may have its own wheel and
// rail (a worn rail on one side, unlike wheels).  --model takes the pairs and
// their placement from a compiled model's wheelset (rs_wrgeom_model.h).
//
// The geometry is the C runtime's (runtime/contact/rs_wr_geometry.h, one
// rs_patch_find per wheel), the conicity too (rs_conicity.h); this command
// reads the profiles, runs the shifts, writes the two CSV files atomically
// (a temporary name renamed when complete) and draws the plots.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli.hpp"
#include "gnuplot.hpp"
#include "model_dir.hpp"

extern "C" {
#include "rs_conicity.h"
#include "rs_profile.h"
#include "rs_status.h"
#include "rs_wr_geometry.h"
#include "rs_wrgeom_model.h"
}

namespace fs = std::filesystem;

namespace railsym {

namespace {

struct Model {
    rs_wrgeom_model g{};
    Model() = default;
    Model(const Model &) = delete;
    Model &operator=(const Model &) = delete;
    ~Model() { rs_wrgeom_model_close(&g); }
};

// 1 when rs_wrgeom_solve's message is about a contact at the flange-side end
// of the wheel table: a flange that reaches less far than the default shift
// range (where the default range stops).  A rail table too narrow for the
// flange, or the field-side ends, stay errors: the tables need extending.
bool at_flange_end(const std::string &m) { return m.find("flange-side end of the wheel table") != std::string::npos; }

struct Profile {
    rs_profile p{};
    Profile() = default;
    Profile(const Profile &) = delete;
    Profile &operator=(const Profile &) = delete;
    ~Profile() { rs_profile_free(&p); }
};

// "LO:HI:N" -> LO < HI, N >= 2 points.
void parse_grid(const std::string &opt, const std::string &text, double &lo, double &hi, int &n, const char *eg) {
    auto bad = [&]() {
        return cli::UsageError("--" + opt + " '" + text + "': write LO:HI:N in metres, LO < HI, N >= 2 points, e.g. --" +
                               opt + " " + eg);
    };
    const size_t c1 = text.find(':');
    if (c1 == std::string::npos) throw bad();
    const size_t c2 = text.find(':', c1 + 1);
    if (c2 == std::string::npos) throw bad();
    const std::string a = text.substr(0, c1), b = text.substr(c1 + 1, c2 - c1 - 1), c = text.substr(c2 + 1);
    char *end = nullptr;
    lo = std::strtod(a.c_str(), &end);
    if (a.empty() || *end) throw bad();
    hi = std::strtod(b.c_str(), &end);
    if (b.empty() || *end) throw bad();
    const long k = std::strtol(c.c_str(), &end, 10);
    if (c.empty() || *end || k < 2 || k > 100000) throw bad();
    n = static_cast<int>(k);
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) throw bad();
}

// "1:N" -> N.
double parse_inclination(const std::string &text) {
    auto bad = [&]() {
        return cli::UsageError("--inclination '" + text + "': write 1:N, e.g. --inclination 1:40");
    };
    if (text.rfind("1:", 0) != 0) throw bad();
    char *end = nullptr;
    const double n = std::strtod(text.c_str() + 2, &end);
    if (text.size() == 2 || *end || !std::isfinite(n) || !(n >= 5 && n <= 1000)) throw bad();
    return n;
}

void load(Profile &pr, const std::string &path, int kind, const std::string &other_hint) {
    char err[1024];
    if (rs_profile_load(&pr.p, path.c_str(), err, sizeof err) != RS_OK) {
        std::string msg = err;
        if (msg.find("increasing") != std::string::npos)
            msg += " (a profile must be a function z(y): a wheel or rail table that folds back, y going back "
                   "on itself, cannot be used; trim or re-sample it)";
        throw cli::UserError(msg);
    }
    if (pr.p.kind != kind)
        throw cli::UserError(path + ": is a " + (kind == RS_PROFILE_WHEEL ? "rail" : "wheel") + " profile ('kind " +
                             (kind == RS_PROFILE_WHEEL ? "rail" : "wheel") + "'): " + other_hint);
}

// Atomic text file: written under PATH.tmp.PID, renamed to PATH at the end.
void write_atomic(const std::string &path, const std::string &text) {
    const std::string tmp = path + ".tmp." + std::to_string(static_cast<long>(getpid()));
    std::FILE *f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw cli::UserError("cannot write '" + tmp + "': " + std::strerror(errno));
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    const bool closed = std::fclose(f) == 0;
    if (!ok || !closed || std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int e = errno;
        std::remove(tmp.c_str());
        throw cli::UserError("cannot write '" + path + "': " + std::strerror(e));
    }
}

std::string num(double v) {
    if (!std::isfinite(v)) return "nan";
    char b[40];
    std::snprintf(b, sizeof b, "%.9g", v);
    return b;
}

// One PNG through gnuplot, drawn under a temporary name and renamed.
void draw(const std::string &prog, const std::string &png, const std::string &title, const std::string &xlabel,
          const std::string &ylabel, const std::string &plot_cmd) {
    const auto gq = gnuplot::quote;
    const std::string tmp = png + ".tmp." + std::to_string(static_cast<long>(getpid())) + ".png";
    std::ostringstream gp;
    gp << "# generated by railsym contact-geometry\n"
       << "set terminal pngcairo size 1000,600 noenhanced font 'sans,10'\n"
       << "set output " << gq(tmp) << "\n"
       << "set datafile separator ','\n"
       << "set title " << gq(title) << "\n"
       << "set xlabel " << gq(xlabel) << "\n"
       << "set ylabel " << gq(ylabel) << "\n"
       << "set grid\nset key top left\nset xzeroaxis lt -1\n"
       << plot_cmd << "\nset output\n";
    try {
        gnuplot::draw(prog, gp.str(), tmp);
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
    if (std::rename(tmp.c_str(), png.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw cli::UserError("cannot write '" + png + "': " + std::strerror(errno));
    }
}

void plots(const std::string &prefix, const std::string &pair) {
    const std::string prog = gnuplot::find();
    const auto gq = gnuplot::quote;
    const std::string g = gq(prefix + "_geometry.csv"), c = gq(prefix + "_conicity.csv");
    draw(prog, prefix + "_dr.png", pair + ": rolling radius difference", "lateral shift y [mm] (+ left)",
         "r_left - r_right [mm]",
         "plot " + g + " using ($1*1e3):($2*1e3) skip 1 with linespoints lw 1.5 pt 7 ps 0.4 title 'dr(y)'");
    draw(prog, prefix + "_angles.png", pair + ": contact angles", "lateral shift y [mm] (+ left)",
         "contact angle [deg]",
         "plot " + g + " using ($1*1e3):($8*180/pi) skip 1 with linespoints lw 1.5 pt 7 ps 0.4 title 'left', \\\n"
         "     " + g + " using ($1*1e3):($15*180/pi) skip 1 with linespoints lw 1.5 pt 6 ps 0.4 title 'right'");
    draw(prog, prefix + "_jump.png", pair + ": contact points (jumps show as steps)",
         "lateral shift y [mm] (+ left)", "contact position, profile y [mm] (+ field side)",
         "plot " + g + " using ($1*1e3):($5*1e3) skip 1 with points pt 7 ps 0.5 title 'left wheel', \\\n"
         "     " + g + " using ($1*1e3):($6*1e3) skip 1 with points pt 6 ps 0.5 title 'left rail', \\\n"
         "     " + g + " using ($1*1e3):($12*1e3) skip 1 with points pt 5 ps 0.5 title 'right wheel', \\\n"
         "     " + g + " using ($1*1e3):($13*1e3) skip 1 with points pt 4 ps 0.5 title 'right rail', \\\n"
         "     " + g + " using ($1*1e3):($10*1e3) skip 1 with points pt 3 ps 0.5 title 'left wheel, 2nd point', \\\n"
         "     " + g + " using ($1*1e3):($17*1e3) skip 1 with points pt 2 ps 0.5 title 'right wheel, 2nd point'");
    draw(prog, prefix + "_conicity.png", pair + ": equivalent conicity", "amplitude [mm]", "tan(gamma_e) [-]",
         "plot " + c + " using ($1*1e3):2 skip 1 with linespoints lw 1.5 pt 7 title 'EN 15302 (integration)', \\\n"
         "     " + c + " using ($1*1e3):3 skip 1 with linespoints lw 1 pt 6 title 'harmonic linearisation'");
}

}  // namespace

int cmd_contact_geometry(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"model", 'm', "DIR", "a compiled model: its first wheelset's profiles, gauge, flange back, radius"},
        {"wheelset", 0, "NAME", "with --model: this wheel body's pair instead of the first"},
        {"wheel-right", 0, "FILE", "the right wheel's profile, where it differs from the left"},
        {"rail-right", 0, "FILE", "the right rail's profile, where it differs from the left"},
        {"gauge", 'g', "G", "track gauge between the gauge points, m (default 1.435)"},
        {"flange-back", 'b', "B", "flange-back spacing, m (default 1.360)"},
        {"radius", 'r', "R0", "nominal rolling radius, m (default 0.46)"},
        {"radius-right", 0, "R0", "the right wheel's nominal rolling radius, m (default: --radius)"},
        {"inclination", 'i', "1:N", "turn an uninclined rail profile by 1:N"},
        {"gauge-point", 0, "Y", "the rail profile's y of the gauge point, m (both rails)"},
        {"gauge-point-right", 0, "Y", "the right rail profile's y of the gauge point, m"},
        {"shift", 's', "LO:HI:N", "lateral shifts, m (default -0.010:0.010:201)"},
        {"amplitudes", 'a', "LO:HI:N", "conicity amplitudes, m (default 0.001:0.008:8)"},
        {"out", 'o', "PREFIX", "output prefix (default results/<wheel>_<rail>)"},
        {"plot", 'p', "", "draw the PNG plots with gnuplot"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    const bool from_model = args.has("model");
    if (from_model)
        cli::expect_positional(args, 0, 0, "no profiles with --model (the model's are used)");
    else
        cli::expect_positional(args, 2, 2, "WHEEL.prf RAIL.prf");
    if (args.has("wheelset") && !from_model) throw cli::UsageError("--wheelset goes with --model DIR");
    if (from_model && (args.has("wheel-right") || args.has("rail-right")))
        throw cli::UsageError("no profiles with --model (the model's are used; --wheelset NAME picks the pair)");
    Model model;
    std::string wpath[2], rpath[2];   // [0] left, [1] right
    rs_wrgeom_opts o;
    rs_wrgeom_defaults(&o);
    if (from_model) {
        // the model's values, each replaced by an explicit option below
        const std::string dir = args.value("model");
        char merr[4096];
        const std::string inc = abi_dir();
        const std::string ws = args.value("wheelset", "");
        if (rs_wrgeom_model_open(dir.c_str(), inc.c_str(), ws.empty() ? nullptr : ws.c_str(), &model.g, merr,
                                 sizeof merr) != RS_OK)
            throw cli::UserError(merr);
        for (int s = 0; s < 2; s++) {
            wpath[s] = model.g.wheel[s]->name;
            rpath[s] = model.g.rail[s]->name;
        }
        o.gauge = model.g.gauge;
        o.flange_back = model.g.flange_back;
        o.r0 = model.g.r0[0];
        if (model.g.r0[1] != model.g.r0[0]) o.r0_right = model.g.r0[1];
        o.gauge_y = model.g.gauge_y[0];
        if (model.g.gauge_y[1] != model.g.gauge_y[0]) o.gauge_y_right = model.g.gauge_y[1];
        if ((args.has("gauge-point") || args.has("gauge-point-right")) && !args.has("gauge")) {
            // the rails stay where the model puts them
            const double gl = args.number("gauge-point", model.g.gauge_y[0]);
            const double gr = args.number("gauge-point-right", args.has("gauge-point") ? gl : model.g.gauge_y[1]);
            o.gauge = model.g.rail_offset[0] + gl + model.g.rail_offset[1] + gr;
        }
        if (!model.g.gauge_found && !args.has("gauge-point"))
            throw cli::UserError(dir + ": rail " + rpath[0] + (rpath[1] != rpath[0] ? " or " + rpath[1] : "") +
                                 " has no gauge_point and its table does not reach 14 mm below the top on the gauge "
                                 "side: give the gauge point's y (--gauge-point Y, m)");
    } else {
        wpath[0] = args.positional[0];
        rpath[0] = args.positional[1];
        wpath[1] = args.value("wheel-right", wpath[0]);
        rpath[1] = args.value("rail-right", rpath[0]);
    }
    o.gauge = args.number("gauge", o.gauge);
    o.flange_back = args.number("flange-back", o.flange_back);
    o.r0 = args.number("radius", o.r0);
    if (args.has("radius-right")) o.r0_right = args.number("radius-right", 0);
    if (args.has("gauge-point")) o.gauge_y = args.number("gauge-point", 0), o.gauge_y_right = NAN;
    if (args.has("gauge-point-right")) o.gauge_y_right = args.number("gauge-point-right", 0);
    double ylo, yhi, alo, ahi;
    int ny, na;
    const bool shift_given = args.has("shift"), amp_given = args.has("amplitudes");
    parse_grid("shift", args.value("shift", "-0.010:0.010:201"), ylo, yhi, ny, "-0.010:0.010:201");
    parse_grid("amplitudes", args.value("amplitudes", "0.001:0.008:8"), alo, ahi, na, "0.001:0.008:8");
    if (!(alo > 0)) throw cli::UsageError("--amplitudes must be positive (metres)");
    if (ahi > std::fmin(-ylo, yhi) + 1e-12)
        throw cli::UsageError("--amplitudes up to " + num(ahi) + " m need shifts from -" + num(ahi) + " to " + num(ahi) +
                              " m at least: widen --shift or lower --amplitudes");
    if (!(o.gauge > 0.3 && o.gauge < 3)) throw cli::UsageError("--gauge " + num(o.gauge) + ": give metres, e.g. 1.435");
    if (!(o.flange_back > 0.2 && o.flange_back < 3))
        throw cli::UsageError("--flange-back " + num(o.flange_back) + ": give metres, e.g. 1.360");
    if (!(o.r0 > 0.05 && o.r0 < 5)) throw cli::UsageError("--radius " + num(o.r0) + ": give metres, e.g. 0.46");
    if (args.has("radius-right") && !(o.r0_right > 0.05 && o.r0_right < 5))
        throw cli::UsageError("--radius-right " + num(o.r0_right) + ": give metres, e.g. 0.46");

    // the profiles: a side whose file is the left's shares its table
    Profile wheel0[2], rail0[2], rail_inc[2];
    const rs_profile *wheel[2] = {model.g.wheel[0], model.g.wheel[1]}, *rail[2] = {model.g.rail[0], model.g.rail[1]};
    if (!from_model) {
        for (int s = 0; s < 2; s++) {
            if (s == 1 && wpath[1] == wpath[0]) {
                wheel[1] = wheel[0];
            } else {
                load(wheel0[s], wpath[s], RS_PROFILE_WHEEL, s ? "--wheel-right takes a wheel profile"
                                                              : "give the wheel profile first, then the rail");
                wheel[s] = &wheel0[s].p;
            }
            if (s == 1 && rpath[1] == rpath[0]) {
                rail[1] = rail[0];
            } else {
                load(rail0[s], rpath[s], RS_PROFILE_RAIL, s ? "--rail-right takes a rail profile"
                                                            : "give the wheel profile first, then the rail");
                rail[s] = &rail0[s].p;
            }
        }
    }
    const bool same = wheel[0] == wheel[1] && rail[0] == rail[1];
    char err[1024];
    if (args.has("inclination")) {
        const double n = parse_inclination(args.value("inclination"));
        for (int s = 0; s < (rail[1] == rail[0] ? 1 : 2); s++) {
            if (rs_wrgeom_incline_rail(rail[s], n, &rail_inc[s].p, err, sizeof err) != RS_OK)
                throw cli::UserError(rpath[s] + ": " + err);
        }
        const bool one = rail[1] == rail[0];
        rail[0] = &rail_inc[0].p;
        rail[1] = one ? rail[0] : &rail_inc[1].p;
    }
    rs_wrgeom g;
    if (rs_wrgeom_init_sides(&g, wheel, rail, &o, err, sizeof err) != RS_OK) {
        const std::string m = err;
        const int s = m.rfind("right side", 0) == 0 ? 1 : 0;
        // a message about the wheel file names it; one about the options, both files
        const std::string file = m.find("its gauge point") != std::string::npos ? rpath[s]
                                 : m.find("flange-back spacing") != std::string::npos ? wpath[0] + " on " + rpath[0]
                                                                                      : rpath[s];
        throw cli::UserError(file + ": " + m);
    }

    // Which file a geometry message is about.
    auto who = [&](const std::string &m) {
        const int s = m.find("the right") != std::string::npos ? 1 : 0;
        if (m.find("never touches") != std::string::npos) return wpath[s] + " on " + rpath[s];
        if (m.find("rail table") != std::string::npos) return rpath[s];
        if (m.find("wheel table") != std::string::npos) return wpath[s];
        return wpath[s] + " on " + rpath[s];
    };

    // the centred state: e0 for the wavelength
    rs_wrgeom_state st0;
    if (rs_wrgeom_solve(&g, 0.0, &st0, err, sizeof err) != RS_OK) throw cli::UserError(who(err) + ": " + err);
    // (the mean of the two sides' contact |Y|)
    const double e0 = 0.5 * (g.s[0].yr0 + st0.side[0].p[0].u_r + g.s[1].yr0 + st0.side[1].p[0].u_r);
    // Centred, a wheel that touches steeper than 45 degrees is on its flange:
    // the wheelset is wedged between the rails (gauge too narrow for the
    // flange back and flanges), every row is flange contact and the conicity
    // is meaningless (tan ge 12 at G 1.42 m for S1002 / 60E1); say so once,
    // before the amplitudes' warnings.
    for (int s = 0; s < 2; s++) {
        const double a = st0.side[s].p[0].alpha;
        if (std::fabs(a) > M_PI / 4)
            std::fprintf(stderr,
                         "railsym contact-geometry: warning: centred, the %s wheel touches its rail at a contact "
                         "angle of %.1f deg, on its flange: the wheelset is wedged between the rails (no flangeway "
                         "clearance) and the conicity means nothing; check --gauge (between the rails' gauge points) "
                         "and --flange-back: the flange back plus both flange thicknesses must be less than the "
                         "gauge\n",
                         s ? "right" : "left", a * 180 / M_PI);
    }

    // The default range stops at the last shift on each side before a
    // contact reaches the flange-side end of the wheel table (a flange that
    // reaches less far than 10 mm); an explicit --shift beyond it stays an
    // error.
    std::string stopped;
    if (!shift_given) {
        const double step = (yhi - ylo) / (ny - 1);
        const int i0 = static_cast<int>(std::lround(-ylo / step));
        int lo_i = 0, hi_i = ny - 1;
        for (int dir = -1; dir <= 1; dir += 2) {
            g.h_guess = NAN;
            g.roll_guess = 0;
            for (int i = i0; i >= 0 && i < ny; i += dir) {
                rs_wrgeom_state st;
                if (rs_wrgeom_solve(&g, ylo + (yhi - ylo) * i / (ny - 1), &st, err, sizeof err) == RS_OK) continue;
                if (!at_flange_end(err) || i == i0) throw cli::UserError(who(err) + ": " + err);
                (dir < 0 ? lo_i : hi_i) = i - dir;
                std::string why = err;   // without its advice (", extend ... or narrow --shift")
                const size_t cut = why.find("): ");
                if (cut != std::string::npos) why.resize(cut + 1);
                stopped += (stopped.empty() ? "" : "; ") + why;
                break;
            }
        }
        if (lo_i > 0 || hi_i < ny - 1) {
            const double lo = ylo + (yhi - ylo) * lo_i / (ny - 1), hi = ylo + (yhi - ylo) * hi_i / (ny - 1);
            ylo = lo;
            yhi = hi;
            ny = hi_i - lo_i + 1;
            const double reach = std::fmin(-ylo, yhi);
            if (ahi > reach + 1e-12) {
                if (amp_given)
                    throw cli::UsageError("--amplitudes up to " + num(ahi) + " m need shifts to +-" + num(ahi) +
                                          " m, but the shift range stops at " + num(ylo) + " to " + num(yhi) +
                                          " m (" + stopped + "): lower --amplitudes");
                // the default amplitudes within the range, same spacing
                const double da = (ahi - alo) / (na - 1);
                na = static_cast<int>(std::floor((reach - alo) / da + 1e-9)) + 1;
                if (na < 2) throw cli::UserError(who(stopped) + ": the shift range stops at " + num(ylo) + " to " +
                                                 num(yhi) + " m (" + stopped + "): too narrow for a conicity");
                ahi = alo + da * (na - 1);
            }
        }
        g.h_guess = NAN;
        g.roll_guess = 0;
    }

    std::vector<double> ys(ny), drs(ny);
    std::ostringstream csv;
    csv << "y_m,dr_m,roll_rad,z_m,"
           "left_wheel_y_m,left_rail_y_m,left_radius_m,left_angle_rad,left_points,left2_wheel_y_m,left2_rail_y_m,"
           "right_wheel_y_m,right_rail_y_m,right_radius_m,right_angle_rad,right_points,right2_wheel_y_m,"
           "right2_rail_y_m\n";
    int two_point = 0;
    for (int i = 0; i < ny; i++) {
        const double y = ylo + (yhi - ylo) * i / (ny - 1);
        rs_wrgeom_state st;
        if (rs_wrgeom_solve(&g, y, &st, err, sizeof err) != RS_OK) throw cli::UserError(who(err) + ": " + err);
        ys[i] = y;
        drs[i] = st.dr;
        csv << num(y) << ',' << num(st.dr) << ',' << num(st.roll) << ',' << num(st.z);
        for (int s = 0; s < 2; s++) {
            const rs_wrgeom_side &sd = st.side[s];
            if (sd.n > 1) two_point++;
            csv << ',' << num(sd.p[0].u_w) << ',' << num(sd.p[0].u_r) << ',' << num(sd.p[0].r) << ','
                << num(sd.p[0].alpha) << ',' << sd.n << ',' << num(sd.n > 1 ? sd.p[1].u_w : NAN) << ','
                << num(sd.n > 1 ? sd.p[1].u_r : NAN);
        }
        csv << '\n';
    }

    std::ostringstream con;
    con << "amplitude_m,tan_ge_en15302,tan_ge_harmonic,wavelength_m\n";
    std::vector<double> tg(na);
    for (int i = 0; i < na; i++) {
        const double A = alo + (ahi - alo) * i / (na - 1);
        double te = NAN, th = NAN, j = NAN;
        const int r1 = rs_conicity_en15302(ys.data(), drs.data(), ny, A, &te, nullptr, &j);
        const int r2 = rs_conicity_harmonic(ys.data(), drs.data(), ny, A, &th);
        if (r1 != RS_OK) {
            te = j = NAN;
            std::fprintf(stderr,
                         "railsym contact-geometry: warning: amplitude %.4g m: no kinematic oscillation of that "
                         "amplitude (dr does not grow through 0 across it); tan_ge_en15302 is nan\n",
                         A);
        }
        if (r2 != RS_OK) th = NAN;
        tg[i] = te;
        // a flat stretch of dr = 0 as wide as the oscillation: tan_ge 0, wavelength infinite
        const double r0 = 0.5 * (g.s[0].r0 + g.s[1].r0);
        const std::string wl = std::isinf(j) ? std::string("inf") : num(2 * std::sqrt(e0 * r0) * j);
        con << num(A) << ',' << num(te) << ',' << num(th) << ',' << wl << '\n';
    }

    const std::string wname = wheel[0]->name, rname = rail[0]->name;
    const std::string pair = same ? wname + " on " + rname
                                  : "left " + wname + " on " + rname + ", right " + std::string(wheel[1]->name) +
                                        " on " + rail[1]->name;
    const std::string prefix = args.value("out", "results/" + wname + "_" + rname +
                                                     (same ? "" : "_right_" + std::string(wheel[1]->name) + "_" +
                                                                      rail[1]->name));
    const fs::path parent = fs::path(prefix).parent_path();
    std::error_code ec;
    if (!parent.empty()) fs::create_directories(parent, ec);
    write_atomic(prefix + "_geometry.csv", csv.str());
    write_atomic(prefix + "_conicity.csv", con.str());

    if (from_model) {
        if (model.g.rail_offset[0] == model.g.rail_offset[1])
            std::printf("model %s, wheelset '%s' (contacts %s, %s): wheel centres %.9g m apart, rail offset %.9g m\n",
                        args.value("model").c_str(), model.g.wheel_body, model.g.left, model.g.right, 2 * model.g.d,
                        model.g.rail_offset[0]);
        else
            std::printf("model %s, wheelset '%s' (contacts %s, %s): wheel centres %.9g m apart, rail offsets "
                        "%.9g m (left), %.9g m (right)\n", args.value("model").c_str(), model.g.wheel_body,
                        model.g.left, model.g.right, 2 * model.g.d, model.g.rail_offset[0], model.g.rail_offset[1]);
        const double off = rs_wrgeom_model_y_offset(&model.g, &g);
        if (std::fabs(off) > 1e-9 && !args.has("gauge") && !args.has("flange-back"))
            std::printf("the model's lateral shift = y %+.4f mm (here y = 0 is midway between the flange backs on "
                        "the track midway between the gauge points)\n", off * 1e3);
    }
    if (same)
        std::printf("%s: gauge %.4g m, flange back %.4g m, r0 %.4g m, gauge point at rail y %.4g mm\n", pair.c_str(),
                    o.gauge, o.flange_back, g.s[0].r0, g.s[0].gauge_y * 1e3);
    else
        std::printf("%s: gauge %.4g m, flange back %.4g m, r0 %.4g / %.4g m, gauge points at rail y %.4g / %.4g mm\n",
                    pair.c_str(), o.gauge, o.flange_back, g.s[0].r0, g.s[1].r0, g.s[0].gauge_y * 1e3,
                    g.s[1].gauge_y * 1e3);
    for (int s = 0; s < (same ? 1 : 2); s++)
        std::printf("centred%s: contact at wheel y %.3f mm, rail y %.3f mm, contact angle %.3f deg%s\n",
                    same ? "" : s ? ", right" : ", left", st0.side[s].p[0].u_w * 1e3, st0.side[s].p[0].u_r * 1e3,
                    st0.side[s].p[0].alpha * 180 / M_PI, st0.side[s].n > 1 ? " (two-point contact)" : "");
    if (!same)
        std::printf("centred: dr = %.4f mm, roll %.4g mrad\n", st0.dr * 1e3, st0.roll * 1e3);
    std::printf("%d shifts from %.4g to %.4g m (%d wheel positions with two-point contact)\n", ny, ylo, yhi,
                two_point);
    if (!stopped.empty())
        std::printf("the default range (+-10 mm) stops at the last shift before a contact reaches the flange-side "
                    "end of the wheel table: beyond it, %s\n", stopped.c_str());
    for (int i = 0; i < na; i++) {
        const double A = alo + (ahi - alo) * i / (na - 1);
        std::printf("  amplitude %5.2f mm: tan ge = %.4f (EN 15302)\n", A * 1e3, tg[i]);
    }
    std::printf("geometry: %s_geometry.csv\nconicity: %s_conicity.csv\n", prefix.c_str(), prefix.c_str());
    if (args.has("plot")) {
        plots(prefix, pair);
        std::printf("plots: %s_dr.png %s_angles.png %s_jump.png %s_conicity.png\n", prefix.c_str(), prefix.c_str(),
                    prefix.c_str(), prefix.c_str());
    }
    return cli::kExitOk;
}

}  // namespace railsym
