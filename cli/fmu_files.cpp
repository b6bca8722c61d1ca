// fmu_files.cpp — the contact files and scenario layers an FMU carries.
// See fmu_files.hpp.
#include "fmu_files.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "cli.hpp"

extern "C" {
#include "rs_contact.h"
#include "rs_fmi2_layout.h"
#include "rs_load.h"
}

namespace fs = std::filesystem;

namespace railsym {

std::string fmu_read_text(const fs::path &p)
{
    std::ifstream f(p, std::ios::binary);
    if (!f) throw cli::UserError("cannot read '" + p.string() + "'");
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void fmu_write_text(const fs::path &p, const std::string &text)
{
    std::ofstream f(p, std::ios::binary);
    f << text;
    if (!f.flush()) throw cli::UserError("cannot write '" + p.string() + "'");
}

void fmu_copy_into(const fs::path &from, const fs::path &to)
{
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
    if (ec) throw cli::UserError("cannot copy '" + from.string() + "' to '" + to.string() + "': " + ec.message());
}

namespace {

// The scenario's file statements, in RS_SCENARIO_FILE_* order.
const char *const kFileKeyword[RS_SCENARIO_FILE_COUNT] = {"track", "wheel_profile", "rail_profile",
                                                          "rail_profile_left", "rail_profile_right"};

// The replacement `opt` holds for scenario file kind k (NULL: none).
const char *replacement(const rs_options *opt, int k)
{
    switch (k) {
    case RS_SCENARIO_FILE_TRACK: return opt->track_file;
    case RS_SCENARIO_FILE_WHEEL: return opt->wheel_profile;
    case RS_SCENARIO_FILE_RAIL: return opt->rail_profile;
    case RS_SCENARIO_FILE_RAIL_LEFT: return opt->rail_profile_left;
    default: return opt->rail_profile_right;
    }
}

// Whether a run of m with `opt` reads replacement k: some contact's spline
// resolves to it (rs_contact_spline_file, as the workspace resolves them);
// a model without contacts reads the track alone (track-relative results,
// `speed`).
// p as the messages show it: absolute and without "..", where it exists.
std::string shown(const fs::path &p)
{
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(p, ec);
    return ec ? p.string() : c.string();
}

bool replacement_used(const rs_model *m, const rs_options *opt, int k)
{
    const char *r = replacement(opt, k);
    if (!r || !r[0]) return false;
    if (m->n_contact == 0) return k == RS_SCENARIO_FILE_TRACK;
    for (int i = 0; i < m->n_contact; i++)
        for (int s = 0; s < RS_SPLINE_COUNT; s++)
            if (rs_contact_spline_file(m, opt, i, s) == r) return true;
    return false;
}

// The scenario statement that replaces spline kind s of a contact on `side`,
// quoted as the messages show it.
std::string statement_of(int s, int side)
{
    if (s == RS_SPLINE_WHEEL) return "'wheel_profile \"PATH\"'";
    if (s == RS_SPLINE_RAIL)
        return std::string("'rail_profile \"PATH\"', or '") + (side > 0 ? "rail_profile_left" : "rail_profile_right") +
               " \"PATH\"' for this side's rails";
    return "'track \"PATH\"'";
}

// Copies track file `trk` to `to` with the irregularity tables it names
// (`irregularity ... table NAME`, looked for next to the .trk file).
void copy_track(const fs::path &trk, const fs::path &to)
{
    fmu_copy_into(trk, to);
    std::istringstream lines(fmu_read_text(trk));
    std::string line;
    for (int no = 1; std::getline(lines, line); no++) {
        std::istringstream words(line);
        std::string w, prev;
        words >> w;
        if (w != "irregularity") continue;
        for (prev = w; words >> w; prev = w) {
            if (prev != "table") continue;
            if (w[0] == '/' || w.find("..") != std::string::npos)
                throw cli::UserError(trk.string() + ":" + std::to_string(no) + ": the table '" + w +
                                     "' is not beside the track file: export-fmu copies a track's tables by "
                                     "their names; move it next to the .trk file");
            fmu_copy_into(trk.parent_path() / w, to.parent_path() / w);
        }
    }
}

// A character of a path as the compiler writes it into model.json.
int path_char(char ch) { return ch != '\\' && static_cast<unsigned char>(ch) >= 0x20; }

// "FILE:LINE: " of the description line that names `file` in quotes: in
// the .vdl export-fmu compiled, else in the model's source beside its
// contact root (where `railsym compile` ran); else "model 'DIR': ".
std::string where_named(const FmuContactSource &src, const std::string &file)
{
    std::vector<fs::path> candidates;
    if (!src.vdl.empty()) candidates.push_back(src.vdl);
    char source[1024];
    if (rs_load_json_string(src.model_dir.c_str(), "source", path_char, source, sizeof source) && source[0])
        candidates.push_back(fs::path(src.contact_dir) / source);
    const std::string quoted = "\"" + file + "\"";
    for (const fs::path &p : candidates) {
        std::ifstream f(p);
        std::string line;
        for (int no = 1; f && std::getline(f, line); no++)
            if (line.find(quoted) != std::string::npos) return shown(p) + ":" + std::to_string(no) + ": ";
    }
    return "model '" + src.model_dir + "': ";
}

}  // namespace

void fmu_copy_contact_files(const rs_model *m, const rs_options *opt, const rs_scenario &scn,
                            const FmuContactSource &src, const fs::path &res, FmuLayer *layers, int n_layers)
{
    // a scenario's replacements the run reads: to resources/files/KEYWORD/
    std::string rel[RS_SCENARIO_FILE_COUNT];
    for (int k = 0; k < RS_SCENARIO_FILE_COUNT; k++) {
        if (!scn.file[k] || !replacement_used(m, opt, k)) continue;
        const fs::path from = scn.file[k];
        rel[k] = std::string(RS_FMI2_FILES_DIR) + "/" + kFileKeyword[k] + "/" + from.filename().string();
        if (k == RS_SCENARIO_FILE_TRACK) copy_track(from, res / rel[k]);
        else fmu_copy_into(from, res / rel[k]);
    }
    // the layers' file statements: the one in effect names the copy (a
    // path relative to the layer's folder, resources/); the others are
    // kept as comments, since the FMU's scenario reader opens every file
    // a statement names
    std::error_code ec;
    for (int l = 0; l < n_layers; l++) {
        std::istringstream lines(*layers[l].text);
        std::string line, out;
        for (int no = 1; std::getline(lines, line); no++) {
            std::istringstream words(line);
            std::string kw;
            const int k = words >> kw ? rs_scenario_file_kind(kw.c_str()) : -1;
            if (k < 0) {
                out += line + "\n";
                continue;
            }
            const rs_scenario_where &at = scn.file_at[k];
            const bool in_effect = at.file && at.line == no && fs::equivalent(at.file, layers[l].path, ec);
            if (in_effect && !rel[k].empty())
                out += std::string(kFileKeyword[k]) + " \"" + rel[k] + "\"   # export-fmu: the FMU's copy of " +
                       fs::path(scn.file[k]).filename().string() + "\n";
            else if (in_effect)
                out += "# export-fmu: no contact reads it: " + line + "\n";
            else
                out += "# export-fmu: replaced at " + std::string(at.file ? at.file : "?") + ":" +
                       std::to_string(at.line) + ": " + line + "\n";
        }
        *layers[l].text = out;
    }
    // the model's own files the run reads: to resources/contact/ by their
    // names relative to the contact root (the FMU's contact folder)
    std::set<std::string> copied;
    for (int i = 0; i < m->n_contact; i++)
        for (int s = 0; s < RS_SPLINE_COUNT; s++) {
            const char *f = m->contacts[i].spline[s].file;
            if (!f || !f[0] || rs_contact_spline_file(m, opt, i, s) != f || !copied.insert(f).second) continue;
            const std::string name = f;
            if (name[0] == '/' || name.find("..") != std::string::npos)
                throw cli::UserError(
                    where_named(src, name) + "contact '" + m->contacts[i].name + "' reads '" + name +
                    "', which is not below the model's contact root '" + shown(src.contact_dir) +
                    "': export-fmu copies the model's files by their names relative to that root. Either "
                    "replace it in the scenario (" + statement_of(s, m->contacts[i].side) +
                    ": the FMU carries that file), or run 'railsym compile' (or export-fmu of the "
                    ".vdl) from a folder that holds the .vdl and its profiles and track (e.g. the project's "
                    "root: 'railsym compile vehicles/examples/MODEL.vdl -o DIR'), then export again");
            const fs::path from = fs::path(src.contact_dir) / name, to = res / RS_FMI2_CONTACT_DIR / name;
            if (s >= RS_SPLINE_TRACK_X) copy_track(from, to);
            else fmu_copy_into(from, to);
        }
}

}  // namespace railsym
