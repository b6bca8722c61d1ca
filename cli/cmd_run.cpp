// cmd_run.cpp — `railsym run MODEL.vdl|DIR [--scenario FILE] [--out FILE.csv|.mat|.h5]
// [--loader tcc|dlopen] [--method imex|rk4] [--threads N] [--realtime
// [--rt-pace step|output] [--rt-lock] [--rt-fifo PRIO] [--rt-cpu N]
// [--rt-strict] [--rt-report FILE]] [--mpi]`.
//
// The command only resolves paths and options; the run itself is the C
// driver (runtime/app/rs_driver.h), so embedded and scripted users get the same
// behaviour without C++.  A .vdl file is compiled first into a temporary
// folder (removed afterwards); a folder is a model `railsym compile` wrote.
// Exit status: 0 ok, 1 user error (bad model, scenario or numbers), 2 usage.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <unistd.h>

#include "cli.hpp"
#include "model_dir.hpp"
#include "descriptor.hpp"
#include "vdl_compile.hpp"

extern "C" {
#include "rs_driver.h"
#include "rs_coupled_mpi.h"
}

namespace fs = std::filesystem;

namespace railsym {

int cmd_run_train(const std::string &train, const cli::Args &args);   // cmd_run_train.cpp

int cmd_run(int argc, char **argv) {
    const std::vector<cli::Option> options = {
        {"scenario", 's', "FILE", "duration, step, initial state, parameters, inputs"},
        cli::set_option(),
        {"out", 'o', "FILE.csv|.mat|.h5", "results, the format by the extension (default: results/<model>.csv; docs/results.md)"},
        {"loader", 0, "tcc|dlopen", "how the generated code is loaded (default: tcc)"},
        {"method", 0, "imex|rk4", "integrator (default: the scenario's, else imex)"},
        {"threads", 'j', "N", "worker threads (trains; one model runs on one)"},
        {"realtime", 0, "", "pace the simulation to the wall clock; report step times and misses"},
        {"rt-pace", 0, "step|output", "one deadline per step (default) or per output interval"},
        {"rt-lock", 0, "", "lock memory (mlockall) for the run"},
        {"rt-fifo", 0, "PRIO", "run under SCHED_FIFO at priority PRIO (1-99)"},
        {"rt-cpu", 0, "N", "pin the run to CPU N"},
        {"rt-strict", 0, "", "a refused --rt-lock/--rt-fifo/--rt-cpu is an error, not a warning"},
        {"rt-report", 0, "FILE", "write the real-time figures (RT lines) to FILE"},
        {"quiet", 'q', "", "no progress and no summary on stderr"},
        {"mpi", 0, "", "under mpirun: rank 0 runs the vehicle, the others the scenario's thermal grid and stress model (docs/coupled.md)"},
    };
    cli::Args args = cli::parse_options(argc, argv, options);
    cli::expect_positional(args, 1, 1, "MODEL.vdl|DIR");
    const std::string target = args.positional[0];

    rs_run_config cfg;
    rs_run_config_default(&cfg);
    cfg.loader = static_cast<rs_loader>(loader_option(args));
    cfg.method = method_option(args, cfg.method);
    (void)args.integer("threads", 1, 1, 4096);   // validated; a single model runs on one thread
    cfg.realtime = args.has("realtime");
    for (const char *rt : {"rt-pace", "rt-lock", "rt-fifo", "rt-cpu", "rt-strict", "rt-report"})
        if (args.has(rt) && !cfg.realtime)
            throw cli::UsageError(std::string("--") + rt + " needs --realtime");
    const std::string pace = args.value("rt-pace", "step");
    if (pace == "output") cfg.rt_pace_output = 1;
    else if (pace != "step") throw cli::UsageError("--rt-pace must be step or output, not '" + pace + "'");
    cfg.rt_lock = args.has("rt-lock");
    cfg.rt_fifo = (int)args.integer("rt-fifo", 0, 1, 99);
    cfg.rt_cpu = (int)args.integer("rt-cpu", -1, 0, 4095);
    cfg.rt_strict = args.has("rt-strict");
    const std::string rt_report = args.value("rt-report");
    if (!rt_report.empty()) cfg.rt_report = rt_report.c_str();
    const bool quiet = args.has("quiet");
    if (quiet) cfg.progress = 0;
    cli::LogSink log("railsym run: ");
    cfg.log = log.log();

    std::error_code ec;
    if (ends_with(target, ".train")) return cmd_run_train(target, args);
    if (!fs::exists(target, ec)) throw cli::UserError("cannot read '" + target + "': no such file or folder");
    TempDir tmp;
    std::string dir;
    if (fs::is_directory(target, ec)) {
        dir = target;
    } else if (ends_with(target, ".vdl")) {
        dir = compile_to_temp(target, tmp, "run");
    } else {
        throw cli::UserError("'" + target + "' is neither a model folder (from `railsym compile`) nor a .vdl file");
    }
    char name[256];
    rs_driver_model_name(dir.c_str(), name, sizeof name);
    const std::string model = name;
    if (!fs::exists(fs::path(dir) / (model + "_model.c"), ec))
        throw cli::UserError("'" + dir + "' has no model descriptor '" + model +
                             "_model.c': compile the model again with `railsym compile MODEL.vdl -o " + dir + "`");

    const std::string scenario = args.value("scenario");
    if (!scenario.empty()) cfg.scenario = scenario.c_str();
    const std::string set_text = cli::set_text(args);
    if (!set_text.empty()) cfg.set_text = set_text.c_str();
    const std::string out = args.value("out", "results/" + model + ".csv");
    const fs::path parent = fs::path(out).parent_path();
    if (!parent.empty()) {
        fs::create_directories(parent, ec);
        if (ec) throw cli::UserError("cannot create folder '" + parent.string() + "': " + ec.message());
    }
    cfg.out = out.c_str();
    cfg.model_dir = dir.c_str();
    const std::string include = abi_dir();
    cfg.include_dir = include.c_str();

    rs_run_report rep;
    char err[2048];
    if (args.has("mpi")) {
        if (cfg.realtime) throw cli::UsageError("--mpi and --realtime do not go together");
        int rank = 0, ranks = 1;
        const int st = rs_coupled_mpi_run(&cfg, &rep, &rank, &ranks, err, sizeof err);
        if (rank != 0) return st == RS_OK ? cli::kExitOk : cli::kExitUser;   // rank 0 reports
        if (st != RS_OK) throw cli::UserError(err);
    } else if (rs_driver_run(&cfg, &rep, err, sizeof err) != RS_OK) {
        throw cli::UserError(err);
    }
    if (!quiet)
        std::fprintf(stderr, "railsym run: %s: %ld steps, t = %g to %g s, %ld rows -> %s\n", model.c_str(), rep.steps,
                     rep.t_start, rep.t_end, rep.rows, out.c_str());
    return cli::kExitOk;
}

}  // namespace railsym
