// cmd_run_train.cpp — `railsym run TRAIN.train [--threads N] [--out FILE.csv|.mat|.h5]`
// (docs/trains.md): the train side of `railsym run`, called by cmd_run.cpp.
//
// The run itself is the C runtime's rs_train_run (runtime/app/rs_train_file.h):
// parse the train file, build the vehicles and couplers on the Park
// integrator with N threads, write the results (CSV, MAT or HDF5 by the
// extension, docs/results.md).  --loader says how the compiled
// vehicle types are loaded (each folder once).  Options of single-model
// runs (--scenario, --method, --realtime) do not apply to trains: a train
// file holds its own settings.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <new>
#include <string>

#include "cli.hpp"
#include "model_dir.hpp"

extern "C" {
#include "rs_cores.h"
#include "rs_train_file.h"
}

namespace fs = std::filesystem;

namespace railsym {

int cmd_run_train(const std::string &train, const cli::Args &args) {
    for (const char *opt : {"scenario", "method", "realtime"})
        if (args.has(opt))
            throw cli::UsageError(std::string("--") + opt +
                                  " does not apply to a train: the train file holds its settings (docs/trains.md)");
    const int threads = static_cast<int>(args.integer("threads", 1, 1, 256));
    const bool quiet = args.has("quiet");
    std::error_code ec;
    if (!fs::exists(train, ec)) throw cli::UserError("cannot read '" + train + "': no such file");
    const std::string out = args.value("out", "results/" + fs::path(train).stem().string() + ".csv");
    const fs::path parent = fs::path(out).parent_path();
    if (!parent.empty()) {
        fs::create_directories(parent, ec);
        if (ec) throw cli::UserError("cannot create folder '" + parent.string() + "': " + ec.message());
    }
    const std::string loader = args.value("loader", "tcc");   // cmd_run checked the word
    const std::string include = abi_dir();
    rs_load_options lo{};   // null fields: the loader's defaults
    lo.include_dir = include.c_str();
    std::unique_ptr<rs_load_cache, void (*)(rs_load_cache *)> models(
        rs_load_cache_create(loader == "dlopen" ? RS_LOAD_DLOPEN : RS_LOAD_TCC, &lo),
        [](rs_load_cache *c) { rs_load_cache_free(&c); });
    if (!models) throw std::bad_alloc();
    cli::LogSink log("railsym run: ");
    // rs_train_run caps the workers at the usable cores; say so once, before
    // the run, so a user who asked for more knows what ran.
    int cores = 0;
    if (const int used = rs_cores_cap(threads, &cores); used < threads)
        std::fprintf(stderr, "railsym run: --threads %d: this process may use %d core%s; running %d worker%s\n",
                     threads, cores, cores == 1 ? "" : "s", used, used == 1 ? "" : "s");
    const std::string set_text = cli::set_text(args);   // train-file lines after the file's
    rs_train_run_cfg cfg{train.c_str(), out.c_str(), threads, set_text.empty() ? nullptr : set_text.c_str(),
                         models.get(), quiet ? 0 : -1, log.log(), 0};
    rs_train_run_report rep;
    char err[2048];
    if (rs_train_run(&cfg, &rep, err, sizeof err) != RS_OK) throw cli::UserError(err);
    if (!quiet) {
        // With several threads on a busy machine, steps ran alone when that
        // was faster (docs/performance.md "Threads on a busy machine").
        char alone[96] = "";
        if (rep.threads > 1 && rep.steps > 0 && rep.serial_steps * 2 > rep.steps)
            std::snprintf(alone, sizeof alone, " (%.0f%% of the steps on one: faster on this busy machine)",
                          100.0 * static_cast<double>(rep.serial_steps) / static_cast<double>(rep.steps));
        char iters[96] = "";   // what iterated: the Park step's Krylov solver, or a natural train's own
        if (!rep.iterations_of || *rep.iterations_of)
            std::snprintf(iters, sizeof iters, ", %.2f %s iterations/step", rep.krylov_per_step,
                          rep.iterations_of ? rep.iterations_of : "Krylov");
        std::fprintf(stderr,
                     "railsym run: %s: %d vehicles (%d coordinates), %ld steps, t = %g to %g s, %.1f us/step on %d "
                     "thread(s)%s%s, %ld rows -> %s\n",
                     train.c_str(), rep.nv, rep.n, rep.steps, rep.t_start, rep.t_end,
                     rep.steps ? 1e6 * rep.wall_s / static_cast<double>(rep.steps) : 0.0, rep.threads, alone,
                     iters, rep.rows, out.c_str());
    }
    return cli::kExitOk;
}

}  // namespace railsym
