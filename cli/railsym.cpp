// railsym.cpp — the `railsym` command: global options, the subcommand table
// and the dispatcher.  Everything else lives in the libraries.
//
// HOW TO ADD (OR IMPLEMENT) A SUBCOMMAND NAME — one function, one entry:
//   1. Write cli/cmd_NAME.cpp (the Makefile finds it by wildcard and puts
//      it in librailsym_sym.a) defining, in namespace railsym,
//          int cmd_NAME(int argc, char **argv);   // argv[0] is "NAME"
//      Parse with cli::parse_options(argc, argv, options) (cli.hpp); throw
//      cli::UsageError for bad usage (exit 2) and cli::UserError for bad
//      input (exit 1); return 0 on success.  Never call exit().
//   2. Declare it in the block "implemented commands" below and put cmd_NAME
//      in the `run` field of its entry in kCommands (replacing nullptr), or
//      add a new entry.  Keep the entry's usage/help text in step with the
//      options the command accepts: `railsym NAME --help` (and -h) is
//      answered here from the entry, before cmd_NAME is called.
// The command names and their arguments are contracts (DESIGN.md,
// "Contracts"): add freely, rename none.
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include <ginac/version.h>

#include "cli.hpp"
#include "signals.hpp"
#include "version.hpp"

namespace railsym {

// ---- implemented commands: declare each cmd_NAME here.
int cmd_compile(int argc, char **argv);   // cli/cmd_compile.cpp
int cmd_ops(int argc, char **argv);       // cli/cmd_ops.cpp
int cmd_run(int argc, char **argv);       // cli/cmd_run.cpp
int cmd_plot(int argc, char **argv);      // cli/cmd_plot.cpp
int cmd_sweep(int argc, char **argv);     // cli/cmd_sweep.cpp
int cmd_critical(int argc, char **argv);  // cli/cmd_critical.cpp
int cmd_linear(int argc, char **argv);    // cli/cmd_linear.cpp
int cmd_contact_geometry(int argc, char **argv);  // cli/cmd_contact_geometry.cpp
int cmd_irregularity(int argc, char **argv);      // cli/cmd_irregularity.cpp
int cmd_psd(int argc, char **argv);               // cli/cmd_psd.cpp
int cmd_comfort(int argc, char **argv);           // cli/cmd_comfort.cpp
int cmd_track_shift(int argc, char **argv);       // cli/cmd_track_shift.cpp
int cmd_assess(int argc, char **argv);            // cli/cmd_assess.cpp
int cmd_export_fmu(int argc, char **argv);        // cli/cmd_export_fmu.cpp

namespace {

struct Command {
    const char *name;
    int (*run)(int argc, char **argv);   // nullptr: not implemented yet
    const char *pending;                 // where the missing work is tracked
    const char *summary;                 // one line for `railsym --help`
    const char *usage;                   // the synopsis after "railsym NAME "
    const char *help;                    // description, arguments, options
};

const Command kCommands[] = {
    {"compile", cmd_compile, "issue 5",
     "compile a .vdl model into C code, op counts and sparsity patterns",
     "MODEL.vdl [-o DIR]",
     "Compiles the vehicle description MODEL.vdl: writes the C file and header\n"
     "of the model's generated functions, the operation-count report (text and\n"
     "JSON), the sparsity patterns and the model descriptor into DIR.  The\n"
     "folder is written under a temporary name and renamed into place at the\n"
     "end, so an interrupted compile never leaves a folder that looks complete.\n"
     "\n"
     "arguments:\n"
     "  MODEL.vdl             the model description\n"
     "options:\n"
     "  -o, --output DIR      output folder (default: generated/<model>/)\n"
     "  -v, --verbose         print every phase of the compile\n"
     "      --no-hoist        no constants function: parameter-only atoms stay in\n"
     "                        every function (a reference for checking hoisting)\n"
     "  -h, --help            show this help\n"},

    {"ops", cmd_ops, "issue 5",
     "print atoms and operations per generated function",
     "MODEL.vdl|DIR [--json]",
     "Prints the table of atoms and operations (additions/subtractions,\n"
     "multiplications, divisions, function calls) of every generated function\n"
     "of a model, in the form of Table 2 of the seed paper.  Given a .vdl file\n"
     "it compiles the model first; given a folder it reads the report a\n"
     "previous `railsym compile` wrote there.\n"
     "\n"
     "arguments:\n"
     "  MODEL.vdl|DIR         a model description or a compiled model folder\n"
     "options:\n"
     "      --json            print JSON instead of the table\n"
     "  -h, --help            show this help\n"},

    {"run", cmd_run, "issue 6",
     "simulate a model or a train and write the results as CSV",
     "MODEL.vdl|DIR|TRAIN.train [--scenario FILE] [--out FILE.csv]\n"
     "                   [--loader tcc|dlopen] [--method imex|rk4] [--threads N] [--realtime]\n"
     "                   [--rt-pace step|output] [--rt-lock] [--rt-fifo PRIO] [--rt-cpu N]\n"
     "                   [--rt-strict] [--rt-report FILE]",
     "Runs a simulation of a compiled model folder (a .vdl file is compiled\n"
     "first, into a temporary folder), or of a train of vehicles.  Results are\n"
     "CSV: one header row of names, SI units, time first, written and flushed\n"
     "as the run goes.  Progress goes to stderr.\n"
     "\n"
     "arguments:\n"
     "  MODEL.vdl|DIR|TRAIN.train   what to simulate\n"
     "options:\n"
     "  -s, --scenario FILE   duration, step, initial state, parameters, inputs\n"
     "  -o, --out FILE.csv    results (default: results/<model>.csv)\n"
     "      --loader tcc|dlopen\n"
     "                        how the generated code is loaded (default: tcc,\n"
     "                        in-memory compilation, no external compiler)\n"
     "      --method imex|rk4 integrator (default: the scenario's, else imex)\n"
     "  -j, --threads N       worker threads (trains; one model runs on one)\n"
     "      --realtime        pace the simulation to the wall clock: each step\n"
     "                        waits for its absolute deadline t0 + k*dt; at the\n"
     "                        end, step times (median, p99, p99.9, max), wake-up\n"
     "                        latency and deadline misses on stderr, also as\n"
     "                        `RT <model>.<figure> <value> <unit>` lines\n"
     "                        (docs/realtime.md)\n"
     "      --rt-pace step|output\n"
     "                        one deadline per step (default) or per output\n"
     "                        interval\n"
     "      --rt-lock         lock the process in memory (mlockall)\n"
     "      --rt-fifo PRIO    SCHED_FIFO real-time priority PRIO (1-99)\n"
     "      --rt-cpu N        pin the run to CPU N\n"
     "      --rt-strict       a refused --rt-lock/--rt-fifo/--rt-cpu fails the\n"
     "                        run (exit 1) instead of a warning\n"
     "      --rt-report FILE  write the RT lines to FILE\n"
     "  -q, --quiet           no progress and no summary on stderr\n"
     "  -h, --help            show this help\n"},

    {"plot", cmd_plot, "issue 6",
     "plot columns of a results CSV with gnuplot",
     "RESULT.csv COLUMN... -o FILE.png [--title TEXT]",
     "Draws the named columns of a results CSV against time (its first\n"
     "column) with gnuplot, into a PNG picture.\n"
     "\n"
     "arguments:\n"
     "  RESULT.csv            a CSV written by `railsym run`\n"
     "  COLUMN...             the names of the columns to draw\n"
     "options:\n"
     "  -o, --output FILE.png the picture to write\n"
     "  -t, --title TEXT      title above the plot (default: the CSV's name)\n"
     "  -h, --help            show this help\n"},

    {"sweep", cmd_sweep, "issue 11",
     "run many parameter variants, on local threads or over MPI",
     "MODEL.vdl|DIR|TRAIN.train [--scenario FILE] --vary NAME=LO:HI:N ... [--list FILE.csv]\n"
     "                   [--jobs J] [--threads T] [--out DIR] [--figure KIND:COLUMN ...] [--mpi]",
     "Runs variants of one scenario with different parameter values, initial\n"
     "coordinates and velocities, or track and profile files, from the same\n"
     "compiled code (parameters are run-time values: no recompilation).  The\n"
     "variants are the rows of --list\n"
     "times the grid of the --vary axes; the heaviest pending variant goes to\n"
     "the first free worker: threads locally, ranks under mpirun.  Each variant\n"
     "writes DIR/vNNNN.csv (the same bytes as `railsym run` with its values),\n"
     "under a temporary name renamed when complete; a failed variant writes\n"
     "vNNNN.failed (its message) and vNNNN.partial.csv, and the sweep goes on.\n"
     "DIR/summary.csv has one row per variant: number, status, values, figures,\n"
     "message.  Re-running the same command skips finished variants, so an\n"
     "interrupted sweep resumes.  See docs/sweeps.md.\n"
     "\n"
     "A train file's variants vary its parameters with 'set NAME = V' lines\n"
     "read after the file (NAME: TYPE.PARAM of a vehicle or coupler type, or a\n"
     "setting such as speed), each run on --threads threads.\n"
     "\n"
     "arguments:\n"
     "  MODEL.vdl|DIR|TRAIN.train\n"
     "                        a model description, a compiled model folder or a\n"
     "                        train file\n"
     "options:\n"
     "  -s, --scenario FILE   the base scenario every variant starts from\n"
     "      --vary NAME=LO:HI:N\n"
     "                        a grid axis of N values from LO to HI (repeat);\n"
     "                        NAME=V1,V2,... gives the values; NAME is a\n"
     "                        parameter, a coordinate, a velocity (<q>_dot),\n"
     "                        speed (forward and spin velocities: V, V/r0);\n"
     "                        track=F1,F2,..., wheel_profile=... and\n"
     "                        rail_profile=... vary the contact files\n"
     "      --list FILE.csv   explicit variants: a header of names, one row each\n"
     "                        (paths relative to the list's folder)\n"
     "  -f, --figure KIND:COLUMN\n"
     "                        a figure per variant over a results column (repeat):\n"
     "                        max, min, absmax, rms, mean, final, or rate and\n"
     "                        freq (growth rate, frequency), e.g. max:y\n"
     "  -j, --jobs J          local worker threads (default 1)\n"
     "  -t, --threads T       threads per variant of a train (default 1)\n"
     "  -o, --out DIR         output folder (default: results/<model>-sweep)\n"
     "      --mpi             run as a rank of an MPI job:\n"
     "                        mpirun -np K railsym sweep ... --mpi (rank 0\n"
     "                        coordinates, ranks 1..K-1 run variants)\n"
     "      --loader tcc|dlopen\n"
     "                        how the generated code is loaded (default: tcc)\n"
     "      --method imex|rk4 integrator (default: the scenario's, else imex)\n"
     "      --retry-failed    run again the variants recorded as failed\n"
     "      --max-variants N  start at most N variants now (the rest on a re-run)\n"
     "  -q, --quiet           no progress lines on stderr\n"
     "  -h, --help            show this help\n"},

    {"critical-speed", cmd_critical, "issue 11",
     "find the speed above which a vehicle's hunting motion is unstable",
     "MODEL.vdl|DIR --scenario FILE [--range LO:HI] [--out DIR] [--bisection]",
     "Finds the critical speed of a rail vehicle: the lowest speed above which\n"
     "a lateral disturbance of its wheelset no longer dies away.  Each run\n"
     "starts at speed V (forward velocity V, wheel spin V / r0) with a lateral\n"
     "disturbance, the vehicle settled on its rails there.\n"
     "\n"
     "By default (the bifurcation diagram, docs/critical_speed.md): --speeds N\n"
     "speeds over the range, each from a small and a large disturbance; every\n"
     "run classified (decaying, growing, limit cycle of amplitude A, unclear;\n"
     "a failed run is said so, with why, and never taken as growth); the loss\n"
     "of stability reported only between a run that surely decays and one that\n"
     "surely grows (never a crossing of noise-level rates), refined, and run\n"
     "again at half the step: both answers, the extrapolation and the step's\n"
     "error; then a ramp-down from the large disturbance at HI.  Writes\n"
     "DIR/bifurcation.csv, ramp_down.csv, summary.txt, bifurcation.png.\n"
     "\n"
     "With --bisection: growth rates fitted to the peaks (< 0: stable); rounds\n"
     "of J runs in parallel inside the bracket between the highest stable and\n"
     "the lowest unstable speed (a failed run ends no bracket), at one step,\n"
     "no step error.  Writes DIR/critical_speed.csv (speed,rate,freq,status,\n"
     "round), critical_speed.png and each round's runs in DIR/roundNN/ (a\n"
     "sweep folder: re-running the same command resumes).  See docs/sweeps.md.\n"
     "\n"
     "arguments:\n"
     "  MODEL.vdl|DIR         a model description or a compiled model folder\n"
     "options:\n"
     "  -s, --scenario FILE   every run's scenario: duration (several hunting\n"
     "                        periods), step, parameters (required)\n"
     "  -r, --range LO:HI     speeds to search, m/s (default 20:100)\n"
     "  -o, --out DIR         output folder (default: results/<model>-critical)\n"
     "      --tol REL         stop when the bracket is narrower than REL x speed\n"
     "                        (default 0.005)\n"
     "      --lateral NAME    coordinate disturbed and measured (default: the\n"
     "                        first wheelset's, e.g. front.ws1.y for contact\n"
     "                        front.ws1.left; without contacts y or <body>.y)\n"
     "      --forward NAME    --bisection: a coordinate whose velocity is set to\n"
     "                        V (repeat; default: every x or <body>.x)\n"
     "      --spin NAME       --bisection: a coordinate whose velocity is set to\n"
     "                        V / radius (repeat; default: every spin, <body>.spin)\n"
     "      --radius R        --bisection: rolling radius for the spin, m\n"
     "                        (default: the parameter r0, the scenario's value)\n"
     "      --loader tcc|dlopen\n"
     "                        how the generated code is loaded (default: tcc)\n"
     "      --method imex|rk4 integrator (default: the scenario's, else imex)\n"
     "      --set 'LINE'      a scenario line over the scenario (repeat)\n"
     "      --bifurcation     the default method (above)\n"
     "      --speeds N        --bifurcation: speeds of the diagram (default 5)\n"
     "      --small M         --bifurcation: small disturbance, m (default 0.0005)\n"
     "      --large M         --bifurcation: large disturbance, m (default 80 %\n"
     "                        of the first wheelset's flangeway clearance, from\n"
     "                        its profiles: said in the log)\n"
     "      --ramp-rate A     --bifurcation: ramp-down rate, m/s per s (default\n"
     "                        0.5); 0: no ramp-down\n"
     "      --one-step        --bifurcation: the scenario's step only (no runs\n"
     "                        at half the step, no step error)\n"
     "      --bisection       the bisection on growth rates instead (above)\n"
     "  -j, --jobs J          --bisection: runs in parallel per round (default 1)\n"
     "      --rounds N        --bisection: at most N rounds of runs (default 10)\n"
     "      --offset M        --bisection: the disturbance, m (default 0.002)\n"
     "      --no-plot         no picture\n"
     "  -q, --quiet           no progress lines on stderr\n"
     "  -h, --help            show this help\n"},
    {"linear", cmd_linear, "linear stability",
     "linear stability: eigenvalues about steady running, linear critical speed",
     "MODEL.vdl|DIR [--scenario FILE] [--speed LO:HI:N] [--out DIR]",
     "Linearizes the model about the scenario's initial state, with the running\n"
     "speed V set as the scenario line 'speed V' sets it, at each of N speeds:\n"
     "M, K = -d(delta)/dq and C = -d(delta)/d(qdot) from the symbolic force\n"
     "Jacobians, the wheel-rail contact with linear Kalker creep about rolling,\n"
     "the constraints removed by the null space of phi_q.  Prints the least-\n"
     "damped mode per speed, with its dominant coordinates and bodies by their\n"
     "share of the mode's kinetic energy, and the linear critical speed (where\n"
     "its damping ratio crosses zero); writes DIR/linear.csv (speed,mode,f,zeta,\n"
     "re,im,rigid,dominant) and DIR/linear.png (damping ratio against speed).\n"
     "See docs/linear.md.\n"
     "\n"
     "arguments:\n"
     "  MODEL.vdl|DIR         a model description or a compiled model folder\n"
     "options:\n"
     "  -s, --scenario FILE   parameters and initial state (default: the model's)\n"
     "  -v, --speed LO:HI:N   N speeds from LO to HI, m/s, or one speed V\n"
     "                        (default: the scenario's state as it is)\n"
     "  -o, --out DIR         output folder (default: results/<model>-linear)\n"
     "      --set 'LINE'      a scenario line over the scenario (repeat)\n"
     "      --loader tcc|dlopen\n"
     "                        how the generated code is loaded (default: tcc)\n"
     "      --frf             frequency responses from track inputs (lateral, vertical,\n"
     "                        cross level, gauge) to accelerations at one --speed V:\n"
     "                        DIR/frf.csv (f_Hz, |H| and phase per output and input)\n"
     "      --frf-range FLO:FHI:N  N frequencies in Hz, logarithmic (default 0.5:30:200)\n"
     "      --frf-out NAME    a coordinate, or P for every P.* one (repeat; default all)\n"
     "      --frf-point BODY[:x,y,z]  a wheel body's point, or NAME a vector output: its\n"
     "                        ground x,y,z acceleration (repeat; docs/linear.md)\n"
     "      --elastic         linearize the elastic contact with the scenario's creep\n"
     "                        law and friction (the runs' contact; central differences\n"
     "                        of its forces) instead of the constraint contact; use it\n"
     "                        for models the runs simulate with 'contact elastic'\n"
     "      --no-plot         do not draw linear.png (frf.png)\n"
     "  -q, --quiet           no progress lines on stderr\n"
     "  -h, --help            show this help\n"},
    {"contact-geometry", cmd_contact_geometry, "issue 20",
     "wheel-rail contact geometry across the flangeway and equivalent conicity",
     "WHEEL.prf RAIL.prf [--gauge G] [--flange-back B] [--radius R0]\n"
     "                   [--inclination 1:N] [--gauge-point Y] [--shift LO:HI:N]\n"
     "                   [--amplitudes LO:HI:N] [--out PREFIX] [--plot]",
     "Puts a rigid wheelset with the wheel profile WHEEL.prf on two rails of\n"
     "profile RAIL.prf (straight track, zero yaw) and, for each lateral shift y\n"
     "(+ to the left), finds its height and roll angle with both wheels touching\n"
     "their rails; reports per side the contact point on wheel and rail (profile\n"
     "y, + towards the field side), rolling radius and contact angle, two-point\n"
     "contact (a second point within 10 um), and dr = r_left - r_right.  From\n"
     "dr(y), the equivalent conicity tan(gamma_e) per amplitude by EN 15302's\n"
     "integration of the kinematic wheelset motion, and by harmonic\n"
     "linearisation.  Writes PREFIX_geometry.csv and PREFIX_conicity.csv (one\n"
     "header row, SI units in the names; each written under a temporary name\n"
     "and renamed when complete); with --plot PREFIX_dr.png, _angles.png,\n"
     "_jump.png and _conicity.png (gnuplot).  Rail files carry their\n"
     "inclination already (60e1_1in40.prf); --inclination turns a level one.\n"
     "See docs/contact_geometry.md.\n"
     "\n"
     "arguments:\n"
     "  WHEEL.prf             wheel profile (radius increase over R0 at the\n"
     "                        taping line; its smallest y is the flange back)\n"
     "  RAIL.prf              rail profile (height; gauge_point in the file)\n"
     "options:\n"
     "  -g, --gauge G         track gauge between the rails' gauge points, m\n"
     "                        (default 1.435)\n"
     "  -b, --flange-back B   flange-back spacing of the wheelset, m (default\n"
     "                        1.360)\n"
     "  -r, --radius R0       nominal rolling radius at the taping line, m\n"
     "                        (default 0.46)\n"
     "  -i, --inclination 1:N turn a level rail profile by 1:N about its origin\n"
     "                        (refused if the file is inclined already)\n"
     "      --gauge-point Y   the rail profile's y of the gauge point, m\n"
     "                        (default: the file's gauge_point, else the\n"
     "                        gauge-side point 14 mm below the top)\n"
     "  -s, --shift LO:HI:N   lateral shifts of the wheelset, m, N points\n"
     "                        (default -0.010:0.010:201)\n"
     "  -a, --amplitudes LO:HI:N\n"
     "                        conicity amplitudes, m (default 0.001:0.008:8)\n"
     "  -o, --out PREFIX      output prefix (default results/<wheel>_<rail>)\n"
     "  -p, --plot            draw the PNG plots with gnuplot\n"
     "  -h, --help            show this help\n"},
    {"irregularity", cmd_irregularity, "analyses",
     "random track irregularities from ERRI B176 or FRA spectra, as a track table",
     "--spectrum NAME --kind KIND --length L -o FILE.csv [--step DS]\n"
     "                   [--wavelengths LO:HI] [--seed N] [--start S0] [--no-plot]",
     "Synthesises a random irregularity profile whose one-sided PSD is the\n"
     "published spectrum NAME inside the wavelength band LO..HI: a sum of\n"
     "cosines on the frequency grid of the profile's length with random phases\n"
     "from SEED (the same seed gives the same file byte for byte).  Writes\n"
     "FILE.csv as `s,value` rows in metres, the table of a track file's\n"
     "`irregularity KIND table FILE.csv linear taper T` (the line the file's\n"
     "header gives, T the longest wavelength kept, at most a tenth of L),\n"
     "and FILE_psd.csv / FILE_psd.png:\n"
     "the profile's Welch PSD beside the target.  See docs/analyses.md.\n"
     "\n"
     "options:\n"
     "      --spectrum NAME   erri-low, erri-high (ERRI B176), fra1 .. fra6\n"
     "                        (FRA track classes)\n"
     "  -k, --kind KIND       vertical, lateral, cross-level (left minus right\n"
     "                        rail height; the track file's `cant`), gauge\n"
     "                        (FRA only; + = wider)\n"
     "  -l, --length L        profile length, m\n"
     "      --step DS         sample spacing, m (default 0.25)\n"
     "  -w, --wavelengths LO:HI\n"
     "                        wavelengths kept, m (default 3:70; LO >= 4 DS)\n"
     "      --seed N          seed of the random phases (default 1)\n"
     "      --start S0        track s of the first sample, m (default 0)\n"
     "  -o, --out FILE        the table to write\n"
     "      --no-plot         do not draw FILE_psd.png\n"
     "  -h, --help            show this help\n"},
    {"psd", cmd_psd, "analyses",
     "power spectral density of a result column (Welch, Hann, 50 % overlap)",
     "RESULT.csv COLUMN [--segment N] [--out PREFIX] [--no-plot]",
     "Welch's estimate of the one-sided PSD of COLUMN of a results CSV (its\n"
     "first column, time, must be uniformly spaced): Hann-windowed segments of\n"
     "N samples overlapping by half, each segment's mean removed.  Units: the\n"
     "column's unit squared per Hz; the PSD integrated over frequency is the\n"
     "variance.  Writes PREFIX_psd.csv (f_Hz,psd) and PREFIX_psd.png (log-log).\n"
     "See docs/analyses.md.\n"
     "\n"
     "arguments:\n"
     "  RESULT.csv            results of `railsym run`\n"
     "  COLUMN                the column to analyse\n"
     "options:\n"
     "  -n, --segment N       samples per segment, even (default: a power of two\n"
     "                        giving about 15 segments)\n"
     "  -o, --out PREFIX      output prefix (default: RESULT without .csv, _COLUMN)\n"
     "      --no-plot         do not draw the PNG\n"
     "  -h, --help            show this help\n"},
    {"comfort", cmd_comfort, "analyses",
     "ride comfort: Sperling's Wz and EN 12299's mean comfort N_MV",
     "RESULT.csv [--x COL] [--y COL] [--z COL] [--out PREFIX] [--no-plot]",
     "Ride comfort of car-body accelerations (m/s^2) in a results CSV:\n"
     "Sperling's ride index Wz of the lateral (--y) and vertical (--z) signals,\n"
     "and with all three EN 12299's mean comfort (standard method) N_MV =\n"
     "6 sqrt(a_XP95^2 + a_YP95^2 + a_ZP95^2) from the 95th percentiles of the 5 s\n"
     "rms values of the Wd- (x, y) and Wb- (z) weighted accelerations.  Writes\n"
     "PREFIX_sperling.csv (Wz per 5 s block and of the record) and\n"
     "PREFIX_sperling.png, and with N_MV PREFIX_comfort.csv (the blocks' rms\n"
     "values) and PREFIX_comfort.png.\n"
     "See docs/analyses.md.\n"
     "\n"
     "options:\n"
     "  -x, --x COL           longitudinal acceleration column\n"
     "  -y, --y COL           lateral acceleration column\n"
     "  -z, --z COL           vertical acceleration column\n"
     "  -o, --out PREFIX      output prefix (default: RESULT without .csv)\n"
     "      --no-plot         do not draw the PNG\n"
     "  -h, --help            show this help\n"},
    {"track-shift", cmd_track_shift, "analyses",
     "rms of the sum of guiding forces over 100 m windows against its limit",
     "RESULT.csv COLUMN --wheel-load Q0 [--position COL] [--freight]\n"
     "                   [--out PREFIX] [--no-plot]",
     "EN 14363's track-shifting figure: COLUMN (the sum of guiding forces of a\n"
     "wheelset, N) low-pass filtered at 20 Hz, its rms over windows of 100 m of\n"
     "track (the position column, m) starting every 10 m, against half the\n"
     "limit alpha (10 + 2 Q0/3) kN (Prud'homme; alpha 1, or 0.85 with\n"
     "--freight).  Writes PREFIX_track_shift.csv and PREFIX_track_shift.png.\n"
     "See docs/analyses.md.\n"
     "\n"
     "arguments:\n"
     "  RESULT.csv            results of `railsym run`\n"
     "  COLUMN                the sum of guiding forces, N\n"
     "options:\n"
     "  -q, --wheel-load Q0   static wheel force, kN (required)\n"
     "  -p, --position COL    position along the track, m (default x)\n"
     "      --freight         alpha = 0.85 (default 1)\n"
     "  -o, --out PREFIX      output prefix (default: RESULT without .csv, _COLUMN)\n"
     "      --no-plot         do not draw the PNG\n"
     "  -h, --help            show this help\n"},
    {"assess", cmd_assess, "analyses",
     "EN 14363 running safety and stability: frame acceleration, Y/Q, sum Y",
     "RESULT.csv [--frame COL | --frame-velocity COL]... [--bogie-mass T]\n"
     "                   [--wheel CONTACT]... [--sum-y COL]... [--wheel-load Q0]\n"
     "                   [--freight] [--f0 HZ] [--position COL] [--out PREFIX] [--no-plot]",
     "Running safety and stability of a run as EN 14363 evaluates them, each\n"
     "against its limit with a one-line verdict (within / EXCEEDED, the margin):\n"
     "  bogie-frame lateral acceleration: band pass f0 +- 2 Hz, rms over 100 m\n"
     "    windows every 10 m, limit (12 - m+/5)/2 m/s^2 (m+ the bogie mass, t);\n"
     "  Y/Q of each wheel: Y and Q low-passed at 20 Hz, mean over 2 m windows\n"
     "    every 0.5 m, the largest against 0.8 (curves of radius >= 250 m);\n"
     "  sum of guiding forces: band pass f0 +- 2 Hz, rms over 100 m every 10 m,\n"
     "    limit alpha (10 + 2 Q0/3)/2 kN.\n"
     "f0 is each signal's spectral peak between 0.2 and 20 Hz unless --f0 is\n"
     "given.  Writes PREFIX_assess_frame.csv, _yq.csv, _sum_y.csv and their\n"
     "PNGs.  See docs/analyses.md.\n"
     "\n"
     "arguments:\n"
     "  RESULT.csv            results of `railsym run`\n"
     "options:\n"
     "      --frame COL       bogie-frame lateral acceleration, m/s^2 (repeatable)\n"
     "      --frame-velocity COL\n"
     "                        a lateral velocity, m/s, differentiated (repeatable)\n"
     "  -m, --bogie-mass T    bogie mass m+, t (required with --frame)\n"
     "  -w, --wheel CONTACT   a wheel for Y/Q: columns CONTACT.Y, CONTACT.Q\n"
     "                        (repeatable; default every contact that has both)\n"
     "      --sum-y COL       sum of guiding forces of a wheelset, N: a column, or\n"
     "                        columns joined by + and - (R.Y-L.Y) (repeatable)\n"
     "  -q, --wheel-load Q0   static wheel force, kN (required with --sum-y)\n"
     "      --freight         alpha = 0.85 (default 1)\n"
     "      --f0 HZ           instability frequency (default: from the spectrum)\n"
     "  -p, --position COL    position along the track, m (default x)\n"
     "  -o, --out PREFIX      output prefix (default: RESULT without .csv)\n"
     "      --no-plot         do not draw the PNGs\n"
     "  -h, --help            show this help\n"},
    {"export-fmu", cmd_export_fmu, "issue 24",
     "an FMI 2.0 Co-Simulation FMU of a compiled model and a scenario",
     "MODEL_DIR|MODEL.vdl [--scenario FILE] [--out NAME.fmu] [--keep DIR]",
     "Writes NAME.fmu: modelDescription.xml, binaries/linux64/<model>.so (built\n"
     "now with the system cc from sources/), sources/ and resources/ (the\n"
     "scenario, the contact files).  The scenario's values are the start values;\n"
     "fmi2DoStep takes whole multiples of the scenario's step.  Needs `zip`.\n"
     "See docs/fmi.md.\n"
     "\n"
     "options:\n"
     "  -s, --scenario FILE   duration, step, parameters, initial state, inputs\n"
     "  -o, --out NAME.fmu    the FMU (default: <model>.fmu)\n"
     "      --keep DIR        also leave the unzipped FMU in DIR\n"
     "  -h, --help            show this help\n"},
};

constexpr const char *kProg = "railsym";

const Command *find_command(std::string_view name) {
    for (const Command &c : kCommands)
        if (name == c.name) return &c;
    return nullptr;
}

std::vector<std::string> command_names() {
    std::vector<std::string> names;
    for (const Command &c : kCommands) names.emplace_back(c.name);
    names.emplace_back("help");
    return names;
}

void print_main_usage(std::FILE *f) {
    std::fprintf(f, "usage: %s [--help] [--version] COMMAND [ARGS...]\n", kProg);
}

void print_main_help() {
    print_main_usage(stdout);
    std::printf("\nrailsym compiles multibody vehicle descriptions (.vdl) into C code and\n"
                "runs it (see README.md and docs/).\n\ncommands:\n");
    for (const Command &c : kCommands) std::printf("  %-16s %s\n", c.name, c.summary);
    std::printf("  %-16s %s\n", "help", "show the help of a command");
    std::printf("\noptions:\n"
                "  -h, --help         show this help\n"
                "  -V, --version      show the version\n"
                "\nRun '%s COMMAND --help' for the usage of a command.\n"
                "Exit status: 0 success, 1 error in the input, 2 bad usage.\n",
                kProg);
}

void print_command_help(const Command &c) {
    std::printf("usage: %s %s %s\n\n%s\n\n%s", kProg, c.name, c.usage, c.summary, c.help);
    if (!c.run) std::printf("\n(not implemented yet: see %s)\n", c.pending);
}

int unknown_command(std::string_view name) {
    std::fprintf(stderr, "%s: unknown command '%.*s'%s\n", kProg, static_cast<int>(name.size()),
                 name.data(), cli::did_you_mean(name, command_names()).c_str());
    std::fprintf(stderr, "Run '%s --help' for the list of commands.\n", kProg);
    return cli::kExitUsage;
}

// Runs one subcommand: --help, the not-implemented message, or the
// command itself with its exceptions turned into messages and statuses.
int run_command(const Command &c, int argc, char **argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--") == 0) break;
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            print_command_help(c);
            return cli::kExitOk;
        }
    }
    const std::string prog = std::string(kProg) + " " + c.name;
    if (!c.run) return cli::print_error(prog, cli::kExitUser, std::string("not implemented yet (see ") + c.pending + ")");
    try {
        return c.run(argc, argv);
    } catch (const cli::UsageError &e) {
        cli::print_error(prog, cli::kExitUsage, e.what());
        std::fprintf(stderr, "usage: %s %s\nRun '%s --help' for more.\n", prog.c_str(), c.usage, prog.c_str());
        return cli::kExitUsage;
    } catch (const cli::UserError &e) {
        return cli::print_error(prog, cli::kExitUser, e.what());
    } catch (const std::bad_alloc &) {
        return cli::print_error(prog, cli::kExitUser, "out of memory");
    } catch (const std::exception &e) {
        return cli::print_error(prog, cli::kExitUser, std::string("error: ") + e.what());
    }
}

