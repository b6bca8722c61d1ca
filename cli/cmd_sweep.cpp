// cmd_sweep.cpp — `railsym sweep MODEL.vdl|DIR [--scenario S] --vary NAME=LO:HI:N ...
// [--list FILE.csv] [--jobs J] [--out DIR] [--figure KIND:COLUMN ...] [--mpi]`.
//
// The command resolves paths and options and hands the sweep to the C
// runtime (runtime/app/rs_sweep.h on local threads, runtime/app/rs_sweep_mpi.h under
// mpirun), so scripted and embedded users get the same behaviour without
// C++.  MPI is initialised only when --mpi is given: a plain `railsym` never
// touches it.  Exit status: 0 when every variant has a result (failed
// variants are results, listed in summary.csv), 1 user error, 2 usage.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli.hpp"
#include "model_dir.hpp"
#include "descriptor.hpp"
#include "vdl_compile.hpp"

extern "C" {
#include "rs_driver.h"
#include "rs_sweep.h"
#include "rs_sweep_mpi.h"
}

namespace fs = std::filesystem;

namespace railsym {

namespace {

// The spec, freed with the command.
struct Spec {
    rs_sweep_spec *s = nullptr;
    Spec() {
        if (rs_sweep_spec_create(&s) != RS_OK) throw std::bad_alloc();
    }
    ~Spec() { rs_sweep_spec_free(&s); }
    Spec(const Spec &) = delete;
    Spec &operator=(const Spec &) = delete;
};

}  // namespace

int cmd_sweep(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"scenario", 's', "FILE", "the base scenario every variant starts from"},
        cli::set_option(),
        {"vary", 0, "NAME=LO:HI:N", "a grid axis (repeat); also NAME=V1,V2,... and track=F1,F2,..."},
        {"list", 0, "FILE.csv", "explicit variants: a header of names, one row each"},
        {"figure", 'f', "KIND:COLUMN", "a per-variant figure (repeat): max|min|absmax|rms|mean|final|rate|freq"},
        {"jobs", 'j', "J", "local worker threads (default 1)"},
        {"threads", 't', "T", "threads per variant of a train (default 1)"},
        {"out", 'o', "DIR", "output folder (default: results/<model>-sweep)"},
        {"mpi", 0, "", "run as a rank of an MPI job (mpirun -np K railsym sweep ... --mpi)"},
        {"loader", 0, "tcc|dlopen", "how the generated code is loaded (default: tcc)"},
        {"method", 0, "imex|rk4", "integrator (default: the scenario's, else imex)"},
        {"retry-failed", 0, "", "run again the variants recorded as failed"},
        {"max-variants", 0, "N", "start at most N variants now (the rest on a re-run)"},
        {"quiet", 'q', "", "no progress lines on stderr"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 1, 1, "MODEL.vdl|DIR");
    const std::string target = args.positional[0];

    rs_sweep_config cfg;
    rs_sweep_config_default(&cfg);
    cfg.loader = static_cast<rs_loader>(loader_option(args));
    cfg.method = method_option(args, cfg.method);
    cfg.jobs = static_cast<int>(args.integer("jobs", 1, 1, 4096));
    cfg.max_variants = static_cast<int>(args.integer("max-variants", 0, 0, 100000000));
    cfg.retry_failed = args.has("retry-failed");
    cfg.quiet = args.has("quiet");
    cli::LogSink log("railsym sweep: ");
    cfg.log = log.log();
    const bool mpi = args.has("mpi");

    // What varies and what is reported: syntax errors are usage errors.
    Spec spec;
    char err[4096];
    for (const std::string &v : args.values("vary"))
        if (int st = rs_sweep_spec_vary(spec.s, v.c_str(), err, sizeof err); st != RS_OK) {
            if (st == RS_E_NOMEM) throw std::bad_alloc();
            throw cli::UsageError(err);
        }
    for (const std::string &f : args.values("figure"))
        if (int st = rs_sweep_spec_figure(spec.s, f.c_str(), err, sizeof err); st != RS_OK) {
            if (st == RS_E_NOMEM) throw std::bad_alloc();
            throw cli::UsageError(err);
        }
    if (args.has("list"))
        if (rs_sweep_spec_list(spec.s, args.value("list").c_str(), err, sizeof err) != RS_OK)
            throw cli::UserError(err);
    if (rs_sweep_spec_nvars(spec.s) == 0)
        throw cli::UsageError("nothing varies: give --vary NAME=LO:HI:N or --list FILE.csv");

