// fmu_files.hpp — the files `railsym export-fmu` puts in an FMU's
// resources/: the contact files the run uses (the model's, under
// resources/contact by their names relative to the model's contact root;
// a scenario's replacements under resources/files/KEYWORD/), and the
// scenario layers with their file statements naming those copies
// (docs/fmi.md, "Contact files").
#ifndef RAILSYM_FMU_FILES_HPP
#define RAILSYM_FMU_FILES_HPP

#include <filesystem>
#include <string>

extern "C" {
#include "rs_options.h"
#include "rs_scenario.h"
}

namespace railsym {

std::string fmu_read_text(const std::filesystem::path &p);
void fmu_write_text(const std::filesystem::path &p, const std::string &text);
// Copies a file, making the folders `to` needs.
void fmu_copy_into(const std::filesystem::path &from, const std::filesystem::path &to);

// One scenario layer: the file it was read from and its text, which
// fmu_copy_contact_files rewrites.
struct FmuLayer {
    std::string path;
    std::string *text;
};

// Where the model's contact files are: the folder their names are relative
// to, the model folder, and the .vdl export-fmu compiled ("" when it was
// given a model folder) for the messages' FILE:LINE.
struct FmuContactSource {
    std::string contact_dir, model_dir, vdl;
};

// Copies into `res` the contact files that model m run with options `opt`
// (the scenario `scn` bound to it) reads, and rewrites the layers' file
// statements: the one in effect names its copy, one replaced by a later
// layer or read by no contact becomes a comment.  Throws cli::UserError
// naming FILE:LINE and the fix for a file the run uses that the FMU cannot
// carry (a model's file outside its contact root, a track's irregularity
// table not beside it); one the scenario replaces is not looked at.
void fmu_copy_contact_files(const rs_model *m, const rs_options *opt, const rs_scenario &scn,
                            const FmuContactSource &src, const std::filesystem::path &res, FmuLayer *layers,
                            int n_layers);

}  // namespace railsym

#endif