int bad_global_option(std::string_view arg) {
    std::fprintf(stderr, "%s: unknown option '%.*s'%s\n", kProg, static_cast<int>(arg.size()), arg.data(),
                 cli::did_you_mean(arg, {"--help", "--version"}).c_str());
    print_main_usage(stderr);
    return cli::kExitUsage;
}

}  // namespace

int main_(int argc, char **argv) {
    int i = 1;
    for (; i < argc; ++i) {                       // global options, before COMMAND
        const std::string_view a = argv[i];
        if (a == "--help" || a == "-h") {
            print_main_help();
            return cli::kExitOk;
        }
        if (a == "--version" || a == "-V") {
            std::printf("%s %s (GiNaC %d.%d.%d)\n", kProg, RAILSYM_VERSION, GINACLIB_MAJOR_VERSION,
                        GINACLIB_MINOR_VERSION, GINACLIB_MICRO_VERSION);
            return cli::kExitOk;
        }
        if (a == "--") {
            ++i;
            break;
        }
        if (a.size() > 1 && a[0] == '-') return bad_global_option(a);
        break;
    }
    if (i >= argc) {
        std::fprintf(stderr, "%s: missing command\n", kProg);
        print_main_usage(stderr);
        std::fprintf(stderr, "Run '%s --help' for the list of commands.\n", kProg);
        return cli::kExitUsage;
    }
    const std::string_view name = argv[i];
    if (name == "help") {                          // railsym help [COMMAND]
        if (i + 1 >= argc) {
            print_main_help();
            return cli::kExitOk;
        }
        const Command *c = find_command(argv[i + 1]);
        if (!c) return unknown_command(argv[i + 1]);
        print_command_help(*c);
        return cli::kExitOk;
    }
    const Command *c = find_command(name);
    if (!c) return unknown_command(name);
    return run_command(*c, argc - i, argv + i);
}

}  // namespace railsym

int main(int argc, char **argv) {
    railsym::install_cleanup_on_signals();
    const int status = railsym::main_(argc, argv);
    // A write error on stdout (a full disk, a closed pipe) must not pass
    // silently as success.
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "railsym: error writing to standard output\n");
        return status == 0 ? railsym::cli::kExitUser : status;
    }
    return status;
}