    std::error_code ec;
    if (!fs::exists(target, ec)) throw cli::UserError("cannot read '" + target + "': no such file or folder");
    cfg.threads = static_cast<int>(args.integer("threads", 1, 1, 4096));
    const bool train = ends_with(target, ".train");
    if (train) {
        for (const char *opt : {"scenario", "method", "set"})
            if (args.has(opt))
                throw cli::UsageError(std::string("--") + opt + " is for models; a train file holds its own "
                                      "settings (vary them with --vary speed=..., --vary TYPE.PARAM=...)");
    } else if (args.has("threads")) {
        throw cli::UsageError("--threads is for train files (threads per variant); a model's variants run "
                              "one per --jobs thread");
    }
    if (train) {
        // The runtime caps each variant's workers (rs_sweep_threads); say so
        // once, before the sweep starts.
        int cores = 0;
        if (const int used = rs_sweep_threads(&cfg, &cores); used < cfg.threads)
            std::fprintf(stderr, "railsym sweep: --threads %d: this process may use %d core%s%s; running %d worker%s "
                         "per variant\n", cfg.threads, cores, cores == 1 ? "" : "s",
                         cfg.jobs > 1 ? (" shared by --jobs " + std::to_string(cfg.jobs)).c_str() : "", used,
                         used == 1 ? "" : "s");
    }
    std::string dir, model;
    if (train) {
        cfg.train_file = target.c_str();
        model = fs::path(target).stem().string();
    }
    TempDir tmp;
    if (train) {
        // nothing to load here: the train file names its vehicles
    } else if (fs::is_directory(target, ec)) {
        dir = target;
    } else if (ends_with(target, ".vdl")) {
        dir = compile_to_temp(target, tmp, "sweep");
    } else {
        throw cli::UserError("'" + target + "' is neither a model folder (from `railsym compile`), a .vdl file "
                             "nor a .train file");
    }
    if (!train) {
        char name[256];
        rs_driver_model_name(dir.c_str(), name, sizeof name);
        model = name;
        if (!fs::exists(fs::path(dir) / (model + "_model.c"), ec))
            throw cli::UserError("'" + dir + "' has no model descriptor '" + model +
                                 "_model.c': compile the model again with `railsym compile MODEL.vdl -o " + dir +
                                 "`");
        cfg.model_dir = dir.c_str();
    }

    const std::string scenario = args.value("scenario");
    if (!scenario.empty()) cfg.scenario = scenario.c_str();
    const std::string set_text = cli::set_text(args);
    if (!set_text.empty()) cfg.set_text = set_text.c_str();
    const std::string out = args.value("out", "results/" + model + "-sweep");
    cfg.out_dir = out.c_str();
    const std::string include = abi_dir();
    cfg.include_dir = include.c_str();

    rs_sweep_report rep;
    int rank = 0;
    int st;
    if (mpi) {
        int mpi_argc = argc;
        st = rs_sweep_mpi_run(&mpi_argc, &argv, &cfg, spec.s, &rep, &rank, err, sizeof err);
    } else {
        st = rs_sweep_run(&cfg, spec.s, &rep, err, sizeof err);
    }
    if (st != RS_OK) {
        if (!err[0]) return cli::kExitUser;   // another MPI rank reported why
        throw cli::UserError(err);
    }
    if (rank == 0 && !cfg.quiet) {
        // a train's derailments are failures it was told to stop at: said apart
        const std::string derailed =
            rep.derailed ? " (" + std::to_string(rep.derailed) + " stopped by a derailment)" : "";
        std::fprintf(stderr, "railsym sweep: %s: %d variants: %d ok, %d failed%s, %d pending (%d run now, %d done "
                     "before) in %.3g s -> %s/summary.csv\n",
                     model.c_str(), rep.variants, rep.ok, rep.failed, derailed.c_str(), rep.pending, rep.ran,
                     rep.skipped, rep.wall_s, out.c_str());
        if (mpi && rep.ran > 0)
            std::fprintf(stderr, "railsym sweep: MPI overhead %.3f ms per variant (round trip minus run time)\n",
                         1e3 * rep.mpi_overhead_s);
    }
    return cli::kExitOk;
}

}  // namespace railsym
